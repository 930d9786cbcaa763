import type { Clock } from '../../platform/clock/clock.js';
import { isNodeAlive } from '../../platform/cluster/node-liveness.js';
import { nameBasedId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/observability/logger.js';
import { recordEvent } from '../events/outbox.js';
import type { RequestClaim } from '../payments/payment-request.js';
import type { BankInstrument, CardInstrument, PaymentResult, PaymentsService } from '../payments/payments.service.js';
import { CardDataSource, type ContactInfo, CreateMethod, type Transaction } from '../payments/transactions.model.js';
import type { Address } from '../reference/address.js';
import type { InvoiceDelivery } from './invoice-delivery.js';
import type { InvoiceSettingsService } from './invoice-settings.js';
import { INVOICE_STATUS_NAMES, type Invoice, InvoiceStatus } from './invoices.model.js';
import {
  findInvoice,
  findStuckPayments,
  lockByTransaction,
  moveInvoice,
  paymentFailed,
  paymentReversed,
  paymentSucceeded,
  recordPendingTransaction,
  startPayment,
} from './invoices.repo.js';

export interface InvoicePaymentsDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** This node's liveness id: a payment it is making is settled at once by others when it dies. */
  nodeId: () => number;
  payments: PaymentsService;
  settings: InvoiceSettingsService;
  /** The customer's SMS after a payment, when the invoice settings ask for it. */
  delivery: InvoiceDelivery;
}

export interface CardPaymentRequest {
  instrument: CardInstrument;
  billingAddress: Address | null;
  contactInfo: ContactInfo | null;
  useCardPrice: boolean | null;
}

export interface AchPaymentRequest {
  instrument: BankInstrument;
  secCode: number;
  requesterIp: string;
  billingAddress: Address | null;
  contactInfo: ContactInfo | null;
}

/** A card payment whose request went quiet this long ago is settled by the sweep. */
const STUCK_AFTER_MS = 2 * 60_000;

/** The payment idempotency id of an invoice's payment attempt: found again, never made twice. */
export const invoicePaymentId = (invoiceId: string, attempt: number) =>
  nameBasedId(`invoice-payment:${invoiceId}:${attempt}`);

/**
 * Paying an invoice by card or by bank account: Published and unpaid → ProcessingPayment (a compare-and-set: of
 * concurrent payments exactly one starts), the amount due paid through the payments core (source 4 Invoice), then
 * Paid, or Published again with the decline (a card at once; an ACH debit when it clears or comes back).
 */
export class InvoicePayments {
  constructor(private readonly deps: InvoicePaymentsDeps) {
    // An invoice's ACH debit pays it when it clears, and stops paying it if it comes back (docs/invoices.md).
    deps.payments.listen(CreateMethod.Invoice, {
      achCleared: (tx, t) => this.achCleared(tx, t),
      achReturned: (tx, t) => this.achReturned(tx, t),
      refunded: (tx, t) => this.refunded(tx, t),
    });
  }

  /**
   * Paying by bank account: ProcessingPayment while the ACH debit of the amount due is on its way; Paid when it
   * clears, Published again (with the reason) when it fails or comes back.
   */
  async payByAch(
    merchantId: string,
    invoiceId: string,
    request: AchPaymentRequest,
    claim?: RequestClaim,
  ): Promise<PaymentResult> {
    const own = await this.ownAttempt(merchantId, invoiceId, claim, 'ach');
    if (own?.kind === 'settled') return own.result;
    const { invoice, attempt } = own ?? (await this.start(merchantId, invoiceId, 'ach', claim));
    const settings = await this.deps.settings.get(merchantId);
    let result: PaymentResult;
    try {
      result = await this.deps.payments.achDebit({
        merchantId,
        source: { typeId: CreateMethod.Invoice, id: invoiceId },
        processorId: settings.achProcessorId,
        referenceId: invoice.number,
        amount: { baseCents: invoice.totalCents - invoice.paidCents },
        instrument: request.instrument,
        secCode: request.secCode,
        requesterIp: request.requesterIp,
        billingAddress: request.billingAddress,
        contactInfo: request.contactInfo,
        // A retry of the request that started this attempt answers the debit it made, or makes it (nothing was).
        idempotency: { id: invoicePaymentId(invoiceId, attempt), recovering: own !== undefined },
      });
    } catch (error) {
      // A refusal made no entry: payable again. Anything else may have made one: the invoice stays ProcessingPayment
      // (never a second debit) and is logged for the operator (docs/invoices.md).
      if (error instanceof AppError) await this.failed(invoice, attempt, null, error.message);
      else this.deps.logger.error({ err: error, invoiceId }, 'invoice ACH payment: outcome unknown, left processing');
      throw error;
    }
    if (result.outcome === 'approved') {
      await recordPendingTransaction(this.deps.pool, merchantId, invoiceId, attempt, result.transaction.id);
    } else {
      await this.failed(
        invoice,
        attempt,
        result.transaction.id,
        result.transaction.detailsMessage ?? 'The debit failed.',
      );
    }
    return result;
  }

