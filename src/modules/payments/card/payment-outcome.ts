import type { CardOutcome } from '../../../connectors/card/card-connector.js';
import { Grouped } from '../../../platform/db/grouped.js';
import { isExpectationFailure, type Tx, withTransaction } from '../../../platform/db/tx.js';
import { lines } from '../../ledger/ledger.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import { avsAction } from '../avs.js';
import { type PendingOperation, type Transaction, TransactionStatus } from '../transactions.model.js';
import { toTransaction, transactionQueries } from '../transactions.repo.js';
import { recordAvsReversal } from './avs-reversal.js';
import type { CardContext, OpenBatch, OutcomeToApply } from './card-context.js';
import { expireAuthorizationQueue } from './card-queues.js';
import type { OutcomeWriter } from './outcome-writers.js';

/**
 * An approval the merchant's AVS profile refuses is recorded as a decline, and its hold at the issuer is released by a
 * void: a recorded reversal (avs-reversal.ts), written before the decline and tried until the network approves it.
 */
export async function screenAvs(
  ctx: CardContext,
  txn: Transaction,
  outcome: CardOutcome,
  profileId: number,
  processor: PaymentProcessor,
): Promise<CardOutcome> {
  if (outcome.kind !== 'approved' || !outcome.avs) return outcome;
  if (avsAction(outcome.avs, profileId).action === 'Allow') return outcome;
  await recordAvsReversal(ctx, {
    transactionId: txn.id,
    merchantId: txn.merchantId,
    processor,
    amountCents: outcome.approvedCents,
    networkReference: outcome.networkReference,
  });
  return { kind: 'declined', responseCode: 'AVS', message: 'Address verification failed', avs: outcome.avs };
}

/**
 * tx2 of a new payment (also used by the reconciler). Idempotent: only the holder of `reference` applies. With
 * `written` (the row as tx1 inserted it), the row is not read: the outcome is applied as a compare-and-set sent with
 * COMMIT, one round trip in all, and only if the row moved on meanwhile (the reconciler got there first, or the
 * remembered batch closed) does it run again the ordinary way, under the row lock.
 */
/**
 * tx2 of concurrent payments (the fast path: rows as tx1 wrote them), applied together in one transaction: one
 * compare-and-set statement saves every row, with one events insert and one ledger posting statement for the group.
 * If any of them finds its row moved on, the group fails and each is applied alone (Grouped), where that one takes
 * the slow path. One writer per card context (per node), so concurrent payments on a node are written together.
 */
export const INDEX_ACCESS_ONLY = { text: 'SET LOCAL enable_seqscan = off' };
const groupedOutcomes = new WeakMap<CardContext, Grouped<OutcomeToApply & { written: Transaction }, Transaction>>();

function outcomesOf(ctx: CardContext): Grouped<OutcomeToApply & { written: Transaction }, Transaction> {
  let grouped = groupedOutcomes.get(ctx);
  if (!grouped) {
    grouped = new Grouped((items) =>
      withTransaction(ctx.deps.pool, async (tx) => {
        // The compare-and-set finds its rows by primary key at any table size. Its plan is cached per connection
        // (prepared), and one made while `transactions` was small scanned the whole table for every group ever after:
        // 5,500 rows and 3 ms a group in the card-sale benchmark, 2.2 ms a POS sale (docs/performance.md).
        tx.defer(INDEX_ACCESS_ONLY);
        const applied: Transaction[] = [];
        for (const item of items) applied.push(await applyPaymentOutcome(ctx, tx, item));
        tx.defer(
          transactionQueries.saveIfPending(
            applied.map((transaction, i) => ({ transaction, reference: items[i]!.reference })),
          ),
        );
        return applied;
      }),
    );
    groupedOutcomes.set(ctx, grouped);
  }
  return grouped;
}

export async function recordPaymentOutcome(
  ctx: CardContext,
  id: string,
  reference: string,
  outcome: CardOutcome,
  avsProfileId: number,
  processor: PaymentProcessor,
  written?: Transaction,
): Promise<Transaction> {
  // Everything that needs another pool connection happens before the transaction takes one.
  await ctx.deps.ledger.warm(processor.merchantId);
  if (written) {
    try {
      return await outcomesOf(ctx).submit({ id, reference, outcome, avsProfileId, processor, written });
    } catch (error) {
      if (!isExpectationFailure(error)) throw error;
    }
  }
  return withTransaction(ctx.deps.pool, (tx) =>
    applyPaymentOutcome(ctx, tx, { id, reference, outcome, avsProfileId, processor }),
  );
}

