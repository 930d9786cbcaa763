import type { Clock } from '../../platform/clock/clock.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { toE164 } from '../../platform/sms/sms-transport.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { Channel } from '../messages/messages.model.js';
import type { MessagesService } from '../messages/messages.service.js';
import { type InvoiceContact, invoiceContact } from './invoice-contact.js';
import { invoiceEmail, invoiceSms, paymentSms, pdfFilename, type Sender } from './invoice-messages.js';
import type { InvoiceSettingsService } from './invoice-settings.js';
import { INVOICE_STATUS_NAMES, type Invoice, InvoiceStatus } from './invoices.model.js';
import { findInvoice } from './invoices.repo.js';
import { invoiceDocumentOf } from './pdf/invoice-document-of.js';
import type { PdfRenderer } from './pdf/pdf-renderer.js';

export interface InvoiceDeliveryDeps {
  pool: Pool;
  clock: Clock;
  customers: CustomersService;
  merchants: MerchantsService;
  messages: MessagesService;
  settings: InvoiceSettingsService;
  renderer: PdfRenderer;
  /** PUBLIC_BASE_URL: the hosted invoice page's address starts here. */
  publicBaseUrl: string;
}

export interface QueuedMessage {
  messageId: string;
  channel: Channel;
  to: string;
}

const PDF_KIND = 'invoice-pdf';

/**
 * What reaches the invoice's customer: its PDF, its hosted page's address, and the email and SMS messages that carry
 * them (on publication, on request, after a payment when the settings ask for it).
 */
export class InvoiceDelivery {
  constructor(private readonly deps: InvoiceDeliveryDeps) {
    // An email's PDF is rendered when it is sent, so it shows the invoice as it stands then.
    deps.messages.registerAttachment(PDF_KIND, async (message) => {
      if (!message.relatedId) throw new Error(`message ${message.id} has no invoice`);
      return (await this.pdf(message.merchantId, message.relatedId)).content;
    });
  }

  /** What messages say about the merchant: its configuration, cached per node (read it before a transaction). */
  sender(merchantId: string): Promise<Sender> {
    return this.deps.merchants.getConfiguration(merchantId);
  }

  payUrl(invoice: Pick<Invoice, 'publicToken'>): string | null {
    return invoice.publicToken ? `${this.deps.publicBaseUrl}/invoices/${invoice.publicToken}` : null;
  }

  async pdf(merchantId: string, invoiceId: string): Promise<{ filename: string; content: Buffer }> {
    const invoice = await findInvoice(this.deps.pool, merchantId, invoiceId);
    if (!invoice) throw new NotFoundError('Invoice', invoiceId);
    return { filename: pdfFilename(invoice), content: await this.pdfOf(invoice) };
  }

  async pdfOf(invoice: Invoice): Promise<Buffer> {
    const [merchant, contact] = await Promise.all([
      this.deps.merchants.getMerchantIn(this.deps.pool, invoice.merchantId),
      invoiceContact(this.deps.customers, invoice),
    ]);
    return this.deps.renderer.render(invoiceDocumentOf(invoice, merchant, contact, this.payUrl(invoice)));
  }

  /**
   * In the publishing transaction: the invoice by email when its customer has an address, by SMS when they have a
   * number and agreed to SMS. A channel this deployment cannot send on is skipped (production without a transport).
   * `sender` is the merchant's configuration, read by the caller before its transaction took a connection.
   */
  async published(tx: Sql, invoice: Invoice, sender: Sender, known?: InvoiceContact): Promise<void> {
    const contact = known ?? (await invoiceContact(this.deps.customers, invoice, tx));
    if (contact.email && this.deps.messages.available('email'))
      await this.queueEmail(tx, invoice, sender, contact.email, contact);
    const phone = contact.mobileNumber ? toE164(contact.mobileNumber) : null;
    if (phone && contact.smsConsent && this.deps.messages.available('sms'))
      await this.queueSms(tx, invoice, sender, phone);
  }

  /** `send-email-notification`: to the given address, else the customer's. */
  async sendEmail(merchantId: string, invoiceId: string, to: string | null): Promise<QueuedMessage> {
    const sender = await this.sender(merchantId);
    return withTransaction(this.deps.pool, async (tx) => {
      const invoice = await this.sendable(tx, merchantId, invoiceId);
      const contact = await invoiceContact(this.deps.customers, invoice, tx);
      const address = to?.trim() || contact.email;
      if (!address) {
        throw ValidationError.field('email', "The invoice's customer has no email address: give one in 'email'.");
      }
      return this.queueEmail(tx, invoice, sender, address, contact);
    });
  }

