import Type, { type Static, type TSchema } from 'typebox';
import { ListParam, listQuerySchema, Paged } from '../../platform/http/paging.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { SUBSCRIPTION_LIST } from './subscriptions.repo.js';

/** The list's sort keys and paging, as the API's list query takes them (other modules' lists use it too). */
export { SUBSCRIPTION_LIST };

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const SubscriptionIdParams = Type.Object({ subscriptionId: Uuid() });

const CalendarSchedule = Type.Object(
  {
    daysOfMonth: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 31 }), {
        minItems: 1,
        maxItems: 31,
        description: 'Days of the month to pay on, e.g. [1, 15]; 31 (or 29, 30) means the last day of shorter months.',
      }),
    ),
    weeksOfMonth: Type.Optional(
      Type.Array(Type.Integer({ minimum: -1, maximum: 5 }), {
        minItems: 1,
        maxItems: 6,
        description: 'Weeks of the month (1–5, -1 the last) to pay in, on `dayOfWeek`.',
      }),
    ),
    dayOfWeek: Type.Optional(Type.Integer({ minimum: 0, maximum: 6, description: '0 Sunday … 6 Saturday.' })),
    monthsOfYear: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 12 }), {
        minItems: 1,
        maxItems: 12,
        description: 'Only these months (1–12), e.g. [1, 4, 7, 10] for quarterly.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Extension: a calendar schedule instead of an interval (send paymentFrequencyUnit 3, paymentFrequency 1). ' +
      'Installments keep the start time of day in the merchant time zone.',
  },
);