export async function applyPaymentOutcome(ctx: CardContext, tx: Tx, item: OutcomeToApply): Promise<Transaction> {
  const { id, reference, outcome, avsProfileId, processor, written } = item;
  let t: Transaction;
  let openBatch: OpenBatch;
  if (written) {
    t = { ...written };
    openBatch = ctx.deps.settlements.knownOpenBatch(processor.id);
  } else {
    // An approval will most likely join the open batch: ask for it in the same round trip as the row lock.
    const [locked, batch] = await tx.batch([
      transactionQueries.lockById(id),
      ...(outcome.kind === 'approved' ? [ctx.deps.settlements.openBatchQuery(processor)] : []),
    ]);
    t = toTransaction(locked!.rows[0]!);
    openBatch = batch;
    if (t.pendingOperation?.reference !== reference || t.statusId !== TransactionStatus.Pending) return t;
  }
  const pendingOperation = t.pendingOperation!;
  const op = pendingOperation.operation;
  const now = ctx.clock.now();
  t.modifiedAt = now;
  t.responseCode = outcome.responseCode;
  t.responseMessage = outcome.message;
  if (outcome.kind === 'approved' || outcome.kind === 'declined') {
    t.avsResponse = outcome.avs ? avsAction(outcome.avs, avsProfileId) : null;
  }
  switch (outcome.kind) {
    case 'approved': {
      t.pendingOperation = null;
      t.resultCode = 'Approve';
      t.authCode = outcome.authCode;
      t.networkReference = outcome.networkReference;
      if (op === 'sale') {
        t.statusId = TransactionStatus.Captured;
        t.authorizedCents = t.totalCents;
        await ctx.moveMoney(tx, t, processor, t.totalCents, 'capture', lines.capture(t.totalCents), openBatch);
        ctx.event(tx, ['transaction.card.authorized', 'transaction.card.captured'], t);
      } else if (op === 'authorize') {
        t.statusId = TransactionStatus.Authorized;
        t.authorizedCents = t.totalCents;
        await ctx.deps.ledger.post(tx, {
          merchantId: t.merchantId,
          kind: 'authorization_hold',
          transactionId: t.id,
          lines: lines.hold(t.totalCents),
        });
        ctx.event(tx, 'transaction.card.authorized', t);
        await expireAuthorizationQueue.enqueue(
          tx,
          ctx.clock,
          { transactionId: t.id },
          { runAt: new Date(now.getTime() + ctx.deps.config.authorizationExpiryDays * 86_400_000), singletonKey: t.id },
        );
      } else if (op === 'verify') {
        t.statusId = TransactionStatus.Verified;
      } else {
        // Refund without reference: money goes back to the card; it nets in the open batch.
        t.statusId = TransactionStatus.Refunded;
        await ctx.moveMoney(tx, t, processor, t.totalCents, 'refund', lines.reverseCapture(t.totalCents), openBatch);
        ctx.event(tx, 'transaction.card.refunded', t, { refundTransactionId: t.id });
      }
      break;
    }
    case 'declined':
    case 'failed': {
      // Nothing was charged: the payment ends here and frees its duplicate key for a corrected retry.
      const declined = outcome.kind === 'declined';
      t.pendingOperation = null;
      t.duplicateKey = null;
      t.resultCode = declined ? 'Decline' : 'Error';
      t.statusId = declined ? TransactionStatus.Declined : TransactionStatus.Failed;
      ctx.event(tx, declined ? 'transaction.card.declined' : 'transaction.card.failed', t);
      break;
    }
    case 'unknown':
      t.resultCode = 'Pending';
      t.pendingOperation = { ...pendingOperation, unknown: true };
      await ctx.scheduleReconcile(tx, t.id, 1);
      break;
    case 'received':
      // The processor decides in a notification (processor-notification.ts); nobody reconciles it meanwhile.
      t.resultCode = 'Pending';
      t.pendingOperation = awaitingNotification(pendingOperation, outcome.processorReference);
      break;
  }
  // A row applied from `written` is saved by the caller, as a compare-and-set (see `outcomes`).
  if (!written) tx.defer(transactionQueries.save(t));
  if (outcome.kind === 'approved') ctx.deps.merchants.touchLastTransaction(tx, t.merchantId, now);
  return t;
}

/** An operation in flight whose processor took it: its notification settles it, not the reconciler. */
export function awaitingNotification(pending: PendingOperation, processorReference: string | null): PendingOperation {
  const { unknown: _, ...rest } = pending;
  return { ...rest, awaiting: 'notification', ...(processorReference ? { processorReference } : {}) };
}

/** The reconciler's writer for a new payment (sale, authorization, verification, refund without reference). */
export const paymentOutcomeWriter: OutcomeWriter = async (ctx, t, pending, outcome, processor) => {
  const configuration = await ctx.deps.merchants.getConfiguration(t.merchantId);
  const profileId = configuration.settings.avs.profileId;
  const screened = await screenAvs(ctx, t, outcome, profileId, processor);
  await recordPaymentOutcome(ctx, t.id, pending.reference, screened, profileId, processor);
};
