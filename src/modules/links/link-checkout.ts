import type { Clock } from '../../platform/clock/clock.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { ValidationError } from '../../platform/http/errors.js';
import { CreateMethod, type Transaction } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { type SessionSource, type SessionSources, sessionAttemptIds } from '../sessions/session-sources.js';
import type { PaymentSession } from '../sessions/sessions.model.js';
import { SessionMode } from '../sessions/sessions.model.js';
import type { PaymentSessionsService } from '../sessions/sessions.service.js';
import { isPayable, type PaymentLink, usedStatus } from './links.model.js';
import { claimLink, findByCode, findById, recordPayment, releaseClaim } from './links.repo.js';
import type { LinksService } from './links.service.js';

export interface LinkCheckoutDeps {
  pool: Pool;
  clock: Clock;
  links: LinksService;
  sessions: PaymentSessionsService;
  transactions: TransactionsService;
  sources: SessionSources;
}

/** How long the payment session a link's page opens stays open (never past the link's own expiry). */
const SESSION_LIFETIME_MS = 30 * 60_000;
/** How long a single-use link is held by the payer paying it: the session's own lease. */
const CLAIM_MS = 120_000;

/** A link code as links are made (12 random bytes, base64url): anything else is not looked up. */
const CODE = /^[A-Za-z0-9_-]{16}$/;

/** What a payer reads on a link that cannot be paid, by its status. */
function closedText(link: PaymentLink, now: Date): { title: string; text: string } {
  if (link.status === 'completed' || (link.singleUse && link.paymentCount > 0)) {
    return { title: 'Already paid', text: 'This payment link has been used. Thank you.' };
  }
  if (link.status === 'expired' || (link.expiresAt && link.expiresAt <= now)) {
    return { title: 'Link expired', text: 'This payment link has expired. Please ask the merchant for a new one.' };
  }
  if (link.status === 'created') {
    return { title: 'Not active yet', text: 'This payment link is not active yet. Please try again later.' };
  }
  return { title: 'Link not available', text: 'This payment link is no longer active. Please contact the merchant.' };
}

/**
 * Paying a link: its page opens a short-lived payment session whose source is the link, and the hosted checkout
 * takes it from there. The session charges under the link's name; a single-use link is claimed first (of two payers
 * at once one pays, the other is told it is used); the link's counts move in the transaction that completes the
 * session, so exactly once per successful payment whatever the payer double-submits.
 */
export class LinkCheckout implements SessionSource {
  constructor(private readonly deps: LinkCheckoutDeps) {
    deps.sources.register(CreateMethod.QuickPayment, this);
  }

  /**
   * The link page (`/l/{code}`, link-page.routes.ts): an open link gets a short-lived payment session for this
   * visit; any other gets the page that says why.
   */
  async openByCode(
    code: string,
  ): Promise<{ session: PaymentSession } | { status: number; title: string; text: string }> {
    const link = CODE.test(code) ? await findByCode(this.deps.pool, code) : undefined;
    if (!link) return { status: 404, title: 'Link not found', text: 'This payment link is not valid.' };
    const now = this.deps.clock.now();
    if (!isPayable(link, now)) return { status: 200, ...closedText(link, now) };
    try {
      return { session: await this.open(link, now) };
    } catch (error) {
      // The merchant cannot take the payment now (no active processor, above its maximum).
      if (!(error instanceof ValidationError)) throw error;
      return { status: 200, title: 'Link not available', text: 'This payment cannot be taken online now.' };
    }
  }

  private open(link: PaymentLink, now: Date): Promise<PaymentSession> {
    const ends = now.getTime() + SESSION_LIFETIME_MS;
    return this.deps.sessions.create({
      merchantId: link.merchantId,
      surface: link.surface === 'quick' ? 'int' : 'v2',
      mode: SessionMode.Payment,
      amountCents: link.amountCents,
      tipCents: null,
      taxMode: null,
      taxRateMpct: null,
      taxCents: null,
      skipAddressVerification: false,
      referenceId: link.referenceId,
      customerId: null,
      customerHandling: null,
      returnUrl: null,
      card: { enabled: link.card.enabled, processorId: link.card.processorId },
      ach: { enabled: link.ach.enabled, processorId: link.ach.processorId, fasterProcessing: false },
      metadata: null,
      afterCompletionMessage: null,
      pageName: link.name ?? 'Payment',
      paymentNotes: link.description,
      isMultiUse: false,
      expiresAt: new Date(link.expiresAt ? Math.min(ends, link.expiresAt.getTime()) : ends),
      defaultLifetimeMs: null,
      paymentSource: { typeId: CreateMethod.QuickPayment, id: link.id },
    });
  }

  /** Before a submission charges: the link must still be payable; a single-use one is taken by this session. */
  async begin(session: PaymentSession): Promise<void> {
    const link = await findById(this.deps.pool, session.merchantId, session.paymentSource!.id);
    const now = this.deps.clock.now();
    if (!link || !isPayable(link, now)) {
      throw ValidationError.field('link', 'This payment link is no longer available.');
    }
    if (
      link.singleUse &&
      !(await claimLink(this.deps.pool, link, session.id, now, new Date(now.getTime() + CLAIM_MS)))
    ) {
      throw ValidationError.field('link', 'This payment link is being paid or has been used.');
    }
  }

  /** The submission's payment did not go through: a single-use link is free again. */
  async end(session: PaymentSession): Promise<void> {
    await releaseClaim(this.deps.pool, session.merchantId, session.paymentSource!.id, session.id);
  }

  /** In the session's completing transaction: the payment counts once; a single-use link is used up. */
  async completed(tx: Sql, session: PaymentSession, transaction: Transaction): Promise<void> {
    const link = await findById(tx, session.merchantId, session.paymentSource!.id);
    if (!link) return;
    const recorded = await recordPayment(tx, link, {
      sessionId: session.id,
      transactionId: transaction.id,
      cents: transaction.totalCents,
      at: this.deps.clock.now(),
      usedStatus: usedStatus(link),
    });
    if (recorded) {
      await this.deps.links.event(
        tx,
        link,
        link.id,
        link.surface === 'quick' ? 'quick_payment.paid' : 'payment_link.updated',
      );
    }
  }

  attempts(session: PaymentSession): Promise<Transaction[]> {
    return this.deps.transactions.byIdempotencyIds(session.merchantId, sessionAttemptIds(session));
  }
}
