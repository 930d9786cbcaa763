import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import type { BatchTotals } from '../settlements/settlements.repo.js';
import { CARD_REFUND_TYPES, REFUND_TYPES, SALE_TYPES, TransactionStatus } from './transactions.model.js';

// A settlement batch's members: the transactions whose batch_id names it. The batch row is the settlements module's.

/** A batch by its merchant and id (members live with their merchant's other rows). */
export interface BatchRef {
  merchantId: string;
  id: string;
}

/** A batch's members summed: sales (money in) and refunds (money out) by what each moved. */
export async function batchMemberTotals(sql: Sql, batch: BatchRef): Promise<BatchTotals> {
  const { rows } = await sql.query<{ transaction_count: number; sales_cents: string; refunds_cents: string }>(
    `SELECT count(*)::int AS transaction_count,
            coalesce(sum(captured_cents) FILTER (WHERE type_id IN (${sqlIds(...SALE_TYPES)})), 0)::bigint
              AS sales_cents,
            coalesce(sum(captured_cents) FILTER (WHERE type_id IN (${sqlIds(...REFUND_TYPES)})), 0)::bigint
              AS refunds_cents
     FROM transactions WHERE merchant_id = $2 AND batch_id = $1`,
    [batch.id, batch.merchantId],
  );
  const row = rows[0]!;
  return {
    transactionCount: row.transaction_count,
    salesCents: Number(row.sales_cents),
    refundsCents: Number(row.refunds_cents),
  };
}

/** Whether a member of the batch has an operation in flight (a void would change the batch's totals). */
export async function hasOperationInFlight(sql: Sql, batch: BatchRef): Promise<boolean> {
  const { rowCount } = await sql.query(
    'SELECT 1 FROM transactions WHERE merchant_id = $2 AND batch_id = $1 AND pending_operation IS NOT NULL LIMIT 1',
    [batch.id, batch.merchantId],
  );
  return (rowCount ?? 0) > 0;
}

/** Whether an ACH file's batch still has entries that can clear or return. */
export async function hasEntriesOutstanding(sql: Sql, batch: BatchRef): Promise<boolean> {
  const { rowCount } = await sql.query(
    `SELECT 1 FROM transactions WHERE merchant_id = $2 AND batch_id = $1
       AND status_id IN (${sqlIds(TransactionStatus.Scheduled, TransactionStatus.Pending)}) LIMIT 1`,
    [batch.id, batch.merchantId],
  );
  return (rowCount ?? 0) > 0;
}

/** A card batch settled: captured payments and completed refunds become Settled; a fully refunded payment stays Refunded. */
export async function settleCardBatchMembers(sql: Sql, batch: BatchRef, now: Date): Promise<void> {
  await sql.query(
    `UPDATE transactions SET settled_at = $2, modified_at = $2,
       status_id = CASE WHEN status_id = ${TransactionStatus.Captured}
           OR (type_id IN (${sqlIds(...CARD_REFUND_TYPES)}) AND status_id = ${TransactionStatus.Refunded})
         THEN ${TransactionStatus.Settled} ELSE status_id END
     WHERE merchant_id = $3 AND batch_id = $1`,
    [batch.id, now, batch.merchantId],
  );
}

/** An ACH file's batch settled: its entries keep their status (Cleared, ChargedBack, ...) and record when. */
export async function markBatchMembersSettled(sql: Sql, batch: BatchRef, now: Date): Promise<void> {
  await sql.query('UPDATE transactions SET settled_at = $2 WHERE merchant_id = $3 AND batch_id = $1', [
    batch.id,
    now,
    batch.merchantId,
  ]);
}
