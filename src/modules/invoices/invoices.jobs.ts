import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import type { InvoicePayments } from './invoice-payments.js';
import type { InvoicesService } from './invoices.service.js';

const expiryQueue = defineQueue<Record<string, never>>('invoices.expire');
const paymentSweepQueue = defineQueue<Record<string, never>>('invoices.payment-sweep');

/**
 * Every hour of the business clock: Published, unpaid invoices past their expiry become Expired. Every minute: card
 * payments whose request died are settled from the payment made under their id.
 */
export function invoiceQueues(invoices: InvoicesService, payments: InvoicePayments): QueueDefinition[] {
  return [
    expiryQueue.handler(async () => void (await invoices.expireDue())),
    paymentSweepQueue.handler(() => payments.sweep()),
  ];
}

export const invoiceSchedules: ScheduleDefinition[] = [
  { name: 'invoices.expire', queue: expiryQueue.name, next: every(3600) },
  { name: 'invoices.payment-sweep', queue: paymentSweepQueue.name, next: every(60) },
];
