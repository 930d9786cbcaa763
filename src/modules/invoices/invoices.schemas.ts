import Type, { type Static } from 'typebox';
import { DateFilter, listQuerySchema, Paged } from '../../platform/http/paging.js';
import { multiline } from '../../platform/http/validation.js';
import { AmountSchema, decimalPlaces, RateSchema } from '../../platform/money.js';
import { ContactInfoInput } from '../payments/transactions.schemas.js';
import { AddressInput } from '../reference/address.js';
import { UnitTypeRef } from './catalog.schemas.js';
import { INVOICE_LIST } from './invoices.repo.js';

/** The list's sort keys and paging, as the API's list query takes them (other modules' lists use it too). */
export { INVOICE_LIST };

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));
const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const InvoiceIdParams = Type.Object({ invoiceId: Uuid() });

const STATUSES = '1 Draft, 2 Published, 3 Paid, 4 Expired, 5 Canceled, 6 ProcessingPayment, 7 Refunded.';

const Quantity = Type.Refine(
  Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Greater than 0, at most 3 decimals.' }),
  (value) => decimalPlaces(value) <= 3,
  () => 'must have at most 3 decimal places',
);

const LineBody = Type.Object(
  {
    lineItemId: Opt(Uuid('A catalog line item: its name, price, unit type and tax rate are the defaults.')),
    productName: Opt(Type.String({ minLength: 1, maxLength: 200, description: 'Required without lineItemId.' })),
    description: Opt(multiline(Type.String({ maxLength: 1000, description: 'May span lines.' }))),
    quantity: Quantity,
    unitPrice: Opt(AmountSchema({ description: 'Required without lineItemId.' })),
    unitTypeId: Opt(UnitTypeRef),
    discountPercentage: Opt(RateSchema({ description: 'Needs allowStaffToSetDiscountAndLineItemDiscount.' })),
    taxRate: Opt(RateSchema({ description: "Default: the catalog item's, else the invoice taxPercentage." })),
  },
  { additionalProperties: false },
);

const InlineCustomer = Type.Object(
  {
    firstName: Opt(Type.String({ maxLength: 100 })),
    lastName: Opt(Type.String({ maxLength: 100 })),
    companyName: Opt(Type.String({ maxLength: 200 })),
    email: Opt(Type.String({ format: 'email', maxLength: 254 })),
    mobileNumber: Opt(Type.String({ maxLength: 20, pattern: '^\\+?[0-9 ()-]{7,20}$' })),
    isMobileNumberSmsNotificationsEnabled: Opt(Type.Boolean()),
  },
  { additionalProperties: false, description: 'Without customerId: the customer, made a customer record on publish.' },
);

export const InvoiceBody = Type.Object(
  {
    customerId: Opt(Uuid('A customer of the merchant (or give `customer`).')),
    customer: Opt(InlineCustomer),
    number: Opt(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description: 'Unique per merchant; generated (INV-000001…) if absent.',
      }),
    ),
    issueDate: Opt(DateTime('Default: now.')),
    dueDate: Opt(DateTime('Default: issueDate + the settings dueDateAfterDays.')),
    lineItems: Type.Array(LineBody, { minItems: 1, maxItems: 200 }),
    discountPercentage: Opt(RateSchema({ description: 'Only when the settings enable discounts (their default).' })),
    shippingFeeAmount: Opt(
      AmountSchema({ description: 'Only when the settings enable a shipping fee (their default).' }),
    ),
    feesPercentage: Opt(RateSchema({ description: 'Only when the settings enable fees (their default).' })),
    taxPercentage: Opt(RateSchema({ description: 'Tax of lines without their own rate; default: the settings.' })),
    notes: Opt(multiline(Type.String({ maxLength: 2000, description: 'Default: the settings notes.' }))),
    paymentMethodTypeId: Opt(Type.Integer({ minimum: 1, maximum: 2, description: '1 Card, 2 ElectronicCheck.' })),
    referenceId: Opt(Type.String({ maxLength: 100 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        lineItems: [{ productName: 'Strategy session', quantity: 2, unitPrice: 150, taxRate: 8.875 }],
        notes: 'Thank you.',
      },
    ],
  },
);
export type InvoiceBody = Static<typeof InvoiceBody>;

const LineView = Type.Object({
  lineItemId: Nullable(Uuid()),
  productName: Type.String(),
  description: Nullable(Type.String()),
  quantity: Type.Number(),
  unitPrice: Type.Number(),
  unitTypeId: Type.Integer(),
  unitType: Type.String(),
  discountPercentage: Nullable(Type.Number()),
  taxRate: Nullable(Type.Number()),
  amount: Type.Number({ description: 'quantity × unitPrice' }),
  discountAmount: Type.Number(),
  taxAmount: Type.Number(),
  totalAmount: Type.Number(),
});

