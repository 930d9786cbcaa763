import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import { type BillingDeps, chargeDue, resolvePending, skipLapsed } from './billing.js';
import { hasDueInstallments } from './installments.repo.js';
import { planInstallments } from './planning.js';
import { subscriptionsBillQueue, subscriptionsChargeQueue } from './subscriptions.queues.js';

/** Charging jobs a billing run starts when something is due: the workers of every node share them. */
const CHARGERS = 4;

/** The billing clock. Every step is idempotent (claims and moves are compare-and-set), so a job may run twice. */
export function subscriptionQueues(billing: BillingDeps): QueueDefinition[] {
  return [
    subscriptionsBillQueue.handler(async () => {
      await planInstallments(billing);
      await skipLapsed(billing);
      await resolvePending(billing);
      if (!(await hasDueInstallments(billing.pool, billing.clock.now()))) return;
      for (let n = 0; n < CHARGERS; n++) {
        await subscriptionsChargeQueue.enqueue(billing.pool, billing.clock, {}, { singletonKey: `charger:${n}` });
      }
    }),
    subscriptionsChargeQueue.handler(async () => {
      // A charger whose worker died is retaken at once by another worker (its job is tied to the node): the
      // installment it was charging (Pending, its node gone) is settled here first, within seconds, not at the next
      // billing run; its payment is found by its idempotency id, never made twice.
      await resolvePending(billing);
      await chargeDue(billing);
    }),
  ];
}

export const subscriptionSchedules: ScheduleDefinition[] = [
  { name: 'subscriptions.bill', queue: subscriptionsBillQueue.name, next: every(60) },
];
