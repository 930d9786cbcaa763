import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import type { LinksService } from './links.service.js';

const expiryQueue = defineQueue<Record<string, never>>('links.expire');

/** Every minute of the business clock: open links past their expiry become inactive (quick) or Expired (v2). */
export function linkQueues(links: LinksService): QueueDefinition[] {
  return [expiryQueue.handler(async () => void (await links.expireDue()))];
}

export const linkSchedules: ScheduleDefinition[] = [{ name: 'links.expire', queue: expiryQueue.name, next: every(60) }];
