import type { Clock } from '../../platform/clock/clock.js';
import { isNodeAlive } from '../../platform/cluster/node-liveness.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { dictionary } from '../../platform/dictionary.js';
import { ConflictError, type FieldErrors, ValidationError } from '../../platform/http/errors.js';
import { withFields } from '../../platform/objects.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { CustomersService } from '../customers/customers.service.js';
import { recordEvent } from '../events/outbox.js';
import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { SecCode } from '../payments/ach/ach.model.js';
import type { AmountBreakdown } from '../payments/amounts.js';
import type { PaymentsService } from '../payments/payments.service.js';
import { amountsUnderProgram } from '../payments/pricing.js';
import { CreateMethod, type Transaction, TransactionStatus } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { normalizeAddress } from '../reference/address.js';
import type { VaultService } from '../vault/vault.service.js';
import { baseCents, chargeRequest, payerBankAccount, payerContact } from './session-charge.js';
import { type SessionSources, sessionAttemptId } from './session-sources.js';
import { saveMethod, unsaveMethod } from './session-vaulting.js';
import {
  isOpen,
  MAX_FAILED_ATTEMPTS,
  type PaymentSession,
  SessionMode,
  SessionStatus,
  sessionTax,
} from './sessions.model.js';
import {
  type AttemptChanges,
  claimForPayment,
  expireIfDue,
  findSessionForPayer,
  findUnresolvedSessions,
  updateAttempt,
} from './sessions.repo.js';

/** What the payer submitted on the checkout page or in the elements frame. Lives only for the request. */
export interface PayerPayment {
  method: 'card' | 'ach';
  /** A flexible session: the amount the payer entered (cents). */
  amountCents: number | null;
  card?: { number: string; expirationMonth: number; expirationYear: number; securityCode: string; name: string };
  ach?: {
    routingNumber: string;
    accountNumber: string;
    accountType: number;
    accountHolderType: number;
    firstName: string;
    lastName: string;
    phone: string;
  };
  billing: {
    line1?: string;
    line2?: string;
    city?: string;
    state?: string;
    postalCode?: string;
  } | null;
  email: string | null;
  clientIp: string;
}

export type PayOutcome =
  | { kind: 'completed'; session: PaymentSession }
  | { kind: 'declined'; session: PaymentSession; message: string }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'busy'; session: PaymentSession }
  | { kind: 'ended'; session: PaymentSession }
  | { kind: 'missing' };

export interface SessionPaymentsDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  merchants: MerchantsService;
  customers: CustomersService;
  vault: VaultService;
  payments: PaymentsService;
  transactions: TransactionsService;
  /** Sources that collect through a session (an invoice): they pay, the session holds the page. */
  sources: SessionSources;
  /** This node's liveness id: a lease it holds is free at once when it dies. */
  nodeId: () => number;
}

/** How long one submission holds the session: longer than a processor call, short enough to recover from a crash. */
const LEASE_MS = 120_000;

/** Whether a submission got as far as asking for a payment (what its error handling must assume). */
interface ChargeProgress {
  charging: boolean;
}

/** What the checkout page shows before the payer pays. */
export interface PayerView {
  session: PaymentSession;
  configuration: MerchantConfiguration;
  open: boolean;
}

/**
 * The payer's side of a session. One submission at a time holds the session's lease (a compare-and-set in
 * PostgreSQL, so any node may receive it); before charging, the holder looks for a payment an earlier submission
 * already made (a lost response, a crashed node) and completes with that instead of charging again.
 */
export class SessionPayments {
  constructor(private readonly deps: SessionPaymentsDeps) {}

  async view(id: string): Promise<PayerView | undefined> {
    let found = await findSessionForPayer(this.deps.pool, id);
    if (!found) return undefined;
    const now = this.deps.clock.now();
    if (await this.orphaned(found, now)) {
      // The submission that holds it died with its node: settle what it started now, so the payer's reload shows
      // the outcome (or the form again) at once instead of "being processed" until the lease runs out.
      await this.resolveSession(id);
      found = (await findSessionForPayer(this.deps.pool, id)) ?? found;
    }
    const session = await expireIfDue(this.deps.pool, found, now);
    const configuration = await this.deps.merchants.getConfiguration(session.merchantId);
    return { session, configuration, open: isOpen(session, now) };
  }

