import type { MerchantSettings } from '../merchants/merchants.model.js';
import { percentOf } from '../payments/amounts.js';
import { cardAmounts } from '../payments/pricing.js';

/**
 * Invoice arithmetic, in integer cents and thousandths (of a unit, of a percent). One rounding rule: every
 * percentage or product is rounded half up to the cent on its own, per line, and the invoice's parts are sums of the
 * lines' rounded parts, so the parts always add up to the total and recomputing never changes it.
 *
 * Per line: amount = quantity × unit price; its discount is the line discount on the amount, then the invoice
 * discount on what remains (so the invoice discount lowers the taxed amount, as a discount should); tax is on the
 * discounted amount at the line's rate (its own, else the invoice's); the line's total is discounted amount + tax.
 * The invoice: subtotal = Σ amounts, discount = Σ discounts, tax = Σ taxes, fees = fees percent of the discounted
 * subtotal, plus the shipping fee: total = subtotal − discount + tax + shipping + fees.
 */
export interface LineInput {
  /** Thousandths of a unit (1.5 hours = 1500). */
  quantityMilli: number;
  unitPriceCents: number;
  discountMpct: number | null;
  taxMpct: number | null;
}

export interface InvoiceInput {
  lines: readonly LineInput[];
  discountMpct: number | null;
  taxMpct: number | null;
  shippingFeeCents: number | null;
  feesMpct: number | null;
}

export interface LineCalculation {
  amountCents: number;
  lineDiscountCents: number;
  invoiceDiscountCents: number;
  discountCents: number;
  taxRateMpct: number;
  taxCents: number;
  totalCents: number;
}

export interface InvoiceCalculation {
  lines: LineCalculation[];
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  shippingFeeCents: number;
  feesCents: number;
  totalCents: number;
}

/** quantity (thousandths) × price, rounded half up to the cent. */
export function lineAmount(quantityMilli: number, unitPriceCents: number): number {
  const product = BigInt(quantityMilli) * BigInt(unitPriceCents);
  return Number((product * 2n + 1000n) / 2000n);
}

export function calculateInvoice(input: InvoiceInput): InvoiceCalculation {
  const lines = input.lines.map((line): LineCalculation => {
    const amountCents = lineAmount(line.quantityMilli, line.unitPriceCents);
    const lineDiscountCents = line.discountMpct ? percentOf(amountCents, line.discountMpct) : 0;
    const afterLine = amountCents - lineDiscountCents;
    const invoiceDiscountCents = input.discountMpct ? percentOf(afterLine, input.discountMpct) : 0;
    const discounted = afterLine - invoiceDiscountCents;
    const taxRateMpct = line.taxMpct ?? input.taxMpct ?? 0;
    const taxCents = taxRateMpct ? percentOf(discounted, taxRateMpct) : 0;
    return {
      amountCents,
      lineDiscountCents,
      invoiceDiscountCents,
      discountCents: lineDiscountCents + invoiceDiscountCents,
      taxRateMpct,
      taxCents,
      totalCents: discounted + taxCents,
    };
  });
  const sum = (pick: (line: LineCalculation) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const subtotalCents = sum((l) => l.amountCents);
  const discountCents = sum((l) => l.discountCents);
  const taxCents = sum((l) => l.taxCents);
  const shippingFeeCents = input.shippingFeeCents ?? 0;
  const feesCents = input.feesMpct ? percentOf(subtotalCents - discountCents, input.feesMpct) : 0;
  return {
    lines,
    subtotalCents,
    discountCents,
    taxCents,
    shippingFeeCents,
    feesCents,
    totalCents: subtotalCents - discountCents + taxCents + shippingFeeCents + feesCents,
  };
}

/** What a credit card payment of an invoice comes to under the merchant's zero-cost processing program. */
export interface CardPayment {
  surchargeCents: number;
  cashDiscountCents: number;
  totalCents: number;
}

/**
 * The merchant's program belongs to the charge, not to the invoice: the invoice asks its total whatever the payer
 * pays with (by bank account exactly that, by a debit card no surcharge), and a credit card payment of `baseCents`
 * adds the surcharge (Surcharge) or the card price increment (CashDiscount, DualPricing) on top. Always
 * `totalCents = baseCents + surchargeCents + cashDiscountCents`, on every program (docs/invoices.md).
 */
export function creditCardPaymentOf(baseCents: number, settings: MerchantSettings): CardPayment {
  const card = cardAmounts(settings, { baseCents }, 'credit');
  return {
    surchargeCents: card.surchargeCents,
    cashDiscountCents: card.cashDiscountCents,
    totalCents: card.totalCents,
  };
}
