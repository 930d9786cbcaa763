import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { SecCode } from '../payments/ach/ach.model.js';
import { CreateMethod, type Transaction } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { Address } from '../reference/address.js';
import { payerBankAccount, payerCard, payerContact } from '../sessions/session-charge.js';
import type { PayerPayment, SessionPayments } from '../sessions/session-payments.js';
import type { SessionSource, SessionSources } from '../sessions/session-sources.js';
import type { PaymentSession } from '../sessions/sessions.model.js';
import { SessionMode } from '../sessions/sessions.model.js';
import type { PaymentSessionsService } from '../sessions/sessions.service.js';
import type { InvoicePayments } from './invoice-payments.js';
import type { InvoiceSettingsService } from './invoice-settings.js';
import { type Invoice, InvoiceStatus } from './invoices.model.js';
import { findByPublicToken, setCheckoutSession } from './invoices.repo.js';

export interface InvoiceCheckoutDeps {
  pool: Pool;
  clock: Clock;
  payments: InvoicePayments;
  settings: InvoiceSettingsService;
  transactions: TransactionsService;
  sessions: PaymentSessionsService;
  sessionPayments: SessionPayments;
  sources: SessionSources;
}

/** How long a checkout session the invoice page opens stays open (a new one is opened after). */
const SESSION_LIFETIME_MS = 30 * 60_000;

export type CheckoutStart = { kind: 'session'; sessionId: string } | { kind: 'not-payable'; invoice: Invoice };

/**
 * The hosted invoice page pays through the hosted checkout: a payment session for the amount due with the invoice
 * as its source. The session holds the payer's page; the invoice's own payment flow charges (Published →
 * ProcessingPayment is its compare-and-set, so the page, the API and a second tab together still pay once).
 */
export class InvoiceCheckout implements SessionSource {
  constructor(private readonly deps: InvoiceCheckoutDeps) {
    deps.sources.register(CreateMethod.Invoice, this);
  }

  byToken(token: string): Promise<Invoice | null> {
    return findByPublicToken(this.deps.pool, token);
  }

  /** The payer pressed Pay: the page's open session for the amount due, or a new one. */
  async start(invoice: Invoice, pageUrl: string): Promise<CheckoutStart> {
    const due = invoice.totalCents - invoice.paidCents;
    if (invoice.statusId !== InvoiceStatus.Published || due <= 0) return { kind: 'not-payable', invoice };
    if (invoice.checkoutSessionId) {
      const view = await this.deps.sessionPayments.view(invoice.checkoutSessionId);
      if (view?.open && view.session.amountCents === due) return { kind: 'session', sessionId: view.session.id };
    }
    const settings = await this.deps.settings.get(invoice.merchantId);
    const session = await this.deps.sessions.create({
      merchantId: invoice.merchantId,
      surface: 'int',
      mode: SessionMode.Payment,
      amountCents: due,
      tipCents: null,
      taxMode: null,
      taxRateMpct: null,
      taxCents: null,
      skipAddressVerification: false,
      referenceId: invoice.number,
      customerId: null,
      customerHandling: null,
      returnUrl: pageUrl,
      // Both methods the merchant can take are offered, on the invoice settings' processors when set.
      card: { enabled: null, processorId: settings.cardProcessorId },
      ach: { enabled: null, processorId: settings.achProcessorId, fasterProcessing: false },
      metadata: null,
      afterCompletionMessage: null,
      pageName: `Invoice ${invoice.number}`,
      paymentNotes: null,
      isMultiUse: false,
      expiresAt: null,
      defaultLifetimeMs: SESSION_LIFETIME_MS,
      paymentSource: { typeId: CreateMethod.Invoice, id: invoice.id },
    });
    // Two presses at once may open two sessions: the invoice keeps one, and its own flow still pays once.
    await setCheckoutSession(this.deps.pool, invoice, invoice.checkoutSessionId, session.id);
    return { kind: 'session', sessionId: session.id };
  }

  async pay(session: PaymentSession, payment: PayerPayment, billing: Address | null): Promise<Transaction> {
    const invoiceId = session.paymentSource!.id;
    const contactInfo = payerContact(payment);
    const result =
      payment.method === 'card'
        ? await this.deps.payments.payByCard(session.merchantId, invoiceId, {
            instrument: payerCard(payment),
            billingAddress: billing,
            contactInfo,
            useCardPrice: null,
          })
        : await this.deps.payments.payByAch(session.merchantId, invoiceId, {
            instrument: payerBankAccount(payment),
            secCode: SecCode.Web,
            requesterIp: payment.clientIp,
            billingAddress: billing,
            contactInfo,
          });
    return result.transaction;
  }

  /** The invoice's payments made since this session opened (the ones its submissions can have made). */
  async attempts(session: PaymentSession): Promise<Transaction[]> {
    const all = await this.deps.transactions.bySource(session.merchantId, session.paymentSource!.id);
    return all.filter((t) => t.createdAt >= session.createdAt);
  }
}
