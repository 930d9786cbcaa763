import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import type { DashboardService } from './dashboard.service.js';

const volumeQueue = defineQueue<Record<string, never>>('dashboard.volume');

/** Every five minutes: the home figures of the merchants being looked at, recomputed (late voids, returns). */
export function dashboardQueues(dashboard: DashboardService): QueueDefinition[] {
  return [volumeQueue.handler(async () => void (await dashboard.volume.refreshViewed()))];
}

export const dashboardSchedules: ScheduleDefinition[] = [
  { name: 'dashboard.volume', queue: volumeQueue.name, next: every(300) },
];
