import type { Tx } from '../../../../platform/db/tx.js';
import { TX_COLUMNS, toTransaction } from '../../transactions.repo.js';
import { AchStatus } from '../ach.model.js';
import type { AchContext } from '../ach-context.js';
import { nextCutoff } from '../ach-schedule.js';

/**
 * Gives a processor's Scheduled entries waiting for `window` the first window after `after` (same-day entries a
 * same-day window), and schedules those cutoffs. Used when a window cannot go out: its file could not be delivered
 * by the bank's deadline, or the day's file ID modifiers are used up. Returns how many entries moved.
 */
export async function rescheduleWindow(
  ctx: AchContext,
  tx: Tx,
  processor: { id: string; merchantId: string },
  window: Date,
  after: Date,
): Promise<number> {
  const settings = await ctx.processorSettings(processor.id, tx);
  const moved = new Map<string, Date>();
  let count = 0;
  for (const faster of [false, true]) {
    const next = nextCutoff(after, settings, faster);
    const { rowCount } = await tx.query(
      `UPDATE ach_entries a SET window_at = $4
       FROM transactions t
       WHERE a.merchant_id = $1 AND t.merchant_id = $1 AND t.id = a.transaction_id AND a.processor_id = $2
         AND a.window_at = $3 AND a.file_id IS NULL AND a.is_faster_processing = $5
         AND t.status_id = ${AchStatus.Scheduled}`,
      [processor.merchantId, processor.id, window, next, faster],
    );
    if (rowCount) moved.set(next.toISOString(), next);
    count += rowCount ?? 0;
  }
  for (const next of moved.values()) await ctx.scheduleCutoff(tx, processor.id, next);
  return count;
}

/**
 * A merchant's file that never reached the bank: its entries go back to Scheduled (no file, no trace number, no
 * batch), its settlement batch is dropped, and the file is kept, withdrawn, for the record. Returns the entries.
 */
export async function withdrawMerchantFile(
  ctx: AchContext,
  tx: Tx,
  file: { id: string; merchantId: string },
): Promise<number> {
  const now = ctx.clock.now();
  const { rows } = await tx.query(
    `WITH back AS (
       UPDATE ach_entries a SET file_id = NULL, trace_number = NULL, effective_date = NULL
       WHERE a.merchant_id = $2 AND a.file_id = $1 RETURNING a.transaction_id
     )
     UPDATE transactions t SET status_id = ${AchStatus.Scheduled}, batch_id = NULL, modified_at = $3
     FROM back WHERE t.merchant_id = $2 AND t.id = back.transaction_id AND t.status_id = ${AchStatus.InProgress}
     RETURNING ${TX_COLUMNS}`,
    [file.id, file.merchantId, now],
  );
  const batch = await ctx.deps.settlements.lock(tx, { achFileId: file.id });
  if (batch) await ctx.deps.settlements.discard(tx, { merchantId: file.merchantId, id: batch.id });
  await tx.query('UPDATE ach_files SET withdrawn_at = $3 WHERE merchant_id = $2 AND id = $1', [
    file.id,
    file.merchantId,
    now,
  ]);
  for (const row of rows) ctx.event(tx, 'transaction.ach.scheduled', toTransaction(row));
  return rows.length;
}
