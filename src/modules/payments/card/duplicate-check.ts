import { createHash } from 'node:crypto';
import { ValidationError } from '../../../platform/http/errors.js';
import type { UsableCard } from '../../vault/vault.model.js';
import type { PaymentCommand } from '../payment-request.js';
import { CreateMethod, type Transaction, TransactionStatus } from '../transactions.model.js';
import {
  findByIdempotencyId,
  findDuplicateKeyHolder,
  isIdempotencyIdTaken,
  releaseDuplicateKey,
} from '../transactions.repo.js';
import type { CardContext } from './card-context.js';

/**
 * tx1 of a new payment: one statement, the insert with its duplicate check (a unique key). A payment holding the
 * key blocks this one while it is within the window and was not declined or failed; past the window it gives the
 * key up here, since nothing else needs to clean keys up. The one payment the check never refuses is the one this
 * very request (its idempotency claim) created: a retry whose first attempt's node died gets that attempt back
 * (returned) instead of a refusal or a second payment.
 */
export async function recordAttempt(ctx: CardContext, txn: Transaction): Promise<Transaction | undefined> {
  const key = txn.duplicateKey;
  for (let attempt = 1; ; attempt++) {
    try {
      if (await ctx.attempts.submit(txn)) return undefined;
    } catch (error) {
      if (!isIdempotencyIdTaken(error)) throw error;
      // The first attempt's tx1 committed after this retry looked for it (its dying node's last statement).
      return findByIdempotencyId(ctx.deps.pool, txn.merchantId, txn.idempotencyId!);
    }
    const holder = await findDuplicateKeyHolder(ctx.deps.pool, txn.merchantId, key!);
    if (holder && txn.idempotencyId !== null && holder.idempotencyId === txn.idempotencyId) {
      return findByIdempotencyId(ctx.deps.pool, txn.merchantId, txn.idempotencyId);
    }
    if (holder) {
      const windowMinutes = ctx.deps.config.duplicateWindowMinutes;
      const since = txn.createdAt.getTime() - windowMinutes * 60_000;
      const stillCounts =
        holder.createdAt.getTime() >= since &&
        holder.statusId !== TransactionStatus.Declined &&
        holder.statusId !== TransactionStatus.Failed;
      if (stillCounts || attempt >= 3) {
        throw new ValidationError(
          {
            referenceId: [
              `The same card was charged the same amount with the same referenceId within ${windowMinutes} minutes (transaction ${holder.id}). Send a different referenceId to charge it again.`,
            ],
          },
          'Duplicate transaction.',
          'IsDuplicate',
        );
      }
      await releaseDuplicateKey(ctx.deps.pool, txn.merchantId, holder.id, key!);
    }
  }
}

/**
 * Sources whose own records already guarantee one payment per intent: a card read in person (a terminal, Tap to Pay)
 * is the cardholder's act each time, and an invoice is paid at most once by its own state machine.
 */
const UNCHECKED_SOURCES: ReadonlySet<number> = new Set([
  CreateMethod.Terminal,
  CreateMethod.TapToPay,
  CreateMethod.Invoice,
]);

/**
 * Sales and authorizations of a card, while the check is on (DUPLICATE_CHECK_MINUTES > 0), except those of
 * UNCHECKED_SOURCES (two coffees bought one after the other are two sales; their retries are caught by the source's
 * idempotency id instead).
 */
export function duplicateKey(
  ctx: CardContext,
  cmd: PaymentCommand,
  card: UsableCard,
  totalCents: number,
): Buffer | null {
  if (cmd.kind !== 'sale' && cmd.kind !== 'authorize') return null;
  if (UNCHECKED_SOURCES.has(cmd.createMethodId)) return null;
  if (ctx.deps.config.duplicateWindowMinutes === 0 || !card.fingerprint) return null;
  return (
    createHash('sha256')
      .update(cmd.merchantId)
      .update(card.fingerprint)
      .update(`|${totalCents}|`)
      // null and "" are different references; JSON keeps them apart.
      .update(JSON.stringify(cmd.referenceId ?? null))
      .digest()
  );
}
