import Type, { type TSchema } from 'typebox';
import { listQuerySchema } from '../../../platform/http/paging.js';
import { AmountSchema, RateSchema } from '../../../platform/money.js';
import { AddressInput } from '../../reference/address.js';
import { ContactInfoInput } from '../transactions.schemas.js';
import { DEFAULT_ACH_SETTINGS } from './ach-schedule.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const EXAMPLE_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50';

/** An ACH debit or credit request (both take the same shape). */
export const AchPaymentBody = Type.Object(
  {
    amount: AmountSchema({ description: 'Amount in USD (at most 2 decimals), greater than 0.', examples: [125.5] }),
    paymentProcessorId: Opt(
      Uuid("An ACH processor of the merchant; the merchant's default ACH processor when omitted."),
    ),
    paymentMethodId: Opt(Uuid('A vaulted bank account (recommended over account data).')),
    customerId: Opt(
      Uuid('The customer whose vaulted account pays (its default bank account without paymentMethodId).'),
    ),
    accountNumber: Opt(Type.String({ maxLength: 17, description: 'A new account: 4 to 17 digits.' })),
    routingNumber: Opt(Type.String({ maxLength: 9, description: 'A new account: 9-digit ABA routing number.' })),
    secCode: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 4,
        description: '1 Web (default), 2 PPD, 3 CCD (needs a company), 4 Telephone.',
      }),
    ),
    requesterIPaddress: Type.Optional(
      Type.String({ minLength: 1, maxLength: 45, description: 'IPv4 or IPv6 address of the requester. Required.' }),
    ),
    requesterIpAddress: Type.Optional(
      Type.String({ minLength: 1, maxLength: 45, description: 'Accepted spelling of requesterIPaddress.' }),
    ),
    isFasterProcessing: Opt(Type.Boolean({ description: 'Same-day processing (the next same-day window).' })),
    taxId: Opt(Type.String({ maxLength: 20 })),
    accountType: Opt(Type.Integer({ minimum: 1, maximum: 2, description: '1 Checking (default), 2 Savings.' })),
    accountHolderType: Opt(
      Type.Integer({ minimum: 1, maximum: 2, description: '1 Business, 2 Personal. Required for a new account.' }),
    ),
    percentageOffRate: Opt(RateSchema({ description: 'Percentage off the amount (0-100).' })),
    billingAddress: Opt(AddressInput),
    shippingAddress: Opt(AddressInput),
    contactInfo: Opt(ContactInfoInput),
  },
  {
    additionalProperties: false,
    examples: [
      {
        amount: 125.5,
        accountNumber: '123456789',
        routingNumber: '021000021',
        accountType: 1,
        accountHolderType: 2,
        secCode: 1,
        requesterIPaddress: '203.0.113.7',
        billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, countryId: 1, postalCode: '10001' },
        contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550100' },
      },
    ],
  },
);

export const AchResponseSchema = Type.Object(
  {
    transactionId: Uuid(),
    typeId: Type.Integer({
      description: '11 AchDebit, 12 AchRefund, 13 AchHold, 14 AchUnHold, 15 AchCancel, 16 AchCredit.',
    }),
    type: Type.String(),
    statusId: Type.Integer({
      description:
        '21 Scheduled, 22 Held, 23 Cancelled, 24 Pending (in progress), 25 Cleared, 26 ChargedBack, 92 Failed, 4 Refunded.',
    }),
    status: Type.String(),
    responseCode: Type.String(),
    responseDescription: Type.String(),
    processedAmount: Type.Number(),
  },
  {
    examples: [
      {
        transactionId: EXAMPLE_ID,
        typeId: 11,
        type: 'AchDebit',
        statusId: 21,
        status: 'Scheduled',
        responseCode: '00',
        responseDescription: 'Scheduled',
        processedAmount: 125.5,
      },
    ],
  },
);

export const AchTransactionParams = Type.Object({ transactionId: Uuid() });

// --- Operator -----------------------------------------------------------------------------------------------------

