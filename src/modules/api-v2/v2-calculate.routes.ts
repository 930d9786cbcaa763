import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import {
  fractionToMillipercent,
  fromCents,
  optionalCents,
  optionalMillipercent,
  toCents,
} from '../../platform/money.js';
import { ZERO_COST_OPTION_NAMES } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { AmountBreakdown } from '../payments/amounts.js';
import { amountsPerTender } from '../payments/pricing.js';
import { checkCurrency } from './v2-commands.js';
import { CalculateQuery, CalculateResponse } from './v2-transactions.schemas.js';

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
}
