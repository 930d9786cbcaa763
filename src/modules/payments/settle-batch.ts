import type { Connectors } from '../../connectors/registry.js';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import type { QueueDefinition } from '../../platform/jobs/runner.js';
import { fromCents } from '../../platform/money.js';
import { recordEvent } from '../events/outbox.js';
import { type Ledger, lines } from '../ledger/ledger.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { BatchStatus, closeBatchQueue } from '../settlements/settlements.model.js';
import type { Batch, SettlementsService } from '../settlements/settlements.service.js';
import { batchMemberTotals, hasOperationInFlight, settleCardBatchMembers } from './batch-members.repo.js';
import { runOperation } from './driver.js';

export interface SettleBatchDeps {
  pool: Pool;
  clock: Clock;
  connectors: Connectors;
  ledger: Ledger;
  settlements: SettlementsService;
  merchants: MerchantsService;
}

export type CloseResult =
  | { kind: 'settled'; batch: Batch }
  | { kind: 'nothing-open' }
  | { kind: 'busy' }
  | { kind: 'processor-error'; message: string };

interface Frozen {
  merchantId: string;
  processorId: string;
  connector: string;
  transactionCount: number;
  salesCents: number;
  refundsCents: number;
}

/** Closes the processor's Open card batch now (POST /settle). */
export async function closeOpenBatch(
  deps: SettleBatchDeps,
  merchantId: string,
  processorId: string,
): Promise<CloseResult> {
  const batchId = await deps.settlements.findOpenBatchId(merchantId, processorId);
  return batchId ? closeBatch(deps, batchId) : { kind: 'nothing-open' };
}

/**
 * Closing a card batch: its totals are frozen (payments from then on open a new batch), the processor closes its
 * batch, then the batch and its transactions are Settled and the payout is posted. Run by the operation driver like
 * every processor call; a batch with an operation in flight (a void) waits (busy) so its totals cannot change.
 */
export function closeBatch(deps: SettleBatchDeps, batchId: string): Promise<CloseResult> {
  return runOperation<Frozen, CloseResult>({
    start: async () => {
      const frozen = await withTransaction(deps.pool, async (tx) => {
        const batch = await deps.settlements.lock(tx, { id: batchId });
        if (!batch) return 'gone' as const;
        if (batch.statusId === BatchStatus.Settled) return 'done' as const;
        if (batch.statusId === BatchStatus.Open) {
          if (await hasOperationInFlight(tx, batch)) return 'busy' as const;
          await deps.settlements.freeze(tx, batch, deps.clock.now(), await batchMemberTotals(tx, batch));
        }
        const processor = await deps.merchants.processorWithSettings(batch.processorId, tx);
        return {
          merchantId: batch.merchantId,
          processorId: batch.processorId,
          connector: processor!.connector,
          ...(await deps.settlements.frozenTotals(tx, batch)),
        };
      });
      if (frozen === 'gone') return { answer: { kind: 'nothing-open' } };
      if (frozen === 'busy') return { answer: { kind: 'busy' } };
      if (frozen === 'done') return { answer: { kind: 'settled', batch: (await deps.settlements.find(batchId))! } };
      return { call: frozen };
    },
    call: (frozen, signal) =>
      deps.connectors.card(frozen.connector).closeBatch(
        {
          merchantId: frozen.merchantId,
          processorId: frozen.processorId,
          batchId,
          salesCents: frozen.salesCents,
          refundsCents: frozen.refundsCents,
          transactionCount: frozen.transactionCount,
        },
        { signal },
      ),
    finish: async (frozen, outcome) => {
      if (outcome.kind !== 'approved') return { kind: 'processor-error', message: outcome.message };
      await withTransaction(deps.pool, async (tx) => {
        const batch = await deps.settlements.lock(tx, { id: batchId });
        if (batch?.statusId !== BatchStatus.PendingSettlement) return;
        const now = deps.clock.now();
        await deps.settlements.markSettled(tx, batch, now, { externalBatchId: outcome.networkReference });
        await settleCardBatchMembers(tx, batch, now);
        await deps.ledger.post(tx, {
          merchantId: frozen.merchantId,
          kind: 'settlement',
          batchId,
          lines: lines.settle(batch.netCents!),
        });
        await recordEvent(tx, deps.clock, {
          type: 'settlement.batch.completed',
          merchantId: frozen.merchantId,
          resourceType: 'settlement',
          resourceId: batchId,
          data: {
            batchId,
            paymentProcessorId: frozen.processorId,
            transactionCount: frozen.transactionCount,
            salesAmount: fromCents(frozen.salesCents),
            refundsAmount: fromCents(frozen.refundsCents),
            netAmount: fromCents(batch.netCents!),
          },
        });
      });
      return { kind: 'settled', batch: (await deps.settlements.find(batchId))! };
    },
  });
}

/** The batch-closing job: due at the batch's time slot; retried while a void is in flight or the processor errs. */
export function closeBatchHandler(deps: SettleBatchDeps): QueueDefinition {
  return closeBatchQueue.handler(
    async ({ batchId }) => {
      const result = await closeBatch(deps, batchId);
      if (result.kind === 'busy') throw new Error('A void is in flight in this batch; closing again shortly');
      if (result.kind === 'processor-error') throw new Error(`Processor refused to close: ${result.message}`);
    },
    { retryDelaySeconds: (attempt) => Math.min(5 * 2 ** (attempt - 1), 600) },
  );
}
