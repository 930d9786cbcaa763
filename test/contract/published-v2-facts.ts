// The published version 2 revision ("V2 Beta") as checkable facts: every operation of `published-v2-facts.md` (the
// specification's digest of the vendor's published document and of what its live server does), with its success
// status and the schema of its answer, transcribed from that file's tables into JSON Schema. Marks: a field the
// facts mark `?` may be null; every listed field must be present (`required`); enums are the facts' enums; answers
// may carry more fields (Tessera answers both revisions' names: docs/api-v2.md). Only the published names are here.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;

const S: Schema = { type: 'string' };
const N: Schema = { type: 'number' };
const I: Schema = { type: 'integer' };
const B: Schema = { type: 'boolean' };
const U: Schema = { type: 'string', format: 'uuid' };
const D: Schema = { type: 'string', format: 'date-time' };
/** Money: a number in cents' precision (`.01`). */
const M: Schema = { type: 'number', multipleOf: 0.01 };
const e = (...values: string[]): Schema => ({ type: 'string', enum: values });
/** Nullable: the facts' `?`. */
const n = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const arr = (items: Schema): Schema => ({ type: 'array', items });
const obj = (properties: Record<string, Schema>): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
});

// Enumerations (section 1).
export const ENUMS = {
  AccountHolderType: ['Business', 'Personal'],
  AccountType: ['Checking', 'Savings'],
  AchSECCode: ['Web', 'PPD', 'CCD'],
  CardType: ['Unknown', 'Visa', 'MasterCard', 'AmericanExpress', 'DinersClub', 'Discover', 'JCB'],
  CreditDebitType: ['Credit', 'Debit', 'Unknown'],
  TokenType: ['Local', 'Network'],
  PaymentMethodType: ['Card', 'ACH', 'Cash', 'ElectronicCheck'],
  PricingType: ['Card', 'Cash'],
  TransactionType: [
    'AchCancel',
    'AchCredit',
    'AchDebit',
    'AchHold',
    'AchRefund',
    'AchUnHold',
    'Authorization',
    'Capture',
    'CardAuthentication',
    'Refund',
    'RefundWORef',
    'Sale',
    'Settle',
    'TipAdjustment',
    'Void',
  ],
  Aggregated: [
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
  ],
  TransactionStatus: ['Pending', 'Approved', 'Declined', 'Failed'],
  EventType: [
    'Authorization',
    'Sale',
    'Capture',
    'Void',
    'Refund',
    'TipAdjustment',
    'CardAuthentication',
    'Hold',
    'UnHold',
    'Credit',
    'Settle',
  ],
  TransactionSource: [
    'Portal',
    'ApiKey',
    'Terminal',
    'Invoice',
    'QuickPayment',
    'WebComponent',
    'Subscription',
    'MobileApp',
    'TapToPay',
  ],
  CardDataSource: ['Internet', 'Swipe', 'NFC', 'EMV', 'EMVContactless', 'FallbackSwipe', 'Manual'],
  CardholderAuthenticationMethod: [
    'NotAuthenticated',
    'PIN',
    'ElectronicSignatureAnalysis',
    'ManualSignature',
    'ManualOther',
    'Unknown',
    'SystematicOther',
    'ETicketEnvAmex',
    'OfflinePin',
  ],
  PaymentLinkType: ['MultiUse', 'SingleUse'],
  PaymentLinkStatus: ['Active', 'Completed', 'Expired', 'Inactive'],
  SessionMode: ['Payment', 'SaveMethod', 'PaymentAndSave'],
  PaymentSessionStatus: ['Created', 'Completed', 'Cancelled', 'Expired', 'Failed'],
  PosTransactionStatus: ['InProgress', 'Completed', 'Cancelled', 'Failed'],
  CaptureMethod: ['Auto', 'Manual'],
  ZeroCostProcessingOption: ['None', 'CashDiscount', 'DualPricing', 'Surcharge'],
  PaymentProcessorType: ['Tsys', 'Ach', 'SandboxCard', 'SandboxAch'],
  AvsMerchantProfile: ['Strict', 'Moderate', 'Tolerant'],
  SettlementBatchStatus: ['Open', 'PendingSettlement', 'Settled', 'Declined'],
  TerminalManufacturer: ['Sunmi', 'Verifone'],
  TerminalModel: ['SunmiP2', 'SunmiP2LiteSe', 'VerifoneVictaMobile', 'VerifoneVictaPortable', 'SunmiP3H'],
  TerminalMode: ['Standalone', 'SemiIntegrated'],
  TerminalStatus: ['Ready', 'Busy', 'Offline'],
  ConnectionStatus: ['Online', 'Offline'],
  ConnectionType: ['WiFi', 'Mobile', 'Ethernet'],
  DebitPinKey: ['Injected', 'Missing'],
  PrinterStatus: ['Normal', 'NotNormal', 'NotSupported'],
  WebhookEndpointStatus: ['Active', 'Inactive'],
  DeliveryLogStatus: ['Success', 'Failure'],
} as const;
const en = (name: keyof typeof ENUMS) => e(...ENUMS[name]);

