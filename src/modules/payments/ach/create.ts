import { newId } from '../../../platform/crypto/ids.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { dictionary } from '../../../platform/dictionary.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import type { Customer } from '../../customers/customers.model.js';
import { encryptWith } from '../../vault/data-keys.js';
import { checkBankAccount, maskAccount } from '../../vault/vault.service.js';
import { aboveMaximum } from '../amounts.js';
import type { RequestClaim } from '../payment-request.js';
import { achAmounts } from '../pricing.js';
import { activeProcessor } from '../processors.js';
import { findByIdempotencyId, insertTransaction, isIdempotencyIdTaken } from '../transactions.repo.js';
import { type AchCommand, type AchResponse, AchType, SEC_CODES, SecCode } from './ach.model.js';
import type { AchContext } from './ach-context.js';
import { achResponse } from './ach-response.js';
import { nextCutoff } from './ach-schedule.js';
import { newAchTransaction } from './new-ach-transaction.js';

export async function createAch(ctx: AchContext, cmd: AchCommand): Promise<AchResponse> {
  const earlier = await createdEarlier(ctx, cmd.merchantId, cmd.idempotency);
  if (earlier) return achResponse(earlier);
  const configuration = await ctx.deps.merchants.getConfiguration(cmd.merchantId);
  const processor = activeProcessor(configuration, 'ach', cmd.processorId);
  const errors: Record<string, string[]> = dictionary();
  if (!(cmd.amountCents > 0)) errors.amount = ["'amount' must be greater than 0."];
  if (!SEC_CODES[cmd.secCode]) errors.secCode = ["'secCode' must be 1 (Web), 2 (PPD), 3 (CCD) or 4 (Telephone)."];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const account = await resolveAccount(ctx, cmd);
  const companyName =
    cmd.contactInfo?.companyName?.trim() || account.customer?.companyName?.trim() || account.companyName || null;
  if (cmd.secCode === SecCode.CCD && !companyName) {
    throw ValidationError.field(
      'contactInfo.companyName',
      "A CCD entry debits or credits a company: send 'contactInfo.companyName' (or use a customer, or a saved " +
        'account, with a company name).',
    );
  }
  const settings = configuration.settings;
  const amounts = achAmounts(
    settings,
    {
      baseCents: cmd.amountCents,
      percentageOffRateMpct: cmd.percentageOffRateMpct,
      tipCents: cmd.tipCents,
      tax: cmd.tax,
    },
    cmd.direction,
  );
  const tooMuch = aboveMaximum(amounts.totalCents, settings.maxTransactionAmountCents);
  if (tooMuch) throw ValidationError.field('amount', tooMuch);
  const contact = cmd.contactInfo;
  const receiverName =
    (cmd.secCode === SecCode.CCD ? companyName : null) ||
    [contact?.firstName, contact?.lastName].filter(Boolean).join(' ').trim() ||
    contact?.companyName?.trim() ||
    [account.customer?.firstName, account.customer?.lastName].filter(Boolean).join(' ').trim() ||
    account.customer?.companyName?.trim() ||
    account.name ||
    'ACH RECEIVER';

  const now = ctx.clock.now();
  const id = newId();
  const achSettings = await ctx.processorSettings(processor.id);
  const windowAt = nextCutoff(now, achSettings, cmd.isFasterProcessing);
  const t = newAchTransaction({
    id,
    merchantId: cmd.merchantId,
    processorId: processor.id,
    typeId: cmd.direction === 'debit' ? AchType.Debit : AchType.Credit,
    customerId: account.customer?.id ?? null,
    paymentMethodId: account.paymentMethodId,
    createMethodId: cmd.createMethodId,
    sourceId: cmd.sourceId ?? null,
    idempotencyId: cmd.idempotency?.id ?? null,
    referenceId: cmd.referenceId ?? null,
    amounts,
    authorizedCents: amounts.totalCents,
    panMask: account.mask,
    billingAddress: cmd.billingAddress ?? account.customer?.billingAddress ?? null,
    shippingAddress: cmd.shippingAddress,
    contactInfo: cmd.contactInfo,
    createdAt: now,
  });
  const created = await withTransaction(ctx.deps.pool, async (tx) => {
    await insertTransaction(tx, t);
    const dataKey = await ctx.deps.vault.dataKeys.current(cmd.merchantId, tx);
    await tx.query(
      `INSERT INTO ach_entries (transaction_id, merchant_id, processor_id, sec_code, is_debit, routing_number,
         account_mask, account_sealed, data_key_version, account_type_id, account_holder_type_id, receiver_name,
         company_name, tax_id, requester_ip, is_faster_processing, window_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)`,
      [
        id,
        cmd.merchantId,
        processor.id,
        cmd.secCode,
        cmd.direction === 'debit',
        account.routingNumber,
        account.mask,
        encryptWith(dataKey, account.accountNumber, id),
        dataKey.version,
        account.accountTypeId,
        account.accountHolderTypeId,
        receiverName,
        companyName,
        cmd.taxId?.trim() || account.taxId,
        cmd.requesterIp,
        cmd.isFasterProcessing,
        windowAt,
      ],
    );
    ctx.event(tx, 'transaction.ach.scheduled', t);
    await ctx.scheduleCutoff(tx, processor.id, windowAt);
    return t;
  }).catch((error: unknown) => createdMeanwhile(ctx, error, cmd.merchantId, cmd.idempotency));
  return achResponse(created);
}

