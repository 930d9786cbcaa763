import { formatCents } from '../../../platform/money.js';
import type { Merchant } from '../../merchants/merchants.model.js';
import type { InvoiceContact } from '../invoice-contact.js';
import { INVOICE_STATUS_NAMES, type Invoice } from '../invoices.model.js';
import { calculationOf } from '../invoices.service.js';
import { unitTypeById } from '../unit-types.js';
import type { InvoiceDocument } from './invoice-document.js';

/** Thousandths as a plain number: 1500 → "1.5", 2000 → "2". */
const thousandths = (milli: number) => (milli / 1000).toString();
const percent = (mpct: number) => `${(mpct / 1000).toString()}%`;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The PDF's content: the invoice, its calculations, who sends it and to whom, and where to pay it. */
export function invoiceDocumentOf(
  invoice: Invoice,
  merchant: Merchant,
  contact: InvoiceContact,
  payUrl: string | null,
): InvoiceDocument {
  const calc = calculationOf(invoice);
  const amountDue = Math.max(0, invoice.totalCents - invoice.paidCents);
  const totals: InvoiceDocument['totals'] = [{ label: 'Subtotal', amount: formatCents(calc.subtotalCents) }];
  if (calc.discountCents) totals.push({ label: 'Discount', amount: formatCents(-calc.discountCents) });
  totals.push({ label: 'Tax', amount: formatCents(calc.taxCents) });
  if (calc.shippingFeeCents) totals.push({ label: 'Shipping', amount: formatCents(calc.shippingFeeCents) });
  if (calc.feesCents) totals.push({ label: 'Fees', amount: formatCents(calc.feesCents) });
  totals.push({ label: 'Total (USD)', amount: formatCents(calc.totalCents), strong: true });
  if (invoice.paidCents) totals.push({ label: 'Paid', amount: formatCents(invoice.paidCents) });
  totals.push({ label: 'Amount due', amount: formatCents(amountDue), strong: true });

  const facts = [
    { label: 'Invoice number', value: invoice.number },
    { label: 'Issue date', value: day(invoice.issueDate) },
    { label: 'Due date', value: day(invoice.dueDate) },
    { label: 'Status', value: INVOICE_STATUS_NAMES[invoice.statusId]! },
  ];
  if (invoice.referenceId) facts.push({ label: 'Reference', value: invoice.referenceId });
  if (invoice.paymentDate) facts.push({ label: 'Paid on', value: day(invoice.paymentDate) });

  return {
    title: `Invoice ${invoice.number}`,
    merchant: {
      name: merchant.companyName,
      lines: [merchant.email, merchant.phone, merchant.website].filter((v): v is string => Boolean(v)),
    },
    customer: {
      name: contact.name ?? 'Customer',
      lines: [contact.companyName, contact.email, contact.mobileNumber].filter(
        (v): v is string => Boolean(v) && v !== contact.name,
      ),
    },
    facts,
    lines: invoice.lines.map((line, n) => {
      const c = calc.lines[n]!;
      const unit = unitTypeById(line.unitTypeId)?.abbreviation ?? '';
      return {
        description: line.description ? `${line.productName}\n${line.description}` : line.productName,
        quantity: unit ? `${thousandths(line.quantityMilli)} ${unit}` : thousandths(line.quantityMilli),
        unitPrice: formatCents(line.unitPriceCents),
        discount: c.discountCents ? formatCents(-c.discountCents) : '',
        tax: c.taxCents ? `${formatCents(c.taxCents)} (${percent(c.taxRateMpct)})` : '',
        total: formatCents(c.totalCents),
      };
    }),
    totals,
    notes: invoice.notes,
    payUrl,
  };
}