  /**
   * Published → ProcessingPayment for this request, held by this node (and by the request's idempotency claim, when it
   * sent a key). A card payment another request is making answers 409 while its node lives (a conflict is not stored
   * under the idempotency key: the retry is answered anew); when its node is dead, the payment it left is settled now
   * (the sweep would, later), and this request goes on if that left the invoice payable. An ACH debit on its way is a
   * 400, as any other state that cannot be paid.
   */
  private async start(merchantId: string, invoiceId: string, method: 'card' | 'ach', claim?: RequestClaim) {
    for (let round = 0; ; round++) {
      const attempt = await startPayment(this.deps.pool, merchantId, invoiceId, method, this.deps.clock.now(), {
        node: this.deps.nodeId(),
        claim: claim?.id ?? null,
      });
      const invoice = await findInvoice(this.deps.pool, merchantId, invoiceId);
      if (!invoice) throw new NotFoundError('Invoice', invoiceId);
      if (attempt !== null) return { invoice, attempt };
      const holder = invoice.statusId === InvoiceStatus.ProcessingPayment ? invoice.processingNode : null;
      if (round === 0 && holder !== null && !(await isNodeAlive(this.deps.pool, holder))) {
        // Left by a request whose node died: settled now (the sweep would, later); payable again if nothing was made.
        if (invoice.processingMethod === 'ach') await this.closeLostAchPayment(invoice);
        else await this.closeLostCardPayment(invoice);
        continue;
      }
      // A card payment is made within the request (seconds); an ACH debit, once scheduled, takes days: only the
      // first is "in progress, retry shortly".
      if (invoice.statusId === InvoiceStatus.ProcessingPayment && invoice.processingMethod === 'card') {
        throw new ConflictError(
          'A payment of this invoice is being made; retry shortly (a conflict is not stored under an idempotency key).',
          'PaymentInProgress',
          invoice.id,
        );
      }
      throw ValidationError.field(
        'status',
        `Only a Published, unpaid invoice can be paid. This invoice is ${INVOICE_STATUS_NAMES[invoice.statusId]}.`,
      );
    }
  }

  /**
   * The attempt the request behind `claim` started, when this is its retry after being cut off (its node died, or it
   * failed with a 5xx): still being made (go on with it under the same payment id, so nothing is made twice), or
   * settled since, by the sweep or a request that met it (answer what it came to).
   */
  private async ownAttempt(
    merchantId: string,
    invoiceId: string,
    claim: RequestClaim | undefined,
    method: 'card' | 'ach',
  ): Promise<
    { kind: 'in-flight'; invoice: Invoice; attempt: number } | { kind: 'settled'; result: PaymentResult } | undefined
  > {
    if (!claim?.recovering) return undefined;
    const invoice = await findInvoice(this.deps.pool, merchantId, invoiceId);
    if (!invoice || invoice.paymentClaim !== claim.id) return undefined;
    const attempt = invoice.paymentAttempts;
    if (invoice.statusId === InvoiceStatus.ProcessingPayment && invoice.processingMethod === method) {
      return { kind: 'in-flight', invoice, attempt };
    }
    const made = await this.deps.payments.paymentMadeUnder(merchantId, invoicePaymentId(invoiceId, attempt));
    return made ? { kind: 'settled', result: made } : undefined;
  }

