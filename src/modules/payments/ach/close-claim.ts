import { newId } from '../../../platform/crypto/ids.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { newTransaction, plainAmount } from '../new-transaction.js';
import { activeProcessor } from '../processors.js';
import { type Transaction, TransactionType } from '../transactions.model.js';
import { findByIdempotencyId, insertUnlessClaimed } from '../transactions.repo.js';
import { AchStatus } from './ach.model.js';
import type { AchContext } from './ach-context.js';

/** An ACH debit a source started under an idempotency id and lost track of (its node died). */
export interface AchClaimToClose {
  merchantId: string;
  claimId: string;
  createMethodId: number;
  sourceId: string | null;
  processorId: string | null;
  amountCents: number;
  referenceId: string | null;
  reason: string;
}

/**
 * Ends a source's lost ACH debit once and for all: the debit made under the claim, or a Failed one recorded under it
 * in its place (nothing is debited), so that a request still on its way under that id (a node that was only stalled)
 * meets it and makes none. The unique idempotency id decides which came first.
 */
export async function closeAchClaim(ctx: AchContext, claim: AchClaimToClose): Promise<Transaction> {
  const made = await findByIdempotencyId(ctx.deps.pool, claim.merchantId, claim.claimId);
  if (made) return made;
  const configuration = await ctx.deps.merchants.getConfiguration(claim.merchantId);
  const txn = newTransaction({
    id: newId(),
    merchantId: claim.merchantId,
    processorId: activeProcessor(configuration, 'ach', claim.processorId).id,
    method: 'ach',
    typeId: TransactionType.AchDebit,
    statusId: AchStatus.Failed,
    createMethodId: claim.createMethodId,
    sourceId: claim.sourceId,
    idempotencyId: claim.claimId,
    referenceId: claim.referenceId,
    amounts: plainAmount(claim.amountCents),
    detailsMessage: claim.reason,
    createdAt: ctx.clock.now(),
  });
  const recorded = await withTransaction(ctx.deps.pool, async (tx) => {
    if (!(await insertUnlessClaimed(tx, txn))) return false;
    ctx.event(tx, 'transaction.ach.failed', txn);
    return true;
  });
  if (recorded) return txn;
  return (await findByIdempotencyId(ctx.deps.pool, claim.merchantId, claim.claimId))!;
}
