import type { CardOutcome } from '../../../connectors/card/card-connector.js';
import { newId } from '../../../platform/crypto/ids.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import { fromCents } from '../../../platform/money.js';
import { lines } from '../../ledger/ledger.js';
import { type PaymentProcessor, ZeroCostProcessingOption } from '../../merchants/merchants.model.js';
import { amountColumns, calculateAmount } from '../amounts.js';
import { runOperation } from '../driver.js';
import { newTransaction } from '../new-transaction.js';
import type { RequestClaim } from '../payment-request.js';
import { unsupported } from '../processors.js';
import { type Transaction, TransactionStatus, TransactionType } from '../transactions.model.js';
import {
  findByIdempotencyId,
  findTransaction,
  insertTransaction,
  isIdempotencyIdTaken,
  lockTransactionById,
  saveTransaction,
} from '../transactions.repo.js';
import { type CardContext, illegal, inProgress, type OperationResult, statusName } from './card-context.js';
import type { OutcomeWriter } from './outcome-writers.js';
import { awaitingNotification } from './payment-outcome.js';
import { resolveIfUnknown, resume } from './reconcile.js';

interface Started {
  original: Transaction;
  refund: Transaction;
  processor: PaymentProcessor;
}

/** A refund (`/return`): its own transaction, reserved against the original under the original's row lock. */
export function refund(
  ctx: CardContext,
  merchantId: string,
  id: string,
  amountCents: number | undefined,
  cardDataSourceId: number,
  claim?: RequestClaim,
): Promise<OperationResult> {
  return runOperation<Started, OperationResult>(
    {
      start: async () => {
        if (claim?.recovering) {
          const earlier = await findByIdempotencyId(ctx.deps.pool, merchantId, claim.id);
          if (earlier) return { answer: await resume(ctx, earlier) };
        }
        await resolveIfUnknown(ctx, merchantId, id);
        const prepared = await prepareRefund(ctx, merchantId, id, amountCents, cardDataSourceId, claim).catch(
          async (error: unknown) => {
            if (!isIdempotencyIdTaken(error)) throw error;
            return (await findByIdempotencyId(ctx.deps.pool, merchantId, claim!.id))!;
          },
        );
        if (!('refund' in prepared)) return { answer: await resume(ctx, prepared) };
        return { call: { ...prepared, processor: await ctx.processorOf(prepared.original) } };
      },
      call: ({ original, refund, processor }, signal) =>
        ctx.deps.connectors.card(processor.connector).refund(
          {
            reference: refund.id,
            originalReference: original.id,
            originalNetworkReference: original.networkReference,
            merchantId,
            processorId: processor.id,
            amountCents: refund.totalCents,
          },
          { signal },
        ),
      finish: async ({ refund, processor }, outcome) => {
        const recorded = await recordRefundOutcome(ctx, refund.id, outcome, processor);
        return {
          transaction: recorded,
          typeId: TransactionType.Refund,
          outcome,
          processedCents: outcome.kind === 'approved' ? recorded.totalCents : 0,
        };
      },
    },
    ctx.deps.config.connectorTimeoutMs,
  );
}

/** tx1 of a refund: the refund's own transaction, in flight, its amount reserved on the original. */
export async function prepareRefund(
  ctx: CardContext,
  merchantId: string,
  id: string,
  amountCents: number | undefined,
  cardDataSourceId: number,
  claim: RequestClaim | undefined,
): Promise<{ original: Transaction; refund: Transaction }> {
  // Read before the transaction takes its connection: nothing inside it waits for another one.
  const configuration = await ctx.deps.merchants.getConfiguration(merchantId);
  return withTransaction(ctx.deps.pool, async (tx) => {
    const original = await findTransaction(tx, merchantId, id, { forUpdate: true });
    if (!original) throw new NotFoundError('Transaction', id);
    if (original.method !== 'card') throw illegal('Use the ACH refund endpoint for ACH transactions.');
    if (original.typeId !== TransactionType.Sale && original.typeId !== TransactionType.Authorization) {
      throw illegal('Only a sale or a captured authorization can be refunded.');
    }
    if (original.statusId !== TransactionStatus.Captured && original.statusId !== TransactionStatus.Settled) {
      throw illegal(`A ${statusName(original.statusId)} transaction cannot be refunded.`);
    }
    if (original.pendingOperation) throw inProgress(original.id);
    const processor = configuration.processors.find((p) => p.id === original.processorId);
    const refused = processor && unsupported(processor, 'refund');
    if (refused) throw illegal(refused);
    const available = original.capturedCents - original.refundedCents;
    const amount = amountCents ?? available;
    if (amount <= 0 || available <= 0) {
      throw ValidationError.field(
        'amount',
        available <= 0 ? 'Nothing is left to refund.' : "'amount' must be greater than 0.",
      );
    }
    if (amount > available) {
      throw ValidationError.field(
        'amount',
        `The refund exceeds the refundable amount ${fromCents(available).toFixed(2)}.`,
      );
    }
    const now = ctx.clock.now();
    original.refundedCents += amount;
    original.modifiedAt = now;
    await saveTransaction(tx, original);
    const refundId = newId();
    const refund = newTransaction({
      id: refundId,
      merchantId: original.merchantId,
      processorId: original.processorId,
      method: original.method,
      typeId: TransactionType.Refund,
      statusId: TransactionStatus.Pending,
      originalTransactionId: original.id,
      customerId: original.customerId,
      paymentMethodId: original.paymentMethodId,
      createMethodId: original.createMethodId,
      sourceId: original.sourceId,
      idempotencyId: claim?.id ?? null,
      cardDataSourceId,
      customerInitiated: original.customerInitiated,
      currencyId: original.currencyId,
      // A refund is a plain amount: no discount, surcharge, tip or tax of its own.
      amounts: amountColumns(
        calculateAmount({ baseCents: amount, zeroCostOptionId: ZeroCostProcessingOption.None, tender: 'credit' }),
      ),
      panMask: original.panMask,
      cardTypeId: original.cardTypeId,
      creditDebitTypeId: original.creditDebitTypeId,
      cardTokenTypeId: original.cardTokenTypeId,
      cardFingerprint: original.cardFingerprint,
      expirationMonth: original.expirationMonth,
      expirationYear: original.expirationYear,
      billingAddress: original.billingAddress,
      shippingAddress: original.shippingAddress,
      contactInfo: original.contactInfo,
      pendingOperation: {
        operation: 'refund',
        reference: refundId,
        amountCents: amount,
        startedAt: now.toISOString(),
        node: ctx.deps.nodeId(),
      },
      createdAt: now,
    });
    await insertTransaction(tx, refund);
    return { original, refund };
  });
}

