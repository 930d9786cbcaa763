import { withTransaction } from '../../../platform/db/tx.js';
import { fromCents } from '../../../platform/money.js';
import { eventsInsert } from '../../events/outbox.js';
import { lines } from '../../ledger/ledger.js';
import { BatchStatus } from '../../settlements/settlements.model.js';
import { batchMemberTotals, hasEntriesOutstanding, markBatchMembersSettled } from '../batch-members.repo.js';
import type { AchContext } from './ach-context.js';

/** Closes a file's batch once no entry can still clear or return: totals frozen, the net paid out. */
export async function settleFileBatch(ctx: AchContext, fileId: string): Promise<boolean> {
  return withTransaction(ctx.deps.pool, async (tx) => {
    const batch = await ctx.deps.settlements.lock(tx, { achFileId: fileId });
    if (!batch || batch.statusId === BatchStatus.Settled) return false;
    if (await hasEntriesOutstanding(tx, batch)) return false;
    const totals = await batchMemberTotals(tx, batch);
    const net = totals.salesCents - totals.refundsCents;
    const now = ctx.clock.now();
    await ctx.deps.settlements.markSettled(tx, batch, now, { totals });
    await markBatchMembersSettled(tx, batch, now);
    await ctx.deps.ledger.post(tx, {
      merchantId: batch.merchantId,
      kind: 'settlement',
      batchId: batch.id,
      lines: lines.settle(net),
    });
    tx.defer(
      eventsInsert(ctx.clock, [
        {
          type: 'settlement.batch.completed',
          merchantId: batch.merchantId,
          resourceType: 'settlement',
          resourceId: batch.id,
          data: {
            batchId: batch.id,
            transactionCount: totals.transactionCount,
            netAmount: fromCents(net),
            salesAmount: fromCents(totals.salesCents),
            refundsAmount: fromCents(totals.refundsCents),
          },
        },
      ]).query,
    );
    return true;
  });
}
