import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import type { SessionPayments } from './session-payments.js';
import { type PaymentSessionsService, sessionExpireQueue, sessionSweepQueue } from './sessions.service.js';

/** The session clock: each job is idempotent (a compare-and-set on the session's status). */
export function sessionQueues(sessions: PaymentSessionsService, payments: SessionPayments): QueueDefinition[] {
  return [
    sessionExpireQueue.handler(
      async ({ sessionId }) => {
        await sessions.expire(sessionId);
      },
      {
        // A payment in flight at the expiry keeps the session; the sweep expires it once the payment is over.
        retryDelaySeconds: () => 60,
      },
    ),
    sessionSweepQueue.handler(async () => {
      await payments.resolveUnresolved();
      await sessions.expireOverdue();
    }),
  ];
}

export const sessionSchedules: ScheduleDefinition[] = [
  { name: 'sessions.sweep', queue: sessionSweepQueue.name, next: every(60) },
];
