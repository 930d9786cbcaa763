import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { contactInfoOf } from '../payments/payment-request.js';
import type { BankInstrument, CardInstrument, PaymentResult } from '../payments/payments.service.js';
import { STATUS_NAMES } from '../payments/transactions.model.js';
import { normalizeAddress } from '../reference/address.js';
import type { InvoiceDelivery } from './invoice-delivery.js';
import type { InvoicePayments } from './invoice-payments.js';
import { calculationsView, invoiceDateRanges, invoiceSummary, invoiceView } from './invoices.mapper.js';
import type { Invoice } from './invoices.model.js';
import { INVOICE_LIST } from './invoices.repo.js';
import {
  AchSubmitBody,
  CalculationsView,
  CardSubmitBody,
  InvoiceBody,
  InvoiceIdParams,
  InvoiceList,
  InvoiceListQuery,
  InvoiceView,
  MarkPaidBody,
  MessageQueuedView,
  PublishBody,
  SendEmailBody,
  SendSmsBody,
  SubmitView,
} from './invoices.schemas.js';
import type { InvoicesService } from './invoices.service.js';

const EMPTY = Type.Unknown({ description: 'Empty body (200 with no content).', examples: [''] });
const API_VERSION = 'Accepts the optional `x-api-version` header (1.0).';
const MOVES =
  'Moves (docs/invoices.md): Draft → Published (publish), Published and unpaid → Canceled (cancel) or Paid ' +
  '(mark-as-paid, or a payment), Published and unpaid → Expired (INVOICE_EXPIRY_DAYS after its due date). Any other ' +
  "move is a 400 naming 'status'.";

/** A vaulted method paying an invoice: its customer's when it has one, else an orphan method. */
function savedMethod(customerId: string | null, paymentMethodId: string) {
  return customerId
    ? { kind: 'vaulted' as const, customerId, paymentMethodId }
    : { kind: 'orphan' as const, paymentMethodId };
}

/** The payment an invoice submit made, as its answer shows it. */
function paymentView(result: PaymentResult) {
  const t = result.transaction;
  return {
    transactionId: t.id,
    approved: result.outcome === 'approved',
    status: STATUS_NAMES[t.statusId]!,
    statusId: t.statusId,
    responseCode: t.responseCode,
    responseMessage: t.responseMessage,
  };
}

/** What these routes use. */
export interface InvoicesRouteDeps {
  invoices: InvoicesService;
  invoicePayments: InvoicePayments;
  delivery: InvoiceDelivery;
  merchants: MerchantsService;
}

