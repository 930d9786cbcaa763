import Type, { type TSchema } from 'typebox';
import { multiline } from '../../platform/http/validation.js';
import { AmountSchema, RateSchema } from '../../platform/money.js';
import { AmountView } from '../payments/transactions.schemas.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Text = (maxLength: number, description: string) => Opt(Type.String({ maxLength, description }));
const MultilineText = (maxLength: number, description: string) =>
  Opt(multiline(Type.String({ maxLength, description: `${description} May span lines.` })));

const SESSION_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c77';
const PROCESSOR_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50';
const ACH_PROCESSOR_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c51';
const CHECKOUT_URL = `https://pay.example.com/checkout/${SESSION_ID}`;

export const SessionParams = Type.Object({ paymentSessionId: Uuid() });

const Metadata = Type.Optional(
  Type.Unknown({
    description:
      'Key-value pairs stored on the session and returned on retrieval (not used functionally): an object, or a ' +
      'list of one-pair objects. At most 50 pairs, keys <= 40 and values <= 500 characters, 8 KB as UTF-8 JSON; ' +
      'control characters are stripped from values; null means none.',
  }),
);

const Common = {
  skipAddressVerification: Opt(
    Type.Boolean({ description: 'Default false; true bypasses AVS (Payment and PaymentAndSave only).' }),
  ),
  referenceId: Text(50, 'Your reference; part of the duplicate-check key of the payment.'),
  tipAmount: Opt(AmountSchema({ description: 'A tip added to the amount; greater than 0 when present.' })),
  customerId: Opt(Uuid('The customer the saved payment method belongs to.')),
  customerHandling: Opt(
    Type.Union([Type.Literal('CreateCustomer'), Type.Literal('TokenOnly')], {
      description:
        'Saving modes: CreateCustomer attaches the method to `customerId` or to a customer created from the ' +
        "payer's details; TokenOnly vaults it without a customer.",
    }),
  ),
  returnUrl: Text(
    2000,
    'Where the payer goes after a successful payment; `{{paymentSessionId}}` is replaced by the id. https:// ' +
      '(sandbox also http://).',
  ),
  taxRate: Opt(RateSchema({ description: 'Tax percentage 0-100 (3 decimals), with taxMode.' })),
  taxAmount: Opt(AmountSchema({ description: 'Fixed tax in USD, with taxMode; needs a fixed amount.' })),
  metadata: Metadata,
  afterCompletionMessage: MultilineText(500, 'Shown to the payer after completion when there is no returnUrl.'),
  expiresAt: Opt(Type.String({ format: 'date-time', description: 'ISO 8601; must be in the future.' })),
  pageName: Text(200, 'Display name on the checkout page.'),
  paymentNotes: MultilineText(500, 'Notes shown to the payer on the checkout page.'),
};

const MethodFields = {
  enabled: Type.Optional(Type.Boolean({ description: 'Offer this method (default false when the key is sent).' })),
  processorId: Opt(Uuid("One of the merchant's active processors for the method; its default when omitted.")),
};

export const V2CreateBody = Type.Object(
  {
    amount: Opt(
      AmountSchema({
        description:
          'USD. Greater than 0 for Payment and PaymentAndSave, exactly 0 for SaveMethod; null: the payer enters it.',
      }),
    ),
    mode: Type.Optional(
      Type.Union([Type.Literal('Payment'), Type.Literal('SaveMethod'), Type.Literal('PaymentAndSave')], {
        description: 'Default Payment.',
      }),
    ),
    paymentMethods: Type.Optional(
      Type.Object(
        {
          card: Type.Optional(Type.Object(MethodFields, { additionalProperties: false })),
          ach: Type.Optional(
            Type.Object(
              {
                ...MethodFields,
                achAllowFasterProcessing: Opt(Type.Boolean({ description: 'Same-day ACH for this payment.' })),
              },
              { additionalProperties: false },
            ),
          ),
        },
        {
          additionalProperties: false,
          description:
            "At least one method enabled. Omitted: every method the merchant has an active processor for (the merchant's default processors).",
        },
      ),
    ),
    taxMode: Opt(
      Type.Union([Type.Literal('Exclusive'), Type.Literal('Inclusive')], {
        description:
          'Exclusive adds tax on top; Inclusive means the amount contains it. With exactly one of taxRate, taxAmount.',
      }),
    ),
    ...Common,
  },
  {
    additionalProperties: false,
    examples: [
      {
        amount: 49.99,
        mode: 'Payment',
        referenceId: 'order-1042',
        returnUrl: 'https://shop.example.com/orders/1042/paid?session={{paymentSessionId}}',
        paymentMethods: { card: { enabled: true }, ach: { enabled: true, achAllowFasterProcessing: false } },
        taxMode: 'Exclusive',
        taxRate: 8.875,
        metadata: { orderId: '1042', channel: 'web' },
        pageName: 'Example Shop',
        paymentNotes: 'Order 1042: two items',
        expiresAt: '2026-11-22T10:00:00.000Z',
      },
    ],
  },
);