  /**
   * `send-published-sms-notification`: to the given number, else the customer's (which needs their SMS consent, as
   * on publication).
   */
  async sendSms(merchantId: string, invoiceId: string, to: string | null): Promise<QueuedMessage> {
    const sender = await this.sender(merchantId);
    return withTransaction(this.deps.pool, async (tx) => {
      const invoice = await this.sendable(tx, merchantId, invoiceId);
      let number = to?.trim() || null;
      if (!number) {
        const contact = await invoiceContact(this.deps.customers, invoice, tx);
        if (!contact.mobileNumber) {
          throw ValidationError.field(
            'mobileNumber',
            "The invoice's customer has no mobile number: give one in 'mobileNumber'.",
          );
        }
        if (!contact.smsConsent) {
          throw ValidationError.field(
            'mobileNumber',
            "The invoice's customer has not agreed to SMS notifications: give a number in 'mobileNumber' to send anyway.",
          );
        }
        number = contact.mobileNumber;
      }
      const phone = toE164(number);
      if (!phone) {
        throw ValidationError.field('mobileNumber', 'A mobile number is +country code and number, or 10 US digits.');
      }
      return this.queueSms(tx, invoice, sender, phone);
    });
  }

  /** After a payment succeeded or failed: an SMS when the invoice settings ask for one and the customer agreed. */
  async afterPayment(tx: Sql, invoice: Invoice, succeeded: boolean): Promise<void> {
    const settings = await this.deps.settings.get(invoice.merchantId);
    if (!(succeeded ? settings.smsAfterPayment : settings.smsAfterPaymentFailed)) return;
    if (!this.deps.messages.available('sms')) return;
    const contact = await invoiceContact(this.deps.customers, invoice, tx);
    const phone = contact.mobileNumber ? toE164(contact.mobileNumber) : null;
    if (!phone || !contact.smsConsent) return;
    const merchant = await this.deps.merchants.getMerchantIn(tx, invoice.merchantId);
    await this.deps.messages.queue(tx, {
      merchantId: invoice.merchantId,
      channel: 'sms',
      to: phone,
      subject: null,
      text: paymentSms(invoice, merchant, succeeded, this.payUrl(invoice)),
      attachments: [],
      relatedType: 'invoice',
      relatedId: invoice.id,
    });
  }

  private async sendable(tx: Sql, merchantId: string, invoiceId: string): Promise<Invoice> {
    const invoice = await findInvoice(tx, merchantId, invoiceId);
    if (!invoice) throw new NotFoundError('Invoice', invoiceId);
    if (invoice.statusId === InvoiceStatus.Draft) {
      throw ValidationError.field(
        'status',
        `Only a published invoice can be sent. This invoice is ${INVOICE_STATUS_NAMES[invoice.statusId]}.`,
      );
    }
    return invoice;
  }

  private async queueEmail(
    tx: Sql,
    invoice: Invoice,
    sender: Sender,
    to: string,
    contact: InvoiceContact,
  ): Promise<QueuedMessage> {
    const { subject, text } = invoiceEmail(invoice, sender, contact, this.payUrl(invoice));
    const messageId = await this.deps.messages.queue(tx, {
      merchantId: invoice.merchantId,
      channel: 'email',
      to,
      subject,
      text,
      attachments: [{ kind: PDF_KIND, filename: pdfFilename(invoice), contentType: 'application/pdf' }],
      relatedType: 'invoice',
      relatedId: invoice.id,
    });
    return { messageId, channel: 'email', to };
  }

  private async queueSms(tx: Sql, invoice: Invoice, sender: Sender, to: string): Promise<QueuedMessage> {
    const messageId = await this.deps.messages.queue(tx, {
      merchantId: invoice.merchantId,
      channel: 'sms',
      to,
      subject: null,
      text: invoiceSms(invoice, sender, this.payUrl(invoice)),
      attachments: [],
      relatedType: 'invoice',
      relatedId: invoice.id,
    });
    return { messageId, channel: 'sms', to };
  }
}
