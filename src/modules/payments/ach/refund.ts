import { newId } from '../../../platform/crypto/ids.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import { decryptWith, encryptWith } from '../../vault/data-keys.js';
import { plainAmount } from '../new-transaction.js';
import type { RequestClaim } from '../payment-request.js';
import { STATUS_NAMES } from '../transactions.model.js';
import { insertTransaction, TX_COLUMNS, toTransaction } from '../transactions.repo.js';
import { type AchResponse, AchStatus, AchType } from './ach.model.js';
import type { AchContext } from './ach-context.js';
import { achResponse } from './ach-response.js';
import { nextCutoff } from './ach-schedule.js';
import { createdEarlier, createdMeanwhile } from './create.js';
import { newAchTransaction } from './new-ach-transaction.js';

/** Refund of a cleared debit: a reversing credit to the same account (type AchRefund); the original is Refunded. */
export async function refundAch(
  ctx: AchContext,
  merchantId: string,
  id: string,
  claim?: RequestClaim,
): Promise<AchResponse> {
  const earlier = await createdEarlier(ctx, merchantId, claim);
  if (earlier) return achResponse(earlier);
  const now = ctx.clock.now();
  const refund = await withTransaction(ctx.deps.pool, async (tx) => {
    const { rows } = await tx.query(
      `UPDATE transactions t SET status_id = ${AchStatus.Refunded}, refunded_cents = captured_cents, modified_at = $3
       WHERE id = $1 AND merchant_id = $2 AND method = 'ach' AND type_id = ${AchType.Debit}
         AND status_id = ${AchStatus.Cleared}
       RETURNING ${TX_COLUMNS}`,
      [id, merchantId, now],
    );
    if (!rows[0]) {
      const current = await tx.query<{ status_id: number; type_id: number }>(
        `SELECT status_id, type_id FROM transactions WHERE id = $1 AND merchant_id = $2 AND method = 'ach'`,
        [id, merchantId],
      );
      const row = current.rows[0];
      if (!row) throw new NotFoundError('Transaction', id);
      const why =
        row.type_id !== AchType.Debit
          ? 'Only an ACH debit can be refunded.'
          : `Only a Cleared ACH debit can be refunded; its status is ${STATUS_NAMES[row.status_id]}.`;
      throw new ValidationError({ transactionId: [why] }, why, 'InvalidTransactionStatus');
    }
    const original = toTransaction(rows[0]);
    await ctx.deps.sources.refunded(tx, original);
    const entry = await tx.query<{ account_sealed: Buffer; data_key_version: number }>(
      'SELECT account_sealed, data_key_version FROM ach_entries WHERE merchant_id = $2 AND transaction_id = $1',
      [id, merchantId],
    );
    const source = entry.rows[0]!;
    const dataKey = await ctx.deps.vault.dataKeys.get(merchantId, source.data_key_version, tx);
    const accountNumber = decryptWith(dataKey, source.account_sealed, id);
    const current = await ctx.deps.vault.dataKeys.current(merchantId, tx);
    const refundId = newId();
    const windowAt = nextCutoff(now, await ctx.processorSettings(original.processorId, tx), false);
    const refund = newAchTransaction({
      id: refundId,
      merchantId,
      processorId: original.processorId,
      typeId: AchType.Refund,
      originalTransactionId: id,
      idempotencyId: claim?.id ?? null,
      customerId: original.customerId,
      paymentMethodId: original.paymentMethodId,
      createMethodId: original.createMethodId,
      amounts: plainAmount(original.totalCents),
      authorizedCents: original.totalCents,
      panMask: original.panMask,
      billingAddress: original.billingAddress,
      shippingAddress: original.shippingAddress,
      contactInfo: original.contactInfo,
      createdAt: now,
    });
    await insertTransaction(tx, refund);
    await tx.query(
      `INSERT INTO ach_entries (transaction_id, merchant_id, processor_id, sec_code, is_debit, routing_number,
         account_mask, account_sealed, data_key_version, account_type_id, account_holder_type_id, receiver_name,
         company_name, tax_id, requester_ip, is_faster_processing, window_at)
       SELECT $2, merchant_id, processor_id, sec_code, false, routing_number, account_mask, $3, $4,
              account_type_id, account_holder_type_id, receiver_name, company_name, tax_id, requester_ip, false, $5
       FROM ach_entries WHERE transaction_id = $1`,
      [id, refundId, encryptWith(current, accountNumber, refundId), current.version, windowAt],
    );
    ctx.event(tx, 'transaction.ach.refunded', original, { refundTransactionId: refundId });
    ctx.event(tx, 'transaction.ach.scheduled', refund, { originalTransactionId: id });
    await ctx.scheduleCutoff(tx, original.processorId, windowAt);
    return refund;
  }).catch((error: unknown) => createdMeanwhile(ctx, error, merchantId, claim));
  return achResponse(refund);
}
