import ipaddr from 'ipaddr.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { NotFoundError, NotImplementedError, ValidationError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { fromCents, toCents, toMillipercent } from '../../platform/money.js';
import { ZERO_COST_OPTION_NAMES } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { AchCommand } from '../payments/ach/ach.model.js';
import { SecCode } from '../payments/ach/ach.model.js';
import type { AchPaymentsService } from '../payments/ach/ach.service.js';
import { calculateAmount } from '../payments/amounts.js';
import type { CardPaymentsService } from '../payments/card-payments.service.js';
import { contactInfoOf, type PaymentCommand } from '../payments/payment-request.js';
import { CreateMethod, TransactionStatus } from '../payments/transactions.model.js';
import { TRANSACTION_LIST } from '../payments/transactions.schemas.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { normalizeAddress } from '../reference/address.js';
import { achResult, reversalResult, transactionDetail, transactionResult } from './v2-transactions.mapper.js';
import {
  type AchData,
  CalculateQuery,
  CalculateResponse,
  CaptureBody,
  CreateTransactionBody as CreateBody,
  type CreateTransactionBody,
  type CreditBody,
  CreditBody as CreditSchema,
  IdParams,
  ListQuery,
  ReversalBody,
  ReversalResult,
  SettleBody,
  SettleResult,
  TipAdjustmentBody,
  TransactionDetailView,
  TransactionIdParams,
  TransactionPage,
  TransactionResult,
} from './v2-transactions.schemas.js';

export interface V2TransactionsRouteDeps {
  cardPayments: CardPaymentsService;
  ach: AchPaymentsService;
  merchants: MerchantsService;
  transactions: TransactionsService;
}

const cents = (value: number | null | undefined) => (value == null ? null : toCents(value));
const mpct = (value: number | null | undefined) => (value == null ? null : toMillipercent(value));

/** Only US dollars are processed: any other currency is a 400 naming the field, not a silent USD charge. */
function checkCurrency(field: string, code: string | null | undefined): void {
  if (code != null && code.trim().toUpperCase() !== 'USD') {
    throw ValidationError.field(field, `'${code}' is not supported: only USD.`);
  }
}

/** The v2 create, as the payments core's card command (sale for captureMethod Auto, authorization for Manual). */
function cardCommand(merchantId: string, body: CreateTransactionBody): PaymentCommand {
  const card = body.transactionDetails.cardData!;
  const details = card.paymentMethodDetails ?? undefined;
  const extra = body.extraAmounts ?? undefined;
  return {
    kind: card.captureMethod === 'Manual' ? 'authorize' : 'sale',
    merchantId,
    processorId: body.paymentProcessorId,
    paymentMethodId: card.paymentMethodId,
    accountNumber: details?.cardNumber,
    expirationMonth: details?.expirationMonth,
    expirationYear: details?.expirationYear,
    securityCode: details?.securityCode,
    amountCents: toCents(body.baseAmount),
    tipCents: cents(extra?.tipAmount),
    percentageOffRateMpct: mpct(extra?.discountAmount),
    surchargeRateMpct: mpct(extra?.surchargeRate),
    currencyId: 1,
    billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
    shippingAddress: body.shippingAddress ? normalizeAddress(body.shippingAddress, 'shippingAddress') : null,
    contactInfo: contactInfoOf(body.contactInfo ?? undefined),
    cardDataSourceId: 1,
    referenceId: body.referenceId?.trim() || null,
    customerInitiated: body.customerInitiatedTransaction,
    createMethodId: CreateMethod.ApiToken,
  };
}

const SEC_CODES = { Web: SecCode.Web, PPD: SecCode.PPD, CCD: SecCode.CCD, Telephone: SecCode.Telephone } as const;