export const CreateSubscriptionBody = Type.Object(
  {
    customerId: Uuid('The customer paying.'),
    paymentMethodId: Uuid(
      "One of the customer's vaulted payment methods: a card for transactionType 2, a bank account for 11.",
    ),
    amount: AmountSchema({ exclusiveMinimum: 0, description: 'Each payment, before the merchant program adds to it.' }),
    currencyId: Type.Optional(Type.Integer({ description: '1 USD (the only currency).' })),
    paymentFrequencyUnit: Type.Integer({ minimum: 1, maximum: 3, description: '1 Day, 2 Week, 3 Month.' }),
    paymentFrequency: Type.Integer({
      minimum: 1,
      maximum: 1000,
      description: 'Units between payments; with unit Day only 7, 15 or 30.',
    }),
    numberOfPayments: Opt(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Absent or null: no end.' })),
    transactionType: Type.Integer({
      description: '2 Sale (cards) or 11 AchDebit (bank accounts); 1 Authorization is refused (card sales only).',
    }),
    requesterIpAddress: Type.String({ minLength: 2, maxLength: 45, description: 'IPv4 or IPv6 address.' }),
    paymentProcessorId: Uuid('An active processor of the merchant, of the payment method kind.'),
    paymentStartDateTime: Opt(DateTime('First payment, ISO 8601; null starts now. Not in the past.')),
    secCode: Opt(Type.Integer({ description: 'ACH only: 1 Web, 2 PPD (default), 3 CCD, 4 Telephone.' })),
    isFasterProcessing: Opt(Type.Boolean({ description: 'ACH only: same-day windows.' })),
    percentageOffRate: Opt(RateSchema()),
    surchargeRate: Opt(RateSchema({ description: 'Cards, Surcharge program only.' })),
    useCardPrice: Opt(Type.Boolean({ description: 'Cards, Dual Pricing program: required.' })),
    schedule: Opt(CalendarSchedule),
    installmentAmounts: Opt(
      Type.Array(
        Type.Object(
          {
            paymentOrder: Type.Integer({ minimum: 1, maximum: 10_000 }),
            amount: AmountSchema({ exclusiveMinimum: 0 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 1000, description: 'Extension: amounts of given installments (1 is the first) that differ.' },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        customerId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60',
        paymentMethodId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61',
        amount: 29.99,
        currencyId: 1,
        paymentFrequencyUnit: 3,
        paymentFrequency: 1,
        numberOfPayments: 12,
        transactionType: 2,
        requesterIpAddress: '203.0.113.7',
        paymentProcessorId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c31',
        paymentStartDateTime: null,
      },
    ],
  },
);
export type CreateSubscriptionBody = Static<typeof CreateSubscriptionBody>;

export const PaymentMethodBody = Type.Object(
  { paymentMethodId: Uuid("One of the customer's vaulted payment methods, of the subscription's kind.") },
  { additionalProperties: false, examples: [{ paymentMethodId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c62' }] },
);

const IdName = { typeId: Type.Integer(), type: Type.String() };

const PaymentAmount = Type.Object({
  baseAmount: Type.Number(),
  percentageOffAmount: Type.Number(),
  percentageOffRate: Nullable(Type.Number()),
  cashDiscountAmount: Type.Number(),
  cashDiscountRate: Nullable(Type.Number()),
  surchargeAmount: Type.Number(),
  surchargeRate: Nullable(Type.Number()),
  totalAmount: Type.Number(),
});

const RecordFields = {
  id: Uuid(),
  merchantId: Uuid(),
  paymentProcessorId: Uuid(),
  statusId: Type.Integer({ description: '1 Active, 2 Completed, 3 Suspended, 4 Delinquent, 5 Terminated, 6 Deleted.' }),
  status: Type.String(),
  transactionTypeId: Type.Integer(),
  transactionType: Type.String(),
  customerId: Uuid(),
  paymentMethodId: Uuid(),
  paymentAmount: PaymentAmount,
  alreadyPaidAmount: Type.Number(),
  allPaymentsAmount: Nullable(Type.Number({ description: 'null: no end.' })),
  currencyId: Type.Integer(),
  paymentFrequencyUnitId: Type.Integer(),
  paymentFrequencyUnit: Type.String(),
  paymentFrequency: Type.Integer(),
  schedule: Nullable(CalendarSchedule),
  installmentAmounts: Nullable(Type.Array(Type.Object({ paymentOrder: Type.Integer(), amount: Type.Number() }))),
  createdOn: DateTime(),
  subscriptionStartDate: DateTime(),
  subscriptionEndDate: Nullable(DateTime()),
  lastPaymentDate: Nullable(DateTime()),
  nextPaymentDate: Nullable(DateTime()),
  successfulPaymentsCount: Type.Integer(),
  numberOfPayments: Nullable(Type.Integer()),
  timeZone: Type.String({ description: 'The merchant time zone the schedule follows.' }),
  customer: Type.Object({
    customerName: Nullable(Type.String()),
    companyName: Nullable(Type.String()),
    panMask: Nullable(Type.String()),
    cardTokenType: Nullable(Type.String()),
    emailAddress: Nullable(Type.String()),
    phoneNumber: Nullable(Type.String()),
  }),
  source: Type.Object({ ...IdName, id: Nullable(Type.String()), name: Nullable(Type.String()) }),
};

const EXAMPLE = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
  merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
  paymentProcessorId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c31',
  statusId: 1,
  status: 'Active',
  transactionTypeId: 2,
  transactionType: 'Sale',
  customerId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60',
  paymentMethodId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c61',
  paymentAmount: {
    baseAmount: 29.99,
    percentageOffAmount: 0,
    percentageOffRate: null,
    cashDiscountAmount: 0,
    cashDiscountRate: null,
    surchargeAmount: 0,
    surchargeRate: null,
    totalAmount: 29.99,
  },
  alreadyPaidAmount: 29.99,
  allPaymentsAmount: 359.88,
  currencyId: 1,
  paymentFrequencyUnitId: 3,
  paymentFrequencyUnit: 'Monthly',
  paymentFrequency: 1,
  schedule: null,
  installmentAmounts: null,
  createdOn: '2026-11-21T10:00:00.000Z',
  subscriptionStartDate: '2026-11-21T10:00:00.000Z',
  subscriptionEndDate: '2027-10-21T10:00:00.000Z',
  lastPaymentDate: '2026-11-21T10:00:02.000Z',
  nextPaymentDate: '2026-12-21T10:00:00.000Z',
  successfulPaymentsCount: 1,
  numberOfPayments: 12,
  timeZone: 'America/New_York',
  customer: {
    customerName: 'Ada Lovelace',
    companyName: null,
    panMask: '411111******1111',
    cardTokenType: 'Local',
    emailAddress: 'ada@example.com',
    phoneNumber: '+12125550100',
  },
  source: { typeId: 2, type: 'ApiToken', id: 'c_01936f6e3f5b', name: 'ApiKey' },
};

export const SubscriptionView = Type.Object(RecordFields, { examples: [EXAMPLE] });

export const SubscriptionListItem = Type.Object({
  ...RecordFields,
  subscriptionId: Uuid(),
  customerName: Nullable(Type.String()),
  amountPerPayment: Type.Number(),
  totalPaymentsCount: Type.Integer({ description: 'Installments charged so far, paid or not.' }),
});

export const SubscriptionListQuery = listQuerySchema(SUBSCRIPTION_LIST, {
  customerIds: ListParam('One customer id (only one value is supported).', { maxItems: 10 }),
  statusId: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 6,
      description: 'Only this status; Deleted (6) is listed only when asked for.',
    }),
  ),
});

export const SubscriptionListResponse = Paged(SubscriptionListItem, {
  items: [
    {
      ...EXAMPLE,
      subscriptionId: EXAMPLE.id,
      customerName: 'Ada Lovelace',
      amountPerPayment: 29.99,
      totalPaymentsCount: 1,
    },
  ],
  total: 1,
});

export const InstallmentView = Type.Object({
  id: Uuid(),
  status: Type.String({ description: 'Scheduled, Pending, Successful, Failed or Skipped.' }),
  statusId: Type.Integer(),
  amount: Type.Number(),
  paymentOrder: Type.Integer(),
  initialExecutionDateTime: DateTime('When it fell (or falls) due.'),
  nextAttemptDateTime: Nullable(DateTime('When it is next tried (a retry), if it is.')),
  transactionId: Nullable(Uuid()),
  attempts: Type.Array(
    Type.Object({
      attemptNumber: Type.Integer(),
      executedAt: DateTime(),
      transactionId: Nullable(Uuid()),
      result: Nullable(Type.String({ description: 'Approved, Declined, Returned, or Pending (outcome awaited).' })),
      responseCode: Nullable(Type.String()),
      responseMessage: Nullable(Type.String()),
    }),
  ),
});

export const PaymentsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

export const PaymentsResponse = Paged(InstallmentView, {
  items: [
    {
      id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c71',
      status: 'Successful',
      statusId: 3,
      amount: 29.99,
      paymentOrder: 1,
      initialExecutionDateTime: '2026-11-21T10:00:00.000Z',
      nextAttemptDateTime: null,
      transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c72',
      attempts: [
        {
          attemptNumber: 1,
          executedAt: '2026-11-21T10:00:00.000Z',
          transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c72',
          result: 'Approved',
          responseCode: '00',
          responseMessage: 'Approved',
        },
      ],
    },
  ],
  total: 12,
});
