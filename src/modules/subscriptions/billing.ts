import type { Clock } from '../../platform/clock/clock.js';
import { nameBasedId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { withFields } from '../../platform/objects.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { PaymentResult, PaymentsService } from '../payments/payments.service.js';
import {
  CardDataSource,
  CreateMethod,
  type Transaction,
  TransactionStatus,
  TransactionType,
} from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import {
  type FailedWith,
  HARD_DECLINES,
  installmentFailed,
  installmentPaid,
  installmentReturned,
  installmentsPaid,
} from './installment-outcomes.js';
import {
  awaitOutcome,
  claimDue,
  deferRecheck,
  findByTransaction,
  findPending,
  hasDueInstallments,
  insertAttempt,
  insertAttempts,
  type PaidInstallment,
  recordAttemptResult,
  skipLapsedInstallments,
  skipOpenInstallments,
} from './installments.repo.js';
import { type Installment, InstallmentStatus, type Subscription } from './subscriptions.model.js';
import { subscriptionsChargeQueue } from './subscriptions.queues.js';

export interface BillingDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  merchants: MerchantsService;
  payments: PaymentsService;
  transactions: TransactionsService;
  /** This node's liveness id: installments it claims carry it, so another node can tell when it died. */
  nodeId: () => number;
}

/** A claimed installment its node still holds after this long is looked at again (its charge is idempotent). */
const CLAIM_RECHECK_MS = 2 * 60_000;
/** A card payment whose answer is not known yet is asked about again after this long. */
const UNKNOWN_RECHECK_MS = 2 * 60_000;
/** An ACH debit is heard of when it clears or comes back; this is only the safety net's pace. */
const ACH_RECHECK_MS = 86_400_000;
/** How many installments one charging job pays at once (the payments core writes concurrent payments in groups). */
const CONCURRENCY = 32;
const DAY_MS = 86_400_000;

/**
 * The payment idempotency id of an installment's attempt: derived, so the same attempt charged again, by any node
 * and after any crash, finds the payment it made instead of making a second one.
 */
export function attemptClaimId(installmentId: string, attemptNumber: number): string {
  return nameBasedId(`subscription-attempt:${installmentId}:${attemptNumber}`);
}

/**
 * Charges the installments due now, `CONCURRENCY` at a time, until none is due; answers how many it claimed. Any
 * number of jobs on any number of nodes may run this at once: each installment is claimed by exactly one of them.
 * A batch's attempts are written in one statement and its approvals recorded in one transaction.
 */
export async function chargeDue(deps: BillingDeps, batch = 128): Promise<number> {
  let charged = 0;
  for (;;) {
    const claimed = await claimDue(deps.pool, deps.clock.now(), deps.nodeId(), batch, CLAIM_RECHECK_MS);
    if (claimed.length === 0) {
      // The claim skips rows another transaction holds (a subscription being changed, an outcome being written):
      // when some are due all the same, a charger looks again in a second rather than at the next billing run.
      if (await hasDueInstallments(deps.pool, deps.clock.now())) {
        await subscriptionsChargeQueue.enqueue(
          deps.pool,
          deps.clock,
          {},
          { singletonKey: 'charger:recheck', runAt: new Date(deps.clock.nowMs() + 1000) },
        );
      }
      return charged;
    }
    await insertAttempts(
      deps.pool,
      claimed.map(({ installment: i }) => ({
        merchantId: i.merchantId,
        installmentId: i.id,
        attemptNumber: i.attempts,
        executedAt: i.attemptStartedAt!,
        paymentClaimId: attemptClaimId(i.id, i.attempts),
      })),
    );
    const approved: PaidInstallment[] = [];
    await runAll(deps, claimed, async ({ subscription: s, installment: i }) => {
      // A fresh claim: no earlier payment to look for first (the payments core's unique idempotency id still
      // refuses a second one, should there be one).
      const result = await payOrRefusal(deps, s, i, false);
      const t = 'transaction' in result && result.outcome === 'approved' ? result.transaction : undefined;
      if (t && s.transactionTypeId !== TransactionType.AchDebit) {
        approved.push({
          installmentId: i.id,
          attempt: i.attempts,
          transactionId: t.id,
          cents: t.totalCents,
          responseCode: t.responseCode,
          responseMessage: t.responseMessage,
        });
      } else {
        await recordOutcome(deps, s, i, i.attempts, result);
      }
    });
    // Left Pending if this fails: resolvePending finds each payment again by its idempotency id.
    await withTransaction(deps.pool, (tx) => installmentsPaid(tx, deps.clock, approved)).catch((error: unknown) =>
      deps.logger.error({ err: error }, 'subscription installments: recording approvals failed; the sweep retries'),
    );
    charged += claimed.length;
  }
}

