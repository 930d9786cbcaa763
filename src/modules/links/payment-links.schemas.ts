import Type from 'typebox';
import { MAX_PAGE, MAX_PAGE_SIZE, PageInfo } from '../../platform/http/paging.js';
import { multiline } from '../../platform/http/validation.js';
import { AmountSchema } from '../../platform/money.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));

export const PaymentLinkIdParams = Type.Object({ paymentLinkId: Uuid() });

const MethodInput = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    processorId: Opt(Uuid("One of the merchant's active processors of the method; default: its default one.")),
  },
  { additionalProperties: false },
);

const PaymentMethodsInput = Type.Object(
  { card: Opt(MethodInput), ach: Opt(MethodInput) },
  { additionalProperties: false, description: 'The methods the payer may use: at least one enabled.' },
);

const LinkType = Type.Union([Type.Literal('SingleUse'), Type.Literal('MultiUse')], {
  description: 'SingleUse: Completed after its payment. MultiUse (default): paid any number of times.',
});
const CurrencyCode = Type.String({
  pattern: '^[A-Za-z]{3}$',
  description: 'ISO 4217; USD is the only currency today (others: 400).',
});

const fields = {
  baseAmount: Opt(
    AmountSchema({ description: 'Greater than 0; omitted or null: the payer enters it.', exclusiveMinimum: 0 }),
  ),
  linkType: Type.Optional(LinkType),
  customerId: Opt(Uuid("One of the merchant's customers.")),
  referenceId: Opt(Type.String({ minLength: 1, maxLength: 100 })),
  name: Opt(Type.String({ minLength: 1, maxLength: 200, description: 'Shown on the payment page.' })),
  description: Opt(multiline(Type.String({ maxLength: 1000, description: 'Shown on the payment page.' }))),
  expiresOn: Opt(Type.String({ format: 'date-time', description: 'At most 366 days ahead; none by default.' })),
};

export const CreatePaymentLinkBody = Type.Object(
  { paymentMethods: PaymentMethodsInput, currencyCode: CurrencyCode, ...fields },
  {
    additionalProperties: false,
    examples: [
      {
        paymentMethods: { card: { enabled: true }, ach: { enabled: true } },
        currencyCode: 'USD',
        baseAmount: 25,
        linkType: 'SingleUse',
        name: 'Order 1001',
        referenceId: 'ORDER-1001',
      },
    ],
  },
);

export const PatchPaymentLinkBody = Type.Object(
  {
    paymentMethods: Opt(PaymentMethodsInput),
    currencyCode: Opt(CurrencyCode),
    ...fields,
    linkType: Opt(LinkType),
    paymentLinkStatus: Opt(
      Type.Union([Type.Literal('Active'), Type.Literal('Inactive')], {
        description: 'Active ⇄ Inactive (an Expired or Completed link stays so).',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'An RFC 7396 merge patch (`application/merge-patch+json`, or `application/json`): absent fields stay, null clears ' +
      '(not `name` nor `currencyCode`), objects merge.',
    examples: [{ description: null, baseAmount: 30, paymentLinkStatus: 'Inactive' }],
  },
);

export const ShareBody = Type.Object(
  {
    shareBy: Type.Union([Type.Literal('Email'), Type.Literal('Sms')]),
    recipient: Type.String({ minLength: 3, maxLength: 254, description: 'An email address or a mobile number.' }),
    hasCustomerConsent: Type.Boolean({ description: 'Must be true: the recipient agreed to receive it.' }),
  },
  { additionalProperties: false, examples: [{ shareBy: 'Sms', recipient: '+15555550123', hasCustomerConsent: true }] },
);

export const LinkListQuery = Type.Object({
  pageIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: 'Zero-based; default 0.' })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Default 20, at most 100.' }),
  ),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Name, description, reference, customer name.' })),
  linkType: Type.Optional(LinkType),
  paymentLinkStatus: Type.Optional(
    Type.Union([Type.Literal('Active'), Type.Literal('Inactive'), Type.Literal('Expired'), Type.Literal('Completed')]),
  ),
  sortBy: Type.Optional(
    Type.Union(
      ['createdOn', 'modifiedOn', 'name', 'baseAmount', 'expiresOn', 'paymentCount'].map((v) => Type.Literal(v)),
      { description: 'Default createdOn.' },
    ),
  ),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Default desc.' })),
});

export const V2_LINK_LIST = {
  orderBy: {
    createdOn: 'l.created_at',
    modifiedOn: 'l.modified_at',
    name: 'l.name',
    baseAmount: 'l.amount_cents',
    expiresOn: 'l.expires_at',
    paymentCount: 'l.payment_count',
  },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'l.id',
  defaultPageSize: 20,
  notNull: ['createdOn', 'modifiedOn', 'paymentCount'],
};

const MethodView = Type.Object({ enabled: Type.Boolean(), processorId: Nullable(Uuid()) });

const EXAMPLE = {
  paymentLinkId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cc3',
  shortUrl: 'https://pay.example.com/l/Yq3k9ZtWm2Lx8PbQ',
  paymentLinkStatus: 'Active',
  linkType: 'SingleUse',
  name: 'Order 1001',
  description: null,
  baseAmount: 25,
  currencyCode: 'USD',
  paymentMethods: { card: { enabled: true, processorId: null }, ach: { enabled: true, processorId: null } },
  customerId: null,
  customerFirstName: null,
  customerLastName: null,
  referenceId: 'ORDER-1001',
  paymentCount: 0,
  totalCollectedAmount: 0,
  lastPaymentOn: null,
  expiresOn: null,
  createdOn: '2026-11-24T10:00:00.000Z',
  modifiedOn: '2026-11-24T10:00:00.000Z',
};

export const PaymentLinkView = Type.Object(
  {
    paymentLinkId: Uuid(),
    shortUrl: Type.String({ description: 'The hosted payment page.' }),
    paymentLinkStatus: Type.Union([
      Type.Literal('Active'),
      Type.Literal('Inactive'),
      Type.Literal('Expired'),
      Type.Literal('Completed'),
    ]),
    linkType: LinkType,
    name: Nullable(Type.String()),
    description: Nullable(Type.String()),
    baseAmount: Nullable(Type.Number({ description: 'null: the payer enters the amount.' })),
    currencyCode: Type.String(),
    paymentMethods: Type.Object({ card: MethodView, ach: MethodView }),
    customerId: Nullable(Uuid()),
    customerFirstName: Nullable(Type.String()),
    customerLastName: Nullable(Type.String()),
    referenceId: Nullable(Type.String()),
    paymentCount: Type.Integer(),
    totalCollectedAmount: Type.Number(),
    lastPaymentOn: Nullable(Type.String({ format: 'date-time' })),
    expiresOn: Nullable(Type.String({ format: 'date-time' })),
    createdOn: Type.String({ format: 'date-time' }),
    modifiedOn: Type.String({ format: 'date-time' }),
  },
  { examples: [EXAMPLE] },
);

export const PaymentLinkList = Type.Object(
  {
    items: Type.Array(PaymentLinkView),
    pageInfo: PageInfo,
  },
  {
    examples: [
      { items: [EXAMPLE], pageInfo: { pageIndex: 0, pageSize: 20, totalItems: 1, totalPages: 1, hasMore: false } },
    ],
  },
);
