import Type, { type Static } from 'typebox';
import { DateFilter, type ListSpec, listQuerySchema, Paged } from '../../platform/http/paging.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { AddressInput, AddressView } from '../reference/address.js';
import { PhoneFields, PhoneNumber } from '../reference/phone.js';
import { PORTFOLIO_EXAMPLE, PortfolioInput, PortfolioView } from './portfolio/portfolio.schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const SettlementTimeSlotSchema = Type.Object({
  hours: Type.Integer({ minimum: 0, maximum: 23 }),
  minutes: Type.Integer({ minimum: 0, maximum: 59 }),
  timezoneName: Type.String({ description: 'IANA time zone, e.g. America/New_York.' }),
});

/** What a card processor can do (docs/connectors.md). */
export const ProcessorSupports = Type.Object({
  transactionTypes: Type.Array(Type.String(), {
    description: 'Authorization, Sale, CardAuthentication, Capture, Void, Refund, RefundWORef, TipAdjustment.',
  }),
  cardPresent: Type.Boolean(),
  tipAdjustment: Type.String({ description: 'until-settled, before-capture or none.' }),
  asynchronousModifications: Type.Boolean({
    description: 'Capture, void, refund and tip changes are pending until the processor notifies their outcome.',
  }),
});

export const PaymentProcessorView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  isDefault: Type.Boolean(),
  typeId: Type.Integer({ description: 'PaymentProcessorType: 1 card (TSYS-compatible), 2 ACH (EFT).' }),
  type: Type.String({ description: 'SandboxCard or SandboxAch for the sandbox connectors, Adyen.' }),
  settlementBatchTimeSlots: Type.Array(SettlementTimeSlotSchema),
  supports: Type.Union([ProcessorSupports, Type.Null()], {
    description: 'What a card processor can do; null for ACH.',
  }),
});

const IdName = Type.Object({ id: Type.Integer(), name: Type.String() });

const AvsView = Type.Object({
  isEnabled: Type.Boolean(),
  profileId: Type.Integer(),
  profile: Nullable(Type.String()),
});

const EXAMPLE_PROCESSORS = [
  {
    id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60',
    name: 'Sandbox Card',
    isDefault: true,
    typeId: 1,
    type: 'SandboxCard',
    settlementBatchTimeSlots: [{ hours: 22, minutes: 0, timezoneName: 'America/New_York' }],
    supports: {
      transactionTypes: [
        'Sale',
        'Authorization',
        'CardAuthentication',
        'Capture',
        'Void',
        'Refund',
        'RefundWORef',
        'TipAdjustment',
      ],
      cardPresent: true,
      tipAdjustment: 'until-settled',
      asynchronousModifications: false,
    },
  },
  {
    id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61',
    name: 'Sandbox ACH',
    isDefault: true,
    typeId: 2,
    type: 'SandboxAch',
    settlementBatchTimeSlots: [
      { hours: 10, minutes: 30, timezoneName: 'America/New_York' },
      { hours: 14, minutes: 45, timezoneName: 'America/New_York' },
      { hours: 17, minutes: 0, timezoneName: 'America/New_York' },
    ],
    supports: null,
  },
];

