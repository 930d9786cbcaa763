import { formatCents } from '../../platform/money.js';
import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import type { InvoiceContact } from './invoice-contact.js';
import { type Invoice, InvoiceStatus } from './invoices.model.js';

/** What a message to a merchant's customer says about the merchant (its cached configuration has it). */
export type Sender = Pick<MerchantConfiguration, 'companyName' | 'email' | 'phone'>;

const day = (date: Date) => date.toISOString().slice(0, 10);
const due = (invoice: Invoice) => Math.max(0, invoice.totalCents - invoice.paidCents);

export const pdfFilename = (invoice: Invoice) => `Invoice-${invoice.number.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`;

/** The invoice email: what is owed, by when, and the link; the PDF goes with it. */
export function invoiceEmail(invoice: Invoice, merchant: Sender, contact: InvoiceContact, payUrl: string | null) {
  const greeting = contact.name ? `Hello ${contact.name},` : 'Hello,';
  const payable = invoice.statusId === InvoiceStatus.Published && due(invoice) > 0;
  const lines = [
    greeting,
    '',
    payable
      ? `${merchant.companyName} sent you invoice ${invoice.number} for USD ${formatCents(due(invoice))}, due ${day(invoice.dueDate)}.`
      : `${merchant.companyName} sent you a copy of invoice ${invoice.number} (total USD ${formatCents(invoice.totalCents)}).`,
  ];
  if (payUrl) lines.push('', payable ? `View and pay it online: ${payUrl}` : `View it online: ${payUrl}`);
  lines.push('', 'The invoice is attached as a PDF.');
  if (merchant.email || merchant.phone) {
    lines.push(
      '',
      `Questions? Contact ${merchant.companyName}: ${[merchant.email, merchant.phone].filter(Boolean).join(', ')}`,
    );
  }
  return { subject: `Invoice ${invoice.number} from ${merchant.companyName}`, text: lines.join('\n') };
}

/** The invoice SMS: short, with the link. */
export function invoiceSms(invoice: Invoice, merchant: Sender, payUrl: string | null): string {
  const link = payUrl ? ` View and pay: ${payUrl}` : '';
  return `${merchant.companyName}: invoice ${invoice.number} for USD ${formatCents(due(invoice))} is due ${day(invoice.dueDate)}.${link}`;
}

/** After a payment, when the invoice settings ask for it. */
export function paymentSms(invoice: Invoice, merchant: Sender, succeeded: boolean, payUrl: string | null): string {
  if (succeeded) {
    return `${merchant.companyName}: thank you, your payment of invoice ${invoice.number} (USD ${formatCents(invoice.totalCents)}) went through.`;
  }
  const link = payUrl ? ` Try again: ${payUrl}` : '';
  return `${merchant.companyName}: the payment of invoice ${invoice.number} did not go through.${link}`;
}
