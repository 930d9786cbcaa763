import { dictionary } from '../../platform/dictionary.js';
import { withFields } from '../../platform/objects.js';
import { type MerchantSettings, ZeroCostProcessingOption } from '../merchants/merchants.model.js';
import { type AmountBreakdown, type AmountInput, calculateAmount, type TaxSetting, taxInput } from './amounts.js';

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

/** These parts under the merchant's program: its rates, and its default surcharge where the request names none. */
function underProgram(settings: MerchantSettings, parts: AmountParts): Omit<AmountInput, 'tender'> {
  return {
    baseCents: parts.baseCents,
    percentageOffRateMpct: parts.percentageOffRateMpct,
    tipCents: parts.tipCents,
    tipRateMpct: parts.tipRateMpct,
    zeroCostOptionId: settings.zeroCostProcessingOptionId,
    surchargeRateMpct: parts.surchargeRateMpct ?? settings.defaultSurchargeRateMpct,
    cashDiscountRateMpct: settings.defaultCashDiscountRateMpct,
    dualPricingRateMpct: settings.defaultDualPricingRateMpct,
    useCardPrice: parts.useCardPrice,
    ...taxInput(parts.tax),
  };
}

/** What a payment of these parts by this tender comes to under the merchant's program. */
export function amountsUnderProgram(
  settings: MerchantSettings,
  parts: AmountParts,
  tender: AmountInput['tender'],
): AmountBreakdown {
  return calculateAmount(withFields(underProgram(settings, parts), { tender }));
}

/** What a card payment of these parts comes to under the merchant's program (debit cards are never surcharged). */
export function cardAmounts(
  settings: MerchantSettings,
  parts: AmountParts,
  tender: 'credit' | 'debit',
): AmountBreakdown {
  return amountsUnderProgram(settings, parts, tender);
}

/** What a payment of these parts comes to by each tender (calculate-amount, versions 1 and 2). */
export function amountsPerTender(
  settings: MerchantSettings,
  parts: AmountParts,
): Record<'cash' | 'creditCard' | 'debitCard' | 'ach', AmountBreakdown> {
  const input = underProgram(settings, parts);
  return {
    cash: calculateAmount(withFields(input, { tender: 'cash' })),
    creditCard: calculateAmount(withFields(input, { tender: 'credit' })),
    debitCard: calculateAmount(withFields(input, { tender: 'debit' })),
    ach: calculateAmount(withFields(input, { tender: 'ach' })),
  };
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
