import type { QueryConfig, QueryResult } from 'pg';
import type { Clock } from '../../platform/clock/clock.js';
import { nextDailySlot } from '../../platform/clock/zoned.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import type { PaymentProcessor } from '../merchants/merchants.model.js';
import { CARD_REFUND_TYPES, CARD_SALE_TYPES } from '../payments/transactions.model.js';
import { BatchStatus, closeBatchQueue } from './settlements.model.js';
import {
  type BatchRef,
  type BatchTotals,
  deleteBatch,
  type FileBatch,
  findOpenBatchId,
  freezeBatch,
  frozenTotals,
  insertFileBatch,
  insertOpenBatch,
  type LockedBatch,
  lockBatch,
  markBatchSettled,
  openBatchForShare,
} from './settlements.repo.js';

export interface Batch {
  id: string;
  merchantId: string;
  processorId: string;
  processorName: string;
  statusId: number;
  openedAt: Date;
  closesAt: Date;
  settledAt: Date | null;
  externalBatchId: string | null;
  transactionCount: number;
  salesCents: number;
  refundsCents: number;
  netCents: number;
}

/**
 * Settlement batches: the table of batches and the rules of their lifecycle. Every captured payment and every refund
 * joins its processor's Open batch in the transaction that moves its money; closing (payments' settle-batch.ts, at
 * the processor's time slot or on request) freezes the totals here, and marks the batch Settled once the processor
 * closed it. An ACH file is a batch of its own (payments' ACH cutoff opens it, the file's settlement closes it).
 */
export class SettlementsService {
  private readonly openBatches = new Map<string, string>();

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  /**
   * The processor's Open batch, created on demand. The KEY SHARE lock lets any number of payments join at once,
   * while a closing batch (FOR UPDATE) waits for them and they, in turn, never join a batch that started closing.
   */
  async joinOpenBatch(tx: Sql, processor: PaymentProcessor, prefetched?: QueryResult): Promise<string> {
    for (let first = true; ; first = false) {
      const { rows } = first && prefetched ? prefetched : await tx.query(openBatchForShare(processor));
      if (rows[0]) return this.remember(processor.id, rows[0].id as string);
      const now = this.clock.now();
      const closesAt = nextDailySlot(now, processor.settlementTimeSlots) ?? new Date(now.getTime() + 24 * 3600 * 1000);
      const id = newId();
      const opened = await insertOpenBatch(tx, {
        id,
        merchantId: processor.merchantId,
        processorId: processor.id,
        openedAt: now,
        closesAt,
      });
      if (opened) {
        await closeBatchQueue.enqueue(tx, this.clock, { batchId: id }, { runAt: closesAt, singletonKey: id });
        return this.remember(processor.id, id);
      }
    }
  }

  /**
   * The Open batch this node last saw for the processor: a hint for a compare-and-set that checks the batch is
   * still Open (transactionQueries.saveIfPending), never trusted on its own.
   */
  knownOpenBatch(processorId: string): string | undefined {
    return this.openBatches.get(processorId);
  }

  private remember(processorId: string, batchId: string): string {
    if (this.openBatches.size > 100_000) this.openBatches.clear();
    this.openBatches.set(processorId, batchId);
    return batchId;
  }

  /** The first query of joinOpenBatch, for a caller that sends it along with others (`Tx.batch`). */
  openBatchQuery(processor: PaymentProcessor): QueryConfig {
    return openBatchForShare(processor);
  }

  findOpenBatchId(merchantId: string, processorId: string): Promise<string | undefined> {
    return findOpenBatchId(this.pool, merchantId, processorId);
  }

  /** The batch (by id, or the ACH file it belongs to) under the lock every change of its state takes. */
  lock(tx: Sql, where: { id: string } | { achFileId: string }): Promise<LockedBatch | undefined> {
    return lockBatch(tx, where);
  }

  /** Open → PendingSettlement with its totals frozen. */
  freeze(tx: Sql, batch: BatchRef, now: Date, totals: BatchTotals): Promise<void> {
    return freezeBatch(tx, batch, now, totals);
  }

  frozenTotals(tx: Sql, batch: BatchRef): Promise<BatchTotals> {
    return frozenTotals(tx, batch);
  }

  /** Settled: a card batch with the processor's reference, an ACH file's batch with its final totals. */
  markSettled(
    tx: Sql,
    batch: BatchRef,
    now: Date,
    closing: { externalBatchId: string } | { totals: BatchTotals },
  ): Promise<void> {
    return markBatchSettled(tx, batch, now, closing);
  }

  /** An ACH file's batch, opened with the file (its entries join it as the file takes them). */
  openFileBatch(tx: Sql, batch: FileBatch): Promise<void> {
    return insertFileBatch(tx, batch);
  }

  /** A batch that got no members after all. */
  discard(tx: Sql, batch: BatchRef): Promise<void> {
    return deleteBatch(tx, batch);
  }

