import { formatCents } from '../../platform/money.js';
import { type Assets, esc, layout } from '../checkout/checkout.page.js';
import type { Merchant } from '../merchants/merchants.model.js';
import type { InvoiceContact } from './invoice-contact.js';
import { type Invoice, InvoiceStatus } from './invoices.model.js';
import { calculationOf } from './invoices.service.js';

const usd = (cents: number) => `$${formatCents(cents)}`;
const day = (date: Date) => date.toISOString().slice(0, 10);

export interface InvoicePageModel {
  invoice: Invoice;
  merchant: Merchant;
  contact: InvoiceContact;
  /** This page's own address (`/invoices/{token}`). */
  path: string;
  /** An alert over the invoice (e.g. it stopped being payable while the payer looked at it). */
  alert: string | null;
}

/** Why there is no form: what the payer reads instead, by status. */
function closedReason(invoice: Invoice, merchantName: string): { title: string; text: string; ok: boolean } | null {
  switch (invoice.statusId) {
    case InvoiceStatus.Paid:
      return {
        title: 'Paid',
        text: `This invoice was paid${invoice.paymentDate ? ` on ${day(invoice.paymentDate)}` : ''}. Thank you.`,
        ok: true,
      };
    case InvoiceStatus.ProcessingPayment:
      return {
        title: 'Payment in progress',
        text: 'A payment of this invoice is being processed (a bank payment takes a few business days). Do not pay again.',
        ok: true,
      };
    case InvoiceStatus.Canceled:
      return {
        title: 'Canceled',
        text: `This invoice was canceled by ${merchantName}. Nothing is owed on it.`,
        ok: false,
      };
    case InvoiceStatus.Expired:
      return {
        title: 'Expired',
        text: `This invoice has expired and can no longer be paid here. Please contact ${merchantName}.`,
        ok: false,
      };
    case InvoiceStatus.Refunded:
      return { title: 'Refunded', text: 'The payment of this invoice was refunded.', ok: false };
    default:
      return null;
  }
}

/** The hosted invoice page: the invoice, its PDF, and a Pay button while it is payable (works without JavaScript). */
export function invoicePage(m: InvoicePageModel, assets: Assets): string {
  const { invoice, merchant } = m;
  const calc = calculationOf(invoice);
  const due = Math.max(0, invoice.totalCents - invoice.paidCents);
  const closed = closedReason(invoice, merchant.companyName);
  const contactLine = [merchant.email, merchant.phone].filter(Boolean).join(' · ');

  const lines = invoice.lines
    .map((line, n) => {
      const c = calc.lines[n]!;
      const detail = line.description ? `<br><span class="note">${esc(line.description)}</span>` : '';
      return `<tr><td>${esc(line.productName)}${detail}</td><td>${esc(line.quantityMilli / 1000)} × ${usd(line.unitPriceCents)}</td><td>${usd(c.totalCents)}</td></tr>`;
    })
    .join('');
  const totals: Array<[string, number]> = [['Subtotal', calc.subtotalCents]];
  if (calc.discountCents) totals.push(['Discount', -calc.discountCents]);
  if (calc.taxCents) totals.push(['Tax', calc.taxCents]);
  if (calc.shippingFeeCents) totals.push(['Shipping', calc.shippingFeeCents]);
  if (calc.feesCents) totals.push(['Fees', calc.feesCents]);
  totals.push(['Total', calc.totalCents]);
  if (invoice.paidCents) totals.push(['Paid', invoice.paidCents]);

  const status = closed
    ? `<section class="card alert${closed.ok ? ' ok' : ''}" role="status"><h2>${esc(closed.title)}</h2><p>${esc(closed.text)}</p></section>`
    : '';
  const alert = m.alert ? `<p class="alert" role="alert">${esc(m.alert)}</p>` : '';
  const lastError =
    !closed && invoice.lastPaymentError
      ? `<p class="note">The last payment did not go through: ${esc(invoice.lastPaymentError)}</p>`
      : '';
  const pay = closed
    ? ''
    : `<form method="post" action="${esc(m.path)}/pay">${lastError}<button type="submit">Pay ${usd(due)}</button><p class="note">By card or bank account, on the secure checkout page.</p></form>`;

  const body = `<section class="card"><p class="merchant">${esc(merchant.companyName)}</p>
<h1>Invoice ${esc(invoice.number)}</h1>
${contactLine ? `<p class="note">${esc(contactLine)}</p>` : ''}
<table aria-label="Invoice details"><tr><td>Billed to</td><td>${esc(m.contact.name ?? m.contact.companyName ?? '')}</td></tr>
<tr><td>Issued</td><td>${day(invoice.issueDate)}</td></tr><tr><td>Due</td><td>${day(invoice.dueDate)}</td></tr></table>
<p class="total">${closed ? usd(calc.totalCents) : `${usd(due)} due`}</p></section>
${status}${alert}
<section class="card"><h2>Items</h2><table aria-label="Items"><thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Amount</th></tr></thead><tbody>${lines}</tbody></table>
<table aria-label="Totals">${totals.map(([label, cents]) => `<tr><td>${esc(label)}</td><td>${usd(cents)}</td></tr>`).join('')}</table>
${invoice.notes ? `<p class="note">${esc(invoice.notes)}</p>` : ''}
<p><a href="${esc(m.path)}/pdf">Download the invoice (PDF)</a></p>${pay}</section>`;
  return layout(`Invoice ${invoice.number} · ${merchant.companyName}`, body, assets, false);
}
