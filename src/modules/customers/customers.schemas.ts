import Type, { type Static } from 'typebox';
import { DateFilter, ListParam, listQuerySchema, Paged } from '../../platform/http/paging.js';
import { AddressInput } from '../reference/address.js';
import { PhoneFields } from '../reference/phone.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends import('typebox').TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Text = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));

export const CustomerIdParams = Type.Object({ customerId: Uuid() });
export const PaymentMethodParams = Type.Object({ customerId: Uuid(), paymentMethodId: Uuid() });

export const CustomerBody = Type.Object(
  {
    firstName: Text(100),
    lastName: Text(100),
    companyName: Text(200),
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    ...PhoneFields,
    isMobileNumberSmsNotificationsEnabled: Type.Optional(Nullable(Type.Boolean())),
    smsNotification: Type.Optional(
      Nullable(Type.Boolean({ description: 'Alias of isMobileNumberSmsNotificationsEnabled.' })),
    ),
    useBillingAsShippingAddress: Type.Optional(Nullable(Type.Boolean())),
    billingAddress: Type.Optional(Nullable(AddressInput)),
    shippingAddress: Type.Optional(Nullable(AddressInput)),
  },
  {
    additionalProperties: false,
    examples: [
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        mobilePhoneNumber: '+12125550100',
        billingAddress: { line1: '123 Test St', city: 'New York', stateCode: 'NY', postalCode: '10001', countryId: 1 },
        useBillingAsShippingAddress: true,
      },
    ],
  },
);
export type CustomerBody = Static<typeof CustomerBody>;

export const IdResponse = Type.Object({ id: Uuid() }, { examples: [{ id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60' }] });

const CustomerAddressView = Nullable(
  Type.Object({
    addressLine1: Nullable(Type.String()),
    addressLine2: Nullable(Type.String()),
    city: Nullable(Type.String()),
    zip: Nullable(Type.String()),
    stateName: Nullable(Type.String()),
    state: Nullable(Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() })),
    country: Nullable(Type.Object({ id: Type.Integer(), isoCode: Type.String(), name: Type.String() })),
  }),
);

const EXAMPLE_CUSTOMER = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60',
  merchantId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c01',
  firstName: 'Ada',
  lastName: 'Lovelace',
  companyName: null,
  email: 'ada@example.com',
  mobilePhoneNumber: '+12125550100',
  isMobileNumberSmsNotificationsEnabled: true,
  useBillingAsShippingAddress: true,
  defaultPaymentMethodId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61',
  defaultAchPaymentMethodId: null,
  createdOn: '2026-11-21T10:00:00.000Z',
  modifiedOn: '2026-11-21T10:00:00.000Z',
  billingAddress: {
    addressLine1: '123 Test St',
    addressLine2: null,
    city: 'New York',
    zip: '10001',
    stateName: 'New York',
    state: { id: 33, code: 'NY', name: 'New York' },
    country: { id: 1, isoCode: 'US', name: 'United States' },
  },
  shippingAddress: null,
  lastTransactionDate: '2026-11-21T11:00:00.000Z',
  transactionsCount: 1,
  transactionsVolume: 25.5,
  lastTransactionAmount: 25.5,
  numberOfSubscriptions: 0,
  cards: [
    {
      id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61',
      name: 'Visa',
      isDefault: true,
      panMask: '411111******1111',
      expirationMonth: 12,
      expirationYear: 2030,
      cardTokenType: 1,
      cardType: 1,
      creditDebitType: 1,
    },
  ],
  achAccounts: [],
};

export const CardView = Type.Object({
  id: Uuid(),
  name: Nullable(Type.String()),
  isDefault: Type.Boolean(),
  panMask: Type.String({ description: 'First six and last four digits.' }),
  expirationMonth: Type.Integer(),
  expirationYear: Type.Integer(),
  cardTokenType: Type.Integer({ description: '1 Local, 2 Network.' }),
  cardType: Type.Integer({
    description: '0 Unknown, 1 Visa, 2 MasterCard, 3 AmericanExpress, 4 DinersClub, 5 Discover, 6 JCB.',
  }),
  creditDebitType: Type.Integer({ description: '1 Credit, 2 Debit, 3 Unknown.' }),
});

export const AchAccountView = Type.Object({
  id: Uuid(),
  name: Nullable(Type.String()),
  isDefault: Type.Boolean(),
  accountNumber: Type.String({ description: 'Masked: only the last four digits.' }),
  routingNumber: Type.String(),
  accountTypeId: Type.Integer(),
  accountType: Type.String(),
  accountHolderTypeId: Type.Integer(),
  accountHolderType: Type.String(),
  taxId: Nullable(Type.String()),
});

export const CustomerView = Type.Object(
  {
    id: Uuid(),
    merchantId: Uuid(),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    companyName: Nullable(Type.String()),
    email: Nullable(Type.String()),
    mobilePhoneNumber: Nullable(Type.String()),
    isMobileNumberSmsNotificationsEnabled: Type.Optional(Type.Boolean()),
    useBillingAsShippingAddress: Type.Boolean(),
    defaultPaymentMethodId: Nullable(Uuid()),
    defaultAchPaymentMethodId: Nullable(Uuid()),
    createdOn: Type.String({ format: 'date-time' }),
    modifiedOn: Type.String({ format: 'date-time' }),
    billingAddress: CustomerAddressView,
    shippingAddress: CustomerAddressView,
    lastTransactionDate: Nullable(Type.String({ format: 'date-time' })),
    transactionsCount: Type.Integer(),
    transactionsVolume: Type.Number(),
    lastTransactionAmount: Nullable(Type.Number()),
    numberOfSubscriptions: Type.Integer({ description: 'Active subscriptions.' }),
    cards: Type.Array(CardView),
    achAccounts: Type.Array(AchAccountView),
  },
  { examples: [EXAMPLE_CUSTOMER] },
);

export const CustomerListItem = Type.Object({
  id: Uuid(),
  createdOn: Type.String({ format: 'date-time' }),
  modifiedOn: Type.String({ format: 'date-time' }),
  lastTransactionDate: Nullable(Type.String({ format: 'date-time' })),
  lastTransactionAmount: Nullable(Type.Number()),
  activeSubscriptionsAmount: Type.Number(),
  contactName: Nullable(Type.String()),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  companyName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  mobilePhoneNumber: Nullable(Type.String()),
  isMobileNumberSmsNotificationsEnabled: Type.Optional(Type.Boolean()),
  billingAddress: CustomerAddressView,
  paymentMethodsCount: Type.Integer(),
});

const EXAMPLE_ADDRESS = {
  addressLine1: '123 Test St',
  addressLine2: null,
  city: 'New York',
  zip: '10001',
  stateName: 'New York',
  state: { id: 33, code: 'NY', name: 'New York' },
  country: { id: 1, isoCode: 'US', name: 'United States' },
};

export const CUSTOMER_LIST = {
  orderBy: {
    createdOn: 'c.created_at',
    id: 'c.id',
    firstName: 'lower(c.first_name)',
    lastName: 'lower(c.last_name)',
    companyName: 'lower(c.company_name)',
    email: 'lower(c.email)',
    mobilePhoneNumber: 'c.mobile_phone_number',
    lastTransactionDate: 's.last_at',
    contactName: "lower(concat_ws(' ', c.first_name, c.last_name))",
  },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'c.id',
};

export const CustomerListQuery = listQuerySchema(CUSTOMER_LIST, {
  customerIds: ListParam('Customer ids.'),
  dateFrom: DateFilter('Created on or after.'),
  dateTo: DateFilter('Created on or before.'),
});
export const CustomerListResponse = Paged(CustomerListItem, {
  items: [
    {
      id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60',
      createdOn: '2026-11-21T10:00:00.000Z',
      modifiedOn: '2026-11-21T10:00:00.000Z',
      lastTransactionDate: '2026-11-21T11:00:00.000Z',
      lastTransactionAmount: 25.5,
      activeSubscriptionsAmount: 0,
      contactName: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: null,
      email: 'ada@example.com',
      mobilePhoneNumber: '+12125550100',
      billingAddress: EXAMPLE_ADDRESS,
      paymentMethodsCount: 1,
    },
  ],
  total: 1,
});

export const CardMethodBody = Type.Object(
  {
    name: Text(100),
    pan: Type.String({ minLength: 1, maxLength: 23, description: 'Card number (spaces and dashes allowed).' }),
    expirationMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expirationYear: Type.Integer({ minimum: 2000, maximum: 2099, description: 'Four-digit year.' }),
    securityCode: Type.Optional(
      Nullable(Type.String({ pattern: '^[0-9]{3,4}$', description: 'Checked format only; never stored.' })),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { name: 'Visa', pan: '4111111111111111', expirationMonth: 12, expirationYear: 2030, securityCode: '123' },
    ],
  },
);

export const AchMethodBody = Type.Object(
  {
    name: Text(100),
    accountNumber: Type.String({ minLength: 1, maxLength: 17 }),
    routingNumber: Type.String({ minLength: 1, maxLength: 9 }),
    accountType: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 2, description: '1 Checking (default), 2 Savings.' })),
    ),
    accountHolderType: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 2, description: '1 Business, 2 Personal (default).' })),
    ),
    taxId: Text(20),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Checking',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        accountType: 1,
        accountHolderType: 2,
      },
    ],
  },
);

