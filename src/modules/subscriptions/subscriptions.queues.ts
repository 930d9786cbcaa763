import { defineQueue } from '../../platform/jobs/define.js';

/** The billing run (every minute): installments planned ahead, lapsed ones skipped, pending ones settled. */
export const subscriptionsBillQueue = defineQueue<{ slot?: string }>('subscriptions.bill');
/** Charges what is due now until nothing is; several run at once, on any nodes, each claiming its own installments. */
export const subscriptionsChargeQueue = defineQueue<Record<string, never>>('subscriptions.charge');
