// Version 2 customers and their payment methods, as the vendor's document names them.
import Type, { type Static, type TSchema } from 'typebox';
import { DateFilter, listQuerySchema, Paged, PageInfo, PublishedPaging } from '../../platform/http/paging.js';
import { CUSTOMER_LIST } from '../customers/customers.schemas.js';
import { AddressInput } from '../reference/address.js';
import { PhoneNumber } from '../reference/phone.js';

const Uuid = () => Type.String({ format: 'uuid' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Text = (max: number) => Opt(Type.String({ maxLength: max }));
const OneOf = (...names: string[]) => Type.String({ description: `One of: ${names.join(', ')}.` });
const NullableText = Nullable(Type.String());

const CUSTOMER_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60';
const CARD_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61';
const ACH_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c62';

export const CardInput = Type.Object(
  {
    cardNumber: Type.String({ minLength: 12, maxLength: 19, description: 'Sealed in the vault; shown masked.' }),
    securityCode: Text(4),
    expirationMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expirationYear: Type.Integer({ minimum: 2000, maximum: 2099 }),
    name: Text(100),
    paymentName: Text(100),
  },
  { additionalProperties: false },
);
export type CardInput = Static<typeof CardInput>;

export const AchInput = Type.Object(
  {
    routingNumber: Type.String({ minLength: 9, maxLength: 9 }),
    accountNumber: Type.String({ minLength: 4, maxLength: 17 }),
    taxId: Text(20),
    accountHolderType: Opt(Type.Enum(['Business', 'Personal'])),
    accountType: Opt(Type.Enum(['Checking', 'Savings'])),
    name: Text(100),
    paymentName: Text(100),
  },
  { additionalProperties: false },
);

export type AchInput = Static<typeof AchInput>;

const customerFields = {
  firstName: Text(100),
  lastName: Text(100),
  companyName: Text(200),
  email: Opt(Type.String({ format: 'email', maxLength: 254 })),
  mobileNumber: Type.Optional(PhoneNumber),
  mobilePhoneNumber: Type.Optional(PhoneNumber),
  hasSmsConsent: Opt(Type.Boolean({ description: 'The customer agreed to SMS notifications.' })),
  shouldUseBillingAsShippingAddress: Opt(Type.Boolean()),
  billingAddress: Opt(AddressInput),
  shippingAddress: Opt(AddressInput),
};

const ADDRESS_EXAMPLE = {
  city: 'New York',
  countryCode: 'US',
  line1: '123 Main Street',
  line2: 'Suite 100',
  postalCode: '10001',
  stateCode: 'NY',
};
const CUSTOMER_EXAMPLE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  companyName: 'Analytical Engines',
  email: 'ada@example.com',
  mobileNumber: '+12125550100',
  hasSmsConsent: true,
  shouldUseBillingAsShippingAddress: true,
  billingAddress: ADDRESS_EXAMPLE,
  shippingAddress: null,
};

export const CreateCustomerBody = Type.Object(
  {
    ...customerFields,
    paymentMethodsCards: Opt(Type.Array(CardInput, { maxItems: 10 })),
    paymentMethodsAchAccounts: Opt(Type.Array(AchInput, { maxItems: 10 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        ...CUSTOMER_EXAMPLE,
        paymentMethodsCards: [
          {
            name: 'Visa',
            cardNumber: '4111111111111111',
            securityCode: '123',
            expirationMonth: 12,
            expirationYear: 2030,
          },
        ],
        paymentMethodsAchAccounts: [],
      },
    ],
  },
);
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

export const UpdateCustomerBody = Type.Object(customerFields, {
  additionalProperties: false,
  examples: [CUSTOMER_EXAMPLE],
});
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>;

export const CreatedCustomer = Type.Object({ customerId: Uuid() }, { examples: [{ customerId: CUSTOMER_ID }] });

/** A customer's address in both revisions' names. */
const BothAddressView = Nullable(
  Type.Object({
    city: NullableText,
    countryCode: NullableText,
    line1: NullableText,
    line2: NullableText,
    addressLine1: Type.Optional(NullableText),
    addressLine2: Type.Optional(NullableText),
    postalCode: NullableText,
    stateCode: NullableText,
  }),
);
/** The published revision's names of a saved method, beside the older `id` and `name`. */
const PublishedMethodNames = {
  paymentMethodId: Type.Optional(Uuid()),
  paymentName: Type.Optional(NullableText),
};

const CardView = Type.Object({
  id: Uuid(),
  name: NullableText,
  ...PublishedMethodNames,
  isDefault: Type.Boolean(),
  cardMask: Type.String(),
  expirationMonth: Type.Integer(),
  expirationYear: Type.Integer(),
  cardTokenType: OneOf('Local', 'Network'),
  cardType: OneOf('Unknown', 'Visa', 'MasterCard', 'AmericanExpress', 'DinersClub', 'Discover', 'JCB'),
  creditDebitType: OneOf('Credit', 'Debit', 'Unknown'),
});

const AchView = Type.Object({
  id: Uuid(),
  name: NullableText,
  ...PublishedMethodNames,
  isDefault: Type.Boolean(),
  accountNumber: Type.String({ description: 'Masked.' }),
  routingNumber: Type.String(),
  accountType: OneOf('Checking', 'Savings'),
  accountHolderType: OneOf('Business', 'Personal'),
  taxId: Nullable(Type.String({ description: 'Masked: the last four digits.' })),
});

const CARD_EXAMPLE = {
  id: CARD_ID,
  name: 'Visa',
  isDefault: true,
  cardMask: '411111******1111',
  expirationMonth: 12,
  expirationYear: 2030,
  cardTokenType: 'Local',
  cardType: 'Visa',
  creditDebitType: 'Credit',
};
const ACH_EXAMPLE = {
  id: ACH_ID,
  name: 'Checking',
  isDefault: true,
  accountNumber: '*****6789',
  routingNumber: '021000021',
  accountType: 'Checking',
  accountHolderType: 'Personal',
  taxId: '***-**-6789',
};

export const CustomerView = Type.Object(
  {
    id: Uuid(),
    customerId: Type.Optional(Type.String({ format: 'uuid', description: 'The published name of `id`.' })),
    externalId: Type.Null({ description: 'Not kept by Tessera: always null.' }),
    firstName: NullableText,
    lastName: NullableText,
    companyName: NullableText,
    email: NullableText,
    mobileNumber: NullableText,
    mobilePhoneNumber: Type.Optional(NullableText),
    hasSmsConsent: Type.Boolean(),
    shouldUseBillingAsShippingAddress: Type.Boolean(),
    billingAddress: BothAddressView,
    shippingAddress: BothAddressView,
    lastTransactionDate: Nullable(Type.String({ format: 'date-time' })),
    transactionsCount: Type.Integer(),
    transactionsVolume: Type.Number(),
    lastTransactionAmount: Nullable(Type.Number()),
    numberOfSubscriptions: Type.Integer({ description: 'Active subscriptions.' }),
    cards: Type.Array(CardView),
    achAccounts: Type.Array(AchView),
  },
  {
    examples: [
      {
        id: CUSTOMER_ID,
        externalId: null,
        ...CUSTOMER_EXAMPLE,
        lastTransactionDate: '2026-11-24T10:00:00.000Z',
        transactionsCount: 3,
        transactionsVolume: 150,
        lastTransactionAmount: 50,
        numberOfSubscriptions: 1,
        cards: [CARD_EXAMPLE],
        achAccounts: [ACH_EXAMPLE],
      },
    ],
  },
);

export const CustomerListQuery = listQuerySchema(CUSTOMER_LIST, {
  ...PublishedPaging,
  mobilePhoneNumber: Type.Optional(
    Type.String({ maxLength: 20, description: 'Part of the mobile number (published name of mobileNumber).' }),
  ),
  fullName: Type.Optional(Type.String({ maxLength: 200, description: 'Part of first and last name.' })),
  email: Type.Optional(Type.String({ maxLength: 254, description: 'Part of the email.' })),
  companyName: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the company name.' })),
  mobileNumber: Type.Optional(Type.String({ maxLength: 20, description: 'Part of the mobile number.' })),
  createdFrom: DateFilter('Created on or after.'),
  createdTo: DateFilter('Created on or before.'),
});

const O = <T extends TSchema>(schema: T) => Type.Optional(schema);
/** Either revision's address: the older `line1`/`line2` or the published `addressLine1`/`addressLine2`. */
const EitherAddress = Nullable(
  Type.Object({
    city: NullableText,
    countryCode: NullableText,
    line1: O(NullableText),
    line2: O(NullableText),
    addressLine1: O(NullableText),
    addressLine2: O(NullableText),
    postalCode: NullableText,
    stateCode: NullableText,
  }),
);

/** The customer list in both revisions' names and envelopes (docs/api-v2.md). */
export const CustomerList = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        id: O(Uuid()),
        customerId: O(Uuid()),
        externalId: Type.Null(),
        firstName: NullableText,
        lastName: NullableText,
        companyName: NullableText,
        email: NullableText,
        mobileNumber: O(NullableText),
        mobilePhoneNumber: O(NullableText),
        billingAddress: EitherAddress,
        lastTransactionDate: Nullable(Type.String({ format: 'date-time' })),
        paymentMethodsCount: Type.Integer(),
      }),
    ),
    total: O(Type.Integer()),
    pageInfo: O(PageInfo),
  },
  {
    examples: [
      {
        items: [
          {
            id: CUSTOMER_ID,
            externalId: null,
            firstName: 'Ada',
            lastName: 'Lovelace',
            companyName: 'Analytical Engines',
            email: 'ada@example.com',
            mobileNumber: '+12125550100',
            billingAddress: ADDRESS_EXAMPLE,
            lastTransactionDate: null,
            paymentMethodsCount: 2,
          },
        ],
        total: 1,
      },
    ],
  },
);

