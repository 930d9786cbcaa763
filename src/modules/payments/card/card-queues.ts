import { defineQueue } from '../../../platform/jobs/define.js';

/** Asks the processor what became of an operation whose answer was lost (one job per transaction). */
export const reconcileQueue = defineQueue<{ transactionId: string }>('cards.reconcile');
/** An authorization left uncaptured voids itself (one job per authorization). */
export const expireAuthorizationQueue = defineQueue<{ transactionId: string }>('cards.expire-authorization');