export const UpdatePaymentMethodBody = Type.Object(
  {
    name: Text(100),
    expirationMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
    expirationYear: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2099 })),
  },
  { additionalProperties: false, examples: [{ name: 'Company card', expirationMonth: 1, expirationYear: 2031 }] },
);

export const PaymentMethodView = Type.Object({
  id: Uuid(),
  name: Nullable(Type.String()),
  typeId: Type.Integer({ description: '1 Card, 2 ElectronicCheck (ACH).' }),
  typeName: Type.String(),
  panMask: Nullable(Type.String()),
  cardType: Nullable(Type.Integer()),
  creditDebitType: Nullable(Type.Integer()),
  cardTokenType: Nullable(Type.Integer()),
  expirationMonth: Nullable(Type.Integer()),
  expirationYear: Nullable(Type.Integer()),
  accountNumber: Nullable(Type.String({ description: 'Masked.' })),
  routingNumber: Nullable(Type.String()),
  accountType: Nullable(Type.Integer()),
  accountHolderType: Nullable(Type.Integer()),
  taxId: Nullable(Type.String()),
  isDefault: Type.Boolean(),
  createdOn: Type.String({ format: 'date-time' }),
});
export const PaymentMethodListResponse = Paged(PaymentMethodView, {
  items: [
    {
      id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61',
      name: 'Visa',
      typeId: 1,
      typeName: 'Card',
      panMask: '411111******1111',
      cardType: 1,
      creditDebitType: 1,
      cardTokenType: 1,
      expirationMonth: 12,
      expirationYear: 2030,
      accountNumber: null,
      routingNumber: null,
      accountType: null,
      accountHolderType: null,
      taxId: null,
      isDefault: true,
      createdOn: '2026-11-21T10:00:00.000Z',
    },
  ],
  total: 1,
});
