import type { CardOutcome, PaymentRequest } from '../../../connectors/card/card-connector.js';
import { newId } from '../../../platform/crypto/ids.js';
import { ValidationError } from '../../../platform/http/errors.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import { countryById, stateById } from '../../reference/states.js';
import { runOperation } from '../driver.js';
import { withAutofill } from '../enhanced-data.js';
import { newTransaction } from '../new-transaction.js';
import type { PaymentCommand } from '../payment-request.js';
import { cardProcessor, unsupported } from '../processors.js';
import {
  CARD_NOT_PRESENT_SOURCES,
  type PendingOperation,
  type Transaction,
  TransactionStatus,
  TransactionType,
} from '../transactions.model.js';
import { findByIdempotencyId } from '../transactions.repo.js';
import type { CardContext, OperationResult } from './card-context.js';
import { amountsFor, resolveCard } from './card-request.js';
import { duplicateKey, recordAttempt } from './duplicate-check.js';
import { recordPaymentOutcome, screenAvs } from './payment-outcome.js';
import { resume } from './reconcile.js';

const OPERATION_OF: Record<PaymentCommand['kind'], PendingOperation['operation']> = {
  sale: 'sale',
  authorize: 'authorize',
  verify: 'verify',
  'refund-without-reference': 'refund-without-reference',
};
const TYPE_OF: Record<PaymentCommand['kind'], number> = {
  sale: TransactionType.Sale,
  authorize: TransactionType.Authorization,
  verify: TransactionType.CardAuthentication,
  'refund-without-reference': TransactionType.RefundWORef,
};

interface Started {
  txn: Transaction;
  request: PaymentRequest;
  processor: PaymentProcessor;
  avsProfileId: number;
}

/**
 * A new card payment: sale, authorization, verification or refund without reference. The request is checked (card,
 * amounts, duplicate), the payment recorded as in flight, the processor asked, and its answer recorded.
 */
export function pay(ctx: CardContext, cmd: PaymentCommand): Promise<OperationResult> {
  return runOperation<Started, OperationResult>(
    {
      start: async () => {
        const claim = cmd.idempotency;
        if (claim?.recovering) {
          const earlier = await findByIdempotencyId(ctx.deps.pool, cmd.merchantId, claim.id);
          if (earlier) return { answer: await resume(ctx, earlier) };
        }
        const started = await start(ctx, cmd);
        return 'earlier' in started ? { answer: await resume(ctx, started.earlier) } : { call: started };
      },
      call: ({ request, processor }, signal) => {
        const connector = ctx.deps.connectors.card(processor.connector);
        switch (cmd.kind) {
          case 'sale':
            return connector.sale(request, { signal });
          case 'authorize':
            return connector.authorize(request, { signal });
          case 'verify':
            return connector.verify(request, { signal });
          case 'refund-without-reference':
            return connector.refundWithoutReference(request, { signal });
        }
      },
      finish: async ({ txn, processor, avsProfileId }, answer: CardOutcome) => {
        const outcome = await screenAvs(ctx, txn, answer, avsProfileId, processor);
        const transaction = await recordPaymentOutcome(
          ctx,
          txn.id,
          txn.pendingOperation!.reference,
          outcome,
          avsProfileId,
          processor,
          txn,
        );
        return {
          transaction,
          typeId: txn.typeId,
          outcome,
          processedCents: outcome.kind === 'approved' ? txn.totalCents : 0,
        };
      },
    },
    ctx.deps.config.connectorTimeoutMs,
  );
}

/** Validation and tx1: the payment as in flight, or the payment this very request created before (a retry). */
async function start(ctx: CardContext, cmd: PaymentCommand): Promise<Started | { earlier: Transaction }> {
  const configuration = await ctx.deps.merchants.getConfiguration(cmd.merchantId);
  const processor = cardProcessor(configuration, cmd.processorId);
  const cardNotPresent = CARD_NOT_PRESENT_SOURCES.has(cmd.cardDataSourceId);
  const refused = unsupported(processor, OPERATION_OF[cmd.kind], { cardPresent: !cardNotPresent });
  if (refused) throw ValidationError.field('paymentProcessorId', refused);
  const { card, customer } = await resolveCard(ctx, cmd);
  const settings = configuration.settings;
  const amounts = amountsFor(ctx, cmd, settings, card);
  const runAvs =
    cardNotPresent && settings.avs.isEnabled && cmd.kind !== 'refund-without-reference' && !cmd.skipAddressVerification;
  let billing = cmd.billingAddress ?? null;
  if (!billing && card.customerId) {
    billing = (customer ?? (await ctx.deps.customers.get(cmd.merchantId, card.customerId))).billingAddress;
  }

  const now = ctx.clock.now();
  const id = newId();
  const txn = newTransaction({
    id,
    merchantId: cmd.merchantId,
    processorId: processor.id,
    method: 'card',
    typeId: TYPE_OF[cmd.kind],
    statusId: TransactionStatus.Pending,
    customerId: card.customerId ?? customer?.id ?? null,
    paymentMethodId: card.paymentMethodId,
    createMethodId: cmd.createMethodId,
    sourceId: cmd.sourceId ?? null,
    idempotencyId: cmd.idempotency?.id ?? null,
    cardDataSourceId: cmd.cardDataSourceId,
    referenceId: cmd.referenceId ?? null,
    customerInitiated: cmd.customerInitiated ?? null,
    currencyId: cmd.currencyId,
    amounts,
    panMask: card.mask,
    cardTypeId: card.cardTypeId,
    creditDebitTypeId: card.creditDebitTypeId,
    cardTokenTypeId: card.cardTokenTypeId,
    cardFingerprint: card.fingerprint,
    duplicateKey: duplicateKey(ctx, cmd, card, amounts.totalCents),
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
    billingAddress: billing,
    shippingAddress: cmd.shippingAddress ?? null,
    contactInfo: cmd.contactInfo ?? null,
    enhancedData:
      cmd.kind === 'sale' || cmd.kind === 'authorize'
        ? withAutofill(cmd.enhancedData ?? null, configuration.transactionAutofill, amounts.baseCents)
        : null,
    pendingOperation: {
      operation: OPERATION_OF[cmd.kind],
      reference: id,
      amountCents: amounts.totalCents,
      startedAt: now.toISOString(),
      node: ctx.deps.nodeId(),
    },
    createdAt: now,
  });
  const earlier = await recordAttempt(ctx, txn);
  if (earlier) return { earlier };

  const request: PaymentRequest = {
    reference: id,
    merchantId: cmd.merchantId,
    processorId: processor.id,
    amountCents: amounts.totalCents,
    card: {
      pan: card.pan,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      securityCode: cmd.securityCode ?? null,
    },
    avs: runAvs
      ? {
          line1: billing?.line1 ?? null,
          postalCode: billing?.postalCode ?? null,
          city: billing?.city ?? null,
          state: billing?.stateId ? (stateById(billing.stateId)?.code ?? null) : null,
          country: billing ? (countryById(billing.countryId)?.isoCode ?? null) : null,
        }
      : null,
    cardPresent: !cardNotPresent,
    enhancedData: txn.enhancedData,
  };
  return { txn, request, processor, avsProfileId: settings.avs.profileId };
}
