import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { merchantOperation } from '../../platform/http/merchant-operation.js';
import { pageInfoOf } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { optionalCents, toCents, toMillipercent } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { AchPaymentsService } from '../payments/ach/ach.service.js';
import { percentOf } from '../payments/amounts.js';
import type { CardPaymentsService } from '../payments/card-payments.service.js';
import type { Transaction } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { VaultService } from '../vault/vault.service.js';
import { achCommand, cardCommand, checkCurrency, customerOfMethod } from './v2-commands.js';
import { listTerms, revisionOf } from './v2-revision.js';
import { v2TransactionList } from './v2-transaction-list.js';
import { transactionViews } from './v2-transaction-views.js';
import { achResult, transactionResult } from './v2-transactions.mapper.js';
import {
  CaptureBody,
  CreateTransactionBody,
  IdParams,
  ListQuery,
  PublishedTipBody,
  TipAdjustmentBody,
  TransactionDetailView,
  TransactionIdParams,
  TransactionPage,
  TransactionResult,
} from './v2-transactions.schemas.js';

export interface V2TransactionsRouteDeps {
  cardPayments: CardPaymentsService;
  vault: VaultService;
  ach: AchPaymentsService;
  merchants: MerchantsService;
  transactions: TransactionsService;
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

  const details = (merchantId: string, list: Transaction[], revision: 'published' | 'older') =>
    transactionViews(deps, merchantId, list, revision);

  merchantOperation(app, {
    method: 'POST',
    url: '/v2/transactions',
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
      body: CreateTransactionBody,
      response: { 200: TransactionResult, ...ERRORS },
    },
    run: async ({ merchantId, body, idempotency, request }) => {
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
        const debit = await deps.ach.create(
          withFields(
            achCommand(merchantId, 'debit', body, achData, 'transactionDetails.achData', revisionOf(request)),
            {
              customerId: achData.paymentMethodId
                ? await customerOfMethod(deps.vault, merchantId, achData.paymentMethodId, body.customerId)
                : (body.customerId ?? null),
              idempotency,
            },
          ),
        );
        return { kind: 'ach' as const, debit, transaction: (await transactions.get(merchantId, debit.transactionId))! };
      }
      if (!cardData) throw ValidationError.field('transactionDetails.cardData', 'cardData or achData is required.');
      // The command is this request's own: its last fields are set on it rather than copied into a new one.
      const command = cardCommand(merchantId, body, revisionOf(request));
      command.customerId = await customerOfMethod(deps.vault, merchantId, cardData.paymentMethodId, body.customerId);
      command.payingCustomerId = cardData.paymentMethodId ? null : (body.customerId ?? null);
      command.idempotency = idempotency;
      const card = await cardPayments.pay(command);
      return { kind: 'card' as const, card };
    },
    view: async (made, { merchantId }) => {
      const configuration = await configurationOf(merchantId);
      return made.kind === 'ach'
        ? achResult(made.debit, made.transaction, configuration)
        : transactionResult(made.card, configuration);
    },
  });

  app.get(
    '/v2/transactions',
    {
      schema: {
        tags,
        summary: 'List transactions',
        description:
          'Newest first unless `sortBy` says otherwise. Answers `items` with `pageInfo` (the published revision) and ' +
          '`total` (the older one); a request in the older terms (`page` without `pageIndex`, or `x-api-version` ' +
          '2.12) gets 15 items by default and the older `cardDetails.cardType`, any other 20 and the published ' +
          'one (docs/api-v2.md). The published filters, taken either way: `fromDate`, ' +
          '`toDate`, `sourceType`, `sourceId`, `batchId` (`null`: not yet batched), `transactionStatus`, ' +
          '`paymentMethodType`, `customerId`, `minAmount`, `maxAmount` (on processedAmount), `referenceId`; ' +
          '`merchantId` is accepted and not bound. A `pageIndex` past the last page answers no items.',
        querystring: ListQuery,
        response: { 200: TransactionPage, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const terms = listTerms(request, request.query);
      const { filter, page, pageIndex, pageSize } = v2TransactionList(merchantId, request.query, terms);
      const result = await transactions.list(filter, page);
      const items = await details(merchantId, result.items, terms);
      // Both revisions' envelopes; the items in the request's terms (they differ on `cardDetails.cardType`).
      return { items, total: result.total, pageInfo: pageInfoOf(pageIndex, pageSize, result.total) };
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
      return (await details(t.merchantId, [t], revisionOf(request)))[0];
    },
  );

  merchantOperation(app, {
    method: 'POST',
    url: '/v2/transactions/:transactionId/capture',
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Capture an authorization',
      description:
        'The whole authorized amount without `amount`; a partial capture with it. Concurrent captures capture once.',
      params: TransactionIdParams,
      body: Type.Optional(CaptureBody),
      response: { 200: TransactionResult, ...ERRORS },
    },
    run: ({ merchantId, params, body, idempotency }) =>
      cardPayments.capture(
        merchantId,
        params.transactionId,
        optionalCents(body?.amount ?? body?.captureAmount) ?? undefined,
        idempotency,
      ),
    view: async (result, { merchantId }) => transactionResult(result, await configurationOf(merchantId)),
  });

  merchantOperation(app, {
    method: 'POST',
    url: '/v2/transactions/tip-adjustment',
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Change the tip of an authorized or unsettled captured card transaction',
      body: TipAdjustmentBody,
      response: { 200: TransactionResult, ...ERRORS },
    },
    run: ({ merchantId, body, idempotency }) =>
      cardPayments.tipAdjust(merchantId, body.transactionId, toCents(body.tipAmount), idempotency),
    view: async (result, { merchantId }) => transactionResult(result, await configurationOf(merchantId)),
  });

  merchantOperation(app, {
    method: 'POST',
    url: '/v2/transactions/:transactionId/tip-adjustment',
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Change the tip (published path)',
      description:
        'The published revision’s form: the transaction in the path, a `tipAmount` or a `tipRate` (a % of the ' +
        'base amount, 18.5 is 18.5%), one of them.',
      params: TransactionIdParams,
      body: PublishedTipBody,
      response: { 200: TransactionResult, ...ERRORS },
    },
    run: async ({ merchantId, params, body, idempotency }) => {
      const amount = body.tipAmount ?? null;
      const rate = body.tipRate ?? null;
      if ((amount === null) === (rate === null)) {
        throw ValidationError.field('tipAmount', "Send one of 'tipAmount' or 'tipRate'.");
      }
      // Another merchant's id (or none) is a 404 before any rule of the merchant's own is checked.
      const t = await transactions.get(merchantId, params.transactionId);
      if (!t) throw new NotFoundError('Transaction', params.transactionId);
      const tipCents = rate === null ? toCents(amount!) : percentOf(t.baseCents, toMillipercent(rate));
      return cardPayments.tipAdjust(merchantId, params.transactionId, tipCents, idempotency);
    },
    view: async (result, { merchantId }) => transactionResult(result, await configurationOf(merchantId)),
  });
}