  async find(batchId: string): Promise<Batch | undefined> {
    const { rows } = await this.pool.query(`${BATCH_SELECT} /* across merchants: by batch id */ WHERE b.id = $1`, [
      batchId,
    ]);
    return rows[0] ? toBatch(rows[0]) : undefined;
  }

  async list(filter: BatchFilter, page: PageRequest): Promise<{ items: Batch[]; total: number }> {
    const where = ['b.merchant_id = $1'];
    const params: unknown[] = [filter.merchantId];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (filter.batchIds) add((n) => `b.id = ANY(${n}::uuid[])`, filter.batchIds);
    if (filter.processorIds) add((n) => `b.processor_id = ANY(${n}::uuid[])`, filter.processorIds);
    if (filter.statusId !== undefined) add((n) => `b.status_id = ${n}`, filter.statusId);
    if (filter.statusIds) add((n) => `b.status_id = ANY(${n}::smallint[])`, filter.statusIds);
    if (filter.from) add((n) => `coalesce(b.settled_at, b.opened_at) >= ${n}`, filter.from);
    if (filter.to) add((n) => `coalesce(b.settled_at, b.opened_at) <= ${n}`, filter.to);
    if (page.search) {
      add(
        (n) => `(b.id::text ILIKE ${n} OR b.external_batch_id ILIKE ${n} OR p.name ILIKE ${n})`,
        likePattern(page.search),
      );
    }
    params.push(page.limit, page.offset);
    const { rows } = await this.pool.query(
      `${BATCH_SELECT} WHERE ${where.join(' AND ')} ${page.orderSql}
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const { rows: counted } = await this.pool.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM settlement_batches b JOIN merchant_processors p ON p.id = b.processor_id
       WHERE ${where.join(' AND ')}`,
      params.slice(0, -2),
    );
    return { items: rows.map(toBatch), total: counted[0]!.total };
  }
}

export interface BatchFilter {
  merchantId: string;
  batchIds?: string[];
  processorIds?: string[];
  statusId?: number;
  /** Any of these statuses (version 2 names a closing batch Open). */
  statusIds?: number[];
  from?: Date;
  to?: Date;
}

/** Open batches show live totals from their members; closed ones their frozen totals. */
const BATCH_SELECT = `
  SELECT b.id, b.merchant_id, b.processor_id, p.name AS processor_name, b.status_id, b.opened_at, b.closes_at,
         b.settled_at, b.external_batch_id,
         coalesce(b.transaction_count, live.transaction_count) AS transaction_count,
         coalesce(b.sales_cents, live.sales_cents) AS sales_cents,
         coalesce(b.refunds_cents, live.refunds_cents) AS refunds_cents
  FROM settlement_batches b
  JOIN merchant_processors p ON p.id = b.processor_id
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS transaction_count,
           coalesce(sum(t.captured_cents) FILTER (WHERE t.type_id IN (${sqlIds(...CARD_SALE_TYPES)})), 0)::bigint
             AS sales_cents,
           coalesce(sum(t.captured_cents) FILTER (WHERE t.type_id IN (${sqlIds(...CARD_REFUND_TYPES)})), 0)::bigint
             AS refunds_cents
    FROM transaction_amounts t WHERE t.batch_id = b.id AND b.status_id = ${BatchStatus.Open}) live ON true`;

function toBatch(row: Record<string, unknown>): Batch {
  const sales = Number(row.sales_cents);
  const refunds = Number(row.refunds_cents);
  return {
    id: row.id as string,
    merchantId: row.merchant_id as string,
    processorId: row.processor_id as string,
    processorName: row.processor_name as string,
    statusId: row.status_id as number,
    openedAt: row.opened_at as Date,
    closesAt: row.closes_at as Date,
    settledAt: row.settled_at as Date | null,
    externalBatchId: row.external_batch_id as string | null,
    transactionCount: Number(row.transaction_count),
    salesCents: sales,
    refundsCents: refunds,
    netCents: sales - refunds,
  };
}

export const BATCH_LIST = {
  orderBy: {
    batchDateTime: 'coalesce(b.settled_at, b.opened_at)',
    id: 'b.id',
    statusId: 'b.status_id',
    paymentProcessorName: 'p.name',
    transactionCount: 'transaction_count',
    salesAmount: 'sales_cents',
    refundsAmount: 'refunds_cents',
    netAmount: '(coalesce(b.sales_cents, live.sales_cents) - coalesce(b.refunds_cents, live.refunds_cents))',
    // The published version 2 revision's names of the same keys.
    createdOn: 'coalesce(b.settled_at, b.opened_at)',
    batchStatus: 'b.status_id',
    totalSalesAmount: 'sales_cents',
    totalRefundsAmount: 'refunds_cents',
    totalNetAmount: '(coalesce(b.sales_cents, live.sales_cents) - coalesce(b.refunds_cents, live.refunds_cents))',
  },
  defaultOrderBy: 'batchDateTime',
  tieBreaker: 'b.id',
};