const summaryFields = {
  id: Uuid(),
  number: Type.String(),
  customerName: Nullable(Type.String()),
  issueDate: DateTime(),
  dueDate: DateTime(),
  paymentDate: Nullable(DateTime()),
  totalAmount: Type.Number(),
  status: Type.Integer({ description: STATUSES }),
};
const SUMMARY_EXAMPLE = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5ca0',
  number: 'INV-000042',
  customerName: 'Ada Lovelace',
  issueDate: '2026-11-24T10:00:00.000Z',
  dueDate: '2026-12-24T10:00:00.000Z',
  paymentDate: null,
  totalAmount: 326.63,
  status: 2,
};
export const InvoiceSummary = Type.Object(summaryFields);
export const InvoiceList = Paged(InvoiceSummary, { items: [SUMMARY_EXAMPLE], total: 1 });
export const InvoiceListQuery = listQuerySchema(INVOICE_LIST, {
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: STATUSES })),
  issueDateFrom: DateFilter('Issued from.'),
  issueDateTo: DateFilter('Issued until.'),
  dueDateFrom: DateFilter('Due from.'),
  dueDateTo: DateFilter('Due until.'),
  paymentDateFrom: DateFilter('Paid from.'),
  paymentDateTo: DateFilter('Paid until.'),
});

export const InvoiceView = Type.Object(
  {
    ...summaryFields,
    statusName: Type.String(),
    merchantId: Uuid(),
    customerId: Nullable(Uuid()),
    customer: Nullable(InlineCustomer),
    lineItems: Type.Array(LineView),
    discountPercentage: Nullable(Type.Number()),
    shippingFeeAmount: Nullable(Type.Number()),
    feesPercentage: Nullable(Type.Number()),
    taxPercentage: Nullable(Type.Number()),
    notes: Nullable(Type.String()),
    paymentMethodTypeId: Type.Integer(),
    referenceId: Nullable(Type.String()),
    subtotalAmount: Type.Number(),
    discountAmount: Type.Number(),
    taxAmount: Type.Number(),
    feesAmount: Type.Number(),
    amountPaid: Type.Number(),
    amountDue: Type.Number(),
    paidNote: Nullable(Type.String()),
    lastPaymentError: Nullable(Type.String({ description: 'Why the last payment did not go through.' })),
    transactionIds: Type.Array(Uuid(), { description: 'The transactions of every payment attempt, in order.' }),
    payUrl: Nullable(Type.String({ description: 'The hosted invoice page, once published and built.' })),
    publishedOn: Nullable(DateTime()),
    createdOn: DateTime(),
    modifiedOn: DateTime(),
  },
  { examples: [{ ...SUMMARY_EXAMPLE, statusName: 'Published' }] },
);

export const CalculationsView = Type.Object(
  {
    invoiceId: Uuid(),
    lines: Type.Array(
      Type.Object({
        productName: Type.String(),
        amount: Type.Number(),
        lineDiscountAmount: Type.Number(),
        invoiceDiscountAmount: Type.Number(),
        discountAmount: Type.Number(),
        taxRate: Type.Number(),
        taxAmount: Type.Number(),
        totalAmount: Type.Number(),
      }),
    ),
    subtotalAmount: Type.Number(),
    discountAmount: Type.Number(),
    taxAmount: Type.Number(),
    shippingFeeAmount: Type.Number(),
    feesAmount: Type.Number(),
    totalAmount: Type.Number({
      description:
        'What the invoice asks, whatever the payer pays with (by bank account exactly this): subtotalAmount − ' +
        'discountAmount + taxAmount + shippingFeeAmount + feesAmount. The merchant program is not part of it.',
    }),
    surchargeAmount: Type.Number({
      description: "The merchant's surcharge on a credit card payment of the total (Surcharge program; else 0).",
    }),
    cashDiscountAmount: Type.Number({
      description: 'The card price increment on a credit card payment (CashDiscount or DualPricing program; else 0).',
    }),
    cardTotalAmount: Type.Number({
      description:
        'What a credit card payment of the total comes to: totalAmount + surchargeAmount + cashDiscountAmount.',
    }),
    amountPaid: Type.Number(),
    amountDue: Type.Number(),
  },
  {
    examples: [
      {
        invoiceId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5ca0',
        lines: [
          {
            productName: 'Strategy session',
            amount: 300,
            lineDiscountAmount: 0,
            invoiceDiscountAmount: 0,
            discountAmount: 0,
            taxRate: 8.875,
            taxAmount: 26.63,
            totalAmount: 326.63,
          },
        ],
        subtotalAmount: 300,
        discountAmount: 0,
        taxAmount: 26.63,
        shippingFeeAmount: 0,
        feesAmount: 0,
        totalAmount: 326.63,
        surchargeAmount: 0,
        cashDiscountAmount: 0,
        cardTotalAmount: 326.63,
        amountPaid: 0,
        amountDue: 326.63,
      },
    ],
  },
);