export const IntCreateBody = Type.Object(
  {
    amount: Opt(
      AmountSchema({
        description: 'USD; >= 0.01 for modes 1 and 3, 0 for mode 2; null or omitted: the payer enters it.',
      }),
    ),
    mode: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3, description: '1 Payment (default), 2 SaveMethod, 3 PaymentAndSave.' }),
    ),
    paymentMethodTypes: Opt(
      Type.Array(Type.String({ maxLength: 10 }), {
        maxItems: 2,
        description: 'Card, ACH (any letter case). Null or omitted: every method the merchant has a processor for.',
      }),
    ),
    taxMode: Opt(Type.Integer({ minimum: 1, maximum: 2, description: '1 Exclusive, 2 Inclusive.' })),
    isMultiUse: Opt(Type.Boolean({ description: 'Accepted and stored; a session is paid once.' })),
    ...Common,
    expiresAt: Opt(Type.String({ format: 'date-time', description: 'ISO 8601 UTC; default 30 minutes from now.' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        amount: 25,
        mode: 1,
        paymentMethodTypes: ['Card', 'ACH'],
        returnUrl: 'https://shop.example.com/paid/{{paymentSessionId}}',
        metadata: { orderId: '1043' },
        pageName: 'Example Shop',
      },
    ],
  },
);

const PaymentMethodsView = Type.Object({
  card: Type.Object({ enabled: Type.Boolean(), processorId: Nullable(Type.String()) }),
  ach: Type.Object({
    enabled: Type.Boolean(),
    processorId: Nullable(Type.String()),
    achAllowFasterProcessing: Type.Boolean(),
  }),
});

const paymentMethodsExample = {
  card: { enabled: true, processorId: PROCESSOR_ID },
  ach: { enabled: true, processorId: ACH_PROCESSOR_ID, achAllowFasterProcessing: false },
};

export const V2Created = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    paymentSessionId: Type.String({ format: 'uuid', description: 'Same as id.' }),
    checkoutUrl: Type.String({ description: 'The hosted checkout page; give it to the payer.' }),
    paymentMethods: PaymentMethodsView,
  },
  {
    examples: [
      {
        id: SESSION_ID,
        paymentSessionId: SESSION_ID,
        checkoutUrl: CHECKOUT_URL,
        paymentMethods: paymentMethodsExample,
      },
    ],
  },
);

export const IntCreated = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    mode: Type.String({ description: 'Payment, SaveMethod or PaymentAndSave.' }),
    returnUrl: Nullable(Type.String()),
    CheckoutUrl: Type.String({
      description: "The hosted checkout page (this spelling, as the vendor's clients read it).",
    }),
    checkoutUrl: Type.String({ description: 'Same as CheckoutUrl.' }),
    checkoutUrlShort: Type.String({ description: 'Same as checkoutUrl (no separate short link).' }),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
  },
  {
    examples: [
      {
        id: SESSION_ID,
        mode: 'Payment',
        returnUrl: `https://shop.example.com/paid/${SESSION_ID}`,
        CheckoutUrl: CHECKOUT_URL,
        checkoutUrl: CHECKOUT_URL,
        checkoutUrlShort: CHECKOUT_URL,
        createdAt: '2026-11-21T10:00:00.000Z',
        expiresAt: '2026-11-21T10:30:00.000Z',
      },
    ],
  },
);

const Attempt = Type.Object({
  transactionId: Type.String(),
  status: Type.String(),
  statusId: Type.Integer(),
  paymentMethodType: Type.String(),
  responseCode: Nullable(Type.String()),
  responseDescription: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
});