/** The end user's address, as the ACH rules want it: a real IPv4 (four parts) or IPv6 address. */
function requesterIp(value: string): string {
  const ip = value.trim();
  if (!ipaddr.isValid(ip) || (ipaddr.IPv4.isValid(ip) && !ipaddr.IPv4.isValidFourPartDecimal(ip))) {
    throw ValidationError.field(
      'transactionDetails.achData.requesterIpAddress',
      "'requesterIpAddress' must be an IPv4 or IPv6 address.",
    );
  }
  return ip;
}

/** The v2 create with `achData`, as the payments core's ACH debit. */
function achCommand(merchantId: string, body: CreateTransactionBody, ach: AchData): AchCommand {
  const details = ach.paymentMethodDetails ?? undefined;
  return {
    merchantId,
    direction: 'debit',
    amountCents: toCents(body.baseAmount),
    percentageOffRateMpct: mpct(body.extraAmounts?.discountAmount),
    processorId: body.paymentProcessorId,
    paymentMethodId: ach.paymentMethodId,
    accountNumber: details?.accountNumber?.trim() || null,
    routingNumber: details?.routingNumber?.trim() || null,
    secCode: SEC_CODES[ach.secCode ?? 'Web'],
    requesterIp: requesterIp(ach.requesterIpAddress),
    isFasterProcessing: ach.isFasterProcessing ?? false,
    taxId: details?.taxId,
    accountType: details?.accountType == null ? undefined : details.accountType === 'Checking' ? 1 : 2,
    accountHolderType:
      details?.accountHolderType == null ? undefined : details.accountHolderType === 'Business' ? 1 : 2,
    billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
    shippingAddress: body.shippingAddress ? normalizeAddress(body.shippingAddress, 'shippingAddress') : null,
    contactInfo: contactInfoOf(body.contactInfo ?? undefined),
    referenceId: body.referenceId?.trim() || null,
    createMethodId: CreateMethod.ApiToken,
  };
}

/** An unreferenced card credit, as the core's refund-without-reference command. */
function creditCommand(merchantId: string, body: CreditBody): PaymentCommand {
  const details = body.creditDetails.cardData!.paymentMethodDetails;
  return {
    kind: 'refund-without-reference',
    merchantId,
    processorId: body.paymentProcessorId,
    accountNumber: details.cardNumber,
    expirationMonth: details.expirationMonth,
    expirationYear: details.expirationYear,
    securityCode: details.securityCode,
    amountCents: toCents(body.baseAmount),
    currencyId: 1,
    billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
    shippingAddress: body.shippingAddress ? normalizeAddress(body.shippingAddress, 'shippingAddress') : null,
    contactInfo: contactInfoOf(body.contactInfo ?? undefined),
    cardDataSourceId: 1,
    referenceId: body.referenceId?.trim() || null,
    createMethodId: CreateMethod.ApiToken,
  };
}

/**
 * `/v2/transactions`: the surface the vendor's official SDK speaks, over the same payments core as
 * `/pay-api/v1/transactions` (docs/api-v2.md lists where the two documents differ and what is not supported yet).
 */
