import Type from 'typebox';
import { listQuerySchema, Paged } from '../../platform/http/paging.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { Receipt, TransactionView } from '../payments/transactions.schemas.js';
import { POS_LIST } from './pos-list.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));

/** The labels `readingMethod` takes: the first document's and the version 2 surface's names. */
export const READING_METHOD_LABELS = ['Reading', 'KeyedIn', 'Regular', 'KeyedEntry'] as const;

export const PosIdParams = Type.Object({ posTransactionId: Uuid() });

const STATUSES =
  '1 TerminalConnecting, 2 TransactionProcessing, 3 DeclinedByProcessor, 4 CancelByPos, 5 CancelByTerminal, ' +
  '6 Completed, 7 Error, 8 Inconsistency, 9 TerminalOffline, 10 TransactionSentToProcessor (1, 2 and 10 are in ' +
  'progress; the rest are final: isCompleted).';

export const CreatePosBody = Type.Object(
  {
    terminalId: Uuid('A SemiIntegrated, online terminal of the merchant.'),
    transactionTypeId: Opt(
      Type.Integer({ minimum: 1, maximum: 5, description: '1 Auth, 2 Sale (default), 3 Capture, 4 Void, 5 Refund.' }),
    ),
    amount: Opt(AmountSchema({ description: 'Auth and Sale: required, > 0. Capture and Refund: default the whole.' })),
    currencyId: Opt(Type.Integer({ minimum: 1, maximum: 1, description: '1 USD.' })),
    tipAmount: Opt(AmountSchema()),
    tipRate: Opt(RateSchema()),
    posDeviceId: Opt(Type.String({ maxLength: 36, description: 'The point-of-sale device that asked.' })),
    referenceId: Opt(Type.String({ maxLength: 36 })),
    paymentProcessorId: Opt(Uuid('A card processor of the merchant; default its default one.')),
    customerId: Opt(Uuid('The customer paying (required to save the card).')),
    targetTransactionId: Opt(Uuid('Capture, Void and Refund: the card-present transaction they act on.')),
    readingMethodId: Opt(
      Type.Integer({ minimum: 1, maximum: 2, description: '1 Reading (tap, chip, swipe; default), 2 KeyedIn.' }),
    ),
    readingMethod: Opt(
      Type.Union([Type.Integer({ minimum: 1, maximum: 2 }), ...READING_METHOD_LABELS.map((l) => Type.Literal(l))], {
        description:
          'The same as readingMethodId, by id or label: 1 or Reading (also Regular), 2 or KeyedIn (also ' +
          'KeyedEntry). When both are sent they must agree.',
      }),
    ),
    waitForAcceptanceByTerminal: Opt(
      Type.Boolean({ description: 'Answer once the terminal accepts or declines (at most 30 s).' }),
    ),
    requestPaymentMethodStorageConsent: Opt(
      Type.Boolean({ description: "The terminal asks the cardholder to save the card to `customerId`'s vault." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        terminalId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
        transactionTypeId: 2,
        amount: 12.5,
        currencyId: 1,
        posDeviceId: 'till-1',
        referenceId: 'order-1042',
        waitForAcceptanceByTerminal: true,
      },
    ],
  },
);

export const PosCreatedView = Type.Object(
  {
    posTransactionId: Uuid(),
    status: Type.String(),
    statusId: Type.Integer({ description: STATUSES }),
  },
  {
    examples: [
      { posTransactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c80', status: 'TransactionProcessing', statusId: 2 },
    ],
  },
);

const listFields = {
  id: Uuid(),
  createdOn: Type.String({ format: 'date-time' }),
  terminalId: Uuid(),
  posDeviceId: Nullable(Type.String()),
  posTransactionStatusId: Type.Integer({ description: STATUSES }),
  posTransactionStatus: Type.String(),
  transactionId: Nullable(Uuid()),
  amount: Nullable(Type.Number()),
  currencyId: Type.Integer(),
  targetTransactionId: Nullable(Uuid()),
  transactionTypeId: Type.Integer(),
  transactionType: Type.String({ description: 'Authorization, Sale, Capture, Void or Refund.' }),
  isCompleted: Type.Boolean({ description: 'Final: stop polling.' }),
};

const LIST_EXAMPLE = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c80',
  createdOn: '2026-11-24T10:00:00.000Z',
  terminalId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
  posDeviceId: 'till-1',
  posTransactionStatusId: 6,
  posTransactionStatus: 'Completed',
  transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
  amount: 12.5,
  currencyId: 1,
  targetTransactionId: null,
  transactionTypeId: 2,
  transactionType: 'Sale',
  isCompleted: true,
};

export const PosListItem = Type.Object(listFields);
export const PosListResponse = Paged(PosListItem, { items: [LIST_EXAMPLE], total: 1 });
export const PosListQuery = listQuerySchema(POS_LIST, { terminalId: Type.Optional(Uuid()) });

export const PosView = Type.Object(
  {
    ...listFields,
    cardDataSource: Nullable(
      Type.String({ description: 'How the card was read: EMV, EMVContactless, Swipe, Manual.' }),
    ),
    errorMessage: Nullable(Type.String({ description: 'Extension: why it ended in Error or Inconsistency.' })),
    transaction: Nullable(TransactionView),
    transactionReceipt: Nullable(Receipt),
  },
  {
    examples: [
      { ...LIST_EXAMPLE, cardDataSource: 'EMV', errorMessage: null, transaction: null, transactionReceipt: null },
    ],
  },
);

export const PosGetQuery = Type.Object({
  waitForTransactionProcessing: Type.Optional(
    Type.Boolean({ description: 'Hold the request until the transaction is final (isCompleted) or the bound passes.' }),
  ),
  waitForCompletion: Type.Optional(Type.Boolean({ description: 'The same as waitForTransactionProcessing.' })),
});

export const PrintBody = Type.Object(
  { terminalId: Type.Optional(Uuid('The terminal it was made on (optional check).')) },
  { additionalProperties: false, examples: [{ terminalId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70' }] },
);
