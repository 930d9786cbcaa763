import { dictionary } from '../../platform/dictionary.js';
import { type MerchantSettings, ZeroCostProcessingOption } from '../merchants/merchants.model.js';
import { type AmountBreakdown, calculateAmount, type TaxSetting, taxInput } from './amounts.js';

/** The parts of an amount; the merchant's programs (surcharge, cash discount, dual pricing) apply on top. */
export interface AmountParts {
  baseCents: number;
  tipCents?: number | null;
  tipRateMpct?: number | null;
  percentageOffRateMpct?: number | null;
  surchargeRateMpct?: number | null;
  useCardPrice?: boolean | null;
  tax?: TaxSetting | null;
}

/**
 * The merchant's zero-cost-processing program's rules for a card payment's request, as field errors: a surcharge
 * rate only on the Surcharge program, the price (card or cash) chosen on Dual Pricing.
 */
export function zeroCostErrors(
  settings: MerchantSettings,
  parts: Pick<AmountParts, 'surchargeRateMpct' | 'useCardPrice'>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = dictionary();
  const option = settings.zeroCostProcessingOptionId;
  if (parts.surchargeRateMpct != null && option !== ZeroCostProcessingOption.Surcharge) {
    errors.surchargeRate = ["'surchargeRate' applies only to merchants on the Surcharge program."];
  }
  if (option === ZeroCostProcessingOption.DualPricing && parts.useCardPrice == null) {
    errors.useCardPrice = ["'useCardPrice' is required: this merchant uses dual pricing."];
  }
  return errors;
}

/** What a card payment of these parts comes to under the merchant's program (debit cards are never surcharged). */
export function cardAmounts(
  settings: MerchantSettings,
  parts: AmountParts,
  tender: 'credit' | 'debit',
): AmountBreakdown {
  return calculateAmount({
    baseCents: parts.baseCents,
    percentageOffRateMpct: parts.percentageOffRateMpct,
    tipCents: parts.tipCents,
    tipRateMpct: parts.tipRateMpct,
    zeroCostOptionId: settings.zeroCostProcessingOptionId,
    surchargeRateMpct: parts.surchargeRateMpct ?? settings.defaultSurchargeRateMpct,
    cashDiscountRateMpct: settings.defaultCashDiscountRateMpct,
    dualPricingRateMpct: settings.defaultDualPricingRateMpct,
    useCardPrice: parts.useCardPrice,
    tender,
    ...taxInput(parts.tax),
  });
}

/** What an ACH entry of these parts comes to: a debit pays the cash price; a credit has no program on top. */
export function achAmounts(
  settings: MerchantSettings,
  parts: AmountParts,
  direction: 'debit' | 'credit',
): AmountBreakdown {
  return calculateAmount({
    baseCents: parts.baseCents,
    percentageOffRateMpct: parts.percentageOffRateMpct,
    zeroCostOptionId: direction === 'debit' ? settings.zeroCostProcessingOptionId : ZeroCostProcessingOption.None,
    cashDiscountRateMpct: settings.defaultCashDiscountRateMpct,
    dualPricingRateMpct: settings.defaultDualPricingRateMpct,
    useCardPrice: false,
    tender: 'ach',
    tipCents: parts.tipCents ?? null,
    ...taxInput(parts.tax),
  });
}