  /** What the checkout page shows for a session just created (no read: it is as created). */
  async viewOf(session: PaymentSession): Promise<PayerView> {
    const configuration = await this.deps.merchants.getConfiguration(session.merchantId);
    return { session, configuration, open: isOpen(session, this.deps.clock.now()) };
  }

  /** The amounts the payer will see for a tender: the same function the transaction uses. */
  quote(
    session: PaymentSession,
    configuration: MerchantConfiguration,
    tender: 'credit' | 'ach',
    baseCents: number,
  ): AmountBreakdown {
    return amountsUnderProgram(
      configuration.settings,
      { baseCents, tipCents: session.tipCents, useCardPrice: tender !== 'ach', tax: sessionTax(session) },
      tender,
    );
  }

  async pay(id: string, payment: PayerPayment): Promise<PayOutcome> {
    const viewed = await this.view(id);
    if (!viewed) return { kind: 'missing' };
    const { session, configuration } = viewed;
    if (!viewed.open) return { kind: 'ended', session };
    const problems = this.precheck(session, configuration, payment);
    if (problems) return { kind: 'invalid', errors: problems };

    const token = newId();
    const now = this.deps.clock.now();
    const held = await claimForPayment(this.deps.pool, id, token, now, new Date(now.getTime() + LEASE_MS), {
      node: this.deps.nodeId(),
    });
    if (!held) {
      const again = await this.view(id);
      if (!again) return { kind: 'missing' };
      return again.open ? { kind: 'busy', session: again.session } : { kind: 'ended', session: again.session };
    }
    const progress: ChargeProgress = { charging: false };
    try {
      let earlier = await this.earlierPayment(held);
      if (earlier === 'unknown') {
        // What an earlier submission started and could not finish (its node died, its answer was lost): settled now.
        await this.reconcilePending(held);
        earlier = await this.earlierPayment(held);
      }
      if (earlier === 'unknown') return { kind: 'busy', session: await this.release(held, token, {}) };
      if (earlier) return { kind: 'completed', session: await this.complete(held, token, earlier) };
      return await this.charge(held, token, configuration, payment, progress);
    } catch (error) {
      // Expected: the payer's input refused, or a conflict (the source's own payment under way elsewhere: an invoice
      // paid from its page by another payer).
      const expected = error instanceof ConflictError || error instanceof ValidationError;
      if (!expected) this.deps.logger.error({ err: error, paymentSessionId: id }, 'session payment failed');
      // After the payment was asked for it may have gone through (the processor approved, then the write completing
      // the session failed): the session waits for the sweep, which completes it with that payment or frees it for
      // another try. Freed now, it would expire open with the payer's money taken and its source never told.
      const waits = !expected && progress.charging;
      const released = await this.release(held, token, waits ? { awaiting_outcome: true } : {}).catch(() => held);
      if (error instanceof ValidationError) {
        return { kind: 'invalid', errors: error.errors ?? { form: [error.message] } };
      }
      if (error instanceof ConflictError || waits) return { kind: 'busy', session: released };
      return { kind: 'declined', session: released, message: 'The payment could not be processed. Please try again.' };
    }
  }

