import { CONNECTOR_TIMEOUT_MS } from '../../connectors/registry.js';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import { type CardPaymentsService, EXPIRE_AUTHORIZATION_QUEUE, RECONCILE_QUEUE } from './card-payments.service.js';
import { findUnresolved } from './transactions.repo.js';

const SWEEP_QUEUE = 'cards.reconcile-sweep';

export function cardQueues(pool: Pool, clock: Clock, cards: CardPaymentsService): QueueDefinition[] {
  return [
    {
      name: RECONCILE_QUEUE,
      retryDelaySeconds: (attempt) => Math.min(10 * 2 ** (attempt - 1), 3600),
      handle: async (job) => {
        const resolved = await cards.reconcile(String(job.payload.transactionId));
        if (!resolved) throw new Error('The processor does not know the outcome yet; asking again later');
      },
    },
    {
      name: EXPIRE_AUTHORIZATION_QUEUE,
      retryDelaySeconds: () => 60,
      handle: async (job) => cards.expireAuthorization(String(job.payload.transactionId)),
    },
    {
      // Catches operations abandoned mid-flight (a node died between its two transactions).
      name: SWEEP_QUEUE,
      handle: async () => {
        const olderThan = new Date(clock.now().getTime() - 2 * CONNECTOR_TIMEOUT_MS);
        for (const id of await findUnresolved(pool, olderThan, 500)) {
          await enqueue(pool, clock, { queue: RECONCILE_QUEUE, payload: { transactionId: id }, singletonKey: id });
        }
      },
    },
  ];
}

export const cardSchedules: ScheduleDefinition[] = [
  { name: 'cards.reconcile-sweep', queue: SWEEP_QUEUE, next: every(60) },
];