export function invoicesRoutes(app: App, deps: InvoicesRouteDeps): void {
  const { invoices } = deps;
  const tags = ['Invoices'];
  const base = '/pay-int-api/invoices';
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const view = (v: Invoice) => invoiceView(v, deps.delivery.payUrl(v));

  app.post(
    base,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create an invoice (Draft)',
        description:
          'With `customerId` or an inline `customer`, and at least one line (a catalog `lineItemId`, or `productName` ' +
          'and `unitPrice`). The invoice settings give the defaults and refuse what they disable (400 naming the ' +
          `field). Records \`invoice.created\`. Honours \`idempotency-key\`. ${API_VERSION}`,
        body: InvoiceBody,
        response: { 200: InvoiceView, ...ERRORS },
      },
    },
    async (request) => view(await invoices.create(merchantOf(request).merchantId, request.body)),
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List invoices',
        description:
          '`search` matches the number, reference and customer name or email; dates take year-month, date or ' +
          `date-time. ${API_VERSION}`,
        querystring: InvoiceListQuery,
        response: { 200: InvoiceList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await invoices.list(
        { merchantId: merchantOf(request).merchantId, statusId: q.status, ...invoiceDateRanges(q) },
        pageRequest(q, INVOICE_LIST),
      );
      return { items: result.items.map(invoiceSummary), total: result.total };
    },
  );

  app.get(
    `${base}/:invoiceId`,
    {
      schema: {
        tags,
        summary: 'Get an invoice',
        description: `Every input, the calculated totals, the status and what was paid. ${API_VERSION}`,
        params: InvoiceIdParams,
        response: { 200: InvoiceView, ...ERRORS },
      },
    },
    async (request) => view(await invoices.get(merchantOf(request).merchantId, request.params.invoiceId)),
  );

  app.put(
    `${base}/:invoiceId`,
    {
      schema: {
        tags,
        summary: 'Replace a Draft invoice',
        description: `A full replacement, Draft only (otherwise 400). ${API_VERSION}`,
        params: InvoiceIdParams,
        body: InvoiceBody,
        response: { 200: InvoiceView, ...ERRORS },
      },
    },
    async (request) =>
      view(await invoices.replace(merchantOf(request).merchantId, request.params.invoiceId, request.body)),
  );

  app.delete(
    `${base}/:invoiceId`,
    {
      schema: {
        tags,
        summary: 'Delete a Draft invoice',
        description: `Draft only: a published invoice cannot be deleted (400). 200 with an empty body. ${API_VERSION}`,
        params: InvoiceIdParams,
        response: { 200: EMPTY, ...ERRORS },
      },
    },
    async (request, reply) => {
      await invoices.delete(merchantOf(request).merchantId, request.params.invoiceId);
      return reply.send();
    },
  );

  app.post(
    `${base}/publish`,
    {
      schema: {
        tags,
        summary: 'Publish an invoice',
        description:
          'Draft → Published. An invoice with an inline customer gets a customer record (the inline fields). ' +
          `${MOVES} ${API_VERSION}`,
        body: PublishBody,
        response: { 200: InvoiceView, ...ERRORS },
      },
    },
    async (request) => view(await invoices.publish(merchantOf(request).merchantId, request.body.invoiceId)),
  );

  app.put(
    `${base}/:invoiceId/cancel`,
    {
      schema: {
        tags,
        summary: 'Cancel an invoice',
        description: `Published and unpaid → Canceled. ${MOVES} ${API_VERSION}`,
        params: InvoiceIdParams,
        response: { 200: InvoiceView, ...ERRORS },
      },
    },
    async (request) => view(await invoices.cancel(merchantOf(request).merchantId, request.params.invoiceId)),
  );

  app.put(
    `${base}/:invoiceId/mark-as-paid`,
    {
      schema: {
        tags,
        summary: 'Mark an invoice as paid',
        description:
          'Published and unpaid → Paid without a transaction (paid outside: cash, a check), with an optional note; ' +
          `records \`invoice.paid\`. ${MOVES} ${API_VERSION}`,
        params: InvoiceIdParams,
        body: Type.Optional(MarkPaidBody),
        response: { 200: InvoiceView, ...ERRORS },
      },
    },
    async (request) =>
      view(
        await invoices.markAsPaid(merchantOf(request).merchantId, request.params.invoiceId, request.body?.note ?? null),
      ),
  );

  app.get(
    `${base}/:invoiceId/calculations`,
    {
      schema: {
        tags,
        summary: 'Invoice calculations',
        description:
          'Per line and for the invoice, in one rounding rule (docs/invoices.md), plus what a credit card payment ' +
          `comes to under the merchant's zero-cost processing program. ${API_VERSION}`,
        params: InvoiceIdParams,
        response: { 200: CalculationsView, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const invoice = await invoices.get(merchantId, request.params.invoiceId);
      return calculationsView(invoice, (await deps.merchants.getConfiguration(merchantId)).settings);
    },
  );

  app.post(
    `${base}/:invoiceId/submit`,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Pay an invoice by card',
        description:
          'Charges the amount due (the merchant program on top, as for any card sale) with a vaulted card ' +
          "(`paymentMethodId`: the invoice customer's, or an orphan card) or raw card data with a billing address. " +
          'Approved: Paid (`paymentDate`, `invoice.paid`). Declined: still Published, payable again, the decline in ' +
          '`transaction`. While one payment is being made the invoice is ProcessingPayment and another is refused ' +
          `(400): concurrent payments charge once. Honours \`idempotency-key\`. ${API_VERSION}`,
        params: InvoiceIdParams,
        body: CardSubmitBody,
        response: { 200: SubmitView, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const body = request.body;
      const current = await invoices.get(merchantId, request.params.invoiceId);
      let instrument: CardInstrument;
      if (body.accountNumber) {
        if (!body.expirationMonth || !body.expirationYear) {
          throw ValidationError.field(
            'expirationMonth',
            "'expirationMonth' and 'expirationYear' are required with 'accountNumber'.",
          );
        }
        instrument = {
          kind: 'card',
          accountNumber: body.accountNumber,
          expirationMonth: body.expirationMonth,
          expirationYear: body.expirationYear,
          securityCode: body.securityCode ?? null,
        };
      } else if (body.paymentMethodId) {
        instrument = savedMethod(current.customerId, body.paymentMethodId);
      } else {
        throw ValidationError.field('paymentMethodId', "'paymentMethodId' or card data ('accountNumber') is required.");
      }
      const result = await deps.invoicePayments.payByCard(
        merchantId,
        current.id,
        {
          instrument,
          billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
          contactInfo: contactInfoOf(body.contactInfo),
          useCardPrice: body.useCardPrice ?? null,
        },
        request.idempotency,
      );
      return { invoice: view(await invoices.get(merchantId, current.id)), transaction: paymentView(result) };
    },
  );

  app.post(
    `${base}/:invoiceId/ach/submit`,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Pay an invoice by bank account (ACH)',
        description:
          "Debits the amount due from a vaulted bank account (`paymentMethodId`: the invoice customer's, or an " +
          'orphan one) or account data. The invoice is ProcessingPayment while the debit is on its way, Paid when it ' +
          'clears (`invoice.paid`), and Published again with the reason when it fails or comes back (a return after ' +
          `it paid the invoice makes it unpaid again). Honours \`idempotency-key\`. ${API_VERSION}`,
        params: InvoiceIdParams,
        body: AchSubmitBody,
        response: { 200: SubmitView, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const body = request.body;
      const current = await invoices.get(merchantId, request.params.invoiceId);
      let instrument: BankInstrument;
      if (body.accountNumber || body.routingNumber) {
        if (!body.accountNumber || !body.routingNumber) {
          throw ValidationError.field('routingNumber', "'accountNumber' and 'routingNumber' go together.");
        }
        instrument = {
          kind: 'bank-account',
          accountNumber: body.accountNumber,
          routingNumber: body.routingNumber,
          accountType: body.accountType ?? null,
          accountHolderType: body.accountHolderType ?? null,
        };
      } else if (body.paymentMethodId) {
        instrument = savedMethod(current.customerId, body.paymentMethodId);
      } else {
        throw ValidationError.field('paymentMethodId', "'paymentMethodId' or bank account data is required.");
      }
      const result = await deps.invoicePayments.payByAch(
        merchantId,
        current.id,
        {
          instrument,
          secCode: body.secCode ?? 1,
          requesterIp: request.ip,
          billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
          contactInfo: contactInfoOf(body.contactInfo),
        },
        request.idempotency,
      );
      return { invoice: view(await invoices.get(merchantId, current.id)), transaction: paymentView(result) };
    },
  );

  app.get(
    `${base}/:invoiceId/download-pdf`,
    {
      schema: {
        tags,
        summary: 'Download the invoice as a PDF',
        description:
          'The invoice as it stands: merchant and contact details, customer, number and dates, the lines, totals, ' +
          `notes and the hosted page's address (once published). \`application/pdf\`. ${API_VERSION}`,
        params: InvoiceIdParams,
        produces: ['application/pdf'],
        response: {
          200: Type.String({ format: 'binary', description: 'The PDF (application/pdf).', examples: ['%PDF-1.3 …'] }),
          ...ERRORS,
        },
      },
    },
    async (request, reply) => {
      const pdf = await deps.delivery.pdf(merchantOf(request).merchantId, request.params.invoiceId);
      // The 200 schema documents the binary body; it is sent as is, not serialized.
      return (reply as unknown as FastifyReply)
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .header('cache-control', 'no-store')
        .send(pdf.content);
    },
  );

  app.post(
    `${base}/:invoiceId/send-email-notification`,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Send the invoice by email',
        description:
          "To `email`, else the invoice customer's address (400 naming `email` when there is none): the amount due, " +
          'the pay link and the PDF attached, through SMTP (SMTP_URL) or, in the sandbox without it, the outbox. The ' +
          'message is sent by a job (retried, never twice). A Draft cannot be sent (400). Honours `idempotency-key`. ' +
          API_VERSION,
        params: InvoiceIdParams,
        body: Type.Optional(SendEmailBody),
        response: { 200: MessageQueuedView, ...ERRORS },
      },
    },
    async (request) =>
      deps.delivery.sendEmail(merchantOf(request).merchantId, request.params.invoiceId, request.body?.email ?? null),
  );

  app.post(
    `${base}/:invoiceId/send-published-sms-notification`,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Send the invoice by SMS',
        description:
          "The pay link by SMS to `mobileNumber`, else the invoice customer's number (which needs their SMS " +
          'consent; 400 naming `mobileNumber` otherwise), through the SMS provider (TWILIO_*) or, in the sandbox ' +
          'without one, the outbox. Sent by a job (retried, never twice). A Draft cannot be sent (400). Honours ' +
          `\`idempotency-key\`. ${API_VERSION}`,
        params: InvoiceIdParams,
        body: Type.Optional(SendSmsBody),
        response: { 200: MessageQueuedView, ...ERRORS },
      },
    },
    async (request) =>
      deps.delivery.sendSms(
        merchantOf(request).merchantId,
        request.params.invoiceId,
        request.body?.mobileNumber ?? null,
      ),
  );
}
