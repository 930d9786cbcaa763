import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import { lines } from '../../ledger/ledger.js';
import { TX_COLUMNS, toTransaction } from '../transactions.repo.js';
import { AchStatus } from './ach.model.js';
import type { AchContext } from './ach-context.js';

/**
 * A file's In progress entries to Cleared ($1 file, $2 now, $3 merchant): the entries behind a fence, then their
 * transactions by primary key (ach-cutoff.ts says why). The status they must be in comes from behind the fence too:
 * a constant there would let the planner start from `transactions_unresolved` (every payment in flight) and rescan
 * the entries for each.
 */
export const CLEAR_FILE_SQL = `WITH a AS MATERIALIZED (
       SELECT transaction_id, merchant_id, is_debit, ${AchStatus.InProgress}::smallint AS from_status
       FROM ach_entries WHERE merchant_id = $3 AND file_id = $1)
     UPDATE transactions t SET status_id = ${AchStatus.Cleared}, captured_cents = total_cents, captured_at = $2,
       modified_at = $2
     FROM a
     WHERE t.id = a.transaction_id AND t.merchant_id = a.merchant_id AND t.status_id = a.from_status
       -- A bank connection's file clears only once it is at the bank (its delivery queues clearing again then).
       AND EXISTS (SELECT 1 FROM ach_files f WHERE f.merchant_id = $3 AND f.id = $1
                     AND (f.bank_file_id IS NULL OR f.submitted_at IS NOT NULL))
     RETURNING ${TX_COLUMNS}, a.is_debit`;

/** Settlement date reached: the file's In progress entries clear and their money is posted. Idempotent. */
export async function clearFile(ctx: AchContext, fileId: string, sql?: Tx, merchantId?: string): Promise<number> {
  const owner = merchantId ?? (await ctx.fileRow(fileId))?.merchant_id;
  if (!owner) return 0;
  const work = async (tx: Tx) => {
    const now = ctx.clock.now();
    const { rows } = await tx.query(CLEAR_FILE_SQL, [fileId, now, owner]);
    for (const row of rows) {
      const t = toTransaction(row);
      await ctx.deps.ledger.post(tx, {
        merchantId: t.merchantId,
        kind: 'ach_clearing',
        transactionId: t.id,
        batchId: t.batchId,
        lines: row.is_debit ? lines.capture(t.totalCents) : lines.reverseCapture(t.totalCents),
      });
      ctx.event(tx, 'transaction.ach.cleared', t);
      await ctx.deps.sources.achCleared(tx, t);
    }
    return rows.length;
  };
  return sql ? work(sql) : withTransaction(ctx.deps.pool, work);
}