export const ACH_FILE_LIST = {
  orderBy: { window: 'window_at', createdAt: 'created_at' },
  defaultOrderBy: 'window',
  tieBreaker: 'id',
};
export const AchFilesQuery = listQuerySchema(ACH_FILE_LIST, {
  merchantId: Type.Optional(Uuid()),
  processorId: Type.Optional(Uuid()),
});

export const AchFileItem = Type.Object({
  id: Uuid(),
  merchantId: Uuid(),
  processorId: Uuid(),
  direction: Type.String({ description: 'Origination (sent at a cutoff) or Return (received from the bank).' }),
  window: Type.String({ format: 'date-time', description: 'The cutoff (origination), or when a return file came.' }),
  createdAt: Type.String({ format: 'date-time' }),
  entryCount: Type.Integer(),
  totalDebitAmount: Type.Number(),
  totalCreditAmount: Type.Number(),
  submittedAt: Nullable(Type.String({ format: 'date-time' })),
  settlesAt: Nullable(Type.String({ format: 'date-time' })),
  returnsDueAt: Nullable(Type.String({ format: 'date-time' })),
  importSummary: Nullable(Type.Object({}, { additionalProperties: true })),
  bankFileId: Nullable(Uuid('The bank connection file it went out in (nacha-sftp processors).')),
  remoteName: Nullable(Type.String({ description: 'That file’s name on the bank’s server.' })),
  withdrawnAt: Nullable(
    Type.String({ format: 'date-time', description: 'Never reached the bank: its entries went back to Scheduled.' }),
  ),
});

export const AchFileList = Type.Object(
  { items: Type.Array(AchFileItem), total: Type.Integer() },
  {
    examples: [
      {
        items: [
          {
            id: EXAMPLE_ID,
            merchantId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c01',
            processorId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c02',
            direction: 'Origination',
            window: '2026-11-23T22:00:00.000Z',
            createdAt: '2026-11-23T22:00:00.120Z',
            entryCount: 12,
            totalDebitAmount: 1520.25,
            totalCreditAmount: 0,
            submittedAt: '2026-11-23T22:00:00.300Z',
            settlesAt: '2026-11-24T14:00:00.000Z',
            returnsDueAt: '2026-11-26T14:00:00.000Z',
            importSummary: null,
            bankFileId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c09',
            remoteName: '091000019-20261123-1700-A.ach',
            withdrawnAt: null,
          },
        ],
        total: 1,
      },
    ],
  },
);

export const AchFileParams = Type.Object({ id: Uuid() });

export const ReturnFileQuery = Type.Object({ processorId: Uuid() }, { additionalProperties: false });

export const ReturnFileImport = Type.Object(
  {
    fileId: Uuid(),
    duplicate: Type.Boolean({ description: 'The same file was imported before; nothing changed.' }),
    returns: Type.Integer(),
    notificationsOfChange: Type.Integer(),
    alreadyApplied: Type.Integer(),
    unmatched: Type.Array(Type.String(), { description: 'Original trace numbers that match no entry.' }),
  },
  {
    examples: [
      { fileId: EXAMPLE_ID, duplicate: false, returns: 2, notificationsOfChange: 1, alreadyApplied: 0, unmatched: [] },
    ],
  },
);

const Time = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: '"HH:MM", 24-hour, local.' });
export const AchSettingsSchema = Type.Object(
  {
    timeZone: Type.String({ description: 'IANA time zone of the windows.' }),
    sameDayCutoffs: Type.Array(Time, { maxItems: 10 }),
    standardCutoffs: Type.Array(Time, { maxItems: 10 }),
    standardSettlementTime: Time,
    sameDaySettlementTime: Time,
    balancedFile: Type.Boolean(),
    offsetRoutingNumber: Type.String(),
    offsetAccountNumber: Type.String(),
    odfiRoutingNumber: Type.String(),
    odfiName: Type.String({ maxLength: 23 }),
  },
  { examples: [DEFAULT_ACH_SETTINGS] },
);
export const AchSettingsPatch = Type.Partial(AchSettingsSchema, {
  additionalProperties: false,
  examples: [{ sameDayCutoffs: ['11:00'], balancedFile: true }],
});
export const ProcessorParams = Type.Object({ processorId: Uuid() });

