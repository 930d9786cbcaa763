import { namesOf } from '../../platform/db/sql-ids.js';
import { defineQueue } from '../../platform/jobs/define.js';

/** A settlement batch: Open (taking payments), PendingSettlement (totals frozen, closing), Settled (paid out). */
export const BatchStatus = { Open: 1, Settled: 2, PendingSettlement: 3 } as const;
export const BATCH_STATUS_NAMES = namesOf(BatchStatus);

/** The job that closes a card batch at its processor's time slot (payments' settle-batch.ts handles it). */
export const closeBatchQueue = defineQueue<{ batchId: string }>('settlements.close-batch');
