import { newId } from '../../../platform/crypto/ids.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { newTransaction, plainAmount } from '../new-transaction.js';
import { cardProcessor } from '../processors.js';
import { TransactionStatus } from '../transactions.model.js';
import { findByIdempotencyId, insertUnlessClaimed } from '../transactions.repo.js';
import type { CardContext, OperationResult } from './card-context.js';
import { resume } from './reconcile.js';

/** A payment a source started under an idempotency id and lost track of, and what to record if none was made. */
export interface ClaimToClose {
  merchantId: string;
  claimId: string;
  createMethodId: number;
  sourceId: string | null;
  processorId: string | null;
  /** Sale or Authorization: what the lost payment was. */
  typeId: number;
  /** The amount the lost payment was for (the failed record shows it; nothing moves). */
  amountCents: number;
  referenceId: string | null;
  cardDataSourceId: number;
  /** Why no payment was made, as the failed transaction's details message. */
  reason: string;
}

/**
 * Ends a source's lost card payment once and for all. The payment made under the claim is the answer (settled with
 * the processor first if its answer was lost). When none was recorded, a Failed sale is recorded under the claim in
 * its place: the idempotency id is unique, so a request still in flight under it (a paused node waking up, a
 * request stalled through a failover) finds that record when it gets to its own and charges nothing. Looking and
 * giving up separately would let such a request charge after the source had already told the payer it had not.
 */
export async function closeClaim(ctx: CardContext, claim: ClaimToClose): Promise<OperationResult> {
  const made = await findByIdempotencyId(ctx.deps.pool, claim.merchantId, claim.claimId);
  if (made) return resume(ctx, made);
  const configuration = await ctx.deps.merchants.getConfiguration(claim.merchantId);
  const now = ctx.clock.now();
  const txn = newTransaction({
    id: newId(),
    merchantId: claim.merchantId,
    processorId: cardProcessor(configuration, claim.processorId).id,
    method: 'card',
    typeId: claim.typeId,
    statusId: TransactionStatus.Failed,
    createMethodId: claim.createMethodId,
    sourceId: claim.sourceId,
    idempotencyId: claim.claimId,
    cardDataSourceId: claim.cardDataSourceId,
    referenceId: claim.referenceId,
    amounts: plainAmount(claim.amountCents),
    detailsMessage: claim.reason,
    createdAt: now,
  });
  const recorded = await withTransaction(ctx.deps.pool, async (tx) => {
    if (!(await insertUnlessClaimed(tx, txn))) return false;
    ctx.event(tx, 'transaction.card.failed', txn);
    return true;
  });
  if (recorded) return { transaction: txn, typeId: txn.typeId, outcome: null, processedCents: 0 };
  // The request got there between the look and the insert: its payment is the answer.
  return resume(ctx, (await findByIdempotencyId(ctx.deps.pool, claim.merchantId, claim.claimId))!);
}