/**
 * A retry of a request whose first attempt was cut off (RequestClaim.recovering): what that attempt created, if it
 * committed. Creating is one database transaction, so it either did or left nothing behind.
 */
export async function createdEarlier(ctx: AchContext, merchantId: string, claim: RequestClaim | undefined) {
  if (!claim?.recovering) return undefined;
  return findByIdempotencyId(ctx.deps.pool, merchantId, claim.id);
}

/** The insert lost to the first attempt's, committing as its node died: that one is the answer. */
export async function createdMeanwhile(
  ctx: AchContext,
  error: unknown,
  merchantId: string,
  claim: RequestClaim | undefined,
) {
  if (!claim || !isIdempotencyIdTaken(error)) throw error;
  return (await findByIdempotencyId(ctx.deps.pool, merchantId, claim.id))!;
}

export async function resolveAccount(
  ctx: AchContext,
  cmd: AchCommand,
): Promise<{
  customer: Customer | null;
  paymentMethodId: string | null;
  accountNumber: string;
  routingNumber: string;
  mask: string;
  accountTypeId: number;
  accountHolderTypeId: number;
  taxId: string | null;
  name: string | null;
  /** The saved account's legal company name, if it has one. */
  companyName: string | null;
}> {
  const raw = Boolean(cmd.accountNumber || cmd.routingNumber);
  if (raw && cmd.paymentMethodId) {
    throw ValidationError.field(
      'accountNumber',
      "Send either 'paymentMethodId' or bank account data ('accountNumber', 'routingNumber'), not both.",
    );
  }
  if (raw && cmd.customerId) {
    throw ValidationError.field(
      'accountNumber',
      "Bank account data cannot be combined with 'customerId': vault the account for the customer and send its 'paymentMethodId', or omit 'customerId'.",
    );
  }
  if (raw) {
    const checked = checkBankAccount({ accountNumber: cmd.accountNumber, routingNumber: cmd.routingNumber });
    const errors: Record<string, string[]> = dictionary();
    // A new account needs who and where (the network's rules for a first-time receiver).
    if (!cmd.contactInfo) errors.contactInfo = ['ContactInfo is required for new ACH payments.'];
    else {
      const c = cmd.contactInfo;
      if (!c.mobilePhoneNumber)
        errors['contactInfo.mobilePhoneNumber'] = ['A phone number is required for new ACH payments.'];
      if (!((c.firstName && c.lastName) || c.companyName)) {
        errors['contactInfo.firstName'] = ['Send firstName and lastName, or companyName, for new ACH payments.'];
      }
    }
    if (!cmd.billingAddress) errors.billingAddress = ['BillingAddress is required for new ACH payments.'];
    if (cmd.accountHolderType == null) {
      errors.accountHolderType = ["'accountHolderType' is required for new ACH payments: 1 Business, 2 Personal."];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return {
      customer: null,
      paymentMethodId: null,
      accountNumber: checked.accountNumber,
      routingNumber: checked.routingNumber,
      mask: maskAccount(checked.accountNumber),
      accountTypeId: cmd.accountType ?? 1,
      accountHolderTypeId: cmd.accountHolderType!,
      taxId: null,
      name: null,
      companyName: null,
    };
  }
  let customer: Customer | null = null;
  let methodId = cmd.paymentMethodId ?? null;
  if (cmd.customerId) {
    customer = await ctx.deps.customers.get(cmd.merchantId, cmd.customerId);
    methodId ??= customer.defaultAchPaymentMethodId;
    if (!methodId) {
      throw ValidationError.field(
        'paymentMethodId',
        'The customer has no default bank account; send a paymentMethodId.',
      );
    }
  }
  if (!methodId) {
    throw new ValidationError(
      {
        paymentMethodId: [
          "Provide a bank account: 'paymentMethodId' (with 'customerId' for a customer's account), or 'accountNumber' and 'routingNumber'.",
        ],
      },
      'No payment instrument was provided.',
    );
  }
  const { method, accountNumber } = await ctx.deps.vault.usableBankAccount(cmd.merchantId, methodId);
  if (customer && method.customerId !== customer.id) throw new NotFoundError('PaymentMethod', methodId);
  if (!customer && method.customerId) {
    throw ValidationError.field('customerId', "This payment method belongs to a customer: send its 'customerId' too.");
  }
  return {
    customer,
    paymentMethodId: method.id,
    accountNumber,
    routingNumber: method.routingNumber!,
    mask: method.mask,
    accountTypeId: cmd.accountType ?? method.accountTypeId ?? 1,
    accountHolderTypeId: cmd.accountHolderType ?? method.accountHolderTypeId ?? 2,
    taxId: method.taxId,
    name: method.name,
    companyName: method.companyName,
  };
}
