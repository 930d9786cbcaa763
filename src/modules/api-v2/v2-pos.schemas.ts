// Version 2 POS transactions, as the vendor's document names them: string enums where v1 has ids.
import Type, { type Static } from 'typebox';
import { DateFilter, listQuerySchema, PageInfo, PublishedPaging } from '../../platform/http/paging.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { POS_LIST } from '../pos/pos-list.js';
import { PUBLISHED_POS_STATUSES } from './v2-pos-published.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));
const Uuid = () => Type.String({ format: 'uuid' });
const Literals = <const T extends string>(names: readonly T[], description: string) =>
  Type.Enum([...names], { description });
const OneOf = (names: readonly string[]) => Type.String({ description: `One of: ${names.join(', ')}.` });

/** What a terminal takes here; the document's enum lists more (ACH types, Settle, ...), which are a 400. */
export const POS_TYPES = ['Authorization', 'Sale', 'Capture', 'Void', 'Refund'] as const;
const DOCUMENT_TYPES = [
  ...POS_TYPES,
  'CardAuthentication',
  'RefundWORef',
  'TipAdjustment',
  'Settle',
  'AchDebit',
  'AchRefund',
  'AchHold',
  'AchUnHold',
  'AchCancel',
  'AchCredit',
] as const;
const STATUSES = [
  'TerminalConnecting',
  'TransactionProcessing',
  'DeclinedByProcessor',
  'CancelByPos',
  'CancelByTerminal',
  'Completed',
  'Error',
  'Inconsistency',
  'TerminalOffline',
  'TransactionSentToProcessor',
];
const TERMINAL_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70';
const POS_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c80';

export const CreateBody = Type.Object(
  {
    terminalId: Type.String({ format: 'uuid', description: 'A SemiIntegrated, online terminal of the merchant.' }),
    transactionType: Opt(
      Literals(
        DOCUMENT_TYPES,
        'Sale (default), Authorization, Capture, Void or Refund; the other types of the enum are a 400.',
      ),
    ),
    amount: Opt(
      AmountSchema({ description: 'Authorization and Sale: required, > 0. Capture, Refund: default whole.' }),
    ),
    baseAmount: Opt(AmountSchema({ description: 'The published name of `amount`.' })),
    captureMethod: Opt(
      Literals(['Auto', 'Manual'], 'The published revision: Auto (a sale, the default) or Manual (an authorization).'),
    ),
    extraAmounts: Opt(
      Type.Object(
        {
          tipAmount: Opt(AmountSchema({ description: 'A tip, at most one of tipAmount and tipRate.' })),
          tipRate: Opt(RateSchema({ description: 'A tip as a percentage of baseAmount.' })),
        },
        { additionalProperties: false },
      ),
    ),
    customerId: Opt(Type.String({ format: 'uuid', description: 'The customer the payment is for.' })),
    initiationChannel: Opt(Literals(['Cloud', 'Deeplink'], 'Cloud (default); Deeplink is not offered: a 400.')),
    waitForAcceptanceByTerminal: Opt(Type.Boolean({ description: 'The published name.' })),
    requestPaymentMethodStorageConsent: Opt(Type.Boolean({ description: 'The published name.' })),
    pricingType: Opt(Literals(['Card', 'Cash'], 'Card (default). Cash is not processed: a 400.')),
    currencyCode: Opt(Type.String({ maxLength: 3, description: 'ISO 4217; USD only.' })),
    targetTransactionId: Opt(Type.String({ format: 'uuid', description: 'Capture, Void, Refund: the transaction.' })),
    paymentProcessorId: Opt(Type.String({ format: 'uuid' })),
    posDeviceId: Opt(Type.String({ maxLength: 36, description: 'The point-of-sale device that asked.' })),
    referenceId: Opt(Type.String({ maxLength: 36 })),
    shouldWaitForAcceptanceByTerminal: Opt(
      Type.Boolean({ description: 'Answer once the terminal accepts or declines (at most 30 s).' }),
    ),
    readingMethod: Opt(
      Literals(
        ['Reading', 'KeyedIn', 'Regular', 'KeyedEntry'],
        'Reading (tap, chip, swipe; default) or KeyedIn; the published revision names them Regular and KeyedEntry.',
      ),
    ),
    shouldRequestPaymentMethodStorageConsent: Opt(Type.Boolean()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        terminalId: TERMINAL_ID,
        transactionType: 'Sale',
        amount: 125.5,
        pricingType: 'Card',
        currencyCode: 'USD',
        posDeviceId: 'till-1',
        referenceId: 'order-1042',
        shouldWaitForAcceptanceByTerminal: true,
        readingMethod: 'Reading',
      },
    ],
  },
);
export type CreateBody = Static<typeof CreateBody>;

