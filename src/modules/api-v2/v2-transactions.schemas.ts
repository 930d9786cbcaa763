// The version 2 transaction shapes, as the vendor's official SDK and its OpenAPI document (isv-api-v2.json) name
// them. Amounts are decimals on the wire like every other route; they are integer cents inside.
import Type, { type Static, type TSchema } from 'typebox';
import { PageInfo } from '../../platform/http/paging.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { EnhancedDataInput } from '../payments/enhanced-data.schemas.js';
import { AddressInput } from '../reference/address.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(schema);
/** A string the answer takes from a closed set (documented; answers are not validated against it). */
const Enum = (values: readonly string[], description?: string) =>
  Type.String({ description: `${description ? `${description} ` : ''}One of: ${values.join(', ')}.` });
const Pricing = Type.Union([Type.Literal('Card'), Type.Literal('Cash')], {
  description: 'Card (default). Cash is not processed here: a 400.',
});
const Money = (description: string) => Type.Number({ description });
const NullableText = Nullable(Type.String());

export const RESULT_STATUSES = ['Pending', 'Approved', 'Declined', 'Failed'] as const;

const CardDetails = Type.Object(
  {
    cardNumber: Opt(Nullable(Type.String({ maxLength: 19 }))),
    securityCode: Opt(Nullable(Type.String({ maxLength: 4 }))),
    expirationMonth: Opt(Nullable(Type.Integer({ minimum: 1, maximum: 12 }))),
    expirationYear: Opt(Nullable(Type.Integer({ minimum: 2000, maximum: 2099 }))),
  },
  { additionalProperties: false },
);

const CardData = Type.Object(
  {
    captureMethod: Opt(
      Type.Union([Type.Literal('Auto'), Type.Literal('Manual')], {
        description: 'Auto (default): a sale, authorized and captured. Manual: an authorization.',
      }),
    ),
    paymentMethodId: Opt(Nullable(Type.String({ format: 'uuid', description: 'A vaulted or orphan card.' }))),
    paymentMethodDetails: Opt(Nullable(CardDetails)),
  },
  { additionalProperties: false },
);

const Lit = <T extends string>(value: T) => Type.Literal(value);

