import Type, { type TSchema } from 'typebox';
import { DateFilter, listQuerySchema, Paged } from '../../platform/http/paging.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { AddressInput } from '../reference/address.js';
import { PhoneFields } from '../reference/phone.js';
import { AchProcessingDetails } from './ach/ach-details.schema.js';
import { EnhancedDataInput, EnhancedDataView } from './enhanced-data.schemas.js';
import { EXAMPLES } from './transactions.examples.js';
import { PROCESSED_CENTS } from './transactions-list.repo.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Num = Type.Number();

export const ContactInfoInput = Type.Object(
  {
    firstName: Opt(Type.String({ maxLength: 100 })),
    lastName: Opt(Type.String({ maxLength: 100 })),
    companyName: Opt(Type.String({ maxLength: 200 })),
    email: Opt(Type.String({ format: 'email', maxLength: 254 })),
    ...PhoneFields,
    smsNotification: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);

const CurrencyId = Type.Integer({ minimum: 1, maximum: 1, description: '1 = USD (the only currency). Default 1.' });
const CardDataSource = Type.Integer({
  minimum: 1,
  maximum: 7,
  description: '1 Internet (default), 2 Swipe, 3 NFC, 4 EMV, 5 EMVContactless, 6 FallbackSwipe, 7 Manual.',
});

const paymentFields = {
  paymentProcessorId: Opt(Uuid('A card processor of the merchant; the default one when omitted.')),
  customerId: Opt(Uuid('Vaulted: the customer whose payment method (or default card) pays.')),
  paymentMethodId: Opt(Uuid("A vaulted card: the customer's (with customerId) or an orphan (without).")),
  amount: AmountSchema({ description: 'Base amount in USD (at most 2 decimals).', examples: [25.5] }),
  currencyId: Opt(CurrencyId),
  billingAddress: Opt(AddressInput),
  shippingAddress: Opt(AddressInput),
  contactInfo: Opt(ContactInfoInput),
  accountNumber: Opt(Type.String({ maxLength: 23, description: 'Raw card number (PAN); never stored.' })),
  securityCode: Opt(Type.String({ maxLength: 4, description: 'CVV; used for this authorization only, never stored.' })),
  expirationMonth: Opt(Type.Integer({ minimum: 1, maximum: 12 })),
  expirationYear: Opt(Type.Integer({ minimum: 2000, maximum: 2099, description: 'Four-digit year.' })),
  cardDataSource: Type.Optional(CardDataSource),
  referenceId: Opt(Type.String({ maxLength: 50, description: 'Your reference; part of the duplicate check.' })),
  customerInitiatedTransaction: Opt(Type.Boolean()),
  // Card-present fields of the wire format: accepted so existing clients work; card-present payments go through
  // terminals (POS API), so they do not replace card data here.
  track1: Opt(Type.String({ maxLength: 200 })),
  track2: Opt(Type.String({ maxLength: 200 })),
  emvTags: Opt(Type.String({ maxLength: 4000 })),
  emvPaymentAppVersion: Opt(Type.String({ maxLength: 50 })),
  pin: Opt(Type.String({ maxLength: 64 })),
  pinKsn: Opt(Type.String({ maxLength: 64 })),
  emvFallbackCondition: Opt(Type.Integer()),
  emvFallbackLastChipRead: Opt(Type.Integer()),
  deviceId: Opt(Type.String({ maxLength: 100 })),
  l2: Opt(Type.Object({ salesTaxRate: Opt(RateSchema()) }, { additionalProperties: false })),
  l3: Opt(Type.Omit(EnhancedDataInput, ['salesTaxRate'])),
};

const pricingFields = {
  tipAmount: Opt(AmountSchema({ description: 'Tip in USD (merchant must have tips enabled).' })),
  tipRate: Opt(RateSchema({ description: 'Tip as a percentage of the discounted amount.' })),
  percentageOffRate: Opt(RateSchema({ description: 'Discount percentage applied to the base amount.' })),
  surchargeRate: Opt(RateSchema({ description: "Surcharge program only; default the merchant's rate." })),
  useCardPrice: Opt(Type.Boolean({ description: 'Dual pricing: charge the card price (true) or the cash price.' })),
};

const example = {
  amount: 25.5,
  currencyId: 1,
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2030,
  securityCode: '123',
  cardDataSource: 1,
  billingAddress: { line1: '123 Test St', postalCode: '10001', stateId: 33, countryId: 1 },
  referenceId: 'order-1001',
};

export const SaleBody = Type.Object(
  { ...paymentFields, ...pricingFields, debit: Opt(Type.Boolean()) },
  { additionalProperties: false, examples: [example] },
);
export const AuthBody = Type.Object(
  { ...paymentFields, ...pricingFields },
  { additionalProperties: false, examples: [example] },
);
export const VerifyBody = Type.Object(
  { ...paymentFields, amount: Type.Optional(AmountSchema({ description: 'Ignored: a verification is for 0.00.' })) },
  { additionalProperties: false, examples: [{ ...example, amount: 0 }] },
);
export const RefundWithoutReferenceBody = Type.Object(
  { ...paymentFields, amount: AmountSchema({ exclusiveMinimum: 0, description: 'Amount to credit to the card.' }) },
  { additionalProperties: false, examples: [{ ...example, amount: 10 }] },
);

export const CaptureBody = Type.Object(
  {
    transactionId: Uuid(),
    amount: Type.Optional(AmountSchema({ exclusiveMinimum: 0, description: 'Default: the authorized amount.' })),
  },
  { additionalProperties: false, examples: [{ transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50', amount: 20 }] },
);
export const VoidBody = Type.Object(
  { transactionId: Uuid() },
  { additionalProperties: false, examples: [{ transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50' }] },
);
export const ReturnBody = Type.Object(
  {
    transactionId: Uuid(),
    amount: Type.Optional(AmountSchema({ exclusiveMinimum: 0, description: 'Default: everything not yet refunded.' })),
    cardDataSource: Type.Optional(CardDataSource),
    track1: Opt(Type.String({ maxLength: 200 })),
    track2: Opt(Type.String({ maxLength: 200 })),
    emvTags: Opt(Type.String({ maxLength: 4000 })),
    pin: Opt(Type.String({ maxLength: 64 })),
    pinKsn: Opt(Type.String({ maxLength: 64 })),
    emvPaymentAppVersion: Opt(Type.String({ maxLength: 50 })),
  },
  {
    additionalProperties: false,
    examples: [{ transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50', amount: 5, cardDataSource: 1 }],
  },
);
export const TipAdjustmentBody = Type.Object(
  { transactionId: Uuid(), tipAmount: AmountSchema({ description: 'The new tip (replaces the old one).' }) },
  { additionalProperties: false, examples: [{ transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50', tipAmount: 4 }] },
);
export const SettleBody = Type.Object(
  { paymentProcessorId: Opt(Uuid('Default: the default card processor.')) },
  { additionalProperties: false, examples: [{ paymentProcessorId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c02' }] },
);
export const TransactionIdParams = Type.Object({ transactionId: Uuid() });

export const AmountView = Type.Object({
  baseAmount: Num,
  percentageOffAmount: Num,
  percentageOffRate: Nullable(Num),
  cashDiscountAmount: Num,
  cashDiscountRate: Nullable(Num),
  surchargeAmount: Num,
  surchargeRate: Nullable(Num),
  tipAmount: Num,
  tipRate: Nullable(Num),
  taxAmount: Num,
  taxRate: Nullable(Num),
  totalAmount: Num,
});

const Details = Type.Object({
  code: Type.String({ description: 'Approve, Decline, Error or Pending.' }),
  message: Nullable(Type.String()),
  authCode: Nullable(Type.String()),
  maskedPan: Nullable(Type.String()),
  hostResponseCode: Nullable(Type.String()),
  hostResponseMessage: Nullable(Type.String()),
  processorResponseCode: Nullable(Type.String()),
});

export const Receipt = Type.Object({
  transactionId: Uuid(),
  transactionDateTime: Type.String({ format: 'date-time' }),
  amount: AmountView,
  currencyId: Type.Integer(),
  currency: Type.String(),
  merchantName: Type.String(),
  authCode: Nullable(Type.String()),
  maskedPan: Nullable(Type.String()),
  cardType: Nullable(Type.String()),
  cardDataSource: Nullable(Type.String()),
  transactionType: Type.String(),
  status: Type.String(),
});

export const AvsView = Nullable(
  Type.Object({
    actionId: Type.Integer(),
    action: Type.String(),
    responseCode: Type.String(),
    groupId: Type.Integer(),
    group: Type.String(),
    resultId: Type.Integer(),
    result: Type.String(),
    codeDescription: Type.String(),
  }),
);

const responseFields = {
  transactionId: Uuid(),
  transactionDateTime: Type.String({ format: 'date-time' }),
  typeId: Type.Integer(),
  type: Type.String(),
  statusId: Type.Integer(),
  status: Type.String(),
  processedAmount: Num,
  details: Details,
  transactionReceipt: Receipt,
};
export const AuthorizationResponse = Type.Object(
  { ...responseFields, avsResponse: AvsView },
  { examples: [EXAMPLES.authorization] },
);
export const TransactionResponse = Type.Object(responseFields, { examples: [EXAMPLES.operation] });
export const SettleResponse = Type.Object(
  {
    code: Type.Integer({
      description: '0: the request succeeded (a batch closed, or none was open); 1: the processor did not close it.',
    }),
    transactionId: Nullable(Uuid()),
    transactionDateTime: Type.String({ format: 'date-time' }),
    typeId: Nullable(Type.Integer()),
    type: Type.String(),
    statusId: Type.Integer(),
    status: Type.String({ description: 'Settled, or Open when there was nothing to close.' }),
    processedAmount: Num,
    batchId: Nullable(Uuid()),
    message: Type.String(),
    processorResponseCode: Nullable(Type.String()),
    details: Details,
  },
  {
    examples: [
      {
        code: 0,
        transactionId: null,
        transactionDateTime: '2026-11-22T03:00:00.000Z',
        typeId: null,
        type: 'Settle',
        statusId: 6,
        status: 'Settled',
        processedAmount: 1250.75,
        batchId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c03',
        message: 'Batch settled successfully',
        processorResponseCode: '00',
        details: {
          code: 'Approve',
          message: 'Batch settled successfully',
          authCode: null,
          maskedPan: null,
          hostResponseCode: '00',
          hostResponseMessage: 'Batch settled successfully',
          processorResponseCode: '00',
        },
      },
    ],
  },
);

const AvailableOperation = Type.Object({
  type: Type.String(),
  typeId: Type.Integer(),
  availableAmount: Num,
  suggestedTips: Nullable(Type.Array(Type.Object({ tipRate: Num, tipAmount: Num }))),
});

const Source = Type.Object({
  typeId: Type.Integer(),
  type: Type.String(),
  id: Nullable(Type.String()),
  name: Nullable(Type.String()),
});

export const TransactionView = Type.Object(
  {
    transactionId: Uuid(),
    transactionDateTime: Type.String({ format: 'date-time' }),
    amount: AmountView,
    currencyId: Type.Integer(),
    currency: Type.String(),
    processorId: Uuid(),
    processor: Type.String(),
    operationTypeId: Type.Integer(),
    operationType: Type.String(),
    paymentMethodTypeId: Type.Integer(),
    paymentMethodType: Type.String(),
    transactionTypeId: Type.Integer(),
    transactionType: Type.String(),
    originalTransactionId: Nullable(Uuid()),
    customerId: Nullable(Uuid()),
    paymentMethodId: Nullable(Uuid()),
    customerPan: Nullable(Type.String()),
    cardType: Nullable(Type.String()),
    cardTypeId: Nullable(Type.Integer()),
    cardTokenType: Nullable(Type.Integer()),
    statusId: Type.Integer(),
    status: Type.String(),
    merchantName: Type.String(),
    merchantAddress: Nullable(Type.String()),
    merchantPhoneNumber: Nullable(Type.String()),
    merchantEmailAddress: Nullable(Type.String()),
    merchantWebsite: Nullable(Type.String()),
    authCode: Nullable(Type.String()),
    source: Source,
    cardholderAuthenticationMethodId: Nullable(Type.Integer()),
    cardholderAuthenticationMethod: Nullable(Type.String()),
    cvmResultMsg: Nullable(Type.String()),
    cardDataSourceId: Nullable(Type.Integer()),
    cardDataSource: Nullable(Type.String()),
    responseCode: Nullable(Type.String()),
    responseDescription: Nullable(Type.String()),
    details: Details,
    referenceId: Nullable(Type.String()),
    batchId: Nullable(Uuid()),
    capturedAmount: Num,
    refundedAmount: Num,
    cardProcessingDetails: Nullable(
      Type.Object({
        authCode: Nullable(Type.String()),
        networkReference: Nullable(Type.String()),
        maskedPan: Nullable(Type.String()),
        expirationMonth: Nullable(Type.Integer()),
        expirationYear: Nullable(Type.Integer()),
        creditDebitType: Nullable(Type.Integer()),
      }),
    ),
    achProcessingDetails: Nullable(AchProcessingDetails),
    availableOperations: Type.Array(AvailableOperation),
    avsResponse: AvsView,
    emvTags: Nullable(Type.String()),
    orderNumber: Nullable(Type.String()),
    transactionEnhancedData: EnhancedDataView,
  },
  { examples: [EXAMPLES.view] },
);

export const TransactionListItem = Type.Object({
  id: Uuid(),
  paymentProcessorId: Uuid(),
  date: Type.String({ format: 'date-time' }),
  baseAmount: Num,
  totalAmount: Num,
  surchargeAmount: Num,
  surchargePercentage: Nullable(Num),
  currencyCode: Type.String(),
  currencyId: Type.Integer(),
  merchant: Type.String(),
  merchantId: Uuid(),
  operationMode: Type.String(),
  paymentMethodType: Type.String(),
  paymentMethodTypeId: Type.Integer(),
  paymentMethodName: Nullable(Type.String()),
  customerId: Nullable(Uuid()),
  customerName: Nullable(Type.String()),
  customerCompany: Nullable(Type.String()),
  customerPan: Nullable(Type.String()),
  cardTokenType: Nullable(Type.Integer()),
  customerEmail: Nullable(Type.String()),
  customerPhone: Nullable(Type.String()),
  status: Type.String(),
  statusId: Type.Integer(),
  typeId: Type.Integer(),
  type: Type.String(),
  batchId: Nullable(Uuid()),
  referenceId: Nullable(Type.String()),
  source: Source,
  /** ACH transactions: their bank-side details (the status check's); null for card transactions. */
  achProcessingDetails: Nullable(AchProcessingDetails),
  availableOperations: Type.Array(AvailableOperation),
  amount: AmountView,
});

export const TRANSACTION_LIST = {
  orderBy: {
    date: 't.created_at',
    createdOn: 't.created_at',
    id: 't.id',
    totalAmount: 't.total_cents',
    baseAmount: 't.base_cents',
    statusId: 't.status_id',
    status: 't.status_id',
    typeId: 't.type_id',
    customerName: "lower(concat_ws(' ', c.first_name, c.last_name))",
  },
  defaultOrderBy: 'date',
  tieBreaker: 't.id',
};

/**
 * The version 2 list's sort keys (the published document's `sortBy`) over the list query (`t` the transaction, `c`
 * its customer).
 */
export const V2_TRANSACTION_LIST = {
  orderBy: {
    transactionDateTime: 't.created_at',
    // One merchant per caller: its company name orders nothing, so the date does.
    merchantCompanyName: 't.created_at',
    transactionId: 't.id',
    processedAmount: PROCESSED_CENTS,
    transactionStatus: 't.status_id',
    paymentMethodType: 't.method',
    cardTokenType: 't.card_token_type_id',
    maskedCardNumber: 't.pan_mask',
    customerName: "lower(concat_ws(' ', c.first_name, c.last_name))",
    customerCompanyName: 'lower(c.company_name)',
  },
  defaultOrderBy: 'transactionDateTime',
  tieBreaker: 't.id',
  notNull: ['transactionDateTime', 'merchantCompanyName', 'transactionId', 'processedAmount', 'transactionStatus'],
};

export const TransactionListQuery = listQuerySchema(TRANSACTION_LIST, {
  createMethodId: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 9, description: 'Source: 1 Portal, 2 ApiToken, 3 Terminal, ...' }),
  ),
  createdById: Type.Optional(Type.String({ maxLength: 100, description: 'Accepted for compatibility; not filtered.' })),
  batchId: Type.Optional(Uuid()),
  noBatch: Type.Optional(
    Type.Boolean({ description: 'true: only transactions in no batch; false: only those in one.' }),
  ),
  statusId: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  customerId: Type.Optional(Uuid()),
  dateFrom: DateFilter('Created on or after.'),
  dateTo: DateFilter('Created on or before.'),
});
export const TransactionListResponse = Paged(TransactionListItem, { items: [EXAMPLES.listItem], total: 1 });

export const CalculateAmountQuery = Type.Object({
  amount: AmountSchema({ description: 'Base amount.' }),
  percentageOffRate: Type.Optional(RateSchema()),
  surchargeRate: Type.Optional(RateSchema()),
  tipAmount: Type.Optional(AmountSchema()),
  tipRate: Type.Optional(RateSchema()),
  currencyId: Type.Optional(CurrencyId),
  useCardPrice: Type.Optional(Type.Boolean()),
});
export const CalculateAmountResponse = Type.Object(
  {
    currencyId: Type.Integer(),
    currency: Type.String(),
    zeroCostProcessingOptionId: Type.Integer(),
    zeroCostProcessingOption: Type.String(),
    useCardPrice: Nullable(Type.Boolean()),
    cash: AmountView,
    creditCard: AmountView,
    debitCard: AmountView,
    ach: AmountView,
  },
  {
    examples: [
      {
        currencyId: 1,
        currency: 'USD',
        zeroCostProcessingOptionId: 1,
        zeroCostProcessingOption: 'None',
        useCardPrice: null,
        cash: EXAMPLES.amount,
        creditCard: EXAMPLES.amount,
        debitCard: EXAMPLES.amount,
        ach: EXAMPLES.amount,
      },
    ],
  },
);
