import type { Clock } from '../../platform/clock/clock.js';
import type { Sql } from '../../platform/db/pool.js';
import { fromCents } from '../../platform/money.js';
import type { EventName } from '../events/event-catalog.js';
import { eventsInsert, recordEvent } from '../events/outbox.js';
import {
  type PaidInstallment,
  recordAttemptResult,
  recordPaidInstallments,
  reopenReturned,
  settleInstallment,
} from './installments.repo.js';
import { type Installment, InstallmentStatus, type Subscription, SubscriptionStatus } from './subscriptions.model.js';
import { findSubscription, moveStatus, recordUnpaid } from './subscriptions.repo.js';

const DAY_MS = 86_400_000;

/** Declines no retry can fix: lost, stolen, pickup, invalid card, expired, not permitted. */
export const HARD_DECLINES: ReadonlySet<string> = new Set(['04', '07', '14', '41', '43', '54', '57']);

export interface PaidWith {
  transactionId: string;
  cents: number;
  responseCode: string | null;
  responseMessage: string | null;
}

export interface FailedWith {
  transactionId: string | null;
  responseCode: string | null;
  message: string;
  /** A decline no retry can fix: the installment's dunning ends at once. */
  hard: boolean;
}

/**
 * Installments whose attempts paid: each Successful (compare-and-set on its attempt), counted on its subscription,
 * which completes after its last installment or, Delinquent, is Active again; one `subscription.paid` each. One
 * statement for the lot (a charging run records its approvals together), then their events.
 */
export async function installmentsPaid(tx: Sql, clock: Clock, paid: readonly PaidInstallment[]): Promise<number> {
  const moved = await recordPaidInstallments(tx, paid, clock.now());
  if (moved.length === 0) return 0;
  await tx.query(
    eventsInsert(
      clock,
      moved.map((m) => ({
        type: 'subscription.paid',
        merchantId: m.merchantId,
        resourceType: 'subscription' as const,
        resourceId: m.subscriptionId,
        data: {
          subscriptionId: m.subscriptionId,
          customerId: m.customerId,
          statusId: m.statusId,
          installmentId: m.installmentId,
          paymentOrder: m.paymentOrder,
          transactionId: m.transactionId,
          amount: fromCents(m.cents),
        },
      })),
    ).query,
  );
  return moved.length;
}

/** One installment's attempt paid (installmentsPaid for one). */
export async function installmentPaid(tx: Sql, clock: Clock, i: Installment, attempt: number, paid: PaidWith) {
  await installmentsPaid(tx, clock, [
    {
      installmentId: i.id,
      attempt,
      transactionId: paid.transactionId,
      cents: paid.cents,
      responseCode: paid.responseCode,
      responseMessage: paid.responseMessage,
    },
  ]);
}

/**
 * The installment's attempt failed: Failed, retried `retryDays[n]` days after its first failure (n failures so far),
 * or, with no retry left (or a hard decline), its subscription goes Delinquent.
 */
export async function installmentFailed(
  tx: Sql,
  clock: Clock,
  i: Installment,
  attempt: number,
  failed: FailedWith,
  retryDays: readonly number[],
) {
  const now = clock.now();
  // Retries count from the first failed attempt's start (its claim), whenever its answer came.
  const firstFailedAt = i.firstFailedAt ?? i.attemptStartedAt ?? now;
  const retryIn = failed.hard ? undefined : retryDays[i.failedAttempts];
  const nextAttemptAt = retryIn === undefined ? null : new Date(firstFailedAt.getTime() + retryIn * DAY_MS);
  const moved = await settleInstallment(tx, i, attempt, {
    statusId: InstallmentStatus.Failed,
    nextAttemptAt,
    firstFailedAt,
    transactionId: failed.transactionId,
    now,
  });
  if (!moved) return;
  await recordAttemptResult(tx, i, attempt, {
    transactionId: failed.transactionId,
    result: 'Declined',
    responseCode: failed.responseCode,
    responseMessage: failed.message,
  });
  await failureEvents(tx, clock, i, failed, attempt, nextAttemptAt);
}

/**
 * An ACH installment counted as paid when its debit cleared came back (a return): Failed again, no longer counted,
 * and dunned from now as a first failure.
 */
export async function installmentReturned(
  tx: Sql,
  clock: Clock,
  i: Installment,
  failed: FailedWith,
  retryDays: readonly number[],
  cents: number,
) {
  const now = clock.now();
  const nextAttemptAt = retryDays[0] === undefined ? null : new Date(now.getTime() + retryDays[0] * DAY_MS);
  if (!(await reopenReturned(tx, i, { nextAttemptAt, now }))) return;
  await recordAttemptResult(tx, i, i.attempts, {
    transactionId: failed.transactionId,
    result: 'Returned',
    responseCode: failed.responseCode,
    responseMessage: failed.message,
  });
  await recordUnpaid(tx, i.merchantId, i.subscriptionId, cents, now);
  await failureEvents(tx, clock, i, failed, i.attempts, nextAttemptAt);
}

async function failureEvents(
  tx: Sql,
  clock: Clock,
  i: Installment,
  failed: FailedWith,
  attempt: number,
  nextAttemptAt: Date | null,
) {
  const current = (await findSubscription(tx, i.merchantId, i.subscriptionId))!;
  await subscriptionEvent(tx, clock, 'subscription.payment_failed', current, {
    installmentId: i.id,
    paymentOrder: i.paymentOrder,
    transactionId: failed.transactionId,
    attemptNumber: attempt,
    responseCode: failed.responseCode,
    responseMessage: failed.message,
    nextRetryAt: nextAttemptAt?.toISOString() ?? null,
  });
  if (nextAttemptAt) return;
  // Dunning exhausted (or a decline no retry can fix): Delinquent until a new payment method or a resume.
  const now = clock.now();
  const delinquent = await moveStatus(
    tx,
    i.merchantId,
    i.subscriptionId,
    [SubscriptionStatus.Active],
    SubscriptionStatus.Delinquent,
    now,
  );
  if (delinquent) await subscriptionEvent(tx, clock, 'subscription.delinquent', delinquent, { installmentId: i.id });
}

export async function subscriptionEvent(
  tx: Sql,
  clock: Clock,
  type: Extract<EventName, `subscription.${string}`>,
  s: Subscription,
  data: Record<string, unknown> = {},
): Promise<void> {
  await recordEvent(tx, clock, {
    type,
    merchantId: s.merchantId,
    resourceType: 'subscription',
    resourceId: s.id,
    data: { subscriptionId: s.id, customerId: s.customerId, statusId: s.statusId, ...data },
  });
}
