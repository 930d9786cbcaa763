import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { Customer } from '../customers/customers.model.js';
import type { CustomerDependents, CustomersService } from '../customers/customers.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { amountColumns } from '../payments/amounts.js';
import type { RequestClaim } from '../payments/payment-request.js';
import type { PaymentsService } from '../payments/payments.service.js';
import { CreateMethod } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { PaymentMethod } from '../vault/vault.model.js';
import type { VaultService } from '../vault/vault.service.js';
import { achCleared, achReturned, type BillingDeps } from './billing.js';
import { subscriptionEvent } from './installment-outcomes.js';
import { listInstallments, skipOpenInstallments } from './installments.repo.js';
import { planOne } from './planning.js';
import { changePaymentMethod, moveSubscription } from './subscription-changes.js';
import { checkDraft, type SubscriptionDraft } from './subscription-input.js';
import { type Installment, type Subscription, SubscriptionStatus } from './subscriptions.model.js';
import { subscriptionsChargeQueue } from './subscriptions.queues.js';
import {
  deleteCustomerSubscriptions,
  findLiveByMethod,
  findSubscription,
  findSubscriptionByIdempotencyId,
  insertSubscription,
  isSubscriptionIdempotencyIdTaken,
  listSubscriptions,
  type SubscriptionFilter,
  type SubscriptionListRow,
} from './subscriptions.repo.js';

export interface SubscriptionsDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  merchants: MerchantsService;
  customers: CustomersService;
  vault: VaultService;
  payments: PaymentsService;
  transactions: TransactionsService;
  nodeId: () => number;
}

/** A subscription with what its record shows of its customer and payment method. */
export interface SubscriptionDetails {
  subscription: Subscription;
  customer: Customer | null;
  method: PaymentMethod | null;
}

export interface InstallmentWithAttempts extends Installment {
  attemptRows: Array<Record<string, unknown>>;
}

/**
 * Subscriptions through the merchant's API: create, read, list, the payment history, and the moves a merchant makes
 * (terminate, suspend, resume, a new payment method; subscription-changes.ts). Billing is billing.ts.
 */
export class SubscriptionsService implements CustomerDependents {
  readonly billing: BillingDeps;

  constructor(private readonly deps: SubscriptionsDeps) {
    this.billing = deps;
    deps.customers.addDependents(this);
    // An ACH installment is paid when its debit clears, and fails again if the debit comes back later.
    deps.payments.listen(CreateMethod.Subscription, {
      achCleared: (tx, t) => achCleared(this.billing, tx, t),
      achReturned: (tx, t) => achReturned(this.billing, tx, t),
    });
  }

  /**
   * With an idempotency claim, the subscription carries it: a retry whose first attempt was cut off answers with
   * the subscription that attempt created, if it committed, instead of creating (and billing) a second one.
   */
  async create(draft: SubscriptionDraft, claim?: RequestClaim): Promise<SubscriptionDetails> {
    const { pool, clock } = this.deps;
    if (claim?.recovering) {
      const earlier = await findSubscriptionByIdempotencyId(pool, draft.merchantId, claim.id);
      if (earlier) return this.details(earlier);
    }
    const configuration = await this.deps.merchants.getConfiguration(draft.merchantId);
    const customer = await this.customerOf(draft.merchantId, draft.customerId);
    const method = await this.deps.vault.get(draft.merchantId, draft.paymentMethodId).catch(notFound);
    const now = clock.now();
    const checked = checkDraft(draft, configuration, customer, method, now);
    const subscription: Subscription = {
      id: newId(),
      merchantId: draft.merchantId,
      customerId: customer.id,
      paymentMethodId: draft.paymentMethodId,
      processorId: checked.processor.id,
      statusId: SubscriptionStatus.Active,
      transactionTypeId: draft.transactionTypeId,
      baseCents: draft.amountCents,
      percentageOffRateMpct: draft.percentageOffRateMpct,
      surchargeRateMpct: draft.surchargeRateMpct,
      useCardPrice: draft.useCardPrice,
      amount: amountColumns(checked.amount),
      totalCents: checked.amount.totalCents,
      allPaymentsCents: checked.allPaymentsCents,
      installmentAmounts: checked.installmentAmounts,
      currencyId: 1,
      frequencyUnitId: checked.frequencyUnitId,
      frequency: checked.frequency,
      schedule: checked.schedule,
      numberOfPayments: draft.numberOfPayments,
      timeZone: configuration.settings.timeZone,
      requesterIp: draft.requesterIp,
      secCode: checked.secCode,
      isFasterProcessing: draft.isFasterProcessing ?? false,
      startAt: checked.startAt,
      endAt: checked.endAt,
      plannedOrder: 0,
      nextDueAt: checked.firstDueAt,
      successfulCount: 0,
      paidCents: 0,
      lastPaymentAt: null,
      nextPaymentAt: null,
      sourceTypeId: CreateMethod.ApiToken,
      sourceId: draft.sourceId,
      idempotencyId: claim?.id ?? null,
      createdAt: now,
      modifiedAt: now,
    };
    const created = await withTransaction(pool, async (tx) => {
      // The customer and the method, again under the customer's lock: a deletion racing this create either
      // happened first (400) or waits and then finds the subscription (and ends it, or refuses).
      await this.deps.customers.lockShared(tx, draft.merchantId, customer.id);
      if (!(await this.deps.vault.get(draft.merchantId, draft.paymentMethodId, tx).catch(notFound))) {
        throw ValidationError.field(
          'paymentMethodId',
          "'paymentMethodId' is not one of this customer's vaulted payment methods.",
        );
      }
      await insertSubscription(tx, subscription);
      await planOne(tx, subscription, now);
      await subscriptionEvent(tx, clock, 'subscription.created', subscription);
      // A first installment due now is charged at once, not at the next minute's billing run (which bills the rest).
      const first = checked.firstDueAt;
      if (first && first.getTime() <= now.getTime() + 60_000) {
        await subscriptionsChargeQueue.enqueue(
          tx,
          clock,
          {},
          { runAt: first, singletonKey: `at:${first.toISOString()}` },
        );
      }
      return (await findSubscription(tx, draft.merchantId, subscription.id))!;
    }).catch(async (error: unknown) => {
      if (!claim || !isSubscriptionIdempotencyIdTaken(error)) throw error;
      return (await findSubscriptionByIdempotencyId(pool, draft.merchantId, claim.id))!;
    });
    return { subscription: created, customer, method: method ?? null };
  }