  /**
   * An ACH debit whose node died: the debit made under its id (recorded: the ACH module follows it from there), or a
   * Failed one in its place (closeAchClaim): nothing was debited, and the invoice is payable again.
   */
  private async closeLostAchPayment(invoice: Invoice): Promise<PaymentResult> {
    const attempt = invoice.paymentAttempts;
    const settings = await this.deps.settings.get(invoice.merchantId);
    const result = await this.deps.payments.closeAchClaim({
      merchantId: invoice.merchantId,
      claimId: invoicePaymentId(invoice.id, attempt),
      source: { typeId: CreateMethod.Invoice, id: invoice.id },
      processorId: settings.achProcessorId,
      amountCents: invoice.totalCents - invoice.paidCents,
      referenceId: invoice.number,
      reason: 'The debit was cut off before it was made; nothing was debited.',
    });
    if (result.outcome === 'approved') {
      await recordPendingTransaction(this.deps.pool, invoice.merchantId, invoice.id, attempt, result.transaction.id);
    } else {
      await this.failed(invoice, attempt, result.transaction.id, result.transaction.detailsMessage ?? 'Failed');
    }
    return result;
  }

  /** A card payment whose node died: the payment made under its id, or a Failed record in its place (closeCardClaim). */
  private async closeLostCardPayment(invoice: Invoice): Promise<PaymentResult> {
    const attempt = invoice.paymentAttempts;
    const settings = await this.deps.settings.get(invoice.merchantId);
    const result = await this.deps.payments.closeCardClaim({
      merchantId: invoice.merchantId,
      claimId: invoicePaymentId(invoice.id, attempt),
      source: { typeId: CreateMethod.Invoice, id: invoice.id },
      processorId: settings.cardProcessorId,
      amountCents: invoice.totalCents - invoice.paidCents,
      referenceId: invoice.number,
      cardDataSource: CardDataSource.Internet,
      reason: 'The payment was cut off before it was made; nothing was charged.',
    });
    await this.settle(invoice, attempt, result);
    return result;
  }

  /** The payments core's listener, in its transaction: the debit cleared. */
  private async achCleared(tx: Sql, t: Transaction): Promise<void> {
    if (!t.sourceId) return;
    const invoice = await lockByTransaction(tx, t.merchantId, t.sourceId, t.id);
    if (!invoice || invoice.transactionIds.at(-1) !== t.id) return;
    const now = this.deps.clock.now();
    if (
      await paymentSucceeded(
        tx,
        t.merchantId,
        invoice.id,
        invoice.paymentAttempts,
        { transactionId: t.id, cents: invoice.totalCents },
        now,
        false,
      )
    ) {
      await recordEvent(tx, this.deps.clock, {
        type: 'invoice.paid',
        merchantId: t.merchantId,
        resourceType: 'invoice',
        resourceId: invoice.id,
      });
      await this.deps.delivery.afterPayment(tx, invoice, true);
    }
  }

  /** The payment that paid the invoice was refunded in full (card return, ACH refund): Refunded. */
  private async refunded(tx: Sql, t: Transaction): Promise<void> {
    if (!t.sourceId) return;
    const invoice = await lockByTransaction(tx, t.merchantId, t.sourceId, t.id);
    if (!invoice || invoice.transactionIds.at(-1) !== t.id) return;
    await moveInvoice(
      tx,
      t.merchantId,
      invoice.id,
      [InvoiceStatus.Paid],
      InvoiceStatus.Refunded,
      this.deps.clock.now(),
    );
  }

  /** The debit came back: before clearing, the payment failed; after, the invoice is unpaid again. */
  private async achReturned(tx: Sql, t: Transaction): Promise<void> {
    if (!t.sourceId) return;
    const invoice = await lockByTransaction(tx, t.merchantId, t.sourceId, t.id);
    if (!invoice || invoice.transactionIds.at(-1) !== t.id) return;
    const reason = `The debit came back: ${t.detailsMessage ?? t.responseCode ?? 'returned'}.`;
    const now = this.deps.clock.now();
    if (invoice.statusId === InvoiceStatus.ProcessingPayment) {
      await paymentFailed(tx, t.merchantId, invoice.id, invoice.paymentAttempts, { transactionId: null, reason }, now);
    } else {
      await paymentReversed(tx, t.merchantId, invoice.id, reason, now);
    }
  }