const TransactionDetails = Type.Object({
  transactionId: Type.String(),
  transactionStatus: Type.String(),
  transactionStatusId: Type.Integer(),
  transactionType: Type.String(),
  paymentMethodType: Type.String({ description: 'Card or ACH.' }),
  amount: AmountView,
  currencyCode: Type.String(),
  responseCode: Nullable(Type.String()),
  responseDescription: Nullable(Type.String()),
  customerPan: Nullable(Type.String({ description: 'Masked card or account number.' })),
  transactionReceiptUrl: Nullable(Type.String()),
  transactionReceipt: Type.Object({
    transactionId: Type.String(),
    status: Type.String(),
    amount: Type.Object({ totalAmount: Type.Number() }),
  }),
  history: Type.Array(Attempt, { description: 'Every payment attempt of the session, oldest first.' }),
});

const ViewFields = {
  id: Type.String({ format: 'uuid' }),
  paymentSessionId: Type.String({ format: 'uuid' }),
  status: Type.String({ description: 'Created, Cancelled, Completed or Failed.' }),
  statusId: Type.Integer({ description: '1 Created, 2 Cancelled, 3 Completed, 4 Failed.' }),
  amount: Nullable(Type.Number({ description: 'null: a flexible amount (see transactionDetails once paid).' })),
  tipAmount: Nullable(Type.Number()),
  taxMode: Nullable(Type.String()),
  taxModeId: Nullable(Type.Integer()),
  taxRate: Nullable(Type.Number()),
  taxAmount: Nullable(Type.Number({ description: 'Only when tax was configured as an amount.' })),
  surchargeAmount: Nullable(Type.Number()),
  customerId: Nullable(Type.String()),
  customerHandling: Nullable(Type.String()),
  vaultedPaymentMethodId: Nullable(Type.String({ description: 'Saving modes, once completed.' })),
  referenceId: Nullable(Type.String()),
  pageName: Nullable(Type.String()),
  paymentNotes: Nullable(Type.String()),
  afterCompletionMessage: Nullable(Type.String()),
  returnUrl: Nullable(Type.String()),
  checkoutUrl: Type.String(),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' })),
  cancelledAt: Nullable(Type.String({ format: 'date-time' })),
  cancellationReason: Nullable(
    Type.String({ description: 'Cancelled (by the API), Expired, or TooManyAttempts (Failed).' }),
  ),
  skipAddressVerification: Type.Boolean(),
  paymentLinkId: Nullable(Type.String()),
  paymentMethods: PaymentMethodsView,
  paymentMethodTypes: Type.Array(Type.String()),
  achAccountLast2: Nullable(Type.String()),
  achRoutingLast2: Nullable(Type.String()),
  metadata: Nullable(Type.Record(Type.String(), Type.String())),
  transactionDetails: Nullable(TransactionDetails),
};

const viewExample = {
  id: SESSION_ID,
  paymentSessionId: SESSION_ID,
  status: 'Created',
  statusId: 1,
  amount: 49.99,
  tipAmount: null,
  taxMode: 'Exclusive',
  taxModeId: 1,
  taxRate: 8.875,
  taxAmount: null,
  surchargeAmount: null,
  customerId: null,
  customerHandling: null,
  vaultedPaymentMethodId: null,
  referenceId: 'order-1042',
  pageName: 'Example Shop',
  paymentNotes: 'Order 1042: two items',
  afterCompletionMessage: null,
  returnUrl: `https://shop.example.com/orders/1042/paid?session=${SESSION_ID}`,
  checkoutUrl: CHECKOUT_URL,
  expiresAt: '2026-11-22T10:00:00.000Z',
  createdAt: '2026-11-21T10:00:00.000Z',
  completedAt: null,
  cancelledAt: null,
  cancellationReason: null,
  skipAddressVerification: false,
  paymentLinkId: null,
  paymentMethods: paymentMethodsExample,
  paymentMethodTypes: ['Card', 'ACH'],
  achAccountLast2: null,
  achRoutingLast2: null,
  metadata: { orderId: '1042', channel: 'web' },
  transactionDetails: null,
};

export const V2SessionView = Type.Object(
  { ...ViewFields, mode: Type.String({ description: 'Payment, SaveMethod or PaymentAndSave.' }) },
  { examples: [{ ...viewExample, mode: 'Payment' }] },
);

export const IntSessionView = Type.Object(
  {
    ...ViewFields,
    mode: Type.Integer({ description: '1 Payment, 2 SaveMethod, 3 PaymentAndSave.' }),
    modeName: Type.String(),
  },
  { examples: [{ ...viewExample, mode: 1, modeName: 'Payment' }] },
);

export const EmptyBody = Type.Unknown({ description: 'Empty body (200 with no content).', examples: [''] });
