import { defineQueue } from '../../../platform/jobs/define.js';
import type { QueueDefinition } from '../../../platform/jobs/runner.js';
import { every, type ScheduleDefinition } from '../../../platform/jobs/runner.js';
import type { AchPaymentsService } from './ach.service.js';
import {
  achClearQueue,
  achCollectQueue,
  achCutoffQueue,
  achDeliverQueue,
  achReturnsQueue,
  achSubmitQueue,
} from './ach-context.js';

const bankSweepQueue = defineQueue<{ slot: string }>('ach.bank-connections-sweep');

/** Bank connections' polls and stuck deliveries, looked at once a minute (exchange/sweep.ts). */
export const achSchedules: ScheduleDefinition[] = [
  {
    name: 'ach.bank-connections-sweep',
    queue: bankSweepQueue.name,
    next: every(60),
  },
];

/** The ACH clock: each job is idempotent, so a retry or a second worker changes nothing. */
export function achQueues(ach: AchPaymentsService): QueueDefinition[] {
  return [
    achCutoffQueue.handler(async ({ processorId, window }) => {
      await ach.cutoff(processorId, new Date(window));
    }),
    achSubmitQueue.handler(({ fileId }) => ach.submitFile(fileId), {
      retryDelaySeconds: (attempt) => Math.min(30 * 2 ** (attempt - 1), 3600),
    }),
    achClearQueue.handler(async ({ fileId }) => {
      await ach.clearFile(fileId);
    }),
    achReturnsQueue.handler(({ fileId }) => ach.collectReturns(fileId)),
    // Until the file's deadline (deliver.ts): attempts every 15 s at first, then at most every 5 minutes.
    achDeliverQueue.handler(({ bankFileId }) => ach.deliverBankFile(bankFileId), {
      retryDelaySeconds: (attempt) => Math.min(15 * 2 ** (attempt - 1), 300),
    }),
    achCollectQueue.handler(async ({ connectionKey }) => {
      await ach.collectBankFiles(connectionKey);
    }),
    bankSweepQueue.handler(() => ach.sweepBankConnections()),
  ];
}
