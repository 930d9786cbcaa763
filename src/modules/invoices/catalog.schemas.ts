import Type from 'typebox';
import { listQuerySchema, Paged } from '../../platform/http/paging.js';
import { multiline } from '../../platform/http/validation.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { CATEGORY_LIST } from './categories.repo.js';
import { LINE_ITEM_LIST } from './line-items.repo.js';

/** The catalog list's sort keys and paging, as the API's list query takes them (other modules' lists use it too). */
export { LINE_ITEM_LIST };

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));

/** A unit type as its integer id or its uuid (both name one unit type). */
export const UnitTypeRef = Type.Union([Type.Integer({ minimum: 1, maximum: 1000 }), Type.String({ format: 'uuid' })], {
  description: 'A unit type: its integer id (GET /pay-int-api/line-items/unit-types), or its uuid.',
});

export const CategoryIdParams = Type.Object({ categoryId: Uuid() });
export const LineItemIdParams = Type.Object({ lineItemId: Uuid() });

export const UnitTypeView = Type.Object({
  id: Type.Integer({ description: 'The id line items and categories use (`unitTypeId`).' }),
  uuid: Type.String({ format: 'uuid', description: 'A stable uuid for the same unit type (accepted on input too).' }),
  name: Type.String(),
  abbreviation: Type.String(),
  category: Type.String(),
});
export const UnitTypeList = Paged(UnitTypeView, {
  items: [
    { id: 1, uuid: '5d1c7d0e-2c0b-5a3e-9f1a-3b2c4d5e6f70', name: 'Each', abbreviation: 'ea', category: 'Quantity' },
  ],
  total: 1,
});

export const CategoryBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Unique in the merchant account (case-insensitive).',
    }),
    defaultUnitTypeId: Opt(UnitTypeRef),
  },
  { additionalProperties: false, examples: [{ name: 'Consulting', defaultUnitTypeId: 7 }] },
);

const CATEGORY_EXAMPLE = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c90',
  name: 'Consulting',
  defaultUnitTypeId: 7,
  itemCount: 3,
};
export const CategoryView = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    defaultUnitTypeId: Nullable(Type.Integer()),
    itemCount: Type.Integer({ description: 'Line items in the catalog under it.' }),
  },
  { examples: [CATEGORY_EXAMPLE] },
);
export const CategoryListQuery = listQuerySchema(CATEGORY_LIST, {});
export const CategoryList = Paged(CategoryView, { items: [CATEGORY_EXAMPLE], total: 1 });

export const LineItemBody = Type.Object(
  {
    productName: Type.String({ minLength: 1, maxLength: 200 }),
    description: Opt(multiline(Type.String({ maxLength: 1000, description: 'May span lines.' }))),
    sku: Opt(Type.String({ maxLength: 100 })),
    unitPrice: AmountSchema({ description: 'USD, at least 0, at most 2 decimals.' }),
    unitTypeId: Opt(UnitTypeRef),
    categoryId: Opt(Uuid('A category of the merchant.')),
    taxRate: Opt(RateSchema({ description: 'Tax percent (0 to 100, at most 3 decimals).' })),
  },
  {
    additionalProperties: false,
    examples: [{ productName: 'Strategy session', unitPrice: 150, unitTypeId: 7, taxRate: 8.875 }],
  },
);

const LINE_ITEM_EXAMPLE = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c91',
  lineItemId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c91',
  productName: 'Strategy session',
  description: null,
  sku: 'CONS-01',
  unitPrice: 150,
  unitTypeId: 7,
  unitType: 'Hour',
  taxRate: 8.875,
  categoryId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c90',
  categoryName: 'Consulting',
  categoryDefaultUnitTypeId: 7,
  createdOn: '2026-11-24T10:00:00.000Z',
  modifiedOn: '2026-11-24T10:00:00.000Z',
};
export const LineItemView = Type.Object(
  {
    id: Uuid(),
    lineItemId: Uuid('The same as `id`.'),
    productName: Type.String(),
    description: Nullable(Type.String()),
    sku: Nullable(Type.String()),
    unitPrice: Type.Number(),
    unitTypeId: Type.Integer(),
    unitType: Type.String(),
    taxRate: Nullable(Type.Number()),
    categoryId: Nullable(Uuid()),
    categoryName: Nullable(Type.String()),
    categoryDefaultUnitTypeId: Nullable(Type.Integer()),
    createdOn: Type.String({ format: 'date-time' }),
    modifiedOn: Type.String({ format: 'date-time' }),
  },
  { examples: [LINE_ITEM_EXAMPLE] },
);
export const LineItemListQuery = listQuerySchema(LINE_ITEM_LIST, {
  categoryId: Type.Optional(Uuid()),
  noCategory: Type.Optional(
    Type.Boolean({ description: 'true: only items with no category (ignored with categoryId).' }),
  ),
});
export const LineItemList = Paged(LineItemView, { items: [LINE_ITEM_EXAMPLE], total: 1 });
