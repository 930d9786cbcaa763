import { fromCents } from '../../platform/money.js';
import { ZeroCostProcessingOption } from '../merchants/merchants.model.js';

/**
 * How a payment's total is built from its base amount, in integer cents and millipercent rates. One function serves
 * sales, authorizations, calculate-amount and (later) sessions and subscriptions, so every surface shows the same
 * numbers. The parts always add up:
 *
 *   total = base - percentageOff + surcharge + cashDiscount + tip + (exclusive tax)
 *
 * Each percentage applies to the discounted subtotal (base - percentageOff) and is rounded half-up to the cent,
 * once, on its own: no part is derived from another rounded part except through the subtotal.
 */
export interface AmountInput {
  baseCents: number;
  percentageOffRateMpct?: number | null;
  tipCents?: number | null;
  tipRateMpct?: number | null;
  /** The merchant's zero-cost processing program. */
  zeroCostOptionId: number;
  /** Surcharge program: the rate to add (request value or the merchant's default). */
  surchargeRateMpct?: number | null;
  /** Cash discount program: the non-cash adjustment rate added to card payments. */
  cashDiscountRateMpct?: number | null;
  /** Dual pricing: the card-price increment over the cash price. */
  dualPricingRateMpct?: number | null;
  /** Dual pricing: pay the card price (true) or the cash price (false). */
  useCardPrice?: boolean | null;
  /** What pays: surcharges never apply to debit cards, and cash prices apply to cash and ACH. */
  tender: 'credit' | 'debit' | 'cash' | 'ach';
  taxRateMpct?: number | null;
  taxMode?: 'exclusive' | 'inclusive' | null;
  /** A fixed tax amount instead of a rate. */
  taxCents?: number | null;
}

/** Tax configured for a payment (payment sessions): a rate or a fixed amount, on top (exclusive) or included. */
export interface TaxSetting {
  mode: 'exclusive' | 'inclusive';
  rateMpct: number | null;
  cents: number | null;
}

/** A tax setting as calculateAmount's input fields (no setting: no tax). */
export function taxInput(
  tax: TaxSetting | null | undefined,
): Pick<AmountInput, 'taxMode' | 'taxRateMpct' | 'taxCents'> {
  return { taxMode: tax?.mode ?? null, taxRateMpct: tax?.rateMpct ?? null, taxCents: tax?.cents ?? null };
}

export interface AmountBreakdown {
  baseCents: number;
  percentageOffCents: number;
  percentageOffRateMpct: number | null;
  cashDiscountCents: number;
  cashDiscountRateMpct: number | null;
  surchargeCents: number;
  surchargeRateMpct: number | null;
  tipCents: number;
  tipRateMpct: number | null;
  taxCents: number;
  taxRateMpct: number | null;
  taxInclusive: boolean;
  totalCents: number;
}

/** The breakdown as a transaction stores it: every amount and rate (whether tax was inclusive is not kept). */
export type AmountColumns = Omit<AmountBreakdown, 'taxInclusive'>;

export function amountColumns({ taxInclusive: _, ...columns }: AmountBreakdown): AmountColumns {
  return columns;
}

/** cents × millipercent / 100 000, rounded half-up, exact for every amount and rate we accept. */
export function percentOf(cents: number, rateMpct: number): number {
  const product = BigInt(cents) * BigInt(rateMpct);
  return Number((product * 2n + 100_000n) / 200_000n);
}

export function calculateAmount(input: AmountInput): AmountBreakdown {
  const base = input.baseCents;
  const offRate = input.percentageOffRateMpct ?? null;
  const off = offRate ? percentOf(base, offRate) : 0;
  const subtotal = base - off;

  let surchargeRate: number | null = null;
  let cashDiscountRate: number | null = null;
  const card = input.tender === 'credit' || input.tender === 'debit';
  switch (input.zeroCostOptionId) {
    case ZeroCostProcessingOption.Surcharge:
      // US card rules: debit cards may not be surcharged.
      if (input.tender === 'credit') surchargeRate = input.surchargeRateMpct ?? null;
      break;
    case ZeroCostProcessingOption.CashDiscount:
      if (card) cashDiscountRate = input.cashDiscountRateMpct ?? null;
      break;
    case ZeroCostProcessingOption.DualPricing:
      if (card && input.useCardPrice !== false) cashDiscountRate = input.dualPricingRateMpct ?? null;
      break;
  }
  const surcharge = surchargeRate ? percentOf(subtotal, surchargeRate) : 0;
  const cashDiscount = cashDiscountRate ? percentOf(subtotal, cashDiscountRate) : 0;

  const tipRate = input.tipRateMpct ?? null;
  const tip = input.tipCents ?? (tipRate ? percentOf(subtotal, tipRate) : 0);

  const inclusive = input.taxMode === 'inclusive';
  let tax = 0;
  const taxRate = input.taxRateMpct ?? null;
  if (input.taxCents != null) tax = input.taxCents;
  else if (taxRate !== null) {
    // Inclusive: the subtotal already contains the tax, so tax = subtotal - subtotal / (1 + rate), half-up.
    tax = inclusive
      ? subtotal -
        Number((BigInt(subtotal) * 200_000n + (100_000n + BigInt(taxRate))) / (2n * (100_000n + BigInt(taxRate))))
      : percentOf(subtotal, taxRate);
  }
  const total = subtotal + surcharge + cashDiscount + tip + (inclusive ? 0 : tax);
  return {
    baseCents: base,
    percentageOffCents: off,
    percentageOffRateMpct: offRate,
    cashDiscountCents: cashDiscount,
    cashDiscountRateMpct: cashDiscountRate,
    surchargeCents: surcharge,
    surchargeRateMpct: surchargeRate,
    tipCents: tip,
    tipRateMpct: input.tipCents != null ? null : tipRate,
    taxCents: tax,
    taxRateMpct: taxRate,
    taxInclusive: inclusive,
    totalCents: total,
  };
}

/** The merchant's maximum transaction amount (null: no maximum), as the message for an `amount` error, or null. */
export function aboveMaximum(totalCents: number, maxCents: number | null): string | null {
  if (maxCents === null || totalCents <= maxCents) return null;
  return `The total ${fromCents(totalCents).toFixed(2)} exceeds the merchant's maximum transaction amount ${fromCents(maxCents).toFixed(2)}.`;
}