/** GET /pay-api/v1/configurations/payments: the merchant's payment configuration. */
export const PaymentConfigurationView = Type.Object(
  {
    zeroCostProcessingOptionId: Type.Integer({ description: '1 None, 2 CashDiscount, 3 DualPricing, 4 Surcharge.' }),
    zeroCostProcessingOption: Nullable(Type.String()),
    defaultTipsOptions: Nullable(Type.Array(Type.Number())),
    isTipsEnabled: Type.Boolean(),
    defaultSurchargeRate: Nullable(Type.Number()),
    defaultCashDiscountRate: Nullable(Type.Number()),
    defaultDualPricingRate: Nullable(Type.Number()),
    availableCurrencies: Type.Array(IdName),
    availableCardTypes: Type.Array(IdName),
    availableTransactionTypes: Type.Array(IdName),
    availablePaymentProcessors: Type.Array(PaymentProcessorView),
    avs: AvsView,
    isCustomerCardSavingByTerminalEnabled: Type.Boolean(),
    companyName: Nullable(Type.String()),
    mccCode: Nullable(Type.String()),
    mccCodeDescription: Nullable(Type.String()),
    currencyId: Type.Integer(),
    currencyIsoCode: Nullable(Type.String()),
    maxTransactionAmount: Nullable(Type.Number()),
  },
  {
    examples: [
      {
        zeroCostProcessingOptionId: 1,
        zeroCostProcessingOption: 'None',
        defaultTipsOptions: [15, 18, 20],
        isTipsEnabled: true,
        defaultSurchargeRate: null,
        defaultCashDiscountRate: null,
        defaultDualPricingRate: null,
        availableCurrencies: [{ id: 1, name: 'USD' }],
        availableCardTypes: [
          { id: 0, name: 'Unknown' },
          { id: 1, name: 'Visa' },
        ],
        availableTransactionTypes: [
          { id: 2, name: 'Sale' },
          { id: 3, name: 'Capture' },
        ],
        availablePaymentProcessors: EXAMPLE_PROCESSORS,
        avs: { isEnabled: true, profileId: 2, profile: 'Standard' },
        isCustomerCardSavingByTerminalEnabled: false,
        companyName: 'Demo Coffee Roasters',
        mccCode: '5812',
        mccCodeDescription: 'Eating Places, Restaurants',
        currencyId: 1,
        currencyIsoCode: 'USD',
        maxTransactionAmount: 10000,
      },
    ],
  },
);

export const ContactInfoView = Type.Object({
  id: Uuid(),
  addressName: Type.String(),
  email: Nullable(Type.String()),
  mobileNumber: Nullable(Type.String()),
  mobilePhoneNumber: Nullable(Type.String({ description: 'Same as mobileNumber.' })),
  isMainAddress: Type.Boolean(),
  isDefaultAddress: Type.Boolean(),
  line1: Nullable(Type.String()),
  line2: Nullable(Type.String()),
  city: Nullable(Type.String()),
  stateId: Nullable(Type.Integer()),
  stateCode: Nullable(Type.String()),
  stateName: Nullable(Type.String()),
  postalCode: Nullable(Type.String()),
  countryId: Nullable(Type.Integer()),
  countryCode: Nullable(Type.String()),
});

export const ContactInfosResponse = Type.Object(
  { contactInfos: Type.Array(ContactInfoView) },
  {
    examples: [
      {
        contactInfos: [
          {
            id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
            addressName: 'Main',
            email: 'owner@demo-coffee.example',
            mobileNumber: '+12125550100',
            mobilePhoneNumber: '+12125550100',
            isMainAddress: true,
            isDefaultAddress: true,
            line1: '123 Test St',
            line2: null,
            city: 'New York',
            stateId: 33,
            stateCode: 'NY',
            stateName: 'New York',
            postalCode: '10001',
            countryId: 1,
            countryCode: 'US',
          },
        ],
      },
    ],
  },
);

export const StatesResponse = Type.Object(
  {
    items: Type.Array(
      Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String(), countryId: Type.Integer() }),
    ),
    total: Type.Integer(),
  },
  { examples: [{ items: [{ id: 1, code: 'AL', name: 'Alabama', countryId: 1 }], total: 1 }] },
);

export const MERCHANT_LIST: ListSpec = {
  orderBy: {
    companyName: 'lower(company_name)',
    createdOn: 'created_at',
    modifiedOn: 'modified_at',
    lastTransactionDate: 'last_transaction_at',
    statusId: 'status_id',
    mccCode: 'mcc_code',
    merchantId: 'id',
  },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'id',
};

export const MerchantListQuery = listQuerySchema(MERCHANT_LIST, {
  mccCodeId: Type.Optional(Type.Integer({ minimum: 0, maximum: 9999, description: 'The numeric MCC, e.g. 5812.' })),
  statusId: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, description: '1 Active, 2 Suspended, 3 Closed.' })),
  createdFrom: DateFilter('Created on or after.'),
  createdTo: DateFilter('Created on or before.'),
  modifiedFrom: DateFilter('Modified on or after.'),
  modifiedTo: DateFilter('Modified on or before.'),
  lastTransactionDateFrom: DateFilter('Last transaction on or after.'),
  lastTransactionDateTo: DateFilter('Last transaction on or before.'),
});
export type MerchantListQuery = Static<typeof MerchantListQuery>;