  /** Cheap checks before the lease: the method is enabled, a flexible amount was entered, the data is there. */
  private precheck(
    session: PaymentSession,
    configuration: MerchantConfiguration,
    payment: PayerPayment,
  ): FieldErrors | undefined {
    const errors: FieldErrors = dictionary();
    if (payment.method === 'card' && !session.card.enabled) errors.method = ['Card payments are not accepted here.'];
    if (payment.method === 'ach' && !session.ach.enabled) errors.method = ['Bank payments are not accepted here.'];
    if (session.mode !== SessionMode.SaveMethod && session.amountCents === null) {
      if (payment.amountCents === null || payment.amountCents <= 0) errors.amount = ['Enter an amount greater than 0.'];
      const max = configuration.settings.maxTransactionAmountCents;
      if (max !== null && payment.amountCents !== null && payment.amountCents > max) {
        errors.amount = [`The amount can be at most ${(max / 100).toFixed(2)}.`];
      }
    }
    if (payment.method === 'card' && !payment.card) errors.cardNumber = ['Enter the card number.'];
    if (payment.method === 'ach' && !payment.ach) errors.accountNumber = ['Enter the bank account.'];
    return Object.keys(errors).length > 0 ? errors : undefined;
  }

  /**
   * Asks the processor now about a card payment of the session whose outcome is unknown, rather than wait for the
   * card reconciler: it answers once nobody else will (the payment's node died, or its call timed out).
   */
  private async reconcilePending(session: PaymentSession): Promise<void> {
    for (const attempt of await this.attemptsOf(session)) {
      if (attempt.method === 'card' && attempt.statusId === TransactionStatus.Pending) {
        await this.deps.payments.reconcile(attempt.id).catch((error: unknown) => {
          this.deps.logger.warn({ err: error, transactionId: attempt.id }, 'could not reconcile a session payment');
        });
      }
    }
  }

  /**
   * A payment an earlier submission made: approved (complete with it), unknown (wait), or none. With none, the
   * session counts every failed one among its failed attempts (in `session`, for what is written next): a submission
   * that died after its payment failed never counted its own, and the next one must not reuse its payment id.
   */
  private async earlierPayment(session: PaymentSession): Promise<Transaction | 'unknown' | undefined> {
    const attempts = await this.attemptsOf(session);
    const firsts = attempts.filter((t) => t.originalTransactionId === null);
    const paid = firsts.find(wentThrough);
    if (paid) return paid;
    if (firsts.some((t) => t.method === 'card' && t.statusId === TransactionStatus.Pending)) return 'unknown';
    session.failedAttempts = Math.max(session.failedAttempts, firsts.length);
    return undefined;
  }

  /**
   * A session paying for another source (a link) charges under that source's name, with one idempotency id per
   * submission (the attempt: declines so far + 1), so its payments are found again after a lost answer.
   */
  private attribution(session: PaymentSession) {
    if (!session.paymentSource) return {};
    return {
      source: session.paymentSource,
      idempotency: { id: sessionAttemptId(session.id, session.failedAttempts + 1), recovering: false },
    };
  }

  /** The payments this session's submissions made: its own, or its source's made through it. */
  private attemptsOf(session: PaymentSession): Promise<Transaction[]> {
    return (
      this.deps.sources.of(session)?.attempts(session) ??
      this.deps.transactions.bySource(session.merchantId, session.id)
    );
  }

