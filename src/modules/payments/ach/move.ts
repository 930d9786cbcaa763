import { withTransaction } from '../../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import type { RequestClaim } from '../payment-request.js';
import type { TransactionEventType } from '../transaction-events.js';
import { STATUS_NAMES } from '../transactions.model.js';
import { TX_COLUMNS, toTransaction } from '../transactions.repo.js';
import { type AchResponse, AchStatus, AchType } from './ach.model.js';
import type { AchContext } from './ach-context.js';
import { achResponse } from './ach-response.js';
import { nextCutoff } from './ach-schedule.js';

export function hold(ctx: AchContext, merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
  return move(ctx, merchantId, id, claim, {
    from: [AchStatus.Scheduled],
    to: AchStatus.Held,
    responseType: AchType.Hold,
    event: 'transaction.ach.held',
    refusal: 'Only a Scheduled ACH transaction can be put on hold.',
  });
}

export function unhold(ctx: AchContext, merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
  return move(ctx, merchantId, id, claim, {
    from: [AchStatus.Held],
    to: AchStatus.Scheduled,
    responseType: AchType.UnHold,
    event: 'payment.ach.released',
    refusal: 'Only a Held ACH transaction can be released.',
    // Released after its window passed, it waits for the next one.
    reschedule: true,
  });
}

export function voidAch(ctx: AchContext, merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
  return move(ctx, merchantId, id, claim, {
    from: [AchStatus.Scheduled, AchStatus.Held],
    to: AchStatus.Cancelled,
    responseType: AchType.Cancel,
    event: 'transaction.ach.cancelled',
    refusal:
      'Only a Scheduled or Held ACH transaction can be voided: once submitted to the ACH network it cannot be withdrawn; refund it after it clears.',
  });
}

/**
 * A state move, as one compare-and-set. A retry whose first attempt was cut off (RequestClaim.recovering) and finds
 * the transaction already where the move leads answers with it: the first attempt committed before its node died.
 */
export async function move(
  ctx: AchContext,
  merchantId: string,
  id: string,
  claim: RequestClaim | undefined,
  rule: {
    from: number[];
    to: number;
    responseType: number;
    event: TransactionEventType;
    refusal: string;
    reschedule?: boolean;
  },
): Promise<AchResponse> {
  return withTransaction(ctx.deps.pool, async (tx) => {
    const now = ctx.clock.now();
    const { rows } = await tx.query(
      `UPDATE transactions t SET status_id = $4::smallint, modified_at = $5,
         voided_at = CASE WHEN $4::smallint = ${AchStatus.Cancelled} THEN $5 ELSE voided_at END
       WHERE id = $1 AND merchant_id = $2 AND method = 'ach' AND status_id = ANY($3::smallint[])
       RETURNING ${TX_COLUMNS}`,
      [id, merchantId, rule.from, rule.to, now],
    );
    if (!rows[0]) {
      const current = await tx.query(
        `SELECT ${TX_COLUMNS} FROM transactions t WHERE id = $1 AND merchant_id = $2 AND method = 'ach'`,
        [id, merchantId],
      );
      if (!current.rows[0]) throw new NotFoundError('Transaction', id);
      const found = toTransaction(current.rows[0]);
      if (claim?.recovering && found.statusId === rule.to) return achResponse(found, rule.responseType);
      throw new ValidationError(
        { transactionId: [`${rule.refusal} Its status is ${STATUS_NAMES[found.statusId]}.`] },
        rule.refusal,
        'InvalidTransactionStatus',
      );
    }
    const t = toTransaction(rows[0]);
    if (rule.reschedule) {
      const entry = (
        await tx.query(
          'SELECT processor_id, is_faster_processing FROM ach_entries WHERE merchant_id = $2 AND transaction_id = $1',
          [id, t.merchantId],
        )
      ).rows[0] as { processor_id: string; is_faster_processing: boolean };
      const settings = await ctx.processorSettings(entry.processor_id, tx);
      const windowAt = nextCutoff(now, settings, entry.is_faster_processing);
      await tx.query('UPDATE ach_entries SET window_at = $2 WHERE merchant_id = $3 AND transaction_id = $1', [
        id,
        windowAt,
        t.merchantId,
      ]);
      await ctx.scheduleCutoff(tx, entry.processor_id, windowAt);
    }
    ctx.event(tx, rule.event, t);
    return achResponse(t, rule.responseType);
  });
}
