import { BatchStatus } from '../../settlements/settlements.model.js';
import type { RequestClaim } from '../payment-request.js';
import { TransactionStatus, TransactionType } from '../transactions.model.js';
import { type CardContext, followUp, illegal, type OperationResult, statusName } from './card-context.js';
import { operate } from './follow-up.js';

export async function voidPayment(
  ctx: CardContext,
  merchantId: string,
  id: string,
  claim?: RequestClaim,
): Promise<OperationResult> {
  return operate(
    ctx,
    merchantId,
    id,
    TransactionType.Void,
    {
      operation: 'void',
      guard: async (t, tx) => {
        if (t.statusId === TransactionStatus.Authorized) return { amountCents: t.authorizedCents };
        if (t.statusId !== TransactionStatus.Captured) {
          throw illegal(
            t.statusId === TransactionStatus.Settled || t.settledAt
              ? 'A settled transaction cannot be voided; refund it instead.'
              : `A ${statusName(t.statusId)} transaction cannot be voided.`,
          );
        }
        if (t.refundedCents > 0) throw illegal('A transaction with refunds cannot be voided; refund the rest instead.');
        const { rows } = await tx.query<{ status_id: number }>(
          'SELECT status_id FROM batch_states WHERE merchant_id = $2 AND id = $1 FOR KEY SHARE',
          [t.batchId, t.merchantId],
        );
        if (rows[0]?.status_id !== BatchStatus.Open)
          throw illegal('The batch of this transaction is being settled; refund it instead.');
        return { amountCents: t.capturedCents };
      },
      call: (connector, t, pending, signal) => connector.void(followUp(t, pending), { signal }),
    },
    claim,
  );
}