  private async charge(
    session: PaymentSession,
    token: string,
    configuration: MerchantConfiguration,
    payment: PayerPayment,
    progress: ChargeProgress,
  ): Promise<PayOutcome> {
    const b = payment.billing;
    const billing = b
      ? normalizeAddress(
          { line1: b.line1, line2: b.line2, city: b.city, postalCode: b.postalCode, stateCode: b.state },
          'billingAddress',
        )
      : null;
    const source = this.deps.sources.of(session);
    if (source?.pay) {
      progress.charging = true;
      return this.settle(session, token, payment, await source.pay(session, payment, billing));
    }
    await source?.begin?.(session);
    // From here a payment may be made: an error past this point leaves its outcome to the sweep.
    progress.charging = true;
    const saving = session.mode !== SessionMode.Payment;
    const paying = session.mode !== SessionMode.SaveMethod;
    // Saving first, then paying with the saved method, links the payment to the customer (their statistics count
    // it); a decline removes the saved method again.
    let saved: { customerId: string | null; paymentMethodId: string } | undefined;
    if (saving) {
      if (payment.method === 'card' && session.mode === SessionMode.SaveMethod) {
        // A card is verified with the network (a zero-amount authentication, AVS included) before it is kept.
        const verified = await this.deps.payments.charge(
          withFields(chargeRequest(session, configuration, payment, billing), {
            operation: 'verify',
            amount: { baseCents: 0 },
          }),
        );
        if (!wentThrough(verified.transaction)) return this.declined(session, token, verified.transaction);
        saved = await saveMethod(this.deps, session, token, payment, billing);
        return {
          kind: 'completed',
          session: await this.complete(session, token, verified.transaction, saved.paymentMethodId),
        };
      }
      saved = await saveMethod(this.deps, session, token, payment, billing);
      if (!paying)
        return {
          kind: 'completed',
          session: await this.complete(session, token, null, saved.paymentMethodId, payment),
        };
    }

    let transaction: Transaction;
    if (payment.method === 'card') {
      const charge = { ...chargeRequest(session, configuration, payment, billing), ...this.attribution(session) };
      const result = await this.deps.payments.charge(saved ? { ...charge, instrument: savedMethod(saved) } : charge);
      transaction = result.transaction;
    } else {
      const result = await this.deps.payments.achDebit({
        merchantId: session.merchantId,
        source: { typeId: CreateMethod.WebComponent, id: session.id },
        ...this.attribution(session),
        amount: { baseCents: baseCents(session, payment), tipCents: session.tipCents, tax: sessionTax(session) },
        processorId: session.ach.processorId,
        instrument: saved ? savedMethod(saved) : payerBankAccount(payment),
        secCode: SecCode.Web,
        requesterIp: payment.clientIp,
        isFasterProcessing: session.ach.fasterProcessing,
        billingAddress: billing,
        contactInfo: payerContact(payment),
      });
      transaction = result.transaction;
    }
    return this.settle(session, token, payment, transaction, saved);
  }

  /** The payment's outcome on the session: in flight, declined, or completed. */
  private async settle(
    session: PaymentSession,
    token: string,
    payment: PayerPayment,
    transaction: Transaction,
    saved?: { customerId: string | null; paymentMethodId: string },
  ): Promise<PayOutcome> {
    if (transaction.method === 'card' && transaction.statusId === TransactionStatus.Pending) {
      // The processor has not said; the sweep completes the session once the reconciler knows.
      await this.release(session, token, { awaiting_outcome: true, transaction_id: transaction.id });
      return { kind: 'busy', session };
    }
    if (!wentThrough(transaction)) {
      if (saved) await unsaveMethod(this.deps, session, saved);
      await this.deps.sources.of(session)?.end?.(session);
      return this.declined(session, token, transaction);
    }
    return {
      kind: 'completed',
      session: await this.complete(session, token, transaction, saved?.paymentMethodId ?? null, payment),
    };
  }

  private async declined(session: PaymentSession, token: string, transaction: Transaction): Promise<PayOutcome> {
    const failures = session.failedAttempts + 1;
    const changes: AttemptChanges = { failed_attempts: failures, transaction_id: transaction.id };
    if (failures >= MAX_FAILED_ATTEMPTS) {
      changes.status = SessionStatus.Failed;
      changes.end_reason = 'attempts';
    }
    const updated = await this.release(session, token, changes);
    if (updated.status === SessionStatus.Failed) return { kind: 'ended', session: updated };
    const message = transaction.responseMessage || transaction.detailsMessage || 'The payment was declined.';
    return { kind: 'declined', session: updated, message };
  }

