// Level 2/3 data on the wire: one request schema for v2's `transactionEnhancedData` and v1's `l3`, one view.
import Type, { type TSchema } from 'typebox';
import { AmountSchema, RateSchema } from '../../platform/money.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const ProductInput = Type.Object(
  {
    name: Opt(Type.String({ maxLength: 100 })),
    productName: Opt(Type.String({ maxLength: 100, description: 'The published version 2 name of `name`.' })),
    code: Opt(Type.String({ maxLength: 50 })),
    productCode: Opt(Type.String({ maxLength: 50, description: 'The published version 2 name of `code`.' })),
    unitPrice: Opt(AmountSchema()),
    measurementUnit: Opt(Type.String({ maxLength: 20 })),
    quantity: Opt(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    taxAmount: Opt(AmountSchema()),
    discountRate: Opt(RateSchema()),
    description: Opt(Type.String({ maxLength: 200 })),
    productDescription: Opt(Type.String({ maxLength: 200, description: 'The published name of `description`.' })),
    measurementUnitId: Opt(Type.Integer({ description: 'Accepted; the unit is `measurementUnit`.' })),
  },
  { additionalProperties: false },
);

/** L3 order data (and, in v2, the L2 sales tax rate): informational for the processor, it changes no amount. */
export const EnhancedDataInput = Type.Object(
  {
    salesTaxRate: Opt(RateSchema({ description: 'L2 sales tax rate, percent (included in the amount).' })),
    invoiceNumber: Opt(Type.String({ maxLength: 50 })),
    purchaseOrder: Opt(Type.String({ maxLength: 50 })),
    shippingCharges: Opt(AmountSchema()),
    dutyCharges: Opt(AmountSchema()),
    products: Opt(Type.Array(ProductInput, { maxItems: 100 })),
  },
  {
    additionalProperties: false,
    description:
      'Level 2/3 data. Fields left out are completed from the merchant’s autofill settings ' +
      '(`/v2/settings/transaction-autofill`).',
  },
);

const NullableNumber = Nullable(Type.Number());
const NullableText = Nullable(Type.String());

export const EnhancedDataView = Nullable(
  Type.Object({
    salesTaxRate: NullableNumber,
    invoiceNumber: NullableText,
    purchaseOrder: NullableText,
    shippingCharges: NullableNumber,
    dutyCharges: NullableNumber,
    products: Type.Array(
      Type.Object({
        name: NullableText,
        code: NullableText,
        unitPrice: NullableNumber,
        measurementUnit: NullableText,
        quantity: NullableNumber,
        taxAmount: NullableNumber,
        discountRate: NullableNumber,
        description: NullableText,
      }),
    ),
    autofilled: Type.Array(Type.String(), {
      description:
        'The fields the merchant’s autofill settings supplied: salesTaxRate, shippingCharges, dutyCharges, products.',
    }),
  }),
);
