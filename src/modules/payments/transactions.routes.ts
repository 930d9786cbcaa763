import Type, { type Static } from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { merchantOperation } from '../../platform/http/merchant-operation.js';
import { dateRange, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { optionalCents, optionalMillipercent, toCents, toMillipercent } from '../../platform/money.js';
import { ZERO_COST_OPTION_NAMES } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { normalizeAddress } from '../reference/address.js';
import type { AchPaymentsService } from './ach/ach.service.js';
import type { CardPaymentsService } from './card-payments.service.js';
import { enhancedDataOf } from './enhanced-data.js';
import { contactInfoOf, type PaymentCommand, paymentCommand } from './payment-request.js';
import { amountsPerTender } from './pricing.js';
import { cardProcessor } from './processors.js';
import {
  amountView,
  authorizationResponse,
  transactionListItem,
  transactionResponse,
  transactionView,
} from './transactions.mapper.js';
import { CardDataSource, CreateMethod } from './transactions.model.js';
import {
  AuthBody,
  AuthorizationResponse,
  CalculateAmountQuery,
  CalculateAmountResponse,
  CaptureBody,
  RefundWithoutReferenceBody,
  ReturnBody,
  SaleBody,
  SettleBody,
  SettleResponse,
  TipAdjustmentBody,
  TRANSACTION_LIST,
  TransactionIdParams,
  TransactionListQuery,
  TransactionListResponse,
  TransactionResponse,
  TransactionView,
  VerifyBody,
  VoidBody,
} from './transactions.schemas.js';
import type { TransactionsService } from './transactions.service.js';

type PaymentBody = Static<typeof SaleBody>;

function command(kind: PaymentCommand['kind'], merchantId: string, body: Partial<PaymentBody>): PaymentCommand {
  return paymentCommand({
    kind,
    merchantId,
    processorId: body.paymentProcessorId,
    customerId: body.customerId,
    paymentMethodId: body.paymentMethodId,
    accountNumber: body.accountNumber,
    expirationMonth: body.expirationMonth,
    expirationYear: body.expirationYear,
    securityCode: body.securityCode,
    amountCents: toCents(body.amount ?? 0),
    tipCents: optionalCents(body.tipAmount),
    tipRateMpct: optionalMillipercent(body.tipRate),
    percentageOffRateMpct: optionalMillipercent(body.percentageOffRate),
    surchargeRateMpct: optionalMillipercent(body.surchargeRate),
    useCardPrice: body.useCardPrice,
    currencyId: body.currencyId,
    billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
    shippingAddress: body.shippingAddress ? normalizeAddress(body.shippingAddress, 'shippingAddress') : null,
    contactInfo: contactInfoOf(body.contactInfo),
    cardDataSourceId: body.cardDataSource ?? 1,
    referenceId: body.referenceId,
    customerInitiated: body.customerInitiatedTransaction,
    enhancedData: body.l2 || body.l3 ? enhancedDataOf({ ...body.l3, salesTaxRate: body.l2?.salesTaxRate }) : null,
  });
}

/** What these routes use. */
export interface TransactionsRouteDeps {
  cardPayments: CardPaymentsService;
  merchants: MerchantsService;
  transactions: TransactionsService;
  ach: AchPaymentsService;
  /** Tap to Pay payments are vouched for by a device token. */
  /** The device a Tap to Pay token vouches for, as the payment's source id (DevicesService.tapToPaySource). */
  devices: { tapToPaySource(merchantId: string, token: string | undefined): Promise<string> };
}

const DeviceTokenHeaders = Type.Object({
  'x-device-token': Type.Optional(
    Type.String({
      maxLength: 4096,
      description:
        'Tap to Pay (cardDataSource 3 NFC): the token of the device that read the card (POST ' +
        '/pay-api/v1/devices/tap-to-pay/jwt). Required then; the payment is recorded with source 9 TapToPay.',
    }),
  ),
});

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function transactionsRoutes(app: App, deps: TransactionsRouteDeps): void {
  const { cardPayments, merchants, transactions } = deps;
  const tags = ['Card transactions'];
  const nameOf = async (merchantId: string) => (await merchants.getConfiguration(merchantId)).companyName;
  const AUTH_ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const OP_ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404, 409);

  const payment = (
    url: string,
    kind: PaymentCommand['kind'],
    body: typeof SaleBody | typeof AuthBody | typeof VerifyBody | typeof RefundWithoutReferenceBody,
    summary: string,
    description: string,
  ) =>
    merchantOperation(app, {
      method: 'POST',
      url,
      config: { idempotent: true },
      schema: {
        tags,
        summary,
        description,
        body,
        ...(kind === 'sale' || kind === 'authorize' ? { headers: DeviceTokenHeaders } : {}),
        response: { 200: AuthorizationResponse, ...AUTH_ERRORS },
      },
      run: async ({ merchantId, body: sent, request, idempotency }) => {
        const cmd = command(kind, merchantId, sent as Partial<PaymentBody>);
        if (cmd.cardDataSourceId === CardDataSource.NFC && (kind === 'sale' || kind === 'authorize')) {
          // Tap to Pay: the card was read by an enabled device of this merchant, which vouches with its token.
          const device = await deps.devices.tapToPaySource(merchantId, headerValue(request.headers['x-device-token']));
          cmd.createMethodId = CreateMethod.TapToPay;
          // The payment names the device that read the card (its source), as a terminal's names its POS transaction.
          cmd.sourceId = device;
        }
        cmd.idempotency = idempotency;
        return cardPayments.pay(cmd);
      },
      view: async (result, { merchantId }) => authorizationResponse(result, await nameOf(merchantId)),
    });

  const WAYS =
    "Pay with a vaulted card (`customerId` plus `paymentMethodId`, or the customer's default card), an orphan " +
    'card (`paymentMethodId` alone) or raw card data (`accountNumber`, `expirationMonth`, `expirationYear`, ' +
    '`securityCode`). A decline is HTTP 200 with `status` "Declined" (statusId 91) and `details`; an invalid card ' +
    'number is a 400 on `accountNumber`. Card-not-present requests run AVS on the billing address. ' +
    'Honours `idempotency-key`.';
  payment(
    '/pay-api/v1/transactions/sale',
    'sale',
    SaleBody,
    'One-step sale',
    `Authorizes and captures at once (status Captured). ${WAYS}`,
  );
  payment(
    '/pay-api/v1/transactions/auth',
    'authorize',
    AuthBody,
    'Authorization',
    `Holds the amount (status Authorized) until captured, voided, or voided by itself after 7 days. ${WAYS}`,
  );
  payment(
    '/pay-api/v1/transactions/verify',
    'verify',
    VerifyBody,
    'Card verification',
    `A zero-amount card authentication (type 6, status Verified). ${WAYS}`,
  );
  payment(
    '/pay-api/v1/transactions/refund-without-reference',
    'refund-without-reference',
    RefundWithoutReferenceBody,
    'Refund without reference',
    `Credits an amount to a card (type 7) with no original transaction; it nets in the open batch. ${WAYS}`,
  );

  merchantOperation(app, {
    method: 'POST',
    url: '/pay-api/v1/transactions/capture',
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Capture an authorization',
      description: 'Partial capture allowed, never above the authorized amount. Concurrent captures capture once.',
      body: CaptureBody,
      response: { 200: TransactionResponse, ...OP_ERRORS },
    },
    run: ({ merchantId, body, idempotency }) =>
      cardPayments.capture(merchantId, body.transactionId, optionalCents(body.amount) ?? undefined, idempotency),
    view: async (result, { merchantId }) => transactionResponse(result, await nameOf(merchantId)),
  });

  merchantOperation(app, {
    method: 'POST',
    url: '/pay-api/v1/transactions/void',
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Void an authorization or an unsettled sale',
      description: 'Updates the same transaction (status Voided). After settlement, refund instead.',
      body: VoidBody,
      response: { 200: TransactionResponse, ...OP_ERRORS },
    },
    run: ({ merchantId, body, idempotency }) => cardPayments.void(merchantId, body.transactionId, idempotency),
    view: async (result, { merchantId }) => transactionResponse(result, await nameOf(merchantId)),
  });

  merchantOperation(app, {
    method: 'POST',
    url: '/pay-api/v1/transactions/return',
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Refund a captured transaction',
      description:
        'Partial refunds allowed; their sum never exceeds what was captured. The refund is a transaction of its ' +
        'own (type Refund); the original becomes Refunded once fully refunded.',
      body: ReturnBody,
      response: { 200: TransactionResponse, ...OP_ERRORS },
    },
    run: ({ merchantId, body, idempotency }) =>
      cardPayments.refund(
        merchantId,
        body.transactionId,
        optionalCents(body.amount) ?? undefined,
        body.cardDataSource ?? CardDataSource.Internet,
        idempotency,
      ),
    view: async (result, { merchantId }) => transactionResponse(result, await nameOf(merchantId)),
  });

  merchantOperation(app, {
    method: 'POST',
    url: '/pay-api/v1/transactions/tip-adjustment',
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Change the tip of an authorized or unsettled captured transaction',
      body: TipAdjustmentBody,
      response: { 200: TransactionResponse, ...OP_ERRORS },
    },
    run: ({ merchantId, body, idempotency }) =>
      cardPayments.tipAdjust(merchantId, body.transactionId, toCents(body.tipAmount), idempotency),
    view: async (result, { merchantId }) => transactionResponse(result, await nameOf(merchantId)),
  });

  app.post(
    '/pay-api/v1/transactions/settle',
    {
      schema: {
        tags: ['Settlements'],
        summary: "Close a processor's open batch now",
        description:
          'Closes the Open card batch of the processor (the default card processor without `paymentProcessorId`): ' +
          'its totals are frozen, the processor closes it, and it and its transactions become Settled. While an ' +
          'operation on one of its transactions is in flight (a void) the batch cannot close: 409 ' +
          '`OperationInProgress` at once; retry shortly (the batch also closes by itself at its time slot).',
        body: Type.Optional(SettleBody),
        response: { 200: SettleResponse, ...OP_ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const processor = cardProcessor(await merchants.getConfiguration(merchantId), request.body?.paymentProcessorId);
      return transactions.settle(merchantId, processor.id);
    },
  );

  app.get(
    '/pay-api/v1/transactions/calculate-amount',
    {
      schema: {
        tags,
        summary: 'What a payment of this amount totals, per tender',
        description:
          'The same calculation as a sale: percentage off, surcharge (credit cards only), cash discount or dual pricing, tip.',
        querystring: CalculateAmountQuery,
        response: { 200: CalculateAmountResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const { settings } = await merchants.getConfiguration(merchantOf(request).merchantId);
      const amounts = amountsPerTender(settings, {
        baseCents: toCents(q.amount),
        percentageOffRateMpct: optionalMillipercent(q.percentageOffRate),
        tipCents: optionalCents(q.tipAmount),
        tipRateMpct: optionalMillipercent(q.tipRate),
        surchargeRateMpct: optionalMillipercent(q.surchargeRate),
        useCardPrice: q.useCardPrice ?? null,
      });
      return {
        currencyId: 1,
        currency: 'USD',
        zeroCostProcessingOptionId: settings.zeroCostProcessingOptionId,
        zeroCostProcessingOption: ZERO_COST_OPTION_NAMES[settings.zeroCostProcessingOptionId]!,
        useCardPrice: q.useCardPrice ?? null,
        cash: amountView(amounts.cash),
        creditCard: amountView(amounts.creditCard),
        debitCard: amountView(amounts.debitCard),
        ach: amountView(amounts.ach),
      };
    },
  );

  const statusCheck = async (request: Parameters<typeof merchantOf>[0] & { params: { transactionId: string } }) => {
    const merchantId = merchantOf(request).merchantId;
    const t = await transactions.get(merchantId, request.params.transactionId);
    if (!t) throw new NotFoundError('Transaction', request.params.transactionId);
    const [configuration, contacts, achEntries] = await Promise.all([
      merchants.getConfiguration(merchantId),
      merchants.getContacts(merchantId),
      t.method === 'ach' ? deps.ach.entries(merchantId, [t.id]) : undefined,
    ]);
    return transactionView(t, configuration, contacts.find((c) => c.isMain) ?? contacts[0], achEntries?.get(t.id));
  };
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/pay-api/v1/transactions/:transactionId',
      schema: {
        tags,
        summary: 'Transaction status check',
        description: 'The transaction with its amount breakdown, available operations and AVS result.',
        params: TransactionIdParams,
        response: { 200: TransactionView, ...AUTH_ERRORS },
      },
      handler: statusCheck,
    });
  }

  app.get(
    '/pay-api/v1/transactions',
    {
      schema: {
        tags,
        summary: 'List transactions',
        description:
          'Filters: createMethodId, batchId, noBatch, statusId, customerId, dateFrom/dateTo; search matches id, ' +
          'referenceId, masked card number, auth code and customer name or email.',
        querystring: TransactionListQuery,
        response: { 200: TransactionListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const merchantId = merchantOf(request).merchantId;
      const range = dateRange('dateFrom', q.dateFrom, 'dateTo', q.dateTo);
      const result = await transactions.list(
        {
          merchantId,
          createMethodId: q.createMethodId,
          batchId: q.batchId,
          noBatch: q.noBatch,
          statusId: q.statusId,
          customerId: q.customerId,
          from: range.from,
          to: range.to,
        },
        pageRequest(q, TRANSACTION_LIST),
      );
      const [configuration, achEntries] = await Promise.all([
        merchants.getConfiguration(merchantId),
        // One read for the page's ACH entries, whatever their number.
        deps.ach.entries(
          merchantId,
          result.items.filter((t) => t.method === 'ach').map((t) => t.id),
        ),
      ]);
      return {
        items: result.items.map((t) => transactionListItem(t, configuration, achEntries.get(t.id))),
        total: result.total,
      };
    },
  );
}