export function v2TransactionsRoutes(app: App, deps: V2TransactionsRouteDeps): void {
  const { cardPayments, merchants, transactions } = deps;
  const tags = ['Transactions (v2)'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404, 409);
  const configurationOf = (merchantId: string) => merchants.getConfiguration(merchantId);

  app.post(
    '/v2/transactions',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a transaction',
        description:
          'A card sale (`captureMethod` Auto, the default) or authorization (Manual), with raw card data ' +
          '(`paymentMethodDetails`) or a vaulted or orphan card (`paymentMethodId`). A decline is HTTP 200 with ' +
          '`transactionStatus` Declined. Or an ACH debit (`achData`): a new account, or a vaulted or orphan one ' +
          '(`paymentMethodId`); it is Pending until the bank clears it. `pricingType` Cash and currencies other ' +
          'than USD are a 400. Honours `idempotency-key`.',
        body: CreateBody,
        response: { 200: TransactionResult, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const body = request.body;
      checkCurrency('currencyCode', body.currencyCode);
      if (body.pricingType === 'Cash') {
        throw ValidationError.field(
          'pricingType',
          'Cash payments are recorded by the merchant, not processed: Card only.',
        );
      }
      const { cardData, achData } = body.transactionDetails;
      if (cardData && achData) {
        throw ValidationError.field('transactionDetails', 'Send cardData or achData, not both.');
      }
      if (achData) {
        const debit = await deps.ach.create({
          ...achCommand(merchantId, body, achData),
          idempotency: request.idempotency,
        });
        const t = await transactions.get(merchantId, debit.transactionId);
        return achResult(debit, t!, await configurationOf(merchantId));
      }
      if (!cardData) throw ValidationError.field('transactionDetails.cardData', 'cardData or achData is required.');
      const result = await cardPayments.pay({ ...cardCommand(merchantId, body), idempotency: request.idempotency });
      return transactionResult(result, await configurationOf(merchantId));
    },
  );

  app.get(
    '/v2/transactions',
    {
      schema: {
        tags,
        summary: 'List transactions',
        description: 'Newest first; `page` is zero-based like the other payments routes.',
        querystring: ListQuery,
        response: { 200: TransactionPage, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const result = await transactions.list(
        { merchantId: merchantOf(request).merchantId },
        pageRequest(request.query, TRANSACTION_LIST),
      );
      return { items: result.items.map(transactionDetail), total: result.total };
    },
  );

  app.get(
    '/v2/transactions/:id',
    {
      schema: {
        tags,
        summary: 'Get a transaction',
        params: IdParams,
        response: { 200: TransactionDetailView, ...ERRORS },
      },
    },
    async (request) => {
      const t = await transactions.get(merchantOf(request).merchantId, request.params.id);
      if (!t) throw new NotFoundError('Transaction', request.params.id);
      return transactionDetail(t);
    },
  );

  app.post(
    '/v2/transactions/:transactionId/capture',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Capture an authorization',
        description:
          'The whole authorized amount without `amount`; a partial capture with it. Concurrent captures capture once.',
        params: TransactionIdParams,
        body: CaptureBody,
        response: { 200: TransactionResult, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const amount = request.body?.amount;
      const result = await cardPayments.capture(
        merchantId,
        request.params.transactionId,
        amount == null ? undefined : toCents(amount),
        request.idempotency,
      );
      return transactionResult(result, await configurationOf(merchantId));
    },
  );

  app.post(
    '/v2/transactions/:transactionId/reversal',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Reverse a transaction: void or refund, as its state allows',
        description:
          'An authorization, or a sale not yet settled, is voided (the whole amount; `amount` is ignored). A ' +
          'settled sale is refunded: the whole remaining amount, or `amount` for a partial refund.',
        params: TransactionIdParams,
        body: ReversalBody,
        response: { 200: ReversalResult, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const id = request.params.transactionId;
      const t = await transactions.get(merchantId, id);
      if (!t) throw new NotFoundError('Transaction', id);
      if (t.method === 'ach') {
        throw ValidationError.field('transactionId', 'ACH reversals are not served here yet: use /pay-api/v1/ach.');
      }
      const voidable =
        t.statusId === TransactionStatus.Authorized || (t.statusId === TransactionStatus.Captured && !t.settledAt);
      const amount = request.body?.amount;
      const result = voidable
        ? await cardPayments.void(merchantId, id, request.idempotency)
        : await cardPayments.refund(
            merchantId,
            id,
            amount == null ? undefined : toCents(amount),
            1,
            request.idempotency,
          );
      return reversalResult(result, await configurationOf(merchantId));
    },
  );

  app.post(
    '/v2/transactions/tip-adjustment',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Change the tip of an authorized or unsettled captured card transaction',
        body: TipAdjustmentBody,
        response: { 200: TransactionResult, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const result = await cardPayments.tipAdjust(
        merchantId,
        request.body.transactionId,
        toCents(request.body.tipAmount),
        request.idempotency,
      );
      return transactionResult(result, await configurationOf(merchantId));
    },
  );

  app.post(
    '/v2/transactions/credit',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Credit a card without an original transaction',
        description:
          'An unreferenced card refund (raw card data only, as the document says); it nets in the open batch. ACH ' +
          'credits (`achData`) are not served here yet: 501.',
        body: CreditSchema,
        response: { 200: ReversalResult, ...errorResponses(...AUTHENTICATED_ERRORS, 404, 501) },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const body = request.body;
      checkCurrency('currencyCode', body.currencyCode);
      const { cardData, achData } = body.creditDetails;
      if (cardData && achData) throw ValidationError.field('creditDetails', 'Send cardData or achData, not both.');
      if (achData) throw new NotImplementedError('ACH credits through /v2 are not available yet.');
      if (!cardData) throw ValidationError.field('creditDetails.cardData', 'cardData or achData is required.');
      const result = await cardPayments.pay({ ...creditCommand(merchantId, body), idempotency: request.idempotency });
      return reversalResult(result, await configurationOf(merchantId));
    },
  );

  app.post(
    '/v2/settlements/settle',
    {
      schema: {
        tags: ['Settlements (v2)'],
        summary: "Close a processor's open batch now",
        description:
          'As POST /pay-api/v1/transactions/settle: 409 while an operation on one of its transactions is in flight.',
        body: SettleBody,
        response: { 200: SettleResult, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const configuration = await configurationOf(merchantId);
      const processor = configuration.processors.find((p) => p.id === request.body.paymentProcessorId);
      if (!processor) throw new NotFoundError('PaymentProcessor', request.body.paymentProcessorId);
      const settled = await transactions.settle(merchantId, processor.id);
      return {
        status: settled.details.code,
        message: settled.message,
        processorResponseCode: settled.processorResponseCode,
      };
    },
  );

  app.get(
    '/v2/transactions/calculate-amount',
    {
      schema: {
        tags,
        summary: 'What a payment of this amount totals, per tender',
        description:
          'As the vendor document says: `discountRate` and `tipRate` are fractions (0.10 is 10%), `surchargeRate` a ' +
          'percentage (2.5 is 2.5%); `pricingType` Cash answers the cash price (dual pricing).',
        querystring: CalculateQuery,
        response: { 200: CalculateResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      checkCurrency('currencyCode', q.currencyCode);
      const { settings } = await configurationOf(merchantOf(request).merchantId);
      const input = {
        baseCents: toCents(q.baseAmount),
        percentageOffRateMpct: q.discountRate == null ? null : Math.round(q.discountRate * 100_000),
        tipCents: cents(q.tipAmount),
        tipRateMpct: q.tipRate == null ? null : Math.round(q.tipRate * 100_000),
        zeroCostOptionId: settings.zeroCostProcessingOptionId,
        surchargeRateMpct: mpct(q.surchargeRate) ?? settings.defaultSurchargeRateMpct,
        cashDiscountRateMpct: settings.defaultCashDiscountRateMpct,
        dualPricingRateMpct: settings.defaultDualPricingRateMpct,
        useCardPrice: q.pricingType === undefined ? null : q.pricingType === 'Card',
      };
      const view = (tender: 'cash' | 'credit' | 'debit' | 'ach') => {
        const a = calculateAmount({ ...input, tender });
        return {
          baseAmount: fromCents(a.baseCents),
          discountAmount: fromCents(a.percentageOffCents + a.cashDiscountCents),
          surchargeAmount: fromCents(a.surchargeCents),
          tipAmount: fromCents(a.tipCents),
          taxAmount: fromCents(a.taxCents),
          totalAmount: fromCents(a.totalCents),
        };
      };
      return {
        currencyCode: 'USD',
        zeroCostProcessingOption: ZERO_COST_OPTION_NAMES[settings.zeroCostProcessingOptionId] ?? 'None',
        pricingType: q.pricingType ?? 'Card',
        cash: view('cash'),
        creditCard: view('credit'),
        debitCard: view('debit'),
        ach: view('ach'),
      };
    },
  );
}