// Shared objects (section 1).
const PageInfo = obj({ pageIndex: I, pageSize: I, totalItems: I, totalPages: I, hasMore: B });
const page = (item: Schema): Schema => obj({ items: arr(item), pageInfo: PageInfo });
const Address = obj({
  addressLine1: n(S),
  addressLine2: n(S),
  city: n(S),
  postalCode: n(S),
  stateCode: n(S),
  countryCode: n(S),
});
const PaymentMethods = obj({
  card: obj({ enabled: B, processorId: n(U) }),
  ach: obj({ enabled: B, processorId: n(U) }),
});
const AvsResult = obj({ action: e('Allow', 'Deny'), responseCode: n(S), description: n(S) });
const ProcessorDetails = obj({ mid: n(S), tid: n(S), authCode: n(S), rrn: n(S) });
const DeclineDetails = n(obj({ code: n(S), message: n(S) }));
const Source = obj({ sourceType: en('TransactionSource'), sourceId: n(U), sourceName: n(S) });
const TxCardDetails = n(
  obj({
    paymentMethodId: n(U),
    maskedCardNumber: n(S),
    cardBrand: en('CardType'),
    cardType: en('CreditDebitType'),
    cardProcessedAsType: en('CreditDebitType'),
    cardDataSource: en('CardDataSource'),
    cardholderVerificationMethod: en('CardholderAuthenticationMethod'),
  }),
);
const TxAchDetails = n(
  obj({
    paymentMethodId: n(U),
    maskedAccountNumber: n(S),
    accountRoutingNumber: n(S),
    accountHolderType: en('AccountHolderType'),
    accountType: en('AccountType'),
    secCode: en('AchSECCode'),
    isSameDayProcessing: n(B),
  }),
);
const AmountBreakdown = obj({
  baseAmount: M,
  tipAmount: M,
  tipRate: N,
  discountAmount: M,
  discountRate: N,
  surchargeAmount: M,
  surchargeRate: N,
});
const TxEvent = obj({
  transactionEventType: en('EventType'),
  transactionEventStatus: en('TransactionStatus'),
  transactionEventDateTime: D,
  processedAmount: M,
  originalTransactionId: n(U),
  declineDetails: DeclineDetails,
});
const txShortFields = {
  transactionId: n(U),
  transactionDateTime: D,
  transactionStatus: en('Aggregated'),
  transactionType: en('TransactionType'),
  // An ACH transaction has no card token type: the document's enum references admit null (its own examples).
  cardTokenType: n(en('TokenType')),
  paymentMethodType: en('PaymentMethodType'),
  referenceId: n(S),
  processedAmount: n(M),
  currencyCode: S,
  pricingType: en('PricingType'),
  merchantId: U,
  paymentProcessorId: U,
  customerId: n(U),
  batchId: n(U),
  amountBreakdown: AmountBreakdown,
  cardDetails: TxCardDetails,
  achDetails: TxAchDetails,
  processorDetails: ProcessorDetails,
  source: Source,
};
const TxShort = obj(txShortFields);
const TxFull = obj({
  ...txShortFields,
  originalTransactionId: n(U),
  refundDetails: obj({ refundedAmount: M, availableRefundAmount: M, isFullyRefunded: n(B) }),
  declineDetails: DeclineDetails,
  addressVerificationServiceResponse: n(AvsResult),
  transactionEvents: n(arr(TxEvent)),
});
const ProcessorResponse = obj({
  processorName: n(S),
  responseCode: n(S),
  responseMessage: n(S),
  responseDefinition: n(S),
});
const TxResult = obj({
  transactionId: U,
  transactionStatus: en('TransactionStatus'),
  processedAmount: M,
  currencyCode: S,
  amountDetails: obj({
    baseAmount: M,
    tipAmount: M,
    tipRate: N,
    surchargeAmount: M,
    discountAmount: M,
    discountRate: N,
  }),
  processorResponse: ProcessorResponse,
  responseDetails: n({ type: 'object' }),
  addressVerificationServiceResponse: n(AvsResult),
  receipt: n({}),
});
const ReversalResult = obj({
  transactionId: U,
  transactionStatus: en('TransactionStatus'),
  processedAmount: M,
  currencyCode: S,
  processorResponse: ProcessorResponse,
});
const HoldResult = (type: string) =>
  obj({
    transactionId: U,
    type: e(type),
    transactionStatus: en('TransactionStatus'),
    processorResponse: ProcessorResponse,
  });