export const MerchantListItem = Type.Object({
  merchantId: Uuid(),
  companyName: Type.String(),
  legalName: Nullable(Type.String()),
  mccCode: Nullable(Type.String()),
  mccCodeId: Nullable(Type.Integer()),
  mccCodeDescription: Nullable(Type.String()),
  statusId: Type.Integer(),
  status: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  website: Nullable(Type.String()),
  createdOn: Type.String({ format: 'date-time' }),
  modifiedOn: Type.String({ format: 'date-time' }),
  lastTransactionDate: Nullable(Type.String({ format: 'date-time' })),
});

export const MerchantListResponse = Paged(MerchantListItem, {
  items: [
    {
      merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
      companyName: 'Demo Coffee Roasters',
      legalName: 'Demo Coffee Roasters LLC',
      mccCode: '5812',
      mccCodeId: 5812,
      mccCodeDescription: 'Eating Places, Restaurants',
      statusId: 1,
      status: 'Active',
      email: 'owner@demo-coffee.example',
      phone: '+12125550100',
      website: 'https://demo-coffee.example',
      createdOn: '2026-11-21T10:00:00.000Z',
      modifiedOn: '2026-11-21T10:00:00.000Z',
      lastTransactionDate: null,
    },
  ],
  total: 1,
});

// ---------------------------------------------------------------------------------------------------------------
// Operator (admin) shapes
// ---------------------------------------------------------------------------------------------------------------

const SettingsInput = Type.Object(
  {
    isTipsEnabled: Type.Optional(Type.Boolean()),
    defaultTipsOptions: Type.Optional(Nullable(Type.Array(RateSchema(), { maxItems: 10 }))),
    zeroCostProcessingOptionId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 4, description: '1 None, 2 CashDiscount, 3 DualPricing, 4 Surcharge.' }),
    ),
    defaultSurchargeRate: Type.Optional(Nullable(RateSchema())),
    defaultCashDiscountRate: Type.Optional(Nullable(RateSchema())),
    defaultDualPricingRate: Type.Optional(Nullable(RateSchema())),
    maxTransactionAmount: Type.Optional(Nullable(AmountSchema({ exclusiveMinimum: 0 }))),
    avs: Type.Optional(
      Type.Object(
        {
          isEnabled: Type.Optional(Type.Boolean()),
          profileId: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 3, description: '1 Lenient, 2 Standard, 3 Strict.' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    isCustomerCardSavingByTerminalEnabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const MerchantFields = {
  partnerId: Type.Optional(
    Nullable(Uuid('The partner that manages this merchant; omit or null for a standalone merchant.')),
  ),
  legalName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  mccCode: Type.Optional(
    Nullable(Type.String({ pattern: '^[0-9]{4}$', description: 'Four-digit merchant category code.' })),
  ),
  mccCodeDescription: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  status: Type.Optional(Type.Union([Type.Literal('Active'), Type.Literal('Suspended'), Type.Literal('Closed')])),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  phone: Type.Optional(PhoneNumber),
  ...PhoneFields,
  website: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500 }))),
  address: Type.Optional(Nullable(AddressInput)),
  settings: Type.Optional(SettingsInput),
  timeZone: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        "The merchant's IANA time zone (e.g. America/Chicago); default America/New_York. Subscriptions fall due on its calendar.",
    }),
  ),
  portfolio: Type.Optional(PortfolioInput),
  subscriptionRetryDays: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1, maximum: 60 }), {
      maxItems: 10,
      description:
        "Days after a subscription installment's first failed attempt on which it is retried, increasing; default [1, 3, 5]. Empty: no retries.",
    }),
  ),
};

