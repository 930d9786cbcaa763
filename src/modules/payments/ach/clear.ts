import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import { lines } from '../../ledger/ledger.js';
import { eventsForEach } from '../transaction-events.js';
import { TX_COLUMNS, toTransaction } from '../transactions.repo.js';
import { AchStatus } from './ach.model.js';
import type { AchContext } from './ach-context.js';
import { submitFile } from './submit.js';

/**
 * Entries cleared per transaction, at most (fewer with a smaller ACH_FILE_PART_RECORDS, as the cutoff reads them):
 * memory and each transaction's size stay bounded however large the file.
 */
export const CLEAR_SLICE = 2000;

/**
 * The next slice of a file's In progress entries to Cleared ($1 file, $2 now, $3 merchant, $4 the last entry of the
 * slice before, $5 the slice's size). The entries are read behind a fence and their transactions reached by primary
 * key (ach-cutoff.ts says why); the status they must be in comes from behind the fence too: a constant there would
 * let the planner start from `transactions_unresolved` (every payment in flight) and rescan the entries for each.
 * The first row always comes, with the slice's last entry and size, so a slice with nothing left to clear (entries
 * returned or cleared before) still moves the walk on; `id` is null on it then.
 */
export const CLEAR_SLICE_SQL = `WITH a AS MATERIALIZED (
       SELECT transaction_id, merchant_id, is_debit, ${AchStatus.InProgress}::smallint AS from_status
       FROM ach_entries WHERE merchant_id = $3 AND file_id = $1 AND transaction_id > $4
       ORDER BY transaction_id LIMIT $5
     ), cleared AS (
       UPDATE transactions t SET status_id = ${AchStatus.Cleared}, captured_cents = total_cents, captured_at = $2,
         modified_at = $2
       FROM a
       WHERE t.id = a.transaction_id AND t.merchant_id = a.merchant_id AND t.status_id = a.from_status
         -- A file clears only once it is at the bank: its entries the bank refuses must fail, not clear (a bank
         -- connection's delivery, and a connector's clearing job, see clearSettledFile, get it there first).
         AND EXISTS (SELECT 1 FROM ach_files f WHERE f.merchant_id = $3 AND f.id = $1 AND f.submitted_at IS NOT NULL)
       RETURNING ${TX_COLUMNS}, a.is_debit
     )
     SELECT s.slice_end, s.slice_size, c.*
     FROM (SELECT (SELECT transaction_id FROM a ORDER BY transaction_id DESC LIMIT 1) AS slice_end,
                  (SELECT count(*)::int FROM a) AS slice_size) s
     LEFT JOIN cleared c ON true`;

const BEFORE_EVERY_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The clearing job of a file whose settlement date came. A connector's file not yet submitted (a jump of the clock
 * passed its cutoff and its settlement date at once, and this job ran before the submit job) is submitted first: an
 * entry the bank refuses then fails instead of clearing. Collecting a file's returns clears it the same way. A bank
 * connection's file waits for its delivery, which queues clearing again.
 */
export async function clearSettledFile(
  ctx: AchContext,
  file: { id: string; merchant_id: string; bank_file_id: string | null; submitted_at: Date | null },
): Promise<number> {
  if (!file.bank_file_id && !file.submitted_at) await submitFile(ctx, file.id);
  return clearFile(ctx, file.id, undefined, file.merchant_id);
}

/**
 * Settlement date reached: the file's In progress entries clear and their money is posted. Idempotent. A slice of
 * CLEAR_SLICE entries per transaction (each entry's state, ledger lines and event commit together; a crash between
 * slices leaves the rest In progress for the job's retry); inside the caller's transaction when given one (a return
 * that overtook the clearing job).
 */
export async function clearFile(ctx: AchContext, fileId: string, sql?: Tx, merchantId?: string): Promise<number> {
  const owner = merchantId ?? (await ctx.fileRow(fileId))?.merchant_id;
  if (!owner) return 0;
  // The merchant's ledger accounts known before any slice's transaction opens (as the card path does); inside a
  // caller's transaction it would take a second connection while holding one, so not there.
  if (!sql) await ctx.deps.ledger.warm(owner);
  const size = Math.min(CLEAR_SLICE, ctx.deps.filePartRecords ?? CLEAR_SLICE);
  let after = BEFORE_EVERY_ID;
  let cleared = 0;
  for (;;) {
    const slice = (tx: Tx) => clearSlice(ctx, tx, { fileId, merchantId: owner, after, size });
    const done = sql ? await slice(sql) : await withTransaction(ctx.deps.pool, slice);
    cleared += done.cleared;
    if (done.size < size || done.end === null) return cleared;
    after = done.end;
  }
}

async function clearSlice(
  ctx: AchContext,
  tx: Tx,
  s: { fileId: string; merchantId: string; after: string; size: number },
): Promise<{ end: string | null; size: number; cleared: number }> {
  const { rows } = await tx.query(CLEAR_SLICE_SQL, [s.fileId, ctx.clock.now(), s.merchantId, s.after, s.size]);
  const head = rows[0] as { slice_end: string | null; slice_size: number } | undefined;
  const moved = rows.filter((row) => row.id !== null);
  const transactions = moved.map((row) => toTransaction(row));
  for (const [i, t] of transactions.entries()) {
    await ctx.deps.ledger.post(tx, {
      merchantId: t.merchantId,
      kind: 'ach_clearing',
      transactionId: t.id,
      batchId: t.batchId,
      lines: moved[i]!.is_debit ? lines.capture(t.totalCents) : lines.reverseCapture(t.totalCents),
    });
    await ctx.deps.sources.achCleared(tx, t);
  }
  if (transactions.length > 0) tx.defer(eventsForEach(ctx.clock, 'transaction.ach.cleared', transactions));
  return { end: head?.slice_end ?? null, size: head?.slice_size ?? 0, cleared: transactions.length };
}
