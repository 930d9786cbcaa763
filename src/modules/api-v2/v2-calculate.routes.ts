import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import {
  fractionToMillipercent,
  fromCents,
  fromMillipercent,
  optionalCents,
  optionalMillipercent,
  toCents,
} from '../../platform/money.js';
import { ZERO_COST_OPTION_NAMES } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { AmountBreakdown } from '../payments/amounts.js';
import { amountsPerTender } from '../payments/pricing.js';
import { checkCurrency } from './v2-commands.js';
import {
  CalculateQuery,
  CalculateResponse,
  PublishedCalculateBody,
  PublishedCalculateResponse,
} from './v2-transactions.schemas.js';

/** `GET /v2/transactions/calculate-amount`: what a payment totals per tender, with the merchant's pricing program. */
export function v2CalculateRoutes(app: App, deps: { merchants: MerchantsService }): void {
  app.get(
    '/v2/transactions/calculate-amount',
    {
      schema: {
        tags: ['Transactions (v2)'],
        summary: 'What a payment of this amount totals, per tender',
        description:
          'As the vendor document says: `discountRate` and `tipRate` are fractions (0.10 is 10%), `surchargeRate` a ' +
          'percentage (2.5 is 2.5%); `pricingType` Cash answers the cash price (dual pricing).',
        querystring: CalculateQuery,
        response: { 200: CalculateResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      checkCurrency('currencyCode', q.currencyCode);
      const { settings } = await deps.merchants.getConfiguration(merchantOf(request).merchantId);
      const amounts = amountsPerTender(settings, {
        baseCents: toCents(q.baseAmount),
        percentageOffRateMpct: fractionToMillipercent(q.discountRate),
        tipCents: optionalCents(q.tipAmount),
        tipRateMpct: fractionToMillipercent(q.tipRate),
        surchargeRateMpct: optionalMillipercent(q.surchargeRate),
        useCardPrice: q.pricingType === undefined ? null : q.pricingType === 'Card',
      });
      const view = (a: AmountBreakdown) => ({
        baseAmount: fromCents(a.baseCents),
        discountAmount: fromCents(a.percentageOffCents + a.cashDiscountCents),
        surchargeAmount: fromCents(a.surchargeCents),
        tipAmount: fromCents(a.tipCents),
        taxAmount: fromCents(a.taxCents),
        totalAmount: fromCents(a.totalCents),
      });
      return {
        currencyCode: 'USD',
        zeroCostProcessingOption: ZERO_COST_OPTION_NAMES[settings.zeroCostProcessingOptionId] ?? 'None',
        pricingType: q.pricingType ?? 'Card',
        cash: view(amounts.cash),
        creditCard: view(amounts.creditCard),
        debitCard: view(amounts.debitCard),
        ach: view(amounts.ach),
      };
    },
  );

  // The published revision: a POST with a JSON body, every rate a percentage as given (18.5 is 18.5%).
  app.post(
    '/v2/transactions/calculate-amount',
    {
      schema: {
        tags: ['Transactions (v2)'],
        summary: 'What a payment of this amount totals, per tender (published form)',
        description:
          'Rates are percentages as given: `tipRate` 18.5 is 18.5%, as are `discountRate` and `surchargeRate` (the ' +
          'older GET takes tip and discount rates as fractions). Each tender answers its amounts and the rates ' +
          'applied. A fixed `discountAmount` is not taken (send `discountRate`).',
        body: PublishedCalculateBody,
        response: { 200: PublishedCalculateResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const b = request.body ?? {};
      checkCurrency('currencyCode', b.currencyCode ?? undefined);
      if (b.discountAmount) {
        throw ValidationError.field(
          'discountAmount',
          "A fixed 'discountAmount' is not taken here: send 'discountRate'.",
        );
      }
      if (b.tipAmount && b.tipRate) throw ValidationError.field('tipAmount', "Send one of 'tipAmount' or 'tipRate'.");
      const { settings } = await deps.merchants.getConfiguration(merchantOf(request).merchantId);
      const amounts = amountsPerTender(settings, {
        baseCents: toCents(b.baseAmount ?? 0),
        percentageOffRateMpct: optionalMillipercent(b.discountRate),
        tipCents: optionalCents(b.tipAmount),
        tipRateMpct: optionalMillipercent(b.tipRate),
        surchargeRateMpct: optionalMillipercent(b.surchargeRate),
        useCardPrice: b.pricingType == null ? null : b.pricingType === 'Card',
      });
      const rate = (mpct: number | null) => (mpct === null ? 0 : fromMillipercent(mpct));
      const view = (a: AmountBreakdown) => ({
        baseAmount: fromCents(a.baseCents),
        discountAmount: fromCents(a.percentageOffCents + a.cashDiscountCents),
        discountRate: rate(a.percentageOffRateMpct ?? a.cashDiscountRateMpct),
        surchargeAmount: fromCents(a.surchargeCents),
        surchargeRate: rate(a.surchargeRateMpct),
        tipAmount: fromCents(a.tipCents),
        tipRate: rate(a.tipRateMpct),
        totalAmount: fromCents(a.totalCents),
      });
      return {
        currencyCode: 'USD',
        zeroCostProcessingOption: ZERO_COST_OPTION_NAMES[settings.zeroCostProcessingOptionId] ?? 'None',
        pricingType: b.pricingType ?? 'Card',
        cash: view(amounts.cash),
        creditCard: view(amounts.creditCard),
        debitCard: view(amounts.debitCard),
        ach: view(amounts.ach),
      };
    },
  );
}
