import type { QueryConfig, QueryResult } from 'pg';
import type { Connectors } from '../../connectors/registry.js';
import { callWithDeadline } from '../../connectors/registry.js';
import type { Clock } from '../../platform/clock/clock.js';
import { nextDailySlot } from '../../platform/clock/zoned.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { withTransaction } from '../../platform/db/tx.js';
import { recordEvent } from '../../platform/events/outbox.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { Job, QueueDefinition } from '../../platform/jobs/runner.js';
import { fromCents } from '../../platform/money.js';
import { type Ledger, lines } from '../ledger/ledger.js';
import type { PaymentProcessor } from '../merchants/merchants.model.js';
import {
  CARD_REFUND_TYPES,
  CARD_SALE_TYPES,
  REFUND_TYPES,
  SALE_TYPES,
  TransactionStatus,
} from '../payments/transactions.model.js';

export const BatchStatus = { Open: 1, Settled: 2, PendingSettlement: 3 } as const;
export const BATCH_STATUS_NAMES: Record<number, string> = { 1: 'Open', 2: 'Settled', 3: 'PendingSettlement' };
export const CLOSE_BATCH_QUEUE = 'settlements.close-batch';

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

/** The sums a batch's totals must equal. */
export const MEMBER_TOTALS = `
  SELECT count(*)::int AS transaction_count,
         coalesce(sum(captured_cents) FILTER (WHERE type_id IN (${sqlIds(...SALE_TYPES)})), 0)::bigint AS sales_cents,
         coalesce(sum(captured_cents) FILTER (WHERE type_id IN (${sqlIds(...REFUND_TYPES)})), 0)::bigint AS refunds_cents
  FROM transactions WHERE batch_id = $1`;

export type CloseResult =
  | { kind: 'settled'; batch: Batch }
  | { kind: 'nothing-open' }
  | { kind: 'busy' }
  | { kind: 'processor-error'; message: string };

/**
 * Settlement batches. Every captured payment and every refund joins its processor's Open batch in the same
 * transaction that captures it; closing (at the processor's time slot, or on request) freezes the totals, asks the
 * processor to close, then marks the batch and its transactions Settled and posts the payout to the ledger.
 */
