import type { QueueDefinition } from '../../../platform/jobs/runner.js';
import type { AchPaymentsService } from './ach.service.js';
import { ACH_CLEAR_QUEUE, ACH_CUTOFF_QUEUE, ACH_RETURNS_QUEUE, ACH_SUBMIT_QUEUE } from './ach-context.js';

/** The ACH clock: each job is idempotent, so a retry or a second worker changes nothing. */
export function achQueues(ach: AchPaymentsService): QueueDefinition[] {
  return [
    {
      name: ACH_CUTOFF_QUEUE,
      handle: async (job) => {
        await ach.cutoff(String(job.payload.processorId), new Date(String(job.payload.window)));
      },
    },
    {
      name: ACH_SUBMIT_QUEUE,
      retryDelaySeconds: (attempt) => Math.min(30 * 2 ** (attempt - 1), 3600),
      handle: async (job) => ach.submitFile(String(job.payload.fileId)),
    },
    {
      name: ACH_CLEAR_QUEUE,
      handle: async (job) => {
        await ach.clearFile(String(job.payload.fileId));
      },
    },
    {
      name: ACH_RETURNS_QUEUE,
      handle: async (job) => ach.collectReturns(String(job.payload.fileId)),
    },
  ];
}
