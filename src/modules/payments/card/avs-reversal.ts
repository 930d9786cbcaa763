import { callWithDeadline } from '../../../connectors/registry.js';
import type { Sql } from '../../../platform/db/pool.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { defineQueue } from '../../../platform/jobs/define.js';
import { enqueue } from '../../../platform/jobs/queue.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import type { CardContext } from './card-context.js';

/** Releases the hold of an approval the merchant's AVS profile refused (one job per transaction; retried). */
export const avsReversalQueue = defineQueue<{ transactionId: string; merchantId: string }>('cards.avs-reversal');

interface ReversalRow {
  transaction_id: string;
  merchant_id: string;
  processor_id: string;
  amount_cents: number;
  attempts: number;
  last_reference: string | null;
  last_outcome: string | null;
  reversed_at: Date | null;
  network_reference: string | null;
}

/**
 * The reversal is recorded (with its job) before the decline is: whatever happens next, it is tried until the network
 * approves the void. A second call for the same approval (the reconciler screening it again) changes nothing.
 */
export async function recordAvsReversal(
  ctx: CardContext,
  reversal: {
    transactionId: string;
    merchantId: string;
    processor: PaymentProcessor;
    amountCents: number;
    /** The processor's reference of the approval (Adyen reverses a payment by its pspReference). */
    networkReference: string | null;
  },
): Promise<void> {
  await withTransaction(ctx.deps.pool, async (tx) => {
    const { rowCount } = await tx.query(
      `INSERT INTO card_avs_reversals (transaction_id, merchant_id, processor_id, amount_cents, network_reference,
         created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (transaction_id) DO NOTHING`,
      [
        reversal.transactionId,
        reversal.merchantId,
        reversal.processor.id,
        reversal.amountCents,
        reversal.networkReference || null,
        ctx.clock.now(),
      ],
    );
    if (rowCount) await enqueueReversal(tx, ctx, reversal.transactionId, reversal.merchantId);
  });
}

export function enqueueReversal(sql: Sql, ctx: CardContext, transactionId: string, merchantId: string) {
  return enqueue(sql, ctx.clock, {
    queue: avsReversalQueue.name,
    payload: { transactionId, merchantId },
    singletonKey: transactionId,
    maxAttempts: 50,
  });
}

/**
 * One attempt at the void: first, what became of the previous one if its answer was lost (asked with `resolve`,
 * which also refuses it from then on, so it cannot succeed later beside a new one); then a void under a fresh
 * reference, recorded before it is sent. Throws while the hold is not released, so the job tries again.
 */
export async function reverseAvsHold(ctx: CardContext, merchantId: string, transactionId: string): Promise<void> {
  const row = await findReversal(ctx.deps.pool, merchantId, transactionId);
  if (!row || row.reversed_at) return;
  const configuration = await ctx.deps.merchants.getConfiguration(merchantId);
  const processor = configuration.processors.find((p) => p.id === row.processor_id);
  if (!processor) throw new Error(`Processor ${row.processor_id} of the AVS reversal of ${transactionId} is gone`);
  const connector = ctx.deps.connectors.card(processor.connector);
  if (row.last_outcome === 'unknown' && row.last_reference) {
    const earlier = await connector.resolve(row.last_reference);
    if (earlier.found && (earlier.outcome.kind === 'approved' || earlier.outcome.kind === 'received')) {
      await settle(ctx, row, row.last_reference, earlier.outcome.kind, null);
      return;
    }
  }
  const attempt = row.attempts + 1;
  const reference = `${transactionId}:avs-void:${attempt}`;
  const claimed = await ctx.deps.pool.query(
    `UPDATE card_avs_reversals SET attempts = $3, last_reference = $4, last_outcome = 'unknown'
     WHERE merchant_id = $1 AND transaction_id = $2 AND attempts = $5 AND reversed_at IS NULL`,
    [merchantId, transactionId, attempt, reference, row.attempts],
  );
  if (!claimed.rowCount) return; // another attempt got there first; its job run decides
  const outcome = await callWithDeadline((signal) =>
    connector.void(
      {
        reference,
        originalReference: transactionId,
        originalNetworkReference: row.network_reference,
        merchantId,
        processorId: processor.id,
        amountCents: row.amount_cents,
      },
      { signal },
    ),
  );
  // A processor that decides by notification (Adyen) took the cancel: the hold is released on its side.
  const done = outcome.kind === 'approved' || outcome.kind === 'received';
  await settle(ctx, row, reference, outcome.kind, done ? null : outcome.message);
  if (!done) {
    throw new Error(`AVS reversal of ${transactionId} not done (${outcome.kind}: ${outcome.message}); trying again`);
  }
}

async function settle(
  ctx: CardContext,
  row: ReversalRow,
  reference: string,
  outcome: string,
  error: string | null,
): Promise<void> {
  await ctx.deps.pool.query(
    `UPDATE card_avs_reversals SET last_outcome = $4, last_error = $5,
       reversed_at = CASE WHEN $4 IN ('approved', 'received') THEN $6::timestamptz END
     WHERE merchant_id = $1 AND transaction_id = $2 AND last_reference = $3 AND reversed_at IS NULL`,
    [row.merchant_id, row.transaction_id, reference, outcome, error, ctx.clock.now()],
  );
  if (outcome !== 'approved' && outcome !== 'received') {
    ctx.deps.logger.warn({ transactionId: row.transaction_id, reference, outcome, error }, 'AVS reversal not done yet');
  }
}

async function findReversal(sql: Sql, merchantId: string, transactionId: string): Promise<ReversalRow | undefined> {
  const { rows } = await sql.query<ReversalRow>(
    'SELECT * FROM card_avs_reversals WHERE merchant_id = $1 AND transaction_id = $2',
    [merchantId, transactionId],
  );
  return rows[0];
}

/** Reversals not done yet (the sweep hands each to its job again: a parked job, or one lost with its node). */
export async function openReversals(
  sql: Sql,
  createdBefore: Date,
  limit: number,
): Promise<Array<{ transactionId: string; merchantId: string }>> {
  const { rows } = await sql.query<{ transaction_id: string; merchant_id: string }>(
    `SELECT /* across merchants: the reconcile sweep */ transaction_id, merchant_id FROM card_avs_reversals
     WHERE reversed_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2`,
    [createdBefore, limit],
  );
  return rows.map((r) => ({ transactionId: r.transaction_id, merchantId: r.merchant_id }));
}