  /** The subscription, tenant-scoped: another merchant's id is not found. */
  async get(merchantId: string, id: string): Promise<SubscriptionDetails> {
    return this.details(await this.find(merchantId, id));
  }

  async find(merchantId: string, id: string, sql: Sql = this.deps.pool): Promise<Subscription> {
    const subscription = await findSubscription(sql, merchantId, id);
    if (!subscription) throw new NotFoundError('Subscription', id);
    return subscription;
  }

  list(filter: SubscriptionFilter, page: PageRequest): Promise<{ items: SubscriptionListRow[]; total: number }> {
    return listSubscriptions(this.deps.pool, filter, page);
  }

  /** The installments of a subscription in payment order, each with its attempts. */
  async payments(
    merchantId: string,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: InstallmentWithAttempts[]; total: number }> {
    await this.find(merchantId, id);
    return listInstallments(this.deps.pool, merchantId, id, page);
  }

  async details(subscription: Subscription): Promise<SubscriptionDetails> {
    const [customer, method] = await Promise.all([
      this.deps.customers.get(subscription.merchantId, subscription.customerId).catch(() => null),
      this.deps.vault.get(subscription.merchantId, subscription.paymentMethodId).catch(() => null),
    ]);
    return { subscription, customer, method };
  }

  /** Terminated: nothing more is charged (a final status). */
  terminate(merchantId: string, id: string): Promise<SubscriptionDetails> {
    return this.moved(moveSubscription(this.deps, merchantId, id, 'terminate'));
  }

  /** Suspended: billing stops until resumed. */
  suspend(merchantId: string, id: string): Promise<SubscriptionDetails> {
    return this.moved(moveSubscription(this.deps, merchantId, id, 'suspend'));
  }

  /** Active again: the outstanding failed installment is retried, what fell due meanwhile is charged or skipped. */
  resume(merchantId: string, id: string): Promise<SubscriptionDetails> {
    return this.moved(moveSubscription(this.deps, merchantId, id, 'resume'));
  }

  changePaymentMethod(merchantId: string, id: string, paymentMethodId: string): Promise<SubscriptionDetails> {
    return this.moved(changePaymentMethod(this.deps, merchantId, id, paymentMethodId));
  }

  private async moved(change: Promise<Subscription>): Promise<SubscriptionDetails> {
    return this.details(await change);
  }

  // CustomerDependents: what the customers module asks before and while it deletes.

  async methodInUse(tx: Sql, merchantId: string, paymentMethodId: string): Promise<string | null> {
    const ids = await findLiveByMethod(tx, merchantId, paymentMethodId);
    if (ids.length === 0) return null;
    return `The payment method pays subscription ${ids[0]}${ids.length > 1 ? ` (and ${ids.length - 1} more)` : ''}: terminate it or give it another payment method first.`;
  }

  async customerDeleted(tx: Sql, merchantId: string, customerId: string, now: Date): Promise<void> {
    for (const id of await deleteCustomerSubscriptions(tx, merchantId, customerId, now)) {
      await skipOpenInstallments(tx, merchantId, id, now);
    }
  }

  /** The customer named in the body: another merchant's answers 404, exactly as a missing one. */
  private customerOf(merchantId: string, customerId: string): Promise<Customer> {
    return this.deps.customers.get(merchantId, customerId);
  }
}

/** A reference in a request body that names nothing: undefined, for a 400 naming the field. */
function notFound(error: unknown): undefined {
  if (error instanceof NotFoundError) return undefined;
  throw error;
}
