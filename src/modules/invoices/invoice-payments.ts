import type { Clock } from '../../platform/clock/clock.js';
import { nameBasedId } from '../../platform/crypto/ids.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { recordEvent } from '../../platform/events/outbox.js';
import { AppError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { CardInstrument, PaymentResult, PaymentsService } from '../payments/payments.service.js';
import { CardDataSource, type ContactInfo, CreateMethod } from '../payments/transactions.model.js';
import type { Address } from '../reference/address.js';
import type { InvoiceSettingsService } from './invoice-settings.js';
import { INVOICE_STATUS_NAMES, type Invoice } from './invoices.model.js';
import { findInvoice, findStuckCardPayments, paymentFailed, paymentSucceeded, startPayment } from './invoices.repo.js';

export interface InvoicePaymentsDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  payments: PaymentsService;
  settings: InvoiceSettingsService;
}

export interface CardPaymentRequest {
  instrument: CardInstrument;
  billingAddress: Address | null;
  contactInfo: ContactInfo | null;
  useCardPrice: boolean | null;
}

/** A card payment whose request went quiet this long ago is settled by the sweep. */
const STUCK_AFTER_MS = 2 * 60_000;

/** The payment idempotency id of an invoice's payment attempt: found again, never made twice. */
export const invoicePaymentId = (invoiceId: string, attempt: number) =>
  nameBasedId(`invoice-payment:${invoiceId}:${attempt}`);

/**
 * Paying an invoice by card: Published and unpaid → ProcessingPayment (a compare-and-set: of concurrent payments
 * exactly one starts), the amount due charged through the payments core (source 4 Invoice), then Paid, or Published
 * again with the decline.
 */
export class InvoicePayments {
  constructor(private readonly deps: InvoicePaymentsDeps) {}

  async payByCard(
    merchantId: string,
    invoiceId: string,
    request: CardPaymentRequest,
  ): Promise<{ result: PaymentResult | null }> {
    const attempt = await startPayment(this.deps.pool, merchantId, invoiceId, 'card', this.deps.clock.now());
    const invoice = await findInvoice(this.deps.pool, merchantId, invoiceId);
    if (!invoice) throw new NotFoundError('Invoice', invoiceId);
    if (attempt === null) {
      throw ValidationError.field(
        'status',
        `Only a Published, unpaid invoice can be paid. This invoice is ${INVOICE_STATUS_NAMES[invoice.statusId]}.`,
      );
    }
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
        idempotency: { id: invoicePaymentId(invoiceId, attempt), recovering: false },
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
    return { result };
  }

  /** Card payments whose request died (or went silent): settled from the payment made under their id, if any. */
  async sweep(): Promise<void> {
    const before = new Date(this.deps.clock.nowMs() - STUCK_AFTER_MS);
    for (const invoice of await findStuckCardPayments(this.deps.pool, before, 100)) {
      try {
        const attempt = invoice.paymentAttempts;
        const made = await this.deps.payments.cardPaymentMadeUnder(
          invoice.merchantId,
          invoicePaymentId(invoice.id, attempt),
        );
        if (made) await this.settle(invoice, attempt, made);
        else
          await this.failed(invoice, attempt, null, 'The payment was cut off before it was made; nothing was charged.');
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
        }
      });
      return;
    }
    await this.failed(
      invoice,
      attempt,
      t.id,
      t.responseMessage ?? (result.outcome === 'declined' ? 'Declined' : 'Failed'),
    );
  }

  private async failed(invoice: Invoice, attempt: number, transactionId: string | null, reason: string) {
    await paymentFailed(
      this.deps.pool,
      invoice.merchantId,
      invoice.id,
      attempt,
      { transactionId, reason },
      this.deps.clock.now(),
    );
  }
}
