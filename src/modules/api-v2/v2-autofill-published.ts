// The published revision's transaction autofill (`level2Settings`, `level3Settings`, `productName`, a shipping charge
// as a rate): its view and its merge patch over the same settings the older revision replaces whole.
import Type, { type Static, type TSchema } from 'typebox';
import { ValidationError } from '../../platform/http/errors.js';
import {
  AmountSchema,
  fromCents,
  fromMillipercent,
  optionalCents,
  optionalMillipercent,
  RateSchema,
} from '../../platform/money.js';
import type { AutofillProduct, TransactionAutofill } from '../merchants/merchants.model.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const PublishedProduct = Type.Object(
  {
    productName: Opt(Type.String({ maxLength: 100 })),
    code: Opt(Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9 /]*$', description: 'Letters, digits, spaces, /.' })),
    unitPrice: Opt(AmountSchema()),
    measurementUnit: Opt(Type.String({ maxLength: 20 })),
    quantity: Opt(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    discountPercentage: Opt(RateSchema()),
    description: Opt(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const PublishedAutofillPatch = Type.Object(
  {
    level2Settings: Opt(
      Type.Object(
        { taxRate: Opt(RateSchema({ maximum: 22, description: 'Sales tax rate, percent (0 to 22).' })) },
        { additionalProperties: false },
      ),
    ),
    level3Settings: Opt(
      Type.Object(
        {
          product: Opt(PublishedProduct),
          shippingChargeRate: Opt(RateSchema({ description: 'Shipping, percent of the base amount.' })),
          dutyChargeRate: Opt(RateSchema({ description: 'Duty, percent of the base amount.' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        level2Settings: { taxRate: 8.5 },
        level3Settings: {
          product: { productName: 'Office Supplies', code: 'OFF-001', unitPrice: 25, quantity: 10 },
          shippingChargeRate: 2,
          dutyChargeRate: 2.5,
        },
      },
    ],
  },
);
export type PublishedAutofillPatch = Static<typeof PublishedAutofillPatch>;

const EMPTY: TransactionAutofill = { taxRateMpct: null, product: null, shippingCents: null, dutyRateMpct: null };
const EMPTY_PRODUCT: AutofillProduct = {
  name: null,
  code: null,
  unitPriceCents: null,
  measurementUnit: null,
  quantity: null,
  discountRateMpct: null,
  description: null,
};

type Patch = Record<string, unknown> | null | undefined;
const has = (patch: Patch, key: string) => patch != null && Object.hasOwn(patch, key);
const text = (v: unknown) => (typeof v === 'string' ? v.trim() || null : null);

function mergedProduct(current: AutofillProduct | null, patch: Static<typeof PublishedProduct> | null) {
  if (patch === null) return null;
  const p = { ...(current ?? EMPTY_PRODUCT) };
  if (has(patch, 'productName')) p.name = text(patch.productName);
  if (has(patch, 'code')) p.code = text(patch.code);
  if (has(patch, 'unitPrice')) p.unitPriceCents = optionalCents(patch.unitPrice);
  if (has(patch, 'measurementUnit')) p.measurementUnit = text(patch.measurementUnit);
  if (has(patch, 'quantity')) p.quantity = patch.quantity ?? null;
  if (has(patch, 'discountPercentage')) p.discountRateMpct = optionalMillipercent(patch.discountPercentage);
  if (has(patch, 'description')) p.description = text(patch.description);
  return Object.values(p).every((v) => v === null) ? null : p;
}

/**
 * The published PATCH as a merge (RFC 7396, as its customers' and links' PATCHes are): a field left out keeps its
 * value, null clears it, a whole settings object sent as null clears all of it. A shipping charge set as a rate here
 * replaces one the older revision set as an amount (one of the two applies).
 */
export function mergedAutofill(
  current: TransactionAutofill | null,
  patch: PublishedAutofillPatch,
): TransactionAutofill | null {
  const next: TransactionAutofill = { ...EMPTY, ...current };
  if (has(patch, 'level2Settings')) {
    const l2 = patch.level2Settings;
    if (l2 === null) next.taxRateMpct = null;
    else if (has(l2, 'taxRate')) next.taxRateMpct = optionalMillipercent(l2!.taxRate);
  }
  if (has(patch, 'level3Settings')) {
    const l3 = patch.level3Settings;
    if (l3 === null)
      Object.assign(next, { product: null, shippingCents: null, shippingRateMpct: null, dutyRateMpct: null });
    else {
      if (has(l3, 'product')) {
        if (l3!.product !== null && l3!.product !== undefined && Object.keys(l3!.product).length === 0) {
          throw ValidationError.field('level3Settings.product', 'Send the product fields to change, or null.');
        }
        next.product = mergedProduct(next.product, l3!.product ?? null);
      }
      if (has(l3, 'shippingChargeRate')) {
        next.shippingRateMpct = optionalMillipercent(l3!.shippingChargeRate);
        next.shippingCents = null;
      }
      if (has(l3, 'dutyChargeRate')) next.dutyRateMpct = optionalMillipercent(l3!.dutyChargeRate);
    }
  }
  const empty = Object.values(next).every((v) => v === null || v === undefined);
  return empty ? null : next;
}

/** The settings in the published names. */
export function publishedAutofillView(a: TransactionAutofill | null) {
  const money = (v: number | null | undefined) => (v == null ? null : fromCents(v));
  const rate = (v: number | null | undefined) => (v == null ? null : fromMillipercent(v));
  const p = a?.product ?? null;
  return {
    level2Settings: { taxRate: rate(a?.taxRateMpct) },
    level3Settings: {
      product: p && {
        productName: p.name,
        code: p.code,
        unitPrice: money(p.unitPriceCents),
        measurementUnit: p.measurementUnit,
        quantity: p.quantity,
        discountPercentage: rate(p.discountRateMpct),
        description: p.description,
      },
      shippingChargeRate: rate(a?.shippingRateMpct),
      dutyChargeRate: rate(a?.dutyRateMpct),
    },
  };
}

export const PublishedAutofillView = Type.Object({
  level2Settings: Type.Object({ taxRate: Nullable(Type.Number()) }),
  level3Settings: Type.Object({
    product: Nullable(
      Type.Object({
        productName: Nullable(Type.String()),
        code: Nullable(Type.String()),
        unitPrice: Nullable(Type.Number()),
        measurementUnit: Nullable(Type.String()),
        quantity: Nullable(Type.Number()),
        discountPercentage: Nullable(Type.Number()),
        description: Nullable(Type.String()),
      }),
    ),
    shippingChargeRate: Nullable(Type.Number({ description: 'Percent; null when the shipping charge is an amount.' })),
    dutyChargeRate: Nullable(Type.Number()),
  }),
});
