import type { QueryConfig } from 'pg';
import type { Sql } from '../../platform/db/pool.js';
import { BatchStatus } from './settlements.model.js';

/** A batch's totals: how many transactions, what they took in and what they paid back (cents). */
export interface BatchTotals {
  transactionCount: number;
  salesCents: number;
  refundsCents: number;
}

export interface LockedBatch {
  id: string;
  merchantId: string;
  processorId: string;
  statusId: number;
  netCents: number | null;
}

/** A batch by its merchant and id. */
export interface BatchRef {
  merchantId: string;
  id: string;
}

/** The processor's Open batch with the KEY SHARE lock a joining payment holds (it keeps a close from starting). */
export function openBatchForShare(processor: { merchantId: string; id: string }): QueryConfig {
  return {
    name: 'batch.open-for-share',
    text: `SELECT id FROM settlement_batches
           WHERE merchant_id = $2 AND processor_id = $1 AND status_id = ${BatchStatus.Open} FOR KEY SHARE`,
    values: [processor.id, processor.merchantId],
  };
}

/** A card processor's new Open batch; false when another transaction opened one first (one Open per processor). */
export async function insertOpenBatch(
  sql: Sql,
  b: { id: string; merchantId: string; processorId: string; openedAt: Date; closesAt: Date },
): Promise<boolean> {
  const inserted = await sql.query(
    `INSERT INTO settlement_batches (id, merchant_id, processor_id, status_id, opened_at, closes_at)
     VALUES ($1, $2, $3, ${BatchStatus.Open}, $4, $5) ON CONFLICT DO NOTHING`,
    [b.id, b.merchantId, b.processorId, b.openedAt, b.closesAt],
  );
  return inserted.rowCount === 1;
}

/** An ACH file's own batch: the file it settles and the reference the file carries. */
export interface FileBatch {
  id: string;
  merchantId: string;
  processorId: string;
  openedAt: Date;
  closesAt: Date;
  achFileId: string;
  externalBatchId: string;
}

/** An ACH file's own batch, Open until its entries can no longer return. */
export async function insertFileBatch(sql: Sql, b: FileBatch): Promise<void> {
  await sql.query(
    `INSERT INTO settlement_batches (id, merchant_id, processor_id, status_id, opened_at, closes_at, ach_file_id,
       external_batch_id)
     VALUES ($1, $2, $3, ${BatchStatus.Open}, $4, $5, $6, $7)`,
    [b.id, b.merchantId, b.processorId, b.openedAt, b.closesAt, b.achFileId, b.externalBatchId],
  );
}

/** A batch that got no members (an ACH window emptied by voids and holds). */
export async function deleteBatch(sql: Sql, batch: BatchRef): Promise<void> {
  await sql.query('DELETE FROM settlement_batches WHERE merchant_id = $2 AND id = $1', [batch.id, batch.merchantId]);
}

export async function findOpenBatchId(sql: Sql, merchantId: string, processorId: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM settlement_batches WHERE processor_id = $1 AND merchant_id = $2 AND status_id = ${BatchStatus.Open}`,
    [processorId, merchantId],
  );
  return rows[0]?.id;
}

/** The batch under the row lock that every change of its state takes. */
export async function lockBatch(
  sql: Sql,
  where: { id: string } | { achFileId: string },
): Promise<LockedBatch | undefined> {
  const { rows } = await sql.query<{
    id: string;
    merchant_id: string;
    processor_id: string;
    status_id: number;
    net_cents: string | null;
  }>(
    // The close and settle jobs name only the batch or its ACH file.
    `SELECT /* across merchants: found by batch or file id */ id, merchant_id, processor_id, status_id, net_cents
     FROM settlement_batches WHERE ${'id' in where ? 'id' : 'ach_file_id'} = $1 FOR UPDATE`,
    ['id' in where ? where.id : where.achFileId],
  );
  const row = rows[0];
  return (
    row && {
      id: row.id,
      merchantId: row.merchant_id,
      processorId: row.processor_id,
      statusId: row.status_id,
      netCents: row.net_cents === null ? null : Number(row.net_cents),
    }
  );
}

/** Open → PendingSettlement: the totals are frozen; payments from now on open a new batch. */
export async function freezeBatch(sql: Sql, batch: BatchRef, now: Date, totals: BatchTotals): Promise<void> {
  await sql.query(
    `UPDATE settlement_batches SET status_id = ${BatchStatus.PendingSettlement}, closing_started_at = $2,
       transaction_count = $3, sales_cents = $4, refunds_cents = $5, net_cents = $4::bigint - $5::bigint
     WHERE merchant_id = $6 AND id = $1`,
    [batch.id, now, totals.transactionCount, totals.salesCents, totals.refundsCents, batch.merchantId],
  );
}

export async function frozenTotals(sql: Sql, batch: BatchRef): Promise<BatchTotals> {
  const { rows } = await sql.query<{ transaction_count: number; sales_cents: string; refunds_cents: string }>(
    'SELECT transaction_count, sales_cents, refunds_cents FROM settlement_batches WHERE merchant_id = $2 AND id = $1',
    [batch.id, batch.merchantId],
  );
  const row = rows[0]!;
  return {
    transactionCount: row.transaction_count,
    salesCents: Number(row.sales_cents),
    refundsCents: Number(row.refunds_cents),
  };
}

/** Settled: paid out, with the processor's batch reference (a card batch) or the totals (an ACH file's batch). */
export async function markBatchSettled(
  sql: Sql,
  batch: BatchRef,
  now: Date,
  closing: { externalBatchId: string } | { totals: BatchTotals },
): Promise<void> {
  if ('externalBatchId' in closing) {
    await sql.query(
      `UPDATE settlement_batches SET status_id = ${BatchStatus.Settled}, settled_at = $2, external_batch_id = $3
       WHERE merchant_id = $4 AND id = $1`,
      [batch.id, now, closing.externalBatchId, batch.merchantId],
    );
    return;
  }
  const t = closing.totals;
  await sql.query(
    `UPDATE settlement_batches SET status_id = ${BatchStatus.Settled}, settled_at = $2, closing_started_at = $2,
       transaction_count = $3, sales_cents = $4, refunds_cents = $5, net_cents = $4::bigint - $5::bigint
     WHERE merchant_id = $6 AND id = $1`,
    [batch.id, now, t.transactionCount, t.salesCents, t.refundsCents, batch.merchantId],
  );
}