export const AchData = Type.Object(
  {
    paymentMethodId: Opt(Nullable(Type.String({ format: 'uuid', description: 'A vaulted or orphan bank account.' }))),
    paymentMethodDetails: Opt(
      Nullable(
        Type.Object(
          {
            routingNumber: Opt(Nullable(Type.String({ maxLength: 9 }))),
            accountNumber: Opt(Nullable(Type.String({ maxLength: 17 }))),
            taxId: Opt(Nullable(Type.String({ maxLength: 20 }))),
            accountHolderType: Opt(Nullable(Type.Union([Lit('Business'), Lit('Personal')]))),
            accountType: Opt(Nullable(Type.Union([Lit('Checking'), Lit('Savings')]))),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    secCode: Opt(Nullable(Type.Union([Lit('Web'), Lit('PPD'), Lit('CCD'), Lit('Telephone')]))),
    isFasterProcessing: Opt(Nullable(Type.Boolean())),
    isSameDayProcessing: Opt(Nullable(Type.Boolean({ description: 'The published name of isFasterProcessing.' }))),
    requesterIpAddress: Type.String({ minLength: 1, maxLength: 45 }),
  },
  { additionalProperties: false },
);
export type AchData = Static<typeof AchData>;

const ExtraAmounts = Type.Object(
  {
    tipAmount: Opt(Nullable(AmountSchema())),
    tipRate: Opt(Nullable(RateSchema({ description: 'A tip as a percentage of baseAmount (published revision).' }))),
    discountAmount: Opt(
      Nullable(
        Type.Number({
          minimum: 0,
          description:
            'The older revision (x-api-version 2.12): a percentage off (0–100). The published one: a fixed amount, ' +
            'which is refused (send discountRate).',
        }),
      ),
    ),
    discountRate: Opt(Nullable(RateSchema({ description: 'A percentage off baseAmount (published revision).' }))),
    surchargeRate: Opt(Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'Credit card surcharge %.' }))),
  },
  { additionalProperties: false },
);

const ContactInfo = Type.Object(
  {
    firstName: Opt(Nullable(Type.String({ maxLength: 100 }))),
    lastName: Opt(Nullable(Type.String({ maxLength: 100 }))),
    companyName: Opt(Nullable(Type.String({ maxLength: 200 }))),
    email: Opt(Nullable(Type.String({ maxLength: 254 }))),
    mobileNumber: Opt(Nullable(Type.String({ maxLength: 20 }))),
    mobilePhoneNumber: Opt(Nullable(Type.String({ maxLength: 20, description: 'The published name.' }))),
    hasSmsConsent: Opt(Nullable(Type.Boolean())),
  },
  { additionalProperties: false },
);

const CREATE_EXAMPLE = {
  baseAmount: 100,
  currencyCode: 'USD',
  referenceId: 'REF-SALE-001',
  customerInitiatedTransaction: true,
  pricingType: 'Card',
  extraAmounts: { tipAmount: 15 },
  billingAddress: {
    city: 'New York',
    countryCode: 'US',
    line1: '123 Main Street',
    postalCode: '10001',
    stateCode: 'NY',
  },
  contactInfo: { firstName: 'Jane', lastName: 'Smith', email: 'jane.smith@example.com' },
  transactionDetails: {
    cardData: {
      captureMethod: 'Auto',
      paymentMethodDetails: {
        cardNumber: '4111111111111111',
        securityCode: '123',
        expirationMonth: 12,
        expirationYear: 2030,
      },
    },
  },
};

/** The published top-level `customerId` of a payment or credit. */
const PayingCustomer = Opt(
  Nullable(
    Type.String({
      format: 'uuid',
      description:
        'The customer the payment is for (published revision): with raw card data it is recorded on the ' +
        'transaction (the card is not saved); with a saved method it must be the method’s customer.',
    }),
  ),
);

export const CreateTransactionBody = Type.Object(
  {
    paymentProcessorId: Opt(Nullable(Type.String({ format: 'uuid' }))),
    baseAmount: AmountSchema({ exclusiveMinimum: 0 }),
    currencyCode: Opt(Nullable(Type.String({ maxLength: 3, description: 'ISO 4217; USD only.' }))),
    referenceId: Opt(Nullable(Type.String({ maxLength: 100 }))),
    customerInitiatedTransaction: Opt(Type.Boolean()),
    isCustomerInitiatedTransaction: Opt(Type.Boolean({ description: 'The published name.' })),
    pricingType: Opt(Nullable(Pricing)),
    extraAmounts: Opt(Nullable(ExtraAmounts)),
    transactionEnhancedData: Opt(Nullable(EnhancedDataInput)),
    billingAddress: Opt(Nullable(AddressInput)),
    shippingAddress: Opt(Nullable(AddressInput)),
    contactInfo: Opt(Nullable(ContactInfo)),
    customerId: PayingCustomer,
    transactionDetails: Type.Object(
      {
        cardData: Opt(Nullable(CardData)),
        achData: Opt(Nullable(AchData)),
      },
      { additionalProperties: false },
    ),
    deviceId: Opt(Nullable(Type.String({ format: 'uuid' }))),
    platform: Opt(Nullable(Type.String({ maxLength: 20 }))),
    appVersion: Opt(Nullable(Type.String({ maxLength: 50 }))),
    sdkVersion: Opt(Nullable(Type.String({ maxLength: 50 }))),
  },
  { additionalProperties: false, examples: [CREATE_EXAMPLE] },
);
export type CreateTransactionBody = Static<typeof CreateTransactionBody>;

const AmountDetails = Type.Object({
  baseAmount: Money('Base amount before adjustments.'),
  tipAmount: Money('Tip.'),
  surchargeAmount: Money('Surcharge.'),
  discountAmount: Money('Percentage off, or cash discount.'),
});

export const ProcessorResponse = Type.Object({
  processorName: NullableText,
  responseCode: NullableText,
  responseMessage: NullableText,
  responseDefinition: NullableText,
});

const AvsResponse = Nullable(
  Type.Object({ action: Enum(['Allow', 'Deny']), responseCode: NullableText, description: NullableText }),
);

const PROCESSOR_EXAMPLE = {
  processorName: 'SandboxCard',
  responseCode: '00',
  responseMessage: 'Approved',
  responseDefinition: 'Approved and completed',
};

export const TransactionResult = Type.Object(
  {
    transactionId: Type.String({ format: 'uuid' }),
    transactionStatus: Enum(RESULT_STATUSES),
    processedAmount: Money('What the operation moved.'),
    currencyCode: NullableText,
    amountDetails: Type.Object({
      ...AmountDetails.properties,
      tipRate: Type.Optional(Type.Number({ description: 'Percent (the published revision).' })),
      discountRate: Type.Optional(Type.Number({ description: 'Percent (the published revision).' })),
    }),
    processorResponse: ProcessorResponse,
    responseDetails: Nullable(Type.Object({ code: NullableText, message: NullableText, source: NullableText })),
    avsResponse: AvsResponse,
    addressVerificationServiceResponse: Type.Optional(AvsResponse),
    receipt: NullableText,
  },
  {
    examples: [
      {
        transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5d10',
        transactionStatus: 'Approved',
        processedAmount: 115,
        currencyCode: 'USD',
        amountDetails: { baseAmount: 100, tipAmount: 15, surchargeAmount: 0, discountAmount: 0 },
        processorResponse: PROCESSOR_EXAMPLE,
        responseDetails: null,
        avsResponse: { action: 'Allow', responseCode: 'Y', description: 'Address and ZIP match' },
        receipt: null,
      },
    ],
  },
);

export const ReversalResult = Type.Object(
  {
    transactionId: Type.String({ format: 'uuid' }),
    transactionStatus: Enum(RESULT_STATUSES),
    processedAmount: Money('What the reversal moved.'),
    currencyCode: NullableText,
    processorResponse: ProcessorResponse,
  },
  {
    examples: [
      {
        transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5d11',
        transactionStatus: 'Approved',
        processedAmount: 25,
        currencyCode: 'USD',
        processorResponse: PROCESSOR_EXAMPLE,
      },
    ],
  },
);

const EVENT_TYPES = ['Authorization', 'Sale', 'Capture', 'Void', 'Refund', 'CardAuthentication', 'Credit'];
const Published = <T extends TSchema>(schema: T) => Type.Optional(schema);
const Decline = Nullable(Type.Object({ code: NullableText, message: NullableText }));

/**
 * A transaction in both revisions' names: the older ones always, the published ones (optional here) unless the
 * request asked for the older revision alone (docs/api-v2.md, "The published revision").
 */
export const TransactionDetail = Type.Object({
  transactionId: Type.String({ format: 'uuid' }),
  transactionDateTime: Type.String({ format: 'date-time' }),
  status: Type.String({ description: 'AggregatedTransactionStatus: Authorized, Captured, Voided, Refunded, …' }),
  transactionStatus: Published(Type.String({ description: 'The published name of `status`.' })),
  transactionType: Published(Type.String({ description: 'TransactionType: Sale, Authorization, AchDebit, …' })),
  cardTokenType: Published(Nullable(Enum(['Local', 'Network']))),
  paymentMethodType: Enum(
    ['Card', 'ACH', 'ElectronicCheck', 'Cash'],
    'Card or ACH; ElectronicCheck for ACH in the older revision (x-api-version 2.12).',
  ),
  referenceId: NullableText,
  processedAmount: Money('Captured (or authorized while only authorized), less refunds.'),
  currencyCode: NullableText,
  pricingType: Published(Enum(['Card', 'Cash'])),
  merchantId: Published(Type.String({ format: 'uuid' })),
  paymentProcessorId: Published(Type.String({ format: 'uuid' })),
  customerId: Published(Nullable(Type.String({ format: 'uuid' }))),
  batchId: Published(Nullable(Type.String({ format: 'uuid' }))),
  originalTransactionId: Published(Nullable(Type.String({ format: 'uuid' }))),
  amountBreakdown: Type.Object({
    ...AmountDetails.properties,
    tipRate: Published(Type.Number({ description: 'Percent.' })),
    discountRate: Published(Type.Number({ description: 'Percent.' })),
    surchargeRate: Published(Type.Number({ description: 'Percent.' })),
  }),
  avsResponse: AvsResponse,
  addressVerificationServiceResponse: Published(AvsResponse),
  cardDetails: Nullable(
    Type.Object({
      maskedCardNumber: NullableText,
      cardType: Type.String({ description: 'Credit or Debit; the brand (Visa, …) in the older revision.' }),
      creditDebitType: Type.String(),
      paymentMethodId: Published(Nullable(Type.String({ format: 'uuid' }))),
      cardBrand: Published(Type.String({ description: 'CardType: Visa, MasterCard, …' })),
      cardProcessedAsType: Published(Type.String()),
      cardDataSource: Published(Type.String()),
      cardholderVerificationMethod: Published(Type.String()),
      emvTags: Published(Nullable(Type.Object({}, { additionalProperties: true }))),
    }),
  ),
  achDetails: Nullable(
    Type.Object({
      maskedAccountNumber: NullableText,
      maskedRoutingNumber: NullableText,
      accountHolderType: Nullable(Enum(['Business', 'Personal'])),
      accountType: Nullable(Enum(['Checking', 'Savings'])),
      secCode: Nullable(Enum(['Web', 'PPD', 'CCD', 'Telephone'])),
      paymentMethodId: Published(Nullable(Type.String({ format: 'uuid' }))),
      accountRoutingNumber: Published(NullableText),
      isSameDayProcessing: Published(Type.Boolean()),
      requesterIpAddress: Published(NullableText),
    }),
  ),
  processorDetails: Published(
    Type.Object({ mid: NullableText, tid: NullableText, authCode: NullableText, rrn: NullableText }),
  ),
  refundDetails: Published(
    Type.Object({
      refundedAmount: Money('Refunded so far.'),
      availableRefundAmount: Money('What can still be refunded.'),
      isFullyRefunded: Nullable(Type.Boolean()),
    }),
  ),
  declineDetails: Published(Decline),
  source: Published(
    Type.Object({
      sourceType: Type.String({ description: 'TransactionSource: ApiKey, Portal, Terminal, …' }),
      sourceId: Nullable(Type.String({ format: 'uuid' })),
      sourceName: NullableText,
    }),
  ),
  transactionEvents: Type.Array(
    Type.Object({
      type: Enum(EVENT_TYPES),
      status: Enum(RESULT_STATUSES),
      amount: Money('What the operation moved (or asked for, while Pending).'),
      dateTime: Type.String({ format: 'date-time' }),
      processorResponse: ProcessorResponse,
      transactionEventType: Published(Enum(EVENT_TYPES)),
      transactionEventStatus: Published(Enum(RESULT_STATUSES)),
      transactionEventDateTime: Published(Type.String({ format: 'date-time' })),
      processedAmount: Published(Money('The published name of `amount`.')),
      originalTransactionId: Published(Nullable(Type.String({ format: 'uuid' }))),
      declineDetails: Published(Decline),
    }),
    {
      description:
        'The operations, oldest first: the payment itself, a capture, a void, each refund. Only the first and the ' +
        'refunds carry a processor response code; a capture or void made later shows its processor name only.',
    },
  ),
});

const DETAIL_EXAMPLE = {
  transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5d10',
  transactionDateTime: '2026-11-24T10:00:00.000Z',
  status: 'Captured',
  paymentMethodType: 'Card',
  referenceId: 'REF-SALE-001',
  processedAmount: 115,
  currencyCode: 'USD',
  amountBreakdown: { baseAmount: 100, tipAmount: 15, surchargeAmount: 0, discountAmount: 0 },
  avsResponse: null,
  cardDetails: { maskedCardNumber: '411111******1111', cardType: 'Visa', creditDebitType: 'Credit' },
  achDetails: null,
  transactionEvents: [
    {
      type: 'Sale',
      status: 'Approved',
      amount: 115,
      dateTime: '2026-11-24T10:00:00.000Z',
      processorResponse: PROCESSOR_EXAMPLE,
    },
  ],
};

export const TransactionDetailView = Type.Object(TransactionDetail.properties, { examples: [DETAIL_EXAMPLE] });

export const TransactionPage = Type.Object(
  {
    items: Type.Array(TransactionDetail),
    total: Type.Optional(Type.Integer({ description: 'The older revision’s envelope (a request without pageIndex).' })),
    pageInfo: Type.Optional(PageInfo),
  },
  {
    examples: [
      {
        items: [DETAIL_EXAMPLE],
        pageInfo: { pageIndex: 0, pageSize: 20, totalItems: 1, totalPages: 1, hasMore: false },
      },
    ],
  },
);

/** The published document's sort keys (`sortBy`) of the transaction list. */
export const V2_TRANSACTION_SORTS = [
  'cardTokenType',
  'customerCompanyName',
  'customerName',
  'maskedCardNumber',
  'merchantCompanyName',
  'paymentMethodType',
  'processedAmount',
  'transactionDateTime',
  'transactionId',
  'transactionStatus',
] as const;
export const AGGREGATED_STATUSES = [
  'Authorized',
  'Captured',
  'Voided',
  'Refunded',
  'Verified',
  'Settled',
  'PartiallyAuthorized',
  'Informational',
  'Scheduled',
  'Cancelled',
  'ChargedBack',
  'InProgress',
  'Cleared',
  'Held',
  'HeldByProcessor',
  'Pending',
  'Declined',
  'Failed',
] as const;
export const TRANSACTION_SOURCES = [
  'Portal',
  'ApiKey',
  'Terminal',
  'Invoice',
  'QuickPayment',
  'WebComponent',
  'Subscription',
  'MobileApp',
  'TapToPay',
] as const;
const Literals = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

/**
 * Both revisions' paging: the older `page` (zero-based, default 15 a page) and the published `pageIndex` (default
 * 20), `sortBy`/`sortOrder`, and the published document's filters.
 */
export const ListQuery = Type.Object({
  page: Opt(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Zero-based (older revision). Default 0.' })),
  pageIndex: Opt(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Zero-based. Default 0.' })),
  pageSize: Opt(
    Type.Integer({ minimum: 1, maximum: 100, description: 'Default 20 (15 with `page`); above 100 is a 400.' }),
  ),
  sortBy: Opt(Literals(V2_TRANSACTION_SORTS, 'None: newest first.')),
  sortOrder: Opt(Literals(['asc', 'desc'] as const, 'Default asc; ignored without sortBy.')),
  fromDate: Opt(Type.String({ format: 'date-time' })),
  toDate: Opt(Type.String({ format: 'date-time' })),
  sourceType: Opt(Literals(TRANSACTION_SOURCES, 'Where the transaction was made.')),
  sourceId: Opt(Type.String({ format: 'uuid' })),
  batchId: Opt(Type.String({ maxLength: 36, description: 'A batch id, or `null` for transactions not yet in one.' })),
  transactionStatus: Opt(Literals(AGGREGATED_STATUSES, 'The aggregated status.')),
  paymentMethodType: Opt(Literals(['ACH', 'Card', 'Cash'] as const, 'Cash matches nothing (Tessera takes none).')),
  customerId: Opt(Type.String({ format: 'uuid' })),
  merchantId: Opt(Type.String({ maxLength: 100, description: 'Accepted and not bound (the caller is one merchant).' })),
  minAmount: Opt(AmountSchema({ description: 'processedAmount at least.' })),
  maxAmount: Opt(AmountSchema({ description: 'processedAmount at most.' })),
  referenceId: Opt(Type.String({ maxLength: 36 })),
});

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const TransactionIdParams = Type.Object({ transactionId: Type.String({ format: 'uuid' }) });

/** `{amount?}`, or no body at all (the SDK's void sends `{}`; some clients send nothing or `null`). */
const OptionalAmountBody = (example: number, published: 'captureAmount' | 'reversalAmount') =>
  Type.Union(
    [
      Type.Object(
        {
          amount: Opt(Nullable(AmountSchema({ exclusiveMinimum: 0 }))),
          [published]: Opt(
            Nullable(AmountSchema({ exclusiveMinimum: 0, description: 'The published revision’s name of `amount`.' })),
          ),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { examples: [{ amount: example }] },
  );
export const CaptureBody = OptionalAmountBody(50, 'captureAmount');
export const ReversalBody = OptionalAmountBody(25, 'reversalAmount');

/** The published revision's calculate-amount body: nothing required, rates are percentages as given. */
export const PublishedCalculateBody = Type.Union(
  [
    Type.Object(
      {
        baseAmount: Opt(Nullable(AmountSchema())),
        currencyCode: Opt(Nullable(Type.String({ maxLength: 3 }))),
        pricingType: Opt(Nullable(Pricing)),
        tipAmount: Opt(Nullable(AmountSchema())),
        tipRate: Opt(Nullable(RateSchema({ description: '%, e.g. 18.5.' }))),
        discountAmount: Opt(Nullable(AmountSchema({ description: 'Not taken: send discountRate.' }))),
        discountRate: Opt(Nullable(RateSchema({ description: '%, e.g. 10.' }))),
        surchargeRate: Opt(Nullable(RateSchema({ description: '%, e.g. 2.5.' }))),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { examples: [{ baseAmount: 100, tipRate: 18.5, discountRate: 10 }] },
);

const PublishedTender = Type.Object({
  baseAmount: Type.Number(),
  discountAmount: Type.Number(),
  discountRate: Type.Number(),
  surchargeAmount: Type.Number(),
  surchargeRate: Type.Number(),
  tipAmount: Type.Number(),
  tipRate: Type.Number(),
  totalAmount: Type.Number(),
});
const PUBLISHED_TENDER_EXAMPLE = {
  baseAmount: 100,
  discountAmount: 10,
  discountRate: 10,
  surchargeAmount: 0,
  surchargeRate: 0,
  tipAmount: 16.65,
  tipRate: 18.5,
  totalAmount: 106.65,
};
export const PublishedCalculateResponse = Type.Object(
  {
    currencyCode: Type.String(),
    zeroCostProcessingOption: Type.String(),
    pricingType: Type.String(),
    cash: PublishedTender,
    creditCard: PublishedTender,
    debitCard: PublishedTender,
    ach: PublishedTender,
  },
  {
    examples: [
      {
        currencyCode: 'USD',
        zeroCostProcessingOption: 'None',
        pricingType: 'Card',
        cash: PUBLISHED_TENDER_EXAMPLE,
        creditCard: PUBLISHED_TENDER_EXAMPLE,
        debitCard: PUBLISHED_TENDER_EXAMPLE,
        ach: PUBLISHED_TENDER_EXAMPLE,
      },
    ],
  },
);

export const CalculateQuery = Type.Object({
  baseAmount: AmountSchema(),
  currencyCode: Opt(Type.String({ maxLength: 3 })),
  pricingType: Opt(Pricing),
  discountRate: Opt(Type.Number({ minimum: 0, maximum: 1, description: 'Percentage off as a fraction: 0.10 is 10%.' })),
  surchargeRate: Opt(Type.Number({ minimum: 0, maximum: 100, description: 'Credit card surcharge %, e.g. 2.5.' })),
  tipAmount: Opt(AmountSchema()),
  tipRate: Opt(Type.Number({ minimum: 0, maximum: 1, description: 'Tip as a fraction: 0.15 is 15%.' })),
});

const Calculated = Type.Object({
  baseAmount: Type.Number(),
  discountAmount: Type.Number(),
  surchargeAmount: Type.Number(),
  tipAmount: Type.Number(),
  taxAmount: Type.Number(),
  totalAmount: Type.Number(),
});
const CALCULATED_EXAMPLE = {
  baseAmount: 100,
  discountAmount: 0,
  surchargeAmount: 0,
  tipAmount: 15,
  taxAmount: 0,
  totalAmount: 115,
};

export const CalculateResponse = Type.Object(
  {
    currencyCode: NullableText,
    zeroCostProcessingOption: Type.String(),
    pricingType: Type.String(),
    cash: Calculated,
    creditCard: Calculated,
    debitCard: Calculated,
    ach: Calculated,
  },
  {
    examples: [
      {
        currencyCode: 'USD',
        zeroCostProcessingOption: 'None',
        pricingType: 'Card',
        cash: CALCULATED_EXAMPLE,
        creditCard: CALCULATED_EXAMPLE,
        debitCard: CALCULATED_EXAMPLE,
        ach: CALCULATED_EXAMPLE,
      },
    ],
  },
);

/** The published revision's tip adjustment (the transaction in the path): one of a tip amount or a rate (%). */
export const PublishedTipBody = Type.Object(
  {
    tipAmount: Opt(Nullable(AmountSchema({ description: 'The whole tip.' }))),
    tipRate: Opt(Nullable(RateSchema({ description: 'The tip as a % of the base (18.5 is 18.5%).' }))),
  },
  { additionalProperties: false, examples: [{ tipAmount: 5 }] },
);

export const TipAdjustmentBody = Type.Object(
  { transactionId: Type.String({ format: 'uuid' }), tipAmount: AmountSchema() },
  { additionalProperties: false, examples: [{ transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5d10', tipAmount: 5 }] },
);

export const CreditBody = Type.Object(
  {
    paymentProcessorId: Opt(Nullable(Type.String({ format: 'uuid' }))),
    baseAmount: AmountSchema({ exclusiveMinimum: 0 }),
    currencyCode: Opt(Nullable(Type.String({ maxLength: 3 }))),
    referenceId: Opt(Nullable(Type.String({ maxLength: 100 }))),
    billingAddress: Opt(Nullable(AddressInput)),
    shippingAddress: Opt(Nullable(AddressInput)),
    contactInfo: Opt(Nullable(ContactInfo)),
    customerId: PayingCustomer,
    creditDetails: Type.Object(
      {
        cardData: Opt(Nullable(Type.Object({ paymentMethodDetails: CardDetails }, { additionalProperties: false }))),
        achData: Opt(Nullable(AchData)),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        baseAmount: 100,
        currencyCode: 'USD',
        referenceId: 'ext-ref-123',
        creditDetails: {
          cardData: {
            paymentMethodDetails: {
              cardNumber: '4111111111111111',
              securityCode: '123',
              expirationMonth: 12,
              expirationYear: 2030,
            },
          },
        },
      },
    ],
  },
);
export type CreditBody = Static<typeof CreditBody>;

export const SettleBody = Type.Object(
  { paymentProcessorId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false, examples: [{ paymentProcessorId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60' }] },
);

export const SettleResult = Type.Object(
  {
    status: Type.String({ description: 'Approve, Decline or Error.' }),
    message: NullableText,
    processorResponseCode: NullableText,
  },
  { examples: [{ status: 'Approve', message: 'Batch settled successfully', processorResponseCode: '00' }] },
);