// Resources (sections 4 to 14).
const CustomerItem = obj({
  customerId: U,
  externalId: n(S),
  firstName: n(S),
  lastName: n(S),
  companyName: n(S),
  email: n(S),
  mobilePhoneNumber: n(S),
  billingAddress: n(Address),
  lastTransactionDate: n(D),
  paymentMethodsCount: I,
});
const Customer = obj({
  customerId: U,
  externalId: n(S),
  firstName: n(S),
  lastName: n(S),
  companyName: n(S),
  email: n(S),
  mobilePhoneNumber: n(S),
  hasSmsConsent: B,
  shouldUseBillingAsShippingAddress: B,
  billingAddress: n(Address),
  shippingAddress: n(Address),
  transactionsCount: I,
  transactionsVolume: N,
  lastTransactionAmount: n(N),
  lastTransactionDate: n(D),
  numberOfSubscriptions: I,
  cards: n(
    arr(
      obj({
        paymentMethodId: U,
        paymentName: n(S),
        isDefault: B,
        cardMask: n(S),
        expirationMonth: I,
        expirationYear: I,
        cardTokenType: en('TokenType'),
        cardType: en('CardType'),
        creditDebitType: en('CreditDebitType'),
      }),
    ),
  ),
  achAccounts: n(
    arr(
      obj({
        paymentMethodId: U,
        paymentName: n(S),
        isDefault: B,
        accountNumber: n(S),
        routingNumber: n(S),
        accountType: en('AccountType'),
        accountHolderType: en('AccountHolderType'),
        taxId: n(S),
      }),
    ),
  ),
});
const PaymentMethod = obj({
  paymentMethodId: U,
  customerId: n(U),
  name: n(S),
  type: en('PaymentMethodType'),
  isDefault: B,
  createdOn: D,
  card: n(obj({ cardMask: n(S), expirationMonth: n(I), expirationYear: n(I), cardTokenType: en('TokenType') })),
  ach: n(
    obj({
      accountNumber: n(S),
      routingNumber: n(S),
      accountType: en('AccountType'),
      accountHolderType: en('AccountHolderType'),
      taxId: n(S),
      companyName: n(S),
    }),
  ),
});
const PaymentLink = obj({
  paymentLinkId: U,
  linkType: en('PaymentLinkType'),
  paymentMethods: PaymentMethods,
  baseAmount: n(M),
  currencyCode: n(S),
  paymentLinkStatus: en('PaymentLinkStatus'),
  name: n({ type: 'string', maxLength: 80 }),
  description: n(S),
  shortUrl: n(S),
  customerId: n(U),
  customerFirstName: n(S),
  customerLastName: n(S),
  referenceId: n(S),
  expiresOn: n(D),
  paymentCount: I,
  totalCollectedAmount: N,
  createdOn: D,
  lastPaymentOn: n(D),
  modifiedOn: D,
});
const Session = obj({
  status: n(en('PaymentSessionStatus')),
  mode: en('SessionMode'),
  skipAddressVerification: B,
  customerId: n(U),
  vaultedPaymentMethodId: n(U),
  referenceId: n({ type: 'string', maxLength: 36 }),
  tipAmount: n(N),
  returnUrl: n(S),
  paymentLinkId: n(U),
  paymentMethods: PaymentMethods,
  metadata: n({ type: 'object', additionalProperties: n(S) }),
  afterCompletionMessage: n(S),
  pageName: n(S),
  expiresAt: n(D),
  paymentNotes: n(S),
  achAccountLast2: n(S),
  achRoutingLast2: n(S),
  surchargeAmount: N,
  // SessionTx, the payment once made (its sixty fields are the older revision's receipt; checked as an object).
  transactionDetails: n({ type: 'object' }),
});
const ExtraAmounts = obj({
  tipAmount: n(N),
  tipRate: n(N),
  discountAmount: n(N),
  discountRate: n(N),
  surchargeRate: n(N),
});
const posItemFields = {
  posTransactionId: U,
  createdOn: D,
  modifiedOn: D,
  merchantId: U,
  customerId: n(U),
  terminalId: U,
  paymentProcessorId: n(U),
  posDeviceId: n(S),
  referenceId: n(S),
  posTransactionStatus: en('PosTransactionStatus'),
  captureMethod: en('CaptureMethod'),
  transactionId: n(U),
  processedAmount: n(M),
  baseAmount: n(M),
  currencyCode: n(S),
  extraAmounts: n(ExtraAmounts),
};
const PosItem = obj(posItemFields);
const PosTransaction = obj({ ...posItemFields, linkedTransaction: n(TxFull) });
const PaymentConfig = obj({
  zeroCostProcessingOption: en('ZeroCostProcessingOption'),
  defaultTipsOptions: n(arr(N)),
  defaultSurchargeRate: n(N),
  defaultCashDiscountRate: n(N),
  defaultDualPricingRate: n(N),
  availableCurrencies: n(arr(e('USD'))),
  availableCardTypes: n(arr(en('CardType'))),
  availableTransactionTypes: n(arr(en('TransactionType'))),
  isTipsEnabled: B,
  availablePaymentProcessors: n(
    arr(
      obj({
        paymentProcessorId: n(U),
        processorName: n(S),
        isDefault: B,
        type: en('PaymentProcessorType'),
        settlementBatchTimeSlots: n(arr(obj({ hours: I, minutes: I, timezoneName: n(S) }))),
      }),
    ),
  ),
  addressVerificationServiceOptions: obj({ isEnabled: B, profile: en('AvsMerchantProfile') }),
  isCustomerCardSavingByTerminalEnabled: B,
  companyName: n(S),
  mccCode: n(S),
  mccCodeDescription: n(S),
  currency: S,
  maxTransactionAmount: n(N),
  ttpIosTerminalProfileId: n(S),
});
const ContactEntry = obj({
  contactInfoId: U,
  addressName: n(S),
  email: n(S),
  mobilePhoneNumber: n(S),
  isMainAddress: B,
  isDefaultAddress: B,
  addressLine1: n(S),
  addressLine2: n(S),
  city: n(S),
  postalCode: n(S),
  stateCode: n(S),
  countryCode: n({ type: 'string', minLength: 2, maxLength: 2 }),
});
const Autofill = obj({
  level2Settings: obj({ taxRate: n({ type: 'number', minimum: 0, maximum: 22 }) }),
  level3Settings: obj({
    product: n(
      obj({
        productName: n(S),
        code: n(S),
        unitPrice: n(N),
        measurementUnit: n(S),
        quantity: n(N),
        discountPercentage: n(N),
        description: n(S),
      }),
    ),
    shippingChargeRate: n(N),
    dutyChargeRate: n(N),
  }),
});
const Batch = obj({
  batchId: n(U),
  paymentProcessorId: n(U),
  paymentProcessorName: n(S),
  externalBatchId: n(S),
  createdOn: n(D),
  transactionCount: I,
  totalNetAmount: M,
  totalSalesAmount: M,
  totalRefundsAmount: M,
  batchStatus: en('SettlementBatchStatus'),
});
const TerminalItem = obj({
  terminalId: U,
  merchantId: U,
  merchantCompanyName: n(S),
  serialNumber: n(S),
  terminalManufacturer: en('TerminalManufacturer'),
  terminalModel: en('TerminalModel'),
  terminalMode: en('TerminalMode'),
  terminalStatus: en('TerminalStatus'),
  connectionStatus: en('ConnectionStatus'),
  lastSeenOn: n(D),
});
const Percent: Schema = { type: 'integer', minimum: 0, maximum: 100 };
// "Limited data may come back for an offline terminal": what it cannot report is null.
const TerminalStatus = obj({
  terminalId: U,
  merchantId: U,
  terminalStatus: en('TerminalStatus'),
  lastSeenOn: n(D),
  debitPinKey: n(en('DebitPinKey')),
  terminalAppVersion: n(S),
  connectionStatus: en('ConnectionStatus'),
  connectionType: n(en('ConnectionType')),
  wifiConnectionStrength: n(Percent),
  mobileConnectionStrength: n(Percent),
  batteryLevel: n(Percent),
  printerStatus: n(en('PrinterStatus')),
});
const Endpoint = obj({
  endpointId: U,
  endpointName: n({ type: 'string', maxLength: 255 }),
  endpointUrl: n({ type: 'string', maxLength: 2048 }),
  endpointStatus: n(en('WebhookEndpointStatus')),
  eventTypes: arr(S),
  createdOn: D,
  modifiedOn: D,
});
const logSummaryFields = {
  deliveryLogId: U,
  endpointId: U,
  endpointName: n(S),
  endpointUrl: n(S),
  eventId: U,
  eventType: S,
  attemptNumber: I,
  deliveryLogStatus: en('DeliveryLogStatus'),
  endpointHTTPResponseCode: n(I),
  roundTripDurationMs: I,
  errorMessage: n(S),
  createdOn: D,
};
const LogSummary = obj(logSummaryFields);
const Headers = n({ type: 'object', additionalProperties: n(S) });
const LogDetail = obj({
  ...logSummaryFields,
  nextRetryAt: n(D),
  requestHeaders: Headers,
  requestBody: n(S),
  responseHeaders: Headers,
  responseBody: n(S),
});
const CalculatedTender = obj({
  baseAmount: M,
  discountAmount: M,
  discountRate: N,
  surchargeAmount: M,
  surchargeRate: N,
  tipAmount: M,
  tipRate: N,
  totalAmount: M,
});

