import Type, { type Static, type TSchema } from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import {
  AmountSchema,
  fromCents,
  fromMillipercent,
  optionalCents,
  optionalMillipercent,
  RateSchema,
} from '../../platform/money.js';
import type { TransactionAutofill } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import {
  mergedAutofill,
  PublishedAutofillPatch,
  PublishedAutofillView,
  publishedAutofillView,
} from './v2-autofill-published.js';
import { EMPTY_OK } from './v2-empty.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const Product = Type.Object(
  {
    name: Opt(Type.String({ maxLength: 100 })),
    code: Opt(Type.String({ maxLength: 50 })),
    unitPrice: Opt(AmountSchema()),
    measurementUnit: Opt(Type.String({ maxLength: 20 })),
    quantity: Opt(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    discountPercentage: Opt(RateSchema()),
    description: Opt(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

const EXAMPLE = {
  l2Settings: { taxRate: 8.5 },
  l3Settings: {
    product: {
      name: 'Office Supplies',
      code: 'OFF-001',
      unitPrice: 25,
      measurementUnit: 'pcs',
      quantity: 10,
      discountPercentage: 5,
      description: 'Standard office supplies',
    },
    shippingCharge: 5,
    dutyChargeRate: 2.5,
  },
};

const Settings = Type.Object(
  {
    l2Settings: Nullable(
      Type.Object(
        { taxRate: Opt(RateSchema({ description: 'Sales tax rate, percent.' })) },
        { additionalProperties: false },
      ),
    ),
    l3Settings: Nullable(
      Type.Object(
        {
          product: Opt(Product),
          shippingCharge: Opt(AmountSchema()),
          dutyChargeRate: Opt(RateSchema({ description: 'Duty, percent of the base amount.' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, examples: [EXAMPLE] },
);
type Settings = Static<typeof Settings>;

/** The older answer: the same shape as its body, but a shipping charge set as a rate is not an amount (null here). */
const SettingsView = Settings;

function toAutofill(body: Settings): TransactionAutofill | null {
  const l3 = body.l3Settings;
  const p = l3?.product;
  const autofill: TransactionAutofill = {
    taxRateMpct: optionalMillipercent(body.l2Settings?.taxRate),
    product: p
      ? {
          name: p.name?.trim() || null,
          code: p.code?.trim() || null,
          unitPriceCents: optionalCents(p.unitPrice),
          measurementUnit: p.measurementUnit?.trim() || null,
          quantity: p.quantity ?? null,
          discountRateMpct: optionalMillipercent(p.discountPercentage),
          description: p.description?.trim() || null,
        }
      : null,
    shippingCents: optionalCents(l3?.shippingCharge),
    dutyRateMpct: optionalMillipercent(l3?.dutyChargeRate),
  };
  const empty = Object.values(autofill).every((v) => v === null);
  return empty ? null : autofill;
}

function view(a: TransactionAutofill | null) {
  const money = (v: number | null | undefined) => (v == null ? null : fromCents(v));
  const rate = (v: number | null | undefined) => (v == null ? null : fromMillipercent(v));
  const p = a?.product ?? null;
  return {
    l2Settings: { taxRate: rate(a?.taxRateMpct) },
    l3Settings: {
      product: p && {
        name: p.name,
        code: p.code,
        unitPrice: money(p.unitPriceCents),
        measurementUnit: p.measurementUnit,
        quantity: p.quantity,
        discountPercentage: rate(p.discountRateMpct),
        description: p.description,
      },
      shippingCharge: money(a?.shippingCents),
      dutyChargeRate: rate(a?.dutyRateMpct),
    },
  };
}

/**
 * `/v2/settings/transaction-autofill`: the merchant's Level 2/3 defaults. A later card sale or authorization that
 * leaves a field out of its enhanced data is given the default (payments/enhanced-data.ts).
 */
export function v2AutofillRoutes(app: App, deps: { merchants: MerchantsService }): void {
  const tags = ['Settings (v2)'];
  const path = '/v2/settings/transaction-autofill';

  app.get(
    path,
    {
      schema: {
        tags,
        summary: 'Level 2/3 autofill settings',
        description:
          'Every field is null until set. In both revisions’ names: the older `l2Settings`/`l3Settings` (a ' +
          'shipping charge as an amount) and the published `level2Settings`/`level3Settings` (`productName`, a ' +
          'shipping charge as a rate); one of `shippingCharge` and `shippingChargeRate` is set at a time.',
        response: {
          200: Type.Object(
            { ...SettingsView.properties, ...PublishedAutofillView.properties },
            {
              examples: [
                {
                  ...EXAMPLE,
                  level2Settings: { taxRate: 8.5 },
                  level3Settings: {
                    product: { ...EXAMPLE.l3Settings.product, name: undefined, productName: 'Office Supplies' },
                    shippingChargeRate: null,
                    dutyChargeRate: 2.5,
                  },
                },
              ],
            },
          ),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const configuration = await deps.merchants.getConfiguration(merchantOf(request).merchantId);
      const autofill = configuration.transactionAutofill;
      return { ...view(autofill), ...publishedAutofillView(autofill) };
    },
  );

  app.put(
    path,
    {
      schema: {
        tags,
        summary: 'Replace the Level 2/3 autofill settings',
        description:
          'A full replacement (a field left out or null is cleared). Later card sales and authorizations take each ' +
          'default they do not send themselves: the sales tax rate, the shipping charge, a duty charge at the duty ' +
          'rate of the base amount, and the product as their one line item; their `transactionEnhancedData` (v1 ' +
          'GET) lists what was autofilled. Amounts do not change. Answers 200 with an empty body.',
        body: Settings,
        response: { 200: EMPTY_OK, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      await deps.merchants.setTransactionAutofill(merchantOf(request).merchantId, toAutofill(request.body));
      return reply.send();
    },
  );

  app.patch(
    path,
    {
      schema: {
        tags,
        summary: 'Change the Level 2/3 autofill settings (the published revision)',
        description:
          'A merge: a field left out keeps its value, null clears it (`level2Settings` or `level3Settings` sent as ' +
          'null clears all of it). `taxRate` is 0 to 22 percent; `shippingChargeRate` and `dutyChargeRate` are ' +
          'percentages of the base amount (a shipping rate replaces a shipping amount set through PUT). Two patches ' +
          'at once both land. Answers 200 with an empty body.',
        body: PublishedAutofillPatch,
        response: { 200: EMPTY_OK, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      await deps.merchants.changeTransactionAutofill(merchantOf(request).merchantId, (current) =>
        mergedAutofill(current, request.body),
      );
      return reply.send();
    },
  );
}