  /** Created → Completed with its payment (and saved method), and the event, in one transaction. */
  private async complete(
    session: PaymentSession,
    token: string | null,
    transaction: Transaction | null,
    vaultedPaymentMethodId: string | null = null,
    payment?: PayerPayment,
  ): Promise<PaymentSession> {
    const now = this.deps.clock.now();
    const ach = payment?.method === 'ach' ? payment.ach : undefined;
    return withTransaction(this.deps.pool, async (tx) => {
      const done = await updateAttempt(
        tx,
        session,
        token,
        {
          status: SessionStatus.Completed,
          completed_at: now,
          awaiting_outcome: false,
          transaction_id: transaction?.id ?? null,
          vaulted_payment_method_id: vaultedPaymentMethodId ?? session.vaultedPaymentMethodId,
          paid_amount_cents: transaction ? transaction.totalCents : undefined,
          ach_account_last2: ach ? ach.accountNumber.slice(-2) : undefined,
          ach_routing_last2: ach ? ach.routingNumber.slice(-2) : undefined,
        },
        now,
      );
      if (!done) throw new Error(`payment session ${session.id} changed while its payment was completing`);
      if (transaction) await this.deps.sources.of(session)?.completed?.(tx, done, transaction);
      await recordEvent(tx, this.deps.clock, {
        type: 'payment_session.completed',
        merchantId: session.merchantId,
        resourceType: 'payment_session',
        resourceId: session.id,
        data: transaction ? { transactionId: transaction.id } : {},
      });
      return done;
    });
  }

  /** Ends this attempt; if the lease was lost meanwhile, answers with the row as it now stands. */
  private async release(session: PaymentSession, token: string | null, changes: AttemptChanges) {
    const released = await updateAttempt(this.deps.pool, session, token, changes, this.deps.clock.now());
    return released ?? (await findSessionForPayer(this.deps.pool, session.id)) ?? session;
  }

  /**
   * The sweep: sessions whose payment outcome was unknown or whose payer's node died mid-payment. Completes the
   * ones whose payment went through, frees the others for the payer to try again.
   */
  async resolveUnresolved(limit = 200): Promise<number> {
    let resolved = 0;
    for (const id of await findUnresolvedSessions(this.deps.pool, this.deps.clock.now(), limit)) {
      if (await this.resolveSession(id)) resolved++;
    }
    return resolved;
  }

  /** A session whose lease is held by a node that is gone. */
  private async orphaned(session: PaymentSession, now: Date): Promise<boolean> {
    return (
      session.processingUntil !== null &&
      session.processingUntil > now &&
      session.processingNode !== null &&
      !(await isNodeAlive(this.deps.pool, session.processingNode))
    );
  }

  /**
   * One session whose payment outcome was unknown or whose submission's node died: completed with the payment that
   * went through, or freed for the payer to try again (true when it completed).
   */
  private async resolveSession(id: string): Promise<boolean> {
    const token = newId();
    const now = this.deps.clock.now();
    // An unresolved payment is settled even past the session's expiry: it started before.
    const held = await claimForPayment(this.deps.pool, id, token, now, new Date(now.getTime() + LEASE_MS), {
      evenIfExpired: true,
      node: this.deps.nodeId(),
    });
    if (!held) return false;
    await this.reconcilePending(held);
    const earlier = await this.earlierPayment(held);
    if (earlier === 'unknown') await this.release(held, token, {});
    else if (earlier) {
      await this.complete(held, token, earlier);
      return true;
    } else await this.release(held, token, { awaiting_outcome: false, failed_attempts: held.failedAttempts });
    return false;
  }
}

/** "Ada King Lovelace" → first name "Ada", last name "King Lovelace" (null when missing). */

/** Did this payment go through (now or at some point: a later void or refund does not undo the session)? */
function wentThrough(t: Transaction): boolean {
  if (t.statusId === TransactionStatus.Declined || t.statusId === TransactionStatus.Failed) return false;
  if (t.method === 'card' && t.statusId === TransactionStatus.Pending) return false;
  return true;
}

/** A method the session just saved, paid with as the API would: the customer's, or an orphan one. */
function savedMethod(saved: { customerId: string | null; paymentMethodId: string }) {
  return saved.customerId
    ? { kind: 'vaulted' as const, customerId: saved.customerId, paymentMethodId: saved.paymentMethodId }
    : { kind: 'orphan' as const, paymentMethodId: saved.paymentMethodId };
}