export async function recordRefundOutcome(
  ctx: CardContext,
  refundId: string,
  outcome: CardOutcome,
  processor: PaymentProcessor,
): Promise<Transaction> {
  await ctx.deps.ledger.warm(processor.merchantId);
  return withTransaction(ctx.deps.pool, async (tx) => {
    // Lock order everywhere: the original before its refund.
    const peek = await tx.query<{ original_transaction_id: string }>(
      'SELECT original_transaction_id FROM transactions WHERE merchant_id = $2 AND id = $1',
      [refundId, processor.merchantId],
    );
    const original = (await lockTransactionById(tx, peek.rows[0]!.original_transaction_id))!;
    const refund = (await lockTransactionById(tx, refundId))!;
    if (refund.statusId !== TransactionStatus.Pending || refund.pendingOperation?.reference !== refundId) return refund;
    const now = ctx.clock.now();
    refund.modifiedAt = now;
    refund.responseCode = outcome.responseCode;
    refund.responseMessage = outcome.message;
    if (outcome.kind === 'unknown') {
      refund.resultCode = 'Pending';
      refund.pendingOperation = { ...refund.pendingOperation, unknown: true };
      await ctx.scheduleReconcile(tx, refund.id, 1);
      await saveTransaction(tx, refund);
      return refund;
    }
    if (outcome.kind === 'received') {
      // Refunded only once the processor's notification says so (processor-notification.ts).
      refund.resultCode = 'Pending';
      refund.pendingOperation = awaitingNotification(refund.pendingOperation, outcome.processorReference);
      await saveTransaction(tx, refund);
      return refund;
    }
    refund.pendingOperation = null;
    if (outcome.kind === 'approved') {
      refund.resultCode = 'Approve';
      refund.authCode = outcome.authCode;
      refund.networkReference = outcome.networkReference;
      refund.statusId = TransactionStatus.Refunded;
      await ctx.moveMoney(tx, refund, processor, refund.totalCents, 'refund', lines.reverseCapture(refund.totalCents));
      const full = original.refundedCents === original.capturedCents;
      if (full) original.statusId = TransactionStatus.Refunded;
      original.modifiedAt = now;
      await saveTransaction(tx, original);
      if (full) await ctx.deps.sources.refunded(tx, original);
      ctx.event(tx, 'transaction.card.refunded', original, {
        refundTransactionId: refund.id,
        refundAmount: fromCents(refund.totalCents),
        refundedAmount: fromCents(original.refundedCents),
      });
    } else {
      refund.resultCode = outcome.kind === 'declined' ? 'Decline' : 'Error';
      refund.statusId = outcome.kind === 'declined' ? TransactionStatus.Declined : TransactionStatus.Failed;
      // Release the reservation.
      original.refundedCents -= refund.totalCents;
      original.modifiedAt = now;
      await saveTransaction(tx, original);
    }
    await saveTransaction(tx, refund);
    return refund;
  });
}

/** The reconciler's writer for a refund. */
export const refundOutcomeWriter: OutcomeWriter = async (ctx, t, _pending, outcome, processor) => {
  await recordRefundOutcome(ctx, t.id, outcome, processor);
};
