import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import type { InvoicesService } from './invoices.service.js';

const expiryQueue = defineQueue<Record<string, never>>('invoices.expire');

/** Every hour of the business clock, on any worker: Published, unpaid invoices past their expiry become Expired. */
export function invoiceQueues(invoices: InvoicesService): QueueDefinition[] {
  return [expiryQueue.handler(async () => void (await invoices.expireDue()))];
}

export const invoiceSchedules: ScheduleDefinition[] = [
  { name: 'invoices.expire', queue: expiryQueue.name, next: every(3600) },
];
