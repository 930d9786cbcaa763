import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
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
} from './installment-outcomes.js';
import {
  awaitOutcome,
  claimDue,
  deferRecheck,
  findByTransaction,
  findPending,
  insertAttempt,
  recordAttemptResult,
  skipLapsedInstallments,
  skipOpenInstallments,
} from './installments.repo.js';
import { type Installment, InstallmentStatus, type Subscription } from './subscriptions.model.js';

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
  const h = createHash('sha256').update(`subscription-attempt:${installmentId}:${attemptNumber}`).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Charges the installments due now, `CONCURRENCY` at a time, until none is due; answers how many it claimed. Any
 * number of jobs on any number of nodes may run this at once: each installment is claimed by exactly one of them.
 */
export async function chargeDue(deps: BillingDeps, batch = 128): Promise<number> {
  let charged = 0;
  for (;;) {
    const claimed = await claimDue(deps.pool, deps.clock.now(), deps.nodeId(), batch, CLAIM_RECHECK_MS);
    if (claimed.length === 0) return charged;
    await runAll(deps, claimed, ({ subscription, installment }) => chargeAttempt(deps, subscription, installment));
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
export async function skipLapsedOf(sql: Sql, subscriptionId: string, now: Date, retryDays: readonly number[]) {
  const window = (retryDays.at(-1) ?? 0) * DAY_MS;
  await skipOpenInstallments(sql, subscriptionId, now, new Date(now.getTime() - window));
}

/** One attempt of one installment: the payment (idempotent by the attempt's id), then its outcome recorded. */
async function chargeAttempt(deps: BillingDeps, s: Subscription, i: Installment): Promise<void> {
  const attempt = i.attempts;
  const claimId = attemptClaimId(i.id, attempt);
  await insertAttempt(deps.pool, {
    installmentId: i.id,
    attemptNumber: attempt,
    executedAt: i.attemptStartedAt ?? deps.clock.now(),
    paymentClaimId: claimId,
  });
  let result: PaymentResult;
  try {
    result = await pay(deps, s, i, claimId);
  } catch (error) {
    // Refused before any payment was made (the method was deleted, the processor deactivated): a failed attempt.
    const message = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ err: error, subscriptionId: s.id, installmentId: i.id }, 'installment could not be charged');
    await failed(deps, s, i, attempt, { transactionId: null, responseCode: null, message, hard: false });
    return;
  }
  await recordOutcome(deps, s, i, attempt, result);
}

function pay(deps: BillingDeps, s: Subscription, i: Installment, claimId: string): Promise<PaymentResult> {
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
    idempotency: { id: claimId, recovering: true },
  };
  const instrument = { kind: 'vaulted' as const, customerId: s.customerId, paymentMethodId: s.paymentMethodId };
  if (s.transactionTypeId === TransactionType.AchDebit) {
    return deps.payments.achDebit({
      ...common,
      instrument,
      secCode: s.secCode ?? 2,
      requesterIp: s.requesterIp,
      isFasterProcessing: s.isFasterProcessing,
    });
  }
  return deps.payments.charge({
    ...common,
    instrument,
    operation: s.transactionTypeId === TransactionType.Authorization ? 'authorize' : 'sale',
    initiator: 'merchant',
    cardDataSource: CardDataSource.Internet,
    // A stored card charged by the merchant: no address to verify, nobody to enter a security code.
    skipAddressVerification: true,
  });
}

async function recordOutcome(
  deps: BillingDeps,
  s: Subscription,
  i: Installment,
  attempt: number,
  result: PaymentResult,
): Promise<void> {
  const t = result.transaction;
  const ach = s.transactionTypeId === TransactionType.AchDebit;
  if (result.outcome === 'pending' || (ach && result.outcome === 'approved')) {
    // An ACH debit waits, Pending, until it clears (achCleared) or comes back; a lost card answer until it is known.
    await withTransaction(deps.pool, async (tx) => {
      const recheckAt = new Date(deps.clock.nowMs() + (ach ? ACH_RECHECK_MS : UNKNOWN_RECHECK_MS));
      await awaitOutcome(tx, i.id, attempt, t.id, recheckAt);
      await recordAttemptResult(tx, i.id, attempt, {
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
    await deferRecheck(deps.pool, i.id, i.attempts, new Date(deps.clock.nowMs() + ACH_RECHECK_MS));
  }
}

/** A subscription's ACH debit cleared (the payments core's listener, in its transaction): the installment is paid. */
export async function achCleared(deps: BillingDeps, tx: Sql, t: Transaction): Promise<void> {
  const found = await findByTransaction(tx, t.id);
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
  const found = await findByTransaction(tx, t.id);
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