export const PublishBody = Type.Object(
  { invoiceId: Uuid() },
  { additionalProperties: false, examples: [{ invoiceId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5ca0' }] },
);
export const MarkPaidBody = Type.Object(
  { note: Opt(Type.String({ maxLength: 500, description: 'How it was paid (cash, a check, …).' })) },
  { additionalProperties: false, examples: [{ note: 'Paid by check #1042' }] },
);

export const CardSubmitBody = Type.Object(
  {
    paymentMethodId: Opt(Uuid("A vaulted card: the invoice customer's, or an orphan card.")),
    accountNumber: Opt(Type.String({ maxLength: 23, description: 'Raw card number (PAN); never stored.' })),
    expirationMonth: Opt(Type.Integer({ minimum: 1, maximum: 12 })),
    expirationYear: Opt(Type.Integer({ minimum: 2000, maximum: 2099 })),
    securityCode: Opt(Type.String({ maxLength: 4, description: 'CVV; for this payment only, never stored.' })),
    billingAddress: Opt(AddressInput),
    contactInfo: Opt(ContactInfoInput),
    useCardPrice: Opt(
      Type.Boolean({ description: 'Dual pricing merchants: pay the card price (true) or the cash price.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2031,
        securityCode: '123',
        billingAddress: { line1: '123 Test St', postalCode: '10001' },
      },
    ],
  },
);

export const SubmitView = Type.Object(
  {
    invoice: InvoiceView,
    transaction: Nullable(
      Type.Object({
        transactionId: Uuid(),
        approved: Type.Boolean(),
        status: Type.String(),
        statusId: Type.Integer(),
        responseCode: Nullable(Type.String()),
        responseMessage: Nullable(Type.String()),
      }),
    ),
  },
  { examples: [{ invoice: { ...SUMMARY_EXAMPLE, status: 3, statusName: 'Paid' }, transaction: null }] },
);

export const AchSubmitBody = Type.Object(
  {
    paymentMethodId: Opt(Uuid("A vaulted bank account: the invoice customer's, or an orphan one.")),
    accountNumber: Opt(Type.String({ minLength: 4, maxLength: 17, pattern: '^[0-9]+$' })),
    routingNumber: Opt(Type.String({ minLength: 9, maxLength: 9, pattern: '^[0-9]{9}$' })),
    accountType: Opt(Type.Integer({ minimum: 1, maximum: 2, description: '1 Checking, 2 Savings.' })),
    accountHolderType: Opt(Type.Integer({ minimum: 1, maximum: 2, description: '1 Business, 2 Personal.' })),
    secCode: Opt(Type.Integer({ minimum: 1, maximum: 4, description: '1 Web (default), 2 PPD, 3 CCD, 4 Telephone.' })),
    billingAddress: Opt(AddressInput),
    contactInfo: Opt(ContactInfoInput),
  },
  {
    additionalProperties: false,
    examples: [{ accountNumber: '100000099', routingNumber: '021000021', accountType: 1, accountHolderType: 2 }],
  },
);

export const SendEmailBody = Type.Object(
  {
    email: Opt(
      Type.String({
        format: 'email',
        maxLength: 254,
        description: "Send to this address instead of the invoice customer's.",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ email: 'accounts@customer.example' }] },
);

export const SendSmsBody = Type.Object(
  {
    mobileNumber: Opt(
      Type.String({
        maxLength: 20,
        description:
          "Send to this number (+country code, or 10 US digits) instead of the invoice customer's (which needs their SMS consent).",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ mobileNumber: '+15555550123' }] },
);

export const MessageQueuedView = Type.Object(
  {
    messageId: Uuid('The message; it is sent by a job right after this answer (retried, never sent twice).'),
    channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
    to: Type.String({ description: 'The recipient.' }),
  },
  {
    examples: [
      { messageId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cb1', channel: 'email', to: 'accounts@customer.example' },
    ],
  },
);