const CREATE_EXAMPLE = {
  companyName: 'Demo Coffee Roasters',
  partnerId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c40',
  legalName: 'Demo Coffee Roasters LLC',
  mccCode: '5812',
  mccCodeDescription: 'Eating Places, Restaurants',
  email: 'owner@demo-coffee.example',
  phone: '+12125550100',
  website: 'https://demo-coffee.example',
  address: { line1: '123 Test St', city: 'New York', stateCode: 'NY', postalCode: '10001', countryCode: 'US' },
  settings: { isTipsEnabled: true, defaultTipsOptions: [15, 18, 20], maxTransactionAmount: 10000 },
};

export const CreateMerchantBody = Type.Object(
  { companyName: Type.String({ minLength: 1, maxLength: 200 }), ...MerchantFields },
  { additionalProperties: false, examples: [CREATE_EXAMPLE] },
);
export type CreateMerchantBody = Static<typeof CreateMerchantBody>;

export const UpdateMerchantBody = Type.Object(
  { companyName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...MerchantFields },
  {
    additionalProperties: false,
    examples: [
      { status: 'Suspended', settings: { isTipsEnabled: false } },
      { portfolio: { dbaName: 'Demo Coffee', primaryAgentId: 'AG-104', primaryAgentName: 'Dana Agent' } },
    ],
  },
);
export type UpdateMerchantBody = Static<typeof UpdateMerchantBody>;

export const MerchantSettingsView = Type.Object({
  isTipsEnabled: Type.Boolean(),
  defaultTipsOptions: Nullable(Type.Array(Type.Number())),
  zeroCostProcessingOptionId: Type.Integer(),
  zeroCostProcessingOption: Type.String(),
  defaultSurchargeRate: Nullable(Type.Number()),
  defaultCashDiscountRate: Nullable(Type.Number()),
  defaultDualPricingRate: Nullable(Type.Number()),
  maxTransactionAmount: Nullable(Type.Number()),
  avs: AvsView,
  isCustomerCardSavingByTerminalEnabled: Type.Boolean(),
});

export const AdminMerchantView = Type.Object(
  {
    id: Uuid(),
    companyName: Type.String(),
    legalName: Nullable(Type.String()),
    partnerId: Nullable(Uuid()),
    status: Type.String(),
    statusId: Type.Integer(),
    mccCode: Nullable(Type.String()),
    mccCodeDescription: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    website: Nullable(Type.String()),
    address: Nullable(AddressView),
    settings: MerchantSettingsView,
    timeZone: Type.String(),
    subscriptionRetryDays: Type.Array(Type.Integer()),
    paymentProcessors: Type.Array(PaymentProcessorView),
    portfolio: Nullable(PortfolioView),
    createdOn: Type.String({ format: 'date-time' }),
    modifiedOn: Type.String({ format: 'date-time' }),
  },
  {
    examples: [
      {
        id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
        companyName: 'Demo Coffee Roasters',
        legalName: 'Demo Coffee Roasters LLC',
        partnerId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c40',
        status: 'Active',
        statusId: 1,
        mccCode: '5812',
        mccCodeDescription: 'Eating Places, Restaurants',
        email: 'owner@demo-coffee.example',
        phone: '+12125550100',
        website: 'https://demo-coffee.example',
        address: {
          line1: '123 Test St',
          line2: null,
          city: 'New York',
          postalCode: '10001',
          stateId: 33,
          stateCode: 'NY',
          stateName: 'New York',
          countryId: 1,
          countryCode: 'US',
        },
        settings: {
          isTipsEnabled: true,
          defaultTipsOptions: [15, 18, 20],
          zeroCostProcessingOptionId: 1,
          zeroCostProcessingOption: 'None',
          defaultSurchargeRate: null,
          defaultCashDiscountRate: null,
          defaultDualPricingRate: null,
          maxTransactionAmount: 10000,
          avs: { isEnabled: true, profileId: 2, profile: 'Standard' },
          isCustomerCardSavingByTerminalEnabled: false,
        },
        timeZone: 'America/New_York',
        subscriptionRetryDays: [1, 3, 5],
        paymentProcessors: EXAMPLE_PROCESSORS,
        portfolio: PORTFOLIO_EXAMPLE,
        createdOn: '2026-11-21T10:00:00.000Z',
        modifiedOn: '2026-11-21T10:00:00.000Z',
      },
    ],
  },
);
