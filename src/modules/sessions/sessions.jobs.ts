import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import type { SessionPayments } from './session-payments.js';
import { type PaymentSessionsService, SESSION_EXPIRE_QUEUE, SESSION_SWEEP_QUEUE } from './sessions.service.js';

/** The session clock: each job is idempotent (a compare-and-set on the session's status). */
export function sessionQueues(sessions: PaymentSessionsService, payments: SessionPayments): QueueDefinition[] {
  return [
    {
      name: SESSION_EXPIRE_QUEUE,
      // A payment in flight at the expiry keeps the session; the sweep expires it once the payment is over.
      retryDelaySeconds: () => 60,
      handle: async (job) => {
        await sessions.expire(String(job.payload.sessionId));
      },
    },
    {
      name: SESSION_SWEEP_QUEUE,
      handle: async () => {
        await payments.resolveUnresolved();
        await sessions.expireOverdue();
      },
    },
  ];
}

export const sessionSchedules: ScheduleDefinition[] = [
  { name: 'sessions.sweep', queue: SESSION_SWEEP_QUEUE, next: every(60) },
];