/**
 * Pending installments due a look (their node died, or held them too long; a card answer was unknown; an ACH debit
 * has not been heard of in a day): settled if their payment's outcome is known by now.
 */
export async function resolvePending(deps: BillingDeps, limit = 500): Promise<number> {
  const pending = await findPending(deps.pool, deps.clock.now(), limit);
  await runAll(deps, pending, async ({ subscription, installment }) => {
    if (subscription.transactionTypeId === TransactionType.AchDebit && installment.transactionId) {
      await followAchDebit(deps, subscription, installment);
    } else {
      // The same attempt again: its payment is found by its idempotency id (settled first if still unknown), never
      // made twice, whether its node died before paying, while paying, or after.
      await chargeAttempt(deps, subscription, installment);
    }
  });
  return pending.length;
}

/** Installments that fell due while their subscription was Suspended or Delinquent, past any resume: Skipped. */
export function skipLapsed(deps: BillingDeps): Promise<number> {
  return skipLapsedInstallments(deps.pool, deps.clock.now());
}

/** One subscription's Scheduled installments that fell due before its retry window: Skipped. */
export async function skipLapsedOf(
  sql: Sql,
  merchantId: string,
  subscriptionId: string,
  now: Date,
  retryDays: readonly number[],
) {
  const window = (retryDays.at(-1) ?? 0) * DAY_MS;
  await skipOpenInstallments(sql, merchantId, subscriptionId, now, new Date(now.getTime() - window));
}

/** One attempt of one installment again: the payment (found by the attempt's id if made), then its outcome. */
async function chargeAttempt(deps: BillingDeps, s: Subscription, i: Installment): Promise<void> {
  await insertAttempt(deps.pool, {
    merchantId: i.merchantId,
    installmentId: i.id,
    attemptNumber: i.attempts,
    executedAt: i.attemptStartedAt ?? deps.clock.now(),
    paymentClaimId: attemptClaimId(i.id, i.attempts),
  });
  await recordOutcome(deps, s, i, i.attempts, await payOrRefusal(deps, s, i, true));
}