export const AddMethodBody = Type.Object(
  { card: Opt(CardInput), ach: Opt(AchInput) },
  {
    additionalProperties: false,
    examples: [
      {
        card: {
          name: 'Visa',
          cardNumber: '4111111111111111',
          securityCode: '123',
          expirationMonth: 12,
          expirationYear: 2030,
        },
        ach: null,
      },
    ],
  },
);

export const CreatedMethod = Type.Object({ paymentMethodId: Uuid() }, { examples: [{ paymentMethodId: CARD_ID }] });

export const MethodListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Zero-based.' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 15.' })),
  orderBy: Type.Optional(Type.String({ description: 'createdOn (default) or name.' })),
  asc: Type.Optional(Type.Boolean()),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name or the masked number.' })),
  createdFrom: DateFilter('Added on or after.'),
  createdTo: DateFilter('Added on or before.'),
});

export const MethodList = Paged(
  Type.Object({
    id: Uuid(),
    name: NullableText,
    isDefault: Type.Boolean(),
    type: OneOf('Card', 'ElectronicCheck'),
    card: Nullable(
      Type.Object({
        cardMask: Type.String(),
        expirationMonth: Type.Integer(),
        expirationYear: Type.Integer(),
        cardTokenType: OneOf('Local', 'Network'),
      }),
    ),
    ach: Nullable(
      Type.Object({
        accountNumber: Type.String(),
        routingNumber: Type.String(),
        accountType: OneOf('Checking', 'Savings'),
        accountHolderType: OneOf('Business', 'Personal'),
        taxId: NullableText,
      }),
    ),
  }),
  {
    items: [
      {
        id: CARD_ID,
        name: 'Visa',
        isDefault: true,
        type: 'Card',
        card: { cardMask: '411111******1111', expirationMonth: 12, expirationYear: 2030, cardTokenType: 'Local' },
        ach: null,
      },
    ],
    total: 1,
  },
);

export const RenameMethodBody = Type.Object(
  { name: Nullable(Type.String({ maxLength: 100 })) },
  { additionalProperties: false, examples: [{ name: 'Business Visa' }] },
);

export const CustomerParams = Type.Object({ id: Uuid() });
export const MethodParams = Type.Object({ id: Uuid(), paymentMethodId: Uuid() });
