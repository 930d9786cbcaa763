import { withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PaymentMethod } from '../vault/vault.model.js';
import { skipLapsedOf } from './billing.js';
import { retryFailedNow, skipOpenInstallments } from './installments.repo.js';
import { paymentMethodError } from './subscription-input.js';
import {
  FINAL_STATUSES,
  SUBSCRIPTION_STATUS_NAMES,
  type Subscription,
  SubscriptionStatus,
} from './subscriptions.model.js';
import { subscriptionsChargeQueue } from './subscriptions.queues.js';
import { findSubscription, moveStatus, setPaymentMethod } from './subscriptions.repo.js';
import type { SubscriptionsDeps } from './subscriptions.service.js';

/**
 * The moves a merchant makes. Each locks the subscription's row (FOR UPDATE) before it looks at the status: an
 * installment being claimed for charging holds a share lock on the row for that instant, so a move and a claim are
 * ordered one way or the other, never interleaved (charged then terminated, or terminated and nothing charged).
 */
type Move = 'terminate' | 'suspend' | 'resume';

const FROM: Record<Move, readonly number[]> = {
  terminate: [SubscriptionStatus.Active, SubscriptionStatus.Suspended, SubscriptionStatus.Delinquent],
  suspend: [SubscriptionStatus.Active, SubscriptionStatus.Delinquent],
  resume: [SubscriptionStatus.Suspended],
};
const TO: Record<Move, number> = {
  terminate: SubscriptionStatus.Terminated,
  suspend: SubscriptionStatus.Suspended,
  resume: SubscriptionStatus.Active,
};

export async function moveSubscription(
  deps: SubscriptionsDeps,
  merchantId: string,
  id: string,
  move: Move,
): Promise<Subscription> {
  const retryDays = (await deps.merchants.getConfiguration(merchantId)).settings.subscriptionRetryDays;
  return withTransaction(deps.pool, async (tx) => {
    const current = await findSubscription(tx, merchantId, id, { forUpdate: true });
    if (!current) throw new NotFoundError('Subscription', id);
    const status = SUBSCRIPTION_STATUS_NAMES[current.statusId];
    if (!FROM[move].includes(current.statusId)) {
      const message = notAllowed(move, current.statusId, status ?? 'Unknown');
      throw new ValidationError({ status: [message] }, message);
    }
    const now = deps.clock.now();
    await moveStatus(tx, merchantId, id, FROM[move], TO[move], now, move === 'terminate' ? { nextDueAt: null } : {});
    if (move === 'terminate') await skipOpenInstallments(tx, merchantId, id, now);
    if (move === 'resume') {
      // What fell due while suspended and is past its retry window is skipped; the rest is charged now, the
      // outstanding failed installment first (its retry is due at once).
      await skipLapsedOf(tx, merchantId, id, now, retryDays);
      await retryFailedNow(tx, merchantId, id, now);
      await subscriptionsChargeQueue.enqueue(tx, deps.clock, {}, { singletonKey: `at:${now.toISOString()}` });
    }
    return (await findSubscription(tx, merchantId, id))!;
  });
}

function notAllowed(move: Move, statusId: number, status: string): string {
  if (move === 'terminate' && statusId === SubscriptionStatus.Terminated)
    return 'The subscription is already Terminated.';
  if (FINAL_STATUSES.has(statusId)) return `The subscription is ${status}: it can no longer ${move}.`;
  if (move === 'suspend') return `The subscription is already ${status}.`;
  return `Only a Suspended subscription can be resumed; this one is ${status}.`;
}

/**
 * A new payment method (the customer's own, of the subscription's kind). A Delinquent subscription retries its
 * failed installment with it at once.
 */
export async function changePaymentMethod(
  deps: SubscriptionsDeps,
  merchantId: string,
  id: string,
  paymentMethodId: string,
): Promise<Subscription> {
  const customerId = (await findSubscription(deps.pool, merchantId, id))?.customerId;
  if (!customerId) throw new NotFoundError('Subscription', id);
  return withTransaction(deps.pool, async (tx) => {
    // The customer first, as its deletion locks it before its subscriptions: the same order, no deadlock.
    const customer = await deps.customers.lockShared(tx, merchantId, customerId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    const current = (await findSubscription(tx, merchantId, id, { forUpdate: true }))!;
    if (FINAL_STATUSES.has(current.statusId)) {
      const message = `The subscription is ${SUBSCRIPTION_STATUS_NAMES[current.statusId]}: its payment method can no longer change.`;
      throw new ValidationError({ status: [message] }, message);
    }
    const method: PaymentMethod | undefined = await deps.vault.get(merchantId, paymentMethodId, tx).catch((error) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    // A customer deleted meanwhile has Deleted the subscription (a final status, refused above).
    const problem = paymentMethodError(method, customer!, current.transactionTypeId, deps.clock.now());
    if (problem) throw ValidationError.field('paymentMethodId', problem);
    const now = deps.clock.now();
    await setPaymentMethod(tx, merchantId, id, paymentMethodId, now);
    if (current.statusId === SubscriptionStatus.Delinquent) {
      await retryFailedNow(tx, merchantId, id, now);
      await subscriptionsChargeQueue.enqueue(tx, deps.clock, {}, { singletonKey: `at:${now.toISOString()}` });
    }
    return (await findSubscription(tx, merchantId, id))!;
  });
}