/** The attempt's payment, or why it was refused before any payment was made (a deleted method, a closed processor). */
async function payOrRefusal(
  deps: BillingDeps,
  s: Subscription,
  i: Installment,
  recovering: boolean,
): Promise<PaymentResult | { refused: string }> {
  try {
    return await pay(deps, s, i, attemptClaimId(i.id, i.attempts), recovering);
  } catch (error) {
    deps.logger.warn({ err: error, subscriptionId: s.id, installmentId: i.id }, 'installment could not be charged');
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

function pay(
  deps: BillingDeps,
  s: Subscription,
  i: Installment,
  claimId: string,
  recovering: boolean,
): Promise<PaymentResult> {
  const common = {
    merchantId: s.merchantId,
    source: { typeId: CreateMethod.Subscription, id: s.id },
    processorId: s.processorId,
    amount: {
      baseCents: i.amountCents,
      percentageOffRateMpct: s.percentageOffRateMpct,
      surchargeRateMpct: s.surchargeRateMpct,
      useCardPrice: s.useCardPrice,
    },
    // Unique per installment: the duplicate check must never take one installment for another.
    referenceId: `sub-${s.id}-${i.paymentOrder}`,
    idempotency: { id: claimId, recovering },
  };
  const instrument = { kind: 'vaulted' as const, customerId: s.customerId, paymentMethodId: s.paymentMethodId };
  if (s.transactionTypeId === TransactionType.AchDebit) {
    return deps.payments.achDebit(
      withFields(common, {
        instrument,
        secCode: s.secCode ?? 2,
        requesterIp: s.requesterIp,
        isFasterProcessing: s.isFasterProcessing,
      }),
    );
  }
  return deps.payments.charge(
    withFields(common, {
      instrument,
      operation: s.transactionTypeId === TransactionType.Authorization ? 'authorize' : 'sale',
      initiator: 'merchant',
      cardDataSource: CardDataSource.Internet,
      // A stored card charged by the merchant: no address to verify, nobody to enter a security code.
      skipAddressVerification: true,
    }),
  );
}

async function recordOutcome(
  deps: BillingDeps,
  s: Subscription,
  i: Installment,
  attempt: number,
  result: PaymentResult | { refused: string },
): Promise<void> {
  if ('refused' in result) {
    await failed(deps, s, i, attempt, {
      transactionId: null,
      responseCode: null,
      message: result.refused,
      hard: false,
    });
    return;
  }
  const t = result.transaction;
  const ach = s.transactionTypeId === TransactionType.AchDebit;
  if (result.outcome === 'pending' || (ach && result.outcome === 'approved')) {
    // An ACH debit waits, Pending, until it clears (achCleared) or comes back; a lost card answer until it is known.
    await withTransaction(deps.pool, async (tx) => {
      const recheckAt = new Date(deps.clock.nowMs() + (ach ? ACH_RECHECK_MS : UNKNOWN_RECHECK_MS));
      await awaitOutcome(tx, i, attempt, t.id, recheckAt);
      await recordAttemptResult(tx, i, attempt, {
        transactionId: t.id,
        result: 'Pending',
        responseCode: t.responseCode,
        responseMessage: ach ? 'Scheduled for the ACH network' : 'The outcome is not known yet',
      });
    });
    return;
  }
  if (result.outcome === 'approved') {
    await withTransaction(deps.pool, (tx) =>
      installmentPaid(tx, deps.clock, i, attempt, {
        transactionId: t.id,
        cents: t.totalCents,
        responseCode: t.responseCode,
        responseMessage: t.responseMessage,
      }),
    );
    return;
  }
  await failed(deps, s, i, attempt, {
    transactionId: t.id,
    responseCode: t.responseCode,
    message: t.responseMessage ?? (result.outcome === 'declined' ? 'Declined' : 'Failed'),
    hard: result.outcome === 'declined' && HARD_DECLINES.has(t.responseCode ?? ''),
  });
}

async function failed(deps: BillingDeps, s: Subscription, i: Installment, attempt: number, f: FailedWith) {
  const retryDays = (await deps.merchants.getConfiguration(s.merchantId)).settings.subscriptionRetryDays;
  await withTransaction(deps.pool, (tx) => installmentFailed(tx, deps.clock, i, attempt, f, retryDays));
}

/**
 * The safety net behind the ACH listeners: an installment whose debit has not been heard of in a day looks at it;
 * one that was cancelled or failed is a failed attempt, one still on its way is looked at again tomorrow.
 */
async function followAchDebit(deps: BillingDeps, s: Subscription, i: Installment): Promise<void> {
  const t = await deps.transactions.get(s.merchantId, i.transactionId!);
  if (t?.statusId === TransactionStatus.Cleared || t?.statusId === TransactionStatus.Settled) {
    await withTransaction(deps.pool, (tx) => achCleared(deps, tx, t));
  } else if (!t || t.statusId === TransactionStatus.Cancelled || t.statusId === TransactionStatus.Failed) {
    await failed(deps, s, i, i.attempts, {
      transactionId: i.transactionId,
      responseCode: t?.responseCode ?? null,
      message: t?.detailsMessage ?? 'The ACH debit did not go through',
      hard: false,
    });
  } else if (t.statusId === TransactionStatus.ChargedBack) {
    await withTransaction(deps.pool, (tx) => achReturned(deps, tx, t));
  } else {
    await deferRecheck(deps.pool, i, i.attempts, new Date(deps.clock.nowMs() + ACH_RECHECK_MS));
  }
}

/** A subscription's ACH debit cleared (the payments core's listener, in its transaction): the installment is paid. */
export async function achCleared(deps: BillingDeps, tx: Sql, t: Transaction): Promise<void> {
  const found = await findByTransaction(tx, t);
  if (!found) return;
  await installmentPaid(tx, deps.clock, found.installment, found.installment.attempts, {
    transactionId: t.id,
    cents: t.totalCents,
    responseCode: t.responseCode,
    responseMessage: 'Cleared',
  });
}

/**
 * A subscription's ACH debit came back. Not yet counted (it came back before clearing), the attempt failed; counted
 * as paid already, the installment is Failed again and dunned from now.
 */
export async function achReturned(deps: BillingDeps, tx: Sql, t: Transaction): Promise<void> {
  const found = await findByTransaction(tx, t);
  if (!found) return;
  const { installment: i, subscription: s } = found;
  const retryDays = (await deps.merchants.getConfiguration(s.merchantId)).settings.subscriptionRetryDays;
  const failure: FailedWith = {
    transactionId: t.id,
    responseCode: t.responseCode,
    message: t.detailsMessage ?? 'Returned',
    hard: false,
  };
  if (i.statusId === InstallmentStatus.Successful)
    await installmentReturned(tx, deps.clock, i, failure, retryDays, t.totalCents);
  else await installmentFailed(tx, deps.clock, i, i.attempts, failure, retryDays);
}

/** Runs `work` over `items`, at most CONCURRENCY at a time; one failing item does not stop the others. */
async function runAll<T>(deps: BillingDeps, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch((error: unknown) => {
        // Left Pending: resolvePending takes it up again once its recheck time comes (the charge is idempotent).
        deps.logger.error({ err: error }, 'subscription installment: charge or record failed; retried by the sweep');
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}
