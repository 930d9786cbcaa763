import Type from 'typebox';
import { PageInfo } from '../../platform/http/paging.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));
const METHOD_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61';
const CUSTOMER_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60';

export const MethodIdParams = Type.Object({ paymentMethodId: Uuid() });

export const MethodListQuery = Type.Object({
  pageIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Zero-based. Default 0.' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 20.' })),
  asc: Type.Optional(Type.Boolean({ description: 'Default true (oldest first).' })),
  sortBy: Type.Optional(
    Type.Union([Type.Literal('createdOn'), Type.Literal('name'), Type.Literal('type')], {
      description: 'Default createdOn.',
    }),
  ),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name or of the masked number.' })),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time' })),
  customerId: Type.Optional(Uuid('Only this customer’s; without it, every method, orphans included.')),
});

export const CreateCardBody = Type.Object(
  {
    cardNumber: Type.String({ minLength: 12, maxLength: 19, pattern: '^[0-9]+$' }),
    expirationMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expirationYear: Type.Integer({ minimum: 2000, maximum: 2099 }),
    securityCode: Opt(Type.String({ minLength: 3, maxLength: 4, pattern: '^[0-9]+$' })),
    customerId: Opt(Uuid('A customer of the merchant; without it, an orphan method.')),
    paymentName: Opt(Type.String({ maxLength: 100 })),
  },
  {
    additionalProperties: false,
    examples: [{ cardNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2030, paymentName: 'Visa' }],
  },
);

export const CreateAchBody = Type.Object(
  {
    routingNumber: Type.String({ minLength: 9, maxLength: 9, pattern: '^[0-9]+$' }),
    accountNumber: Type.String({ minLength: 4, maxLength: 17, pattern: '^[0-9]+$' }),
    accountHolderType: Type.Union([Type.Literal('Business'), Type.Literal('Personal')]),
    accountType: Type.Union([Type.Literal('Checking'), Type.Literal('Savings')]),
    taxId: Opt(Type.String({ maxLength: 11 })),
    customerId: Opt(Uuid('A customer of the merchant; without it, an orphan method.')),
    name: Opt(Type.String({ maxLength: 100 })),
    companyName: Opt(
      Type.String({
        maxLength: 100,
        description: 'The legal name of a Business account: the receiver of a CCD entry that names no company.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        routingNumber: '021000021',
        accountNumber: '123456789',
        accountHolderType: 'Personal',
        accountType: 'Checking',
      },
    ],
  },
);

export const RenameBody = Type.Object(
  { paymentName: Opt(Type.String({ maxLength: 100 })) },
  { additionalProperties: false, examples: [{ paymentName: 'Business card' }] },
);

export const SetDefaultQuery = Type.Object({ customerId: Uuid('The customer whose default it becomes.') });

export const CreatedMethod = Type.Object({ paymentMethodId: Uuid() }, { examples: [{ paymentMethodId: METHOD_ID }] });

const MethodView = Type.Object({
  paymentMethodId: Uuid(),
  customerId: Nullable(Uuid()),
  name: Nullable(Type.String()),
  type: Type.String({ description: 'Card or ElectronicCheck (what the vendor’s list answers show for ACH).' }),
  isDefault: Type.Boolean({ description: 'Always false for an orphan.' }),
  createdOn: Type.String({ format: 'date-time' }),
  card: Nullable(
    Type.Object({
      cardMask: Type.String(),
      expirationMonth: Type.Integer(),
      expirationYear: Type.Integer(),
      cardTokenType: Type.String(),
    }),
  ),
  ach: Nullable(
    Type.Object({
      accountNumber: Type.String({ description: 'Masked.' }),
      routingNumber: Type.String(),
      accountType: Type.String(),
      accountHolderType: Type.String(),
      taxId: Nullable(Type.String({ description: 'Masked.' })),
      companyName: Nullable(Type.String()),
    }),
  ),
});

const VIEW_EXAMPLE = {
  paymentMethodId: METHOD_ID,
  customerId: CUSTOMER_ID,
  name: 'Visa',
  type: 'Card',
  isDefault: true,
  createdOn: '2026-11-27T10:00:00.000Z',
  card: { cardMask: '411111******1111', expirationMonth: 12, expirationYear: 2030, cardTokenType: 'Local' },
  ach: null,
};

export const PaymentMethodView = Type.Object(MethodView.properties, { examples: [VIEW_EXAMPLE] });

export const MethodPage = Type.Object(
  { items: Type.Array(MethodView), pageInfo: PageInfo },
  {
    examples: [
      {
        items: [VIEW_EXAMPLE],
        pageInfo: { pageIndex: 0, pageSize: 20, totalItems: 1, totalPages: 1, hasMore: false },
      },
    ],
  },
);
