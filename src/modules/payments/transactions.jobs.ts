import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import {
  avsReversalQueue,
  type CardPaymentsService,
  expireAuthorizationQueue,
  reconcileQueue,
} from './card-payments.service.js';
import { findUnresolved } from './transactions-list.repo.js';

/** Every minute: operations abandoned mid-flight (a node died between its two transactions) go to the reconciler. */
const sweepQueue = defineQueue<{ slot: string }>('cards.reconcile-sweep');

export function cardQueues(
  pool: Pool,
  clock: Clock,
  cards: CardPaymentsService,
  connectorTimeoutMs: number,
): QueueDefinition[] {
  return [
    reconcileQueue.handler(
      async ({ transactionId }) => {
        const resolved = await cards.reconcile(transactionId);
        if (!resolved) throw new Error('The processor does not know the outcome yet; asking again later');
      },
      { retryDelaySeconds: (attempt) => Math.min(10 * 2 ** (attempt - 1), 3600) },
    ),
    expireAuthorizationQueue.handler(({ transactionId }) => cards.expireAuthorization(transactionId), {
      retryDelaySeconds: () => 60,
    }),
    avsReversalQueue.handler(({ transactionId, merchantId }) => cards.reverseAvsHold(merchantId, transactionId), {
      retryDelaySeconds: (attempt) => Math.min(10 * 2 ** (attempt - 1), 3600),
    }),
    sweepQueue.handler(async () => {
      const olderThan = new Date(clock.now().getTime() - 2 * connectorTimeoutMs);
      for (const id of await findUnresolved(pool, olderThan, 500)) {
        await reconcileQueue.enqueue(pool, clock, { transactionId: id }, { singletonKey: id });
      }
      // A reversal whose job gave up (or was lost) is tried again: the hold must not stay at the issuer.
      await cards.retryAvsReversals(olderThan);
    }),
  ];
}

export const cardSchedules: ScheduleDefinition[] = [
  { name: 'cards.reconcile-sweep', queue: sweepQueue.name, next: every(60) },
];
