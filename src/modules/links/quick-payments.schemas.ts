import Type from 'typebox';
import { DateFilter, listQuerySchema, Paged } from '../../platform/http/paging.js';
import { multiline } from '../../platform/http/validation.js';
import { AmountSchema } from '../../platform/money.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));

export const QuickPaymentIdParams = Type.Object({ quickPaymentId: Uuid() });

const common = {
  referenceId: Opt(Type.String({ minLength: 1, maxLength: 100, description: "The merchant's reference." })),
  name: Opt(Type.String({ minLength: 1, maxLength: 200, description: 'Shown on the payment page.' })),
  description: Opt(multiline(Type.String({ maxLength: 1000, description: 'Shown on the payment page.' }))),
  customerId: Opt(Uuid("One of the merchant's customers: their name shows on the link, their number gets its SMS.")),
  expiresAt: Opt(
    Type.String({
      format: 'date-time',
      description:
        'When the link stops taking payments (at most 366 days ahead). Default: 30 days for a one-time link, none for a reusable one.',
    }),
  ),
};

export const OneTimeBody = Type.Object(
  { amount: AmountSchema({ description: 'USD, greater than 0, at most 2 decimals.', exclusiveMinimum: 0 }), ...common },
  {
    additionalProperties: false,
    examples: [{ amount: 49.99, referenceId: 'ORDER-1001', customerId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5ca0' }],
  },
);

export const ReusableBody = Type.Object(
  {
    amount: Opt(
      AmountSchema({ description: 'USD, greater than 0; null or absent: the payer enters it.', exclusiveMinimum: 0 }),
    ),
    ...common,
  },
  { additionalProperties: false, examples: [{ amount: null, name: 'Donations', description: 'Thank you!' }] },
);

export const CreatedView = Type.Object(
  { id: Uuid('The quickPaymentId.') },
  { examples: [{ id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cb2' }] },
);

export const QUICK_LIST = {
  orderBy: { createdOn: 'l.created_at', amount: 'l.amount_cents', name: 'l.name', expiresAt: 'l.expires_at' },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'l.id',
  notNull: ['createdOn'],
};

export const QuickListQuery = listQuerySchema(QUICK_LIST, {
  statusId: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, description: '1 Created, 2 Active, 3 Inactive.' })),
  dateFrom: DateFilter('Created at or after.'),
  dateTo: DateFilter('Created at or before.'),
});

const EXAMPLE = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cb2',
  type: 'OneTime',
  status: 'Active',
  statusId: 2,
  amount: 49.99,
  referenceId: 'ORDER-1001',
  name: null,
  description: null,
  customerId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5ca0',
  customerFirstName: 'Ada',
  customerLastName: 'Lovelace',
  url: 'https://pay.example.com/l/Yq3k9ZtWm2Lx8PbQ',
  expiresAt: '2026-12-24T10:00:00.000Z',
  paymentsCount: 0,
  totalCollectedAmount: 0,
  lastPaymentOn: null,
  createdOn: '2026-11-24T10:00:00.000Z',
  modifiedOn: '2026-11-24T10:05:00.000Z',
};

export const QuickPaymentView = Type.Object(
  {
    id: Uuid(),
    type: Type.Union([Type.Literal('OneTime'), Type.Literal('Reusable')]),
    status: Type.Union([Type.Literal('Created'), Type.Literal('Active'), Type.Literal('Inactive')]),
    statusId: Type.Integer({ description: '1 Created, 2 Active, 3 Inactive.' }),
    amount: Nullable(Type.Number({ description: 'null: the payer enters the amount.' })),
    referenceId: Nullable(Type.String()),
    name: Nullable(Type.String()),
    description: Nullable(Type.String()),
    customerId: Nullable(Uuid()),
    customerFirstName: Nullable(Type.String()),
    customerLastName: Nullable(Type.String()),
    url: Type.String({ description: 'The hosted payment page.' }),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    paymentsCount: Type.Integer(),
    totalCollectedAmount: Type.Number(),
    lastPaymentOn: Nullable(Type.String({ format: 'date-time' })),
    createdOn: Type.String({ format: 'date-time' }),
    modifiedOn: Type.String({ format: 'date-time' }),
  },
  { examples: [EXAMPLE] },
);

export const QuickPaymentList = Paged(QuickPaymentView, { items: [EXAMPLE], total: 1 });

export const SendSmsBody = Type.Object(
  {
    mobileNumber: Opt(
      Type.String({
        maxLength: 20,
        description: "Send to this number instead of the customer's (which needs their SMS consent).",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ mobileNumber: '+15555550123' }] },
);

export const MessageQueuedView = Type.Object(
  {
    messageId: Uuid('The message; sent by a job right after this answer (retried, never sent twice).'),
    channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
    to: Type.String(),
  },
  { examples: [{ messageId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cb1', channel: 'sms', to: '+15555550123' }] },
);