export interface PublishedOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  status: 200 | 204;
  /** The answer's schema; null: no body. */
  answer: Schema | null;
  /** A list answering the page envelope (paged to its end by the tests). */
  list?: true;
  /** The operation takes a JSON body (so an unknown field in it is refused). */
  body?: true;
}

const op = (
  method: PublishedOperation['method'],
  path: string,
  answer: Schema | null,
  extra: Partial<PublishedOperation> = {},
): PublishedOperation => ({ method, path, status: 200, answer, ...extra });

/** The 61 operations (section 15: auth 1, ping 1, api-keys 3, customers 5, payment-methods 7, payment-links 6,
 * payment-sessions 3, pos 5, settings 4, settlements 2, terminals 2, transactions 11, webhooks 11). */
export const PUBLISHED_OPERATIONS: PublishedOperation[] = [
  op(
    'POST',
    '/oauth2/token',
    obj({ access_token: S, token_type: e('Bearer'), expires_in: I, refresh_token: S, scope: S }),
  ),
  op('GET', '/v2/ping', null),
  op('GET', '/v2/api-keys', obj({ apiKeys: n(arr(obj({ clientId: S, merchantId: U, apiKeyName: n(S) }))) })),
  op('POST', '/v2/api-keys', obj({ clientId: S, clientSecret: n(S) }), { body: true }),
  op('DELETE', '/v2/api-keys/{clientId}', null),
  op('GET', '/v2/customers', page(CustomerItem), { list: true }),
  op('POST', '/v2/customers', obj({ customerId: U }), { body: true }),
  op('GET', '/v2/customers/{customerId}', Customer),
  op('PATCH', '/v2/customers/{customerId}', null, { body: true }),
  op('DELETE', '/v2/customers/{customerId}', null),
  op('GET', '/v2/payment-methods', page(PaymentMethod), { list: true }),
  op('POST', '/v2/payment-methods/cards', obj({ paymentMethodId: U }), { body: true }),
  op('POST', '/v2/payment-methods/ach', obj({ paymentMethodId: U }), { body: true }),
  op('GET', '/v2/payment-methods/{paymentMethodId}', PaymentMethod),
  op('PATCH', '/v2/payment-methods/{paymentMethodId}', null, { body: true }),
  op('DELETE', '/v2/payment-methods/{paymentMethodId}', null),
  op('POST', '/v2/payment-methods/{paymentMethodId}/set-default', null),
  op('GET', '/v2/payment-links', page(PaymentLink), { list: true }),
  op('POST', '/v2/payment-links', PaymentLink, { body: true }),
  op('GET', '/v2/payment-links/{paymentLinkId}', PaymentLink),
  op('PATCH', '/v2/payment-links/{paymentLinkId}', PaymentLink, { body: true }),
  op('DELETE', '/v2/payment-links/{paymentLinkId}', null, { status: 204 }),
  op('POST', '/v2/payment-links/{paymentLinkId}/share', null, { status: 204, body: true }),
  op('POST', '/v2/payment-sessions', obj({ id: U, paymentMethods: PaymentMethods }), { body: true }),
  op('GET', '/v2/payment-sessions/{paymentSessionId}', Session),
  op('POST', '/v2/payment-sessions/{paymentSessionId}/cancel', null),
  op('GET', '/v2/pos/transactions', page(PosItem), { list: true }),
  op('POST', '/v2/pos/transactions', PosTransaction, { body: true }),
  op('GET', '/v2/pos/transactions/{posTransactionId}', PosTransaction),
  op('POST', '/v2/pos/transactions/{posTransactionId}/cancel', PosTransaction),
  op('POST', '/v2/pos/transactions/{posTransactionId}/print-receipt', null, { body: true }),
  op('GET', '/v2/settings/payment-config', PaymentConfig),
  op('GET', '/v2/settings/contact-information', obj({ contactInfos: n(arr(ContactEntry)) })),
  op('GET', '/v2/settings/transaction-autofill', Autofill),
  op('PATCH', '/v2/settings/transaction-autofill', null, { body: true }),
  op('GET', '/v2/settlements/batches', page(Batch), { list: true }),
  op('POST', '/v2/settlements/batches/close', obj({ batchStatus: en('SettlementBatchStatus') }), { body: true }),
  op('GET', '/v2/terminals', page(TerminalItem), { list: true }),
  op('GET', '/v2/terminals/{terminalId}/status', TerminalStatus),
  op('GET', '/v2/transactions', page(TxShort), { list: true }),
  op('POST', '/v2/transactions', TxResult, { body: true }),
  op('GET', '/v2/transactions/{transactionId}', TxFull),
  op('POST', '/v2/transactions/{transactionId}/capture', TxResult, { body: true }),
  op('POST', '/v2/transactions/{transactionId}/reversal', ReversalResult, { body: true }),
  op('POST', '/v2/transactions/credit', ReversalResult, { body: true }),
  op('POST', '/v2/transactions/{transactionId}/tip-adjustment', TxResult, { body: true }),
  op('POST', '/v2/transactions/{transactionId}/ach-hold', HoldResult('Hold')),
  op('POST', '/v2/transactions/{transactionId}/ach-release', HoldResult('UnHold')),
  op('POST', '/v2/transactions/{transactionId}/share-receipt', null, { body: true }),
  op(
    'POST',
    '/v2/transactions/calculate-amount',
    obj({
      currencyCode: S,
      zeroCostProcessingOption: en('ZeroCostProcessingOption'),
      pricingType: n(en('PricingType')),
      cash: n(CalculatedTender),
      creditCard: CalculatedTender,
      debitCard: CalculatedTender,
      ach: CalculatedTender,
    }),
    { body: true },
  ),
  op('GET', '/v2/webhooks/endpoints', page(Endpoint), { list: true }),
  op(
    'POST',
    '/v2/webhooks/endpoints',
    obj({
      endpointId: U,
      endpointName: n(S),
      endpointUrl: n(S),
      endpointStatus: en('WebhookEndpointStatus'),
      hmacSecret: n(S),
      eventTypes: arr(S),
      createdOn: D,
    }),
    { body: true },
  ),
  op('GET', '/v2/webhooks/endpoints/{endpointId}', Endpoint),
  op('PATCH', '/v2/webhooks/endpoints/{endpointId}', Endpoint, { body: true }),
  op('DELETE', '/v2/webhooks/endpoints/{endpointId}', null),
  op(
    'POST',
    '/v2/webhooks/endpoints/{endpointId}/ping',
    obj({ isDelivered: B, endpointHTTPResponseCode: n(I), roundTripDurationMs: I, errorMessage: n(S) }),
  ),
  op('GET', '/v2/webhooks/event-types', obj({ items: arr(obj({ eventType: S, description: n(S), group: n(S) })) })),
  op('GET', '/v2/webhooks/delivery-logs', page(LogSummary), { list: true }),
  op('GET', '/v2/webhooks/delivery-logs/{deliveryLogId}', LogDetail),
  op('GET', '/v2/webhooks/delivery-logs/export', null),
  op('POST', '/v2/webhooks/delivery-logs/{deliveryLogId}/retry', LogDetail),
];

const ajv = new Ajv({ allErrors: true, strict: false, multipleOfPrecision: 9 });
addFormats.default(ajv);
const compiled = new Map<PublishedOperation, ReturnType<typeof ajv.compile>>();

export const publishedName = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

export function publishedOperation(method: string, path: string): PublishedOperation {
  const found = PUBLISHED_OPERATIONS.find((o) => o.method === method && o.path === path);
  if (!found) throw new Error(`no published operation ${method} ${path}`);
  return found;
}

/** What in `body` departs from the operation's published answer (empty when it conforms). */
export function publishedErrors(operation: PublishedOperation, body: unknown): string[] {
  if (!operation.answer) return [];
  let validate = compiled.get(operation);
  if (!validate) {
    validate = ajv.compile(operation.answer);
    compiled.set(operation, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((x) => `${x.instancePath || '/'} ${x.message} ${JSON.stringify(x.params)}`);
}