const PublishedStatus = Type.Enum([...PUBLISHED_POS_STATUSES], {
  description: 'The published status: InProgress, Completed (the payment may be declined), Cancelled or Failed.',
});
/** The published revision's fields of a POS transaction (optional here: the older answers carry them too). */
const publishedFields = {
  posTransactionStatus: Type.Optional(PublishedStatus),
  modifiedOn: Type.Optional(Type.String({ format: 'date-time' })),
  customerId: Type.Optional(Nullable(Uuid())),
  captureMethod: Type.Optional(Type.Enum(['Auto', 'Manual'])),
  baseAmount: Type.Optional(Nullable(Type.Number())),
  extraAmounts: Type.Optional(
    Type.Object({
      tipAmount: Nullable(Type.Number()),
      tipRate: Nullable(Type.Number()),
      discountAmount: Nullable(Type.Number()),
      discountRate: Nullable(Type.Number()),
      surchargeRate: Nullable(Type.Number()),
    }),
  ),
  processedAmount: Type.Optional(Nullable(Type.Number())),
  linkedTransaction: Type.Optional(
    Nullable(
      Type.Object({}, { additionalProperties: true, description: 'The payment, as GET /v2/transactions/{id}.' }),
    ),
  ),
};
const PUBLISHED_EXAMPLE = {
  posTransactionStatus: 'InProgress',
  modifiedOn: '2026-11-24T10:00:00.000Z',
  customerId: null,
  captureMethod: 'Auto',
  baseAmount: 125.5,
  extraAmounts: { tipAmount: null, tipRate: null, discountAmount: null, discountRate: null, surchargeRate: null },
  processedAmount: null,
  linkedTransaction: null,
};

export const CreatedView = Type.Object(
  {
    posTransactionId: Uuid(),
    status: OneOf(STATUSES),
    createdOn: Type.Optional(Type.String({ format: 'date-time' })),
    merchantId: Type.Optional(Uuid()),
    terminalId: Type.Optional(Uuid()),
    paymentProcessorId: Type.Optional(Nullable(Uuid())),
    posDeviceId: Type.Optional(Nullable(Type.String())),
    referenceId: Type.Optional(Nullable(Type.String())),
    transactionId: Type.Optional(Nullable(Uuid())),
    currencyCode: Type.Optional(Type.String()),
    ...publishedFields,
  },
  { examples: [{ posTransactionId: POS_ID, status: 'TransactionProcessing', ...PUBLISHED_EXAMPLE }] },
);

const itemFields = {
  id: Uuid(),
  createdOn: Type.String({ format: 'date-time' }),
  terminalId: Uuid(),
  status: OneOf(STATUSES),
  transactionId: Nullable(Uuid()),
  amount: Nullable(Type.Number()),
  currencyCode: Type.String(),
  targetTransactionId: Nullable(Uuid()),
  transactionType: OneOf(POS_TYPES),
  posTransactionId: Type.Optional(Uuid()),
  merchantId: Type.Optional(Uuid()),
  paymentProcessorId: Type.Optional(Nullable(Uuid())),
  posDeviceId: Type.Optional(Nullable(Type.String())),
  referenceId: Type.Optional(Nullable(Type.String())),
  ...publishedFields,
};
const ITEM_EXAMPLE = {
  id: POS_ID,
  createdOn: '2026-11-24T10:00:00.000Z',
  terminalId: TERMINAL_ID,
  status: 'Completed',
  transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
  amount: 125.5,
  currencyCode: 'USD',
  targetTransactionId: null,
  transactionType: 'Sale',
};

export const ListQuery = listQuerySchema(POS_LIST, {
  ...PublishedPaging,
  terminalId: Type.Optional(Uuid()),
  fromDate: DateFilter('Created at or after (published revision).'),
  toDate: DateFilter('Created at or before (published revision).'),
  posTransactionStatus: Type.Optional(PublishedStatus),
});
export const ListResponse = Type.Object(
  {
    items: Type.Array(Type.Object(itemFields)),
    total: Type.Optional(Type.Integer({ description: 'The older envelope (a request without pageIndex).' })),
    pageInfo: Type.Optional(PageInfo),
  },
  { examples: [{ items: [{ ...ITEM_EXAMPLE, ...PUBLISHED_EXAMPLE }], total: 1 }] },
);

export const View = Type.Object(
  {
    ...itemFields,
    merchantId: Uuid(),
    paymentProcessorId: Nullable(Uuid()),
    posDeviceId: Nullable(Type.String()),
    referenceId: Nullable(Type.String()),
  },
  {
    examples: [
      {
        ...ITEM_EXAMPLE,
        merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c01',
        paymentProcessorId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c02',
        posDeviceId: 'till-1',
        referenceId: 'order-1042',
      },
    ],
  },
);

export const IdParams = Type.Object({ id: Uuid() });
export const GetQuery = Type.Object({
  waitForTransactionProcessing: Type.Optional(
    Type.Boolean({ description: 'Hold the request until the transaction is final or the bound passes.' }),
  ),
});
