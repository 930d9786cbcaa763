import { type DateRange, dateRange } from '../../platform/http/paging.js';
import { fromCents, fromMillipercent } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import type { MerchantSettings } from '../merchants/merchants.model.js';
import { creditCardPaymentOf } from './calculation.js';
import { INVOICE_STATUS_NAMES, type Invoice } from './invoices.model.js';
import { calculationOf } from './invoices.service.js';
import { unitTypeById } from './unit-types.js';

const pct = (value: number | null) => (value === null ? null : fromMillipercent(value));
const money = (cents: number | null) => (cents === null ? null : fromCents(cents));

export function invoiceSummary(v: Invoice) {
  return {
    id: v.id,
    number: v.number,
    customerName: v.customerName,
    issueDate: v.issueDate.toISOString(),
    dueDate: v.dueDate.toISOString(),
    paymentDate: v.paymentDate?.toISOString() ?? null,
    totalAmount: fromCents(v.totalCents),
    status: v.statusId,
  };
}

/** The full record; `payUrl` is the hosted page's address (null until published). */
export function invoiceView(v: Invoice, payUrl: string | null) {
  const calc = calculationOf(v);
  return withFields(invoiceSummary(v), {
    statusName: INVOICE_STATUS_NAMES[v.statusId]!,
    merchantId: v.merchantId,
    customerId: v.customerId,
    customer: v.customer,
    lineItems: v.lines.map((line, n) => {
      const c = calc.lines[n]!;
      return {
        lineItemId: line.lineItemId,
        productName: line.productName,
        description: line.description,
        quantity: line.quantityMilli / 1000,
        unitPrice: fromCents(line.unitPriceCents),
        unitTypeId: line.unitTypeId,
        unitType: unitTypeById(line.unitTypeId)?.name ?? 'Unknown',
        discountPercentage: pct(line.discountMpct),
        taxRate: pct(line.taxMpct),
        amount: fromCents(c.amountCents),
        discountAmount: fromCents(c.discountCents),
        taxAmount: fromCents(c.taxCents),
        totalAmount: fromCents(c.totalCents),
      };
    }),
    discountPercentage: pct(v.discountMpct),
    shippingFeeAmount: money(v.shippingFeeCents),
    feesPercentage: pct(v.feesMpct),
    taxPercentage: pct(v.taxMpct),
    notes: v.notes,
    paymentMethodTypeId: v.paymentMethodTypeId,
    referenceId: v.referenceId,
    subtotalAmount: fromCents(calc.subtotalCents),
    discountAmount: fromCents(calc.discountCents),
    taxAmount: fromCents(calc.taxCents),
    feesAmount: fromCents(calc.feesCents),
    amountPaid: fromCents(v.paidCents),
    amountDue: fromCents(Math.max(0, v.totalCents - v.paidCents)),
    paidNote: v.paidNote,
    lastPaymentError: v.lastPaymentError,
    transactionIds: v.transactionIds,
    payUrl,
    publishedOn: v.publishedAt?.toISOString() ?? null,
    createdOn: v.createdAt.toISOString(),
    modifiedOn: v.modifiedAt.toISOString(),
  });
}

/**
 * The calculations, with what a credit card payment of the total comes to under the merchant's program (part of the
 * charge, not of the invoice total: see creditCardPaymentOf).
 */
export function calculationsView(v: Invoice, settings: MerchantSettings) {
  const calc = calculationOf(v);
  const card = creditCardPaymentOf(calc.totalCents, settings);
  return {
    invoiceId: v.id,
    lines: calc.lines.map((c, n) => ({
      productName: v.lines[n]!.productName,
      amount: fromCents(c.amountCents),
      lineDiscountAmount: fromCents(c.lineDiscountCents),
      invoiceDiscountAmount: fromCents(c.invoiceDiscountCents),
      discountAmount: fromCents(c.discountCents),
      taxRate: fromMillipercent(c.taxRateMpct),
      taxAmount: fromCents(c.taxCents),
      totalAmount: fromCents(c.totalCents),
    })),
    subtotalAmount: fromCents(calc.subtotalCents),
    discountAmount: fromCents(calc.discountCents),
    taxAmount: fromCents(calc.taxCents),
    shippingFeeAmount: fromCents(calc.shippingFeeCents),
    feesAmount: fromCents(calc.feesCents),
    totalAmount: fromCents(calc.totalCents),
    surchargeAmount: fromCents(card.surchargeCents),
    cashDiscountAmount: fromCents(card.cashDiscountCents),
    cardTotalAmount: fromCents(card.totalCents),
    amountPaid: fromCents(v.paidCents),
    amountDue: fromCents(Math.max(0, v.totalCents - v.paidCents)),
  };
}

export function invoiceDateRanges(q: {
  issueDateFrom?: string;
  issueDateTo?: string;
  dueDateFrom?: string;
  dueDateTo?: string;
  paymentDateFrom?: string;
  paymentDateTo?: string;
}): { issueDate: DateRange; dueDate: DateRange; paymentDate: DateRange } {
  return {
    issueDate: dateRange('issueDateFrom', q.issueDateFrom, 'issueDateTo', q.issueDateTo),
    dueDate: dateRange('dueDateFrom', q.dueDateFrom, 'dueDateTo', q.dueDateTo),
    paymentDate: dateRange('paymentDateFrom', q.paymentDateFrom, 'paymentDateTo', q.paymentDateTo),
  };
}