  async payByCard(
    merchantId: string,
    invoiceId: string,
    request: CardPaymentRequest,
    claim?: RequestClaim,
  ): Promise<PaymentResult> {
    const own = await this.ownAttempt(merchantId, invoiceId, claim, 'card');
    if (own?.kind === 'settled') return own.result;
    const { invoice, attempt } = own ?? (await this.start(merchantId, invoiceId, 'card', claim));
    const settings = await this.deps.settings.get(merchantId);
    let result: PaymentResult;
    try {
      result = await this.deps.payments.charge({
        merchantId,
        source: { typeId: CreateMethod.Invoice, id: invoiceId },
        processorId: settings.cardProcessorId,
        referenceId: invoice.number,
        amount: { baseCents: invoice.totalCents - invoice.paidCents, useCardPrice: request.useCardPrice },
        instrument: request.instrument,
        initiator: 'customer',
        cardDataSource: CardDataSource.Internet,
        billingAddress: request.billingAddress,
        contactInfo: request.contactInfo,
        // A retry of the request that started this attempt finds (and settles) the payment it made, else makes it.
        idempotency: { id: invoicePaymentId(invoiceId, attempt), recovering: own !== undefined },
      });
    } catch (error) {
      // A refusal (a bad card, a closed processor) charged nothing: payable again. Anything else may have charged:
      // the sweep finds out.
      if (error instanceof AppError) {
        await this.failed(invoice, attempt, null, error.message);
      }
      throw error;
    }
    await this.settle(invoice, attempt, result);
    return result;
  }

  /**
   * Card payments whose request died (or went silent): settled from the payment made under their id, or failed
   * with nothing charged. The payments core records the failure under the payment's id itself, so a request that
   * only stalled (a paused node, a failover) cannot charge after the invoice went back to Published.
   */
  async sweep(): Promise<void> {
    const before = new Date(this.deps.clock.nowMs() - STUCK_AFTER_MS);
    for (const invoice of await findStuckPayments(this.deps.pool, before, 100)) {
      try {
        if (invoice.processingMethod === 'ach') await this.closeLostAchPayment(invoice);
        else await this.closeLostCardPayment(invoice);
      } catch (error) {
        this.deps.logger.error({ err: error, invoiceId: invoice.id }, 'invoice payment sweep failed');
      }
    }
  }

  private async settle(invoice: Invoice, attempt: number, result: PaymentResult): Promise<void> {
    const t = result.transaction;
    if (result.outcome === 'pending') return; // the answer is not known yet: the sweep settles it
    if (result.outcome === 'approved') {
      await withTransaction(this.deps.pool, async (tx) => {
        const now = this.deps.clock.now();
        const paid = await paymentSucceeded(
          tx,
          invoice.merchantId,
          invoice.id,
          attempt,
          { transactionId: t.id, cents: invoice.totalCents },
          now,
        );
        if (paid) {
          await recordEvent(tx, this.deps.clock, {
            type: 'invoice.paid',
            merchantId: invoice.merchantId,
            resourceType: 'invoice',
            resourceId: invoice.id,
          });
          await this.deps.delivery.afterPayment(tx, invoice, true);
        }
      });
      return;
    }
    await this.failed(
      invoice,
      attempt,
      t.id,
      t.responseMessage ?? t.detailsMessage ?? (result.outcome === 'declined' ? 'Declined' : 'Failed'),
    );
  }

  private async failed(invoice: Invoice, attempt: number, transactionId: string | null, reason: string) {
    await withTransaction(this.deps.pool, async (tx) => {
      const now = this.deps.clock.now();
      if (await paymentFailed(tx, invoice.merchantId, invoice.id, attempt, { transactionId, reason }, now)) {
        await this.deps.delivery.afterPayment(tx, invoice, false);
      }
    });
  }
}
