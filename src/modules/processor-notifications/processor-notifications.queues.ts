import { defineQueue } from '../../platform/jobs/define.js';
import { every, type QueueDefinition, type ScheduleDefinition } from '../../platform/jobs/runner.js';
import type { ProcessorNotificationsService } from './processor-notifications.service.js';

/** One job per recorded notification: applied through the payments core. */
export const applyNotificationQueue = defineQueue<{ id: string; merchantId: string }>('processor-notifications.apply');
/** Every minute: a recorded notification whose job was lost goes to a job again. */
const sweepQueue = defineQueue<{ slot: string }>('processor-notifications.sweep');

export function notificationQueues(notifications: ProcessorNotificationsService, now: () => Date): QueueDefinition[] {
  return [
    applyNotificationQueue.handler(({ id, merchantId }) => notifications.apply(merchantId, id), {
      retryDelaySeconds: (attempt) => Math.min(5 * 2 ** (attempt - 1), 600),
    }),
    sweepQueue.handler(async () => {
      await notifications.requeueLost(new Date(now().getTime() - 5 * 60_000));
    }),
  ];
}

export const notificationSchedules: ScheduleDefinition[] = [
  { name: 'processor-notifications.sweep', queue: sweepQueue.name, next: every(60) },
];