export const ACH_BANK_FILE_LIST = {
  orderBy: { createdAt: 'created_at' },
  defaultOrderBy: 'createdAt',
  notNull: ['createdAt'],
  tieBreaker: 'id',
};
export const AchBankFilesQuery = listQuerySchema(ACH_BANK_FILE_LIST, {
  direction: Type.Optional(Type.Union([Type.Literal('Outbound'), Type.Literal('Inbound')])),
  state: Type.Optional(
    Type.String({
      description:
        'built, uploading, uploaded, sent, accepted, rejected, expired, alert (outbound); imported, ignored (inbound).',
    }),
  ),
});

const EXAMPLE_BANK_FILE = {
  id: EXAMPLE_ID,
  connection: '6f1d2a4b5c016f1d2a4b5c016f1d2a4b',
  processorId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c02',
  direction: 'Outbound',
  state: 'accepted',
  kind: 'origination',
  remoteName: '091000019-20261123-1700-A.ach',
  window: '2026-11-23T22:00:00.000Z',
  sizeBytes: 1880,
  sha256: '9f2c1a0e6b3d4c5e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6',
  fileIdModifier: 'A',
  entryCount: 12,
  totalDebitAmount: 1520.25,
  totalCreditAmount: 0,
  createdAt: '2026-11-23T22:00:00.120Z',
  sentAt: '2026-11-23T22:00:01.020Z',
  answeredAt: '2026-11-23T22:14:00.000Z',
  answer: 'ACCEPTED',
  attempts: 1,
  lastError: null,
  alert: null,
  alertedAt: null,
  answersFileId: null,
  importSummary: null,
};

export const AchBankFileItem = Type.Object(
  {
    id: Uuid(),
    connection: Type.String({ description: 'The bank connection (processors reaching one server as one originator).' }),
    processorId: Uuid('The processor whose settings and credentials made the exchange.'),
    direction: Type.String({ description: 'Outbound (to the bank) or Inbound (from it).' }),
    state: Type.String(),
    kind: Type.String({ description: 'origination, acknowledgment, rejection, returns or unknown.' }),
    remoteName: Type.String({ description: 'The file’s name on the bank’s server.' }),
    window: Nullable(Type.String({ format: 'date-time' })),
    sizeBytes: Type.Integer(),
    sha256: Type.String(),
    fileIdModifier: Nullable(Type.String()),
    entryCount: Nullable(Type.Integer()),
    totalDebitAmount: Nullable(Type.Number()),
    totalCreditAmount: Nullable(Type.Number()),
    createdAt: Type.String({ format: 'date-time' }),
    sentAt: Nullable(Type.String({ format: 'date-time' })),
    answeredAt: Nullable(Type.String({ format: 'date-time' })),
    answer: Nullable(Type.String()),
    attempts: Type.Integer(),
    lastError: Nullable(Type.String()),
    alert: Nullable(Type.String({ description: 'Why an operator must look (docs/ach.md, "Alerts").' })),
    alertedAt: Nullable(Type.String({ format: 'date-time' })),
    answersFileId: Nullable(Uuid()),
    importSummary: Nullable(Type.Object({}, { additionalProperties: true })),
  },
  { examples: [EXAMPLE_BANK_FILE] },
);

export const AchBankFileList = Type.Object(
  { items: Type.Array(AchBankFileItem), total: Type.Integer() },
  { examples: [{ items: [EXAMPLE_BANK_FILE], total: 1 }] },
);

export const ResolveBankFileBody = Type.Object(
  {
    outcome: Type.Union([Type.Literal('delivered'), Type.Literal('not-delivered')], {
      description: 'What the bank said: it has the file, or it does not.',
    }),
  },
  { additionalProperties: false, examples: [{ outcome: 'delivered' }] },
);
