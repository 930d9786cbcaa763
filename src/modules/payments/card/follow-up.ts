import type { CardOutcome } from '../../../connectors/card/card-connector.js';
import type { Connectors } from '../../../connectors/registry.js';
import { newId } from '../../../platform/crypto/ids.js';
import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import { NotFoundError } from '../../../platform/http/errors.js';
import { fromCents } from '../../../platform/money.js';
import { lines } from '../../ledger/ledger.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import { runOperation } from '../driver.js';
import type { RequestClaim } from '../payment-request.js';
import { unsupported } from '../processors.js';
import { type PendingOperation, type Transaction, TransactionStatus } from '../transactions.model.js';
import { findTransaction, findTransactionById, lockTransactionById, saveTransaction } from '../transactions.repo.js';
import { type CardContext, illegal, inProgress, type OperationResult } from './card-context.js';
import type { OutcomeWriter } from './outcome-writers.js';
import { awaitingNotification } from './payment-outcome.js';
import { reconcile, resolveIfUnknown } from './reconcile.js';

/** What a capture, void or tip adjustment adds to the shared steps: its guard and its processor call. */
export interface FollowUpOperation {
  operation: 'capture' | 'void' | 'tip-adjust';
  /** Under the row lock: refuse an illegal transition, or say what goes in flight. */
  guard: (
    t: Transaction,
    tx: Tx,
  ) => { amountCents: number; tipCents?: number } | Promise<{ amountCents: number; tipCents?: number }>;
  call: (
    connector: ReturnType<Connectors['card']>,
    t: Transaction,
    pending: PendingOperation,
    signal: AbortSignal,
  ) => Promise<CardOutcome>;
}

interface Started {
  t: Transaction;
  pending: PendingOperation;
  processor: PaymentProcessor;
}

/** The shared steps of capture, void and tip adjustment, on the transaction itself. */
export function operate(
  ctx: CardContext,
  merchantId: string,
  id: string,
  typeId: number,
  op: FollowUpOperation,
  claim: RequestClaim | undefined,
): Promise<OperationResult> {
  // With an idempotency key the operation's reference is derived from the claim, so a retry can find it again.
  const reference = claim ? `${id}:${op.operation}:${claim.id}` : undefined;
  return runOperation<Started, OperationResult>(
    {
      start: async () => {
        if (claim?.recovering) {
          const recovered = await recoverFollowUp(ctx, merchantId, id, typeId, op.operation, reference!);
          if (recovered) return { answer: recovered };
        }
        await resolveIfUnknown(ctx, merchantId, id);
        // Read before the transaction takes its connection: nothing inside it waits for another one.
        const configuration = await ctx.deps.merchants.getConfiguration(merchantId);
        const { t, pending } = await withTransaction(ctx.deps.pool, async (tx) => {
          const t = await findTransaction(tx, merchantId, id, { forUpdate: true });
          if (!t) throw new NotFoundError('Transaction', id);
          if (t.method !== 'card') throw illegal('This operation applies to card transactions only.');
          if (t.pendingOperation) throw inProgress(t.id);
          const processor = configuration.processors.find((p) => p.id === t.processorId);
          const refused =
            processor && unsupported(processor, op.operation, { captured: t.statusId === TransactionStatus.Captured });
          if (refused) throw illegal(refused);
          const guarded = await op.guard(t, tx);
          const pending: PendingOperation = {
            operation: op.operation,
            reference: reference ?? `${t.id}:${op.operation}:${newId()}`,
            amountCents: guarded.amountCents,
            ...(guarded.tipCents !== undefined ? { tipCents: guarded.tipCents } : {}),
            startedAt: ctx.clock.now().toISOString(),
            node: ctx.deps.nodeId(),
          };
          t.pendingOperation = pending;
          t.modifiedAt = ctx.clock.now();
          await saveTransaction(tx, t);
          return { t, pending };
        });
        return { call: { t, pending, processor: await ctx.processorOf(t) } };
      },
      call: ({ t, pending, processor }, signal) =>
        op.call(ctx.deps.connectors.card(processor.connector), t, pending, signal),
      finish: async ({ t, pending, processor }, outcome) => {
        const transaction = await recordFollowUpOutcome(ctx, t.id, pending.reference, outcome, processor);
        return {
          transaction,
          typeId,
          outcome,
          processedCents:
            outcome.kind === 'approved'
              ? op.operation === 'tip-adjust'
                ? transaction.totalCents
                : pending.amountCents
              : 0,
        };
      },
    },
    ctx.deps.config.connectorTimeoutMs,
  );
}

/**
 * A retried capture, void or tip adjustment whose first attempt was cut off. That attempt's reference is derived
 * from the claim: still in flight, it is settled first; the processor's record of it is the answer. Nothing found
 * means it never reached the processor (its tx1 is written before the call), and the caller runs it now.
 */
