import { CreditDebitType } from '../../../connectors/card/card-numbers.js';
import { dictionary } from '../../../platform/dictionary.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import type { Customer } from '../../customers/customers.model.js';
import { type MerchantSettings, ZeroCostProcessingOption } from '../../merchants/merchants.model.js';
import type { UsableCard } from '../../vault/vault.model.js';
import { type AmountBreakdown, aboveMaximum, calculateAmount } from '../amounts.js';
import type { PaymentCommand } from '../payment-request.js';
import { cardAmounts, zeroCostErrors } from '../pricing.js';
import type { CardContext } from './card-context.js';

/**
 * The three ways to pay (a customer's vaulted card, an orphan vaulted card, raw card data), each inconsistent
 * combination a 400 naming the field.
 */
export async function resolveCard(
  ctx: CardContext,
  cmd: PaymentCommand,
): Promise<{ card: UsableCard; customer?: Customer }> {
  const raw = cmd.accountNumber != null && cmd.accountNumber !== '';
  if (cmd.paymentMethodId && raw) {
    throw ValidationError.field(
      'accountNumber',
      "Send either 'paymentMethodId' or card data ('accountNumber'), not both.",
    );
  }
  if (cmd.customerId && raw) {
    throw ValidationError.field(
      'accountNumber',
      "Card data cannot be combined with 'customerId': vault the card for the customer and send its 'paymentMethodId', or omit 'customerId'.",
    );
  }
  if (!raw && (cmd.paymentMethodId || cmd.customerId)) {
    for (const field of ['expirationMonth', 'expirationYear'] as const) {
      if (cmd[field] != null) {
        throw ValidationError.field(field, `'${field}' belongs to card data; a vaulted payment method has its own.`);
      }
    }
  }
  if (raw) {
    const checked = ctx.deps.vault.checkCard(
      {
        pan: cmd.accountNumber,
        expirationMonth: cmd.expirationMonth,
        expirationYear: cmd.expirationYear,
        securityCode: cmd.securityCode,
      },
      { pan: 'accountNumber' },
    );
    const card = ctx.deps.vault.rawCard(checked);
    if (!cmd.payingCustomerId) return { card };
    return { card, customer: await ctx.deps.customers.get(cmd.merchantId, cmd.payingCustomerId) };
  }
  if (cmd.securityCode != null && !/^\d{3,4}$/.test(cmd.securityCode)) {
    throw ValidationError.field('securityCode', "'securityCode' must be 3 or 4 digits.");
  }
  if (cmd.customerId) {
    // With both ids, the customer and the card are fetched at once.
    const [customer, given] = await Promise.all([
      ctx.deps.customers.get(cmd.merchantId, cmd.customerId),
      cmd.paymentMethodId ? ctx.deps.vault.usableCard(cmd.merchantId, cmd.paymentMethodId) : undefined,
    ]);
    const methodId = cmd.paymentMethodId ?? customer.defaultPaymentMethodId;
    if (!methodId) {
      throw ValidationError.field('paymentMethodId', 'The customer has no default card; send a paymentMethodId.');
    }
    const card = given ?? (await ctx.deps.vault.usableCard(cmd.merchantId, methodId));
    if (card.customerId !== customer.id) throw new NotFoundError('PaymentMethod', methodId);
    return { card, customer };
  }
  if (cmd.paymentMethodId) {
    const card = await ctx.deps.vault.usableCard(cmd.merchantId, cmd.paymentMethodId);
    if (card.customerId) {
      throw ValidationError.field(
        'customerId',
        "This payment method belongs to a customer: send its 'customerId' too.",
      );
    }
    return { card };
  }
  throw new ValidationError(
    {
      paymentMethodId: [
        "Provide a payment instrument: 'paymentMethodId' (with 'customerId' for a customer's card), or card data ('accountNumber', 'expirationMonth', 'expirationYear').",
      ],
    },
    'No payment instrument was provided.',
  );
}

export function amountsFor(
  _ctx: CardContext,
  cmd: PaymentCommand,
  settings: MerchantSettings,
  card: UsableCard,
): AmountBreakdown {
  const errors: Record<string, string[]> = dictionary();
  const noExtras = cmd.kind === 'verify' || cmd.kind === 'refund-without-reference';
  const tipGiven = (cmd.tipCents ?? 0) > 0 || (cmd.tipRateMpct ?? 0) > 0;
  if (cmd.tipCents != null && cmd.tipRateMpct != null) {
    errors.tipRate = ["Send either 'tipAmount' or 'tipRate', not both."];
  }
  if (tipGiven && noExtras) errors.tipAmount = ['A tip does not apply to this operation.'];
  else if (tipGiven && !settings.isTipsEnabled) errors.tipAmount = ['Tips are not enabled for this merchant.'];
  const zeroCost = zeroCostErrors(settings, cmd);
  if (zeroCost.surchargeRate) errors.surchargeRate = zeroCost.surchargeRate;
  if (zeroCost.useCardPrice && !noExtras) errors.useCardPrice = zeroCost.useCardPrice;
  if (cmd.kind === 'refund-without-reference' && cmd.amountCents <= 0) {
    errors.amount = ["'amount' must be greater than 0."];
  }
  if ((cmd.kind === 'sale' || cmd.kind === 'authorize') && cmd.amountCents <= 0) {
    errors.amount = ["'amount' must be greater than 0."];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const amounts = noExtras
    ? calculateAmount({
        baseCents: cmd.amountCents,
        zeroCostOptionId: ZeroCostProcessingOption.None,
        tender: 'credit',
      })
    : cardAmounts(
        settings,
        {
          baseCents: cmd.amountCents,
          percentageOffRateMpct: cmd.percentageOffRateMpct,
          tipCents: cmd.tipCents,
          tipRateMpct: cmd.tipRateMpct,
          surchargeRateMpct: cmd.surchargeRateMpct,
          useCardPrice: cmd.useCardPrice,
          tax: cmd.tax,
        },
        card.creditDebitTypeId === CreditDebitType.Debit ? 'debit' : 'credit',
      );
  const tooMuch = aboveMaximum(amounts.totalCents, settings.maxTransactionAmountCents);
  if (tooMuch) throw ValidationError.field('amount', tooMuch);
  return amounts;
}
