import { newId } from '../../platform/crypto/ids.js';
import type { Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import type { BillingDeps } from './billing.js';
import { insertInstallment } from './installments.repo.js';
import { occurrences } from './schedule.js';
import { cadenceOf, InstallmentStatus, installmentCents, type Subscription } from './subscriptions.model.js';
import { advancePlan, findToPlan } from './subscriptions.repo.js';

/** Installments exist this long before they fall due (the payment history shows the next ones). */
export const PLAN_AHEAD_MS = 35 * 86_400_000;

/**
 * Creates the installments that fall due within the planning horizon, `limit` subscriptions at a time, until none
 * is left to plan; answers how many installments it created.
 */
export async function planInstallments(deps: BillingDeps, limit = 500): Promise<number> {
  let created = 0;
  for (;;) {
    const now = deps.clock.now();
    const due = await findToPlan(deps.pool, new Date(now.getTime() + PLAN_AHEAD_MS), limit);
    for (const s of due) created += await withTransaction(deps.pool, (tx) => planOne(tx, s, now));
    if (due.length < limit) return created;
  }
}

/**
 * The installments of one subscription up to the horizon, and the plan's new position. The position moves by
 * compare-and-set and installments are unique per payment order, so two planners never create one twice.
 */
export async function planOne(tx: Sql, s: Subscription, now: Date): Promise<number> {
  const horizon = now.getTime() + PLAN_AHEAD_MS;
  const more = (order: number) => s.numberOfPayments === null || order < s.numberOfPayments;
  const upcoming = occurrences(s.startAt, s.timeZone, cadenceOf(s));
  for (let passed = 0; passed < s.plannedOrder; passed++) upcoming.next();
  let order = s.plannedOrder;
  let next = upcoming.next().value as Date | undefined;
  let created = 0;
  while (next && next.getTime() <= horizon && more(order)) {
    order++;
    await insertInstallment(tx, {
      id: newId(),
      subscriptionId: s.id,
      merchantId: s.merchantId,
      paymentOrder: order,
      dueAt: next,
      amountCents: installmentCents(s, order),
      statusId: InstallmentStatus.Scheduled,
      nextAttemptAt: next,
      attempts: 0,
      failedAttempts: 0,
      firstFailedAt: null,
      attemptStartedAt: null,
      attemptNode: null,
      recheckAt: null,
      transactionId: null,
      createdAt: now,
      modifiedAt: now,
    });
    created++;
    next = upcoming.next().value as Date | undefined;
  }
  if (!(await advancePlan(tx, s, s.plannedOrder, order, next && more(order) ? next : null))) return 0;
  return created;
}
