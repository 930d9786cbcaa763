import type { QueueDefinition } from '../../../platform/jobs/runner.js';
import type { AchPaymentsService } from './ach.service.js';
import { achClearQueue, achCutoffQueue, achReturnsQueue, achSubmitQueue } from './ach-context.js';

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
  ];
}