export class SettlementsService {
  private readonly openBatches = new Map<string, string>();

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly connectors: Connectors,
    private readonly ledger: Ledger,
  ) {}

  /**
   * The processor's Open batch, created on demand. The KEY SHARE lock lets any number of payments join at once,
   * while a closing batch (FOR UPDATE) waits for them and they, in turn, never join a batch that started closing.
   */
  async joinOpenBatch(tx: Sql, processor: PaymentProcessor, prefetched?: QueryResult): Promise<string> {
    for (let first = true; ; first = false) {
      const { rows } = first && prefetched ? prefetched : await tx.query(this.openBatchQuery(processor));
      if (rows[0]) return this.remember(processor.id, rows[0].id as string);
      const now = this.clock.now();
      const closesAt = nextDailySlot(now, processor.settlementTimeSlots) ?? new Date(now.getTime() + 24 * 3600 * 1000);
      const id = newId();
      const inserted = await tx.query(
        `INSERT INTO settlement_batches (id, merchant_id, processor_id, status_id, opened_at, closes_at)
         VALUES ($1, $2, $3, ${BatchStatus.Open}, $4, $5) ON CONFLICT DO NOTHING`,
        [id, processor.merchantId, processor.id, now, closesAt],
      );
      if (inserted.rowCount === 1) {
        await enqueue(tx, this.clock, {
          queue: CLOSE_BATCH_QUEUE,
          payload: { batchId: id },
          runAt: closesAt,
          singletonKey: id,
        });
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
    return {
      name: 'batch.open-for-share',
      text: `SELECT id FROM settlement_batches WHERE processor_id = $1 AND status_id = ${BatchStatus.Open} FOR KEY SHARE`,
      values: [processor.id],
    };
  }

  /** Closes the processor's Open batch now (POST /settle). */
  async closeOpenBatch(merchantId: string, processorId: string): Promise<CloseResult> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM settlement_batches WHERE processor_id = $1 AND merchant_id = $2 AND status_id = ${BatchStatus.Open}`,
      [processorId, merchantId],
    );
    if (!rows[0]) return { kind: 'nothing-open' };
    return this.close(rows[0].id);
  }

  async close(batchId: string): Promise<CloseResult> {
    // Step 1: freeze. Payments joining from now on open a new batch.
    const frozen = await withTransaction(this.pool, async (tx) => {
      const { rows } = await tx.query<{ status_id: number; processor_id: string; merchant_id: string }>(
        'SELECT status_id, processor_id, merchant_id FROM settlement_batches WHERE id = $1 FOR UPDATE',
        [batchId],
      );
      const batch = rows[0];
      if (!batch) return { kind: 'gone' as const };
      if (batch.status_id === BatchStatus.Settled) return { kind: 'done' as const };
      if (batch.status_id === BatchStatus.Open) {
        // A void in flight would change the batch; wait for it to finish.
        const busy = await tx.query(
          'SELECT 1 FROM transactions WHERE batch_id = $1 AND pending_operation IS NOT NULL LIMIT 1',
          [batchId],
        );
        if (busy.rowCount) return { kind: 'busy' as const };
        const totals = (
          await tx.query<{ transaction_count: number; sales_cents: number; refunds_cents: number }>(MEMBER_TOTALS, [
            batchId,
          ])
        ).rows[0]!;
        await tx.query(
          `UPDATE settlement_batches SET status_id = ${BatchStatus.PendingSettlement}, closing_started_at = $2,
             transaction_count = $3,
             sales_cents = $4, refunds_cents = $5, net_cents = $4::bigint - $5::bigint
           WHERE id = $1`,
          [batchId, this.clock.now(), totals.transaction_count, totals.sales_cents, totals.refunds_cents],
        );
      }
      const { rows: processors } = await tx.query<{ connector: string }>(
        'SELECT connector FROM payment_processors WHERE id = $1',
        [batch.processor_id],
      );
      const { rows: frozenRows } = await tx.query<{
        transaction_count: number;
        sales_cents: number;
        refunds_cents: number;
      }>('SELECT transaction_count, sales_cents, refunds_cents FROM settlement_batches WHERE id = $1', [batchId]);
      return {
        kind: 'frozen' as const,
        merchantId: batch.merchant_id,
        processorId: batch.processor_id,
        connector: processors[0]!.connector,
        ...frozenRows[0]!,
      };
    });
    if (frozen.kind === 'gone') return { kind: 'nothing-open' };
    if (frozen.kind === 'busy') return { kind: 'busy' };
    if (frozen.kind === 'done') return { kind: 'settled', batch: (await this.find(batchId))! };

    // Step 2: the processor closes its batch (outside any database transaction).
    const outcome = await callWithDeadline((signal) =>
      this.connectors.card(frozen.connector).closeBatch(
        {
          merchantId: frozen.merchantId,
          processorId: frozen.processorId,
          batchId,
          salesCents: frozen.sales_cents,
          refundsCents: frozen.refunds_cents,
          transactionCount: frozen.transaction_count,
        },
        { signal },
      ),
    );
    if (outcome.kind !== 'approved') return { kind: 'processor-error', message: outcome.message };

    // Step 3: settled.
    await withTransaction(this.pool, async (tx) => {
      const { rows } = await tx.query<{ status_id: number; net_cents: number }>(
        'SELECT status_id, net_cents FROM settlement_batches WHERE id = $1 FOR UPDATE',
        [batchId],
      );
      if (rows[0]?.status_id !== BatchStatus.PendingSettlement) return;
      const now = this.clock.now();
      await tx.query(
        `UPDATE settlement_batches SET status_id = ${BatchStatus.Settled}, settled_at = $2, external_batch_id = $3
         WHERE id = $1`,
        [batchId, now, outcome.networkReference],
      );
      // Captured payments and completed refunds become Settled; a fully refunded payment keeps saying Refunded.
      await tx.query(
        `UPDATE transactions SET settled_at = $2, modified_at = $2,
           status_id = CASE WHEN status_id = ${TransactionStatus.Captured}
               OR (type_id IN (${sqlIds(...CARD_REFUND_TYPES)}) AND status_id = ${TransactionStatus.Refunded})
             THEN ${TransactionStatus.Settled} ELSE status_id END
         WHERE batch_id = $1`,
        [batchId, now],
      );
      await this.ledger.post(tx, {
        merchantId: frozen.merchantId,
        kind: 'settlement',
        batchId,
        lines: lines.settle(rows[0].net_cents),
      });
      await recordEvent(tx, this.clock, {
        type: 'settlement.batch.completed',
        merchantId: frozen.merchantId,
        resourceType: 'settlement',
        resourceId: batchId,
        data: {
          batchId,
          paymentProcessorId: frozen.processorId,
          transactionCount: frozen.transaction_count,
          salesAmount: fromCents(frozen.sales_cents),
          refundsAmount: fromCents(frozen.refunds_cents),
          netAmount: fromCents(rows[0].net_cents),
        },
      });
    });
    return { kind: 'settled', batch: (await this.find(batchId))! };
  }

  /** The batch-closing job: due at the batch's time slot; retried while a void is in flight or the processor errs. */
  queue(): QueueDefinition {
    return {
      name: CLOSE_BATCH_QUEUE,
      retryDelaySeconds: (attempt) => Math.min(5 * 2 ** (attempt - 1), 600),
      handle: async (job: Job) => {
        const result = await this.close(String(job.payload.batchId));
        if (result.kind === 'busy') throw new Error('A void is in flight in this batch; closing again shortly');
        if (result.kind === 'processor-error') throw new Error(`Processor refused to close: ${result.message}`);
      },
    };
  }

  async find(batchId: string): Promise<Batch | undefined> {
    const { rows } = await this.pool.query(`${BATCH_SELECT} WHERE b.id = $1`, [batchId]);
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
      `SELECT count(*)::int AS total FROM settlement_batches b JOIN payment_processors p ON p.id = b.processor_id
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
  JOIN payment_processors p ON p.id = b.processor_id
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS transaction_count,
           coalesce(sum(t.captured_cents) FILTER (WHERE t.type_id IN (${sqlIds(...CARD_SALE_TYPES)})), 0)::bigint
             AS sales_cents,
           coalesce(sum(t.captured_cents) FILTER (WHERE t.type_id IN (${sqlIds(...CARD_REFUND_TYPES)})), 0)::bigint
             AS refunds_cents
    FROM transactions t WHERE t.batch_id = b.id AND b.status_id = ${BatchStatus.Open}) live ON true`;

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
  },
  defaultOrderBy: 'batchDateTime',
  tieBreaker: 'b.id',
};