export async function recoverFollowUp(
  ctx: CardContext,
  merchantId: string,
  id: string,
  typeId: number,
  operation: PendingOperation['operation'],
  reference: string,
): Promise<OperationResult | undefined> {
  let t = await findTransaction(ctx.deps.pool, merchantId, id);
  if (!t) throw new NotFoundError('Transaction', id);
  if (t.pendingOperation?.reference === reference) {
    await reconcile(ctx, t.id);
    t = (await findTransactionById(ctx.deps.pool, id))!;
    if (t.pendingOperation?.reference === reference) {
      // Its node still lives (a 5xx released the key): the outcome is not known yet.
      return { transaction: t, typeId, outcome: null, processedCents: 0 };
    }
  }
  const processor = await ctx.processorOf(t);
  const answer = await ctx.deps.connectors.card(processor.connector).query(reference);
  if (!answer.found) return undefined;
  const outcome = answer.outcome;
  const processedCents =
    outcome.kind !== 'approved' ? 0 : operation === 'tip-adjust' ? t.totalCents : outcome.approvedCents;
  return { transaction: t, typeId, outcome, processedCents };
}

export async function recordFollowUpOutcome(
  ctx: CardContext,
  id: string,
  reference: string,
  outcome: CardOutcome,
  processor: PaymentProcessor,
  reason?: string,
): Promise<Transaction> {
  await ctx.deps.ledger.warm(processor.merchantId);
  return withTransaction(ctx.deps.pool, async (tx) => {
    const t = (await lockTransactionById(tx, id))!;
    const pending = t.pendingOperation;
    if (!pending || pending.reference !== reference) return t;
    const now = ctx.clock.now();
    t.modifiedAt = now;
    if (outcome.kind === 'unknown') {
      t.pendingOperation = { ...pending, unknown: true };
      await ctx.scheduleReconcile(tx, t.id, 1);
      await saveTransaction(tx, t);
      return t;
    }
    if (outcome.kind === 'received') {
      // Nothing is shown as done until the processor's notification says so (processor-notification.ts).
      t.pendingOperation = awaitingNotification(pending, outcome.processorReference);
      await saveTransaction(tx, t);
      return t;
    }
    t.pendingOperation = null;
    if (outcome.kind === 'approved') await applyFollowUp(ctx, tx, t, pending, processor, reason);
    else {
      ctx.deps.logger.info(
        { transactionId: t.id, operation: pending.operation, outcome },
        'processor refused an operation',
      );
    }
    await saveTransaction(tx, t);
    return t;
  });
}

export async function applyFollowUp(
  ctx: CardContext,
  tx: Tx,
  t: Transaction,
  pending: PendingOperation,
  processor: PaymentProcessor,
  reason?: string,
): Promise<void> {
  const now = ctx.clock.now();
  switch (pending.operation) {
    case 'capture': {
      t.statusId = TransactionStatus.Captured;
      await ctx.moveMoney(tx, t, processor, pending.amountCents, 'capture', [
        ...lines.releaseHold(t.authorizedCents),
        ...lines.capture(pending.amountCents),
      ]);
      ctx.event(tx, 'transaction.card.captured', t, { capturedAmount: fromCents(pending.amountCents) });
      break;
    }
    case 'void': {
      const wasCaptured = t.statusId === TransactionStatus.Captured;
      t.statusId = TransactionStatus.Voided;
      t.voidedAt = now;
      if (reason) t.detailsMessage = reason;
      if (wasCaptured) {
        t.batchId = null;
        await ctx.deps.ledger.post(tx, {
          merchantId: t.merchantId,
          kind: 'capture_reversal',
          transactionId: t.id,
          lines: lines.reverseCapture(t.capturedCents),
        });
      } else {
        await ctx.deps.ledger.post(tx, {
          merchantId: t.merchantId,
          kind: 'hold_release',
          transactionId: t.id,
          lines: lines.releaseHold(t.authorizedCents),
        });
      }
      ctx.event(tx, 'transaction.card.voided', t, reason ? { reason } : {});
      break;
    }
    case 'tip-adjust': {
      const delta = pending.amountCents - t.totalCents;
      const tipCents = pending.tipCents ?? 0;
      t.tipCents = tipCents;
      t.tipRateMpct = null;
      t.totalCents = pending.amountCents;
      if (t.statusId === TransactionStatus.Captured) {
        t.capturedCents += delta;
        t.authorizedCents += delta;
        await ctx.deps.ledger.post(tx, {
          merchantId: t.merchantId,
          kind: 'tip_adjustment',
          transactionId: t.id,
          lines: lines.capture(delta),
        });
      } else {
        t.authorizedCents += delta;
        await ctx.deps.ledger.post(tx, {
          merchantId: t.merchantId,
          kind: 'tip_adjustment',
          transactionId: t.id,
          lines: lines.hold(delta),
        });
      }
      break;
    }
    default:
      throw new Error(`No follow-up effect for ${pending.operation}`);
  }
}

/** The reconciler's writer for a follow-up (capture, void, tip adjustment): anything but an approval failed it. */
export const followUpOutcomeWriter: OutcomeWriter = async (ctx, t, pending, outcome, processor) => {
  await recordFollowUpOutcome(
    ctx,
    t.id,
    pending.reference,
    outcome.kind === 'approved'
      ? outcome
      : { kind: 'failed', responseCode: outcome.responseCode, message: outcome.message },
    processor,
  );
};
