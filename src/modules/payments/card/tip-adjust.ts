import { ValidationError } from '../../../platform/http/errors.js';
import { BatchStatus } from '../../settlements/settlements.model.js';
import type { RequestClaim } from '../payment-request.js';
import { TransactionStatus, TransactionType } from '../transactions.model.js';
import { type CardContext, followUp, illegal, type OperationResult, statusName } from './card-context.js';
import { operate } from './follow-up.js';

export async function tipAdjust(
  ctx: CardContext,
  merchantId: string,
  id: string,
  tipCents: number,
  claim?: RequestClaim,
): Promise<OperationResult> {
  const configuration = await ctx.deps.merchants.getConfiguration(merchantId);
  if (!configuration.settings.isTipsEnabled) {
    throw ValidationError.field('tipAmount', 'Tips are not enabled for this merchant.');
  }
  return operate(
    ctx,
    merchantId,
    id,
    TransactionType.TipAdjustment,
    {
      operation: 'tip-adjust',
      guard: async (t, tx) => {
        if (t.typeId !== TransactionType.Sale && t.typeId !== TransactionType.Authorization) {
          throw illegal('Only a sale or an authorization takes a tip.');
        }
        if (t.statusId !== TransactionStatus.Authorized && t.statusId !== TransactionStatus.Captured) {
          throw illegal(`A ${statusName(t.statusId)} transaction cannot be tip-adjusted.`);
        }
        if (t.refundedCents > 0) throw illegal('A transaction with refunds cannot be tip-adjusted.');
        if (t.batchId) {
          const { rows } = await tx.query<{ status_id: number }>(
            'SELECT status_id FROM batch_states WHERE merchant_id = $2 AND id = $1 FOR KEY SHARE',
            [t.batchId, t.merchantId],
          );
          if (rows[0]?.status_id !== BatchStatus.Open) throw illegal('The batch of this transaction is being settled.');
        }
        const newTotal = t.totalCents - t.tipCents + tipCents;
        const max = configuration.settings.maxTransactionAmountCents;
        if (max !== null && newTotal > max) {
          throw ValidationError.field('tipAmount', "The new total exceeds the merchant's maximum transaction amount.");
        }
        return { amountCents: newTotal, tipCents };
      },
      call: (connector, t, pending, signal) => connector.tipAdjust(followUp(t, pending), { signal }),
    },
    claim,
  );
}
