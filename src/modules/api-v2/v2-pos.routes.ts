import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { merchantOperation } from '../../platform/http/merchant-operation.js';
import { dateRange, pageInfoOf, publishedPageRequest } from '../../platform/http/paging.js';
import type { App } from '../../platform/http/server.js';
import { fromCents, optionalCents, optionalMillipercent } from '../../platform/money.js';
import { POS_STATUS_NAMES, POS_TYPE_NAMES, type PosTransaction, PosType, ReadingMethod } from '../pos/pos.model.js';
import { PrintBody } from '../pos/pos.schemas.js';
import type { PosDraft, PosService } from '../pos/pos.service.js';
import { POS_LIST } from '../pos/pos-list.js';
import { checkCurrency } from './v2-commands.js';
import { EMPTY_OK } from './v2-empty.js';
import {
  type CreateBody,
  CreatedView,
  CreateBody as CreateSchema,
  GetQuery,
  IdParams,
  ListQuery,
  ListResponse,
  POS_TYPES,
  View,
} from './v2-pos.schemas.js';
import { publishedPosFields, statusIdsOf } from './v2-pos-published.js';
import { listTerms } from './v2-revision.js';
import { type TransactionViewDeps, transactionViews } from './v2-transaction-views.js';

/** The type asked for: the older `transactionType`, or the published `captureMethod` (Manual: an authorization). */
function typeOf(body: CreateBody): string {
  const byCapture = body.captureMethod ? (body.captureMethod === 'Manual' ? 'Authorization' : 'Sale') : undefined;
  if (body.transactionType && byCapture && body.transactionType !== byCapture) {
    throw ValidationError.field(
      'captureMethod',
      `captureMethod ${body.captureMethod} is not a ${body.transactionType}.`,
    );
  }
  return body.transactionType ?? byCapture ?? 'Sale';
}

/** One of two names for the same thing (the older and the published); two different values are a 400. */
function either<T>(field: string, older: T | null | undefined, published: T | null | undefined): T | undefined {
  if (older != null && published != null && older !== published) {
    throw ValidationError.field(field, `Send ${field} once: the two names carry different values.`);
  }
  return published ?? older ?? undefined;
}

function draft(merchantId: string, body: CreateBody): PosDraft {
  checkCurrency('currencyCode', body.currencyCode);
  if (body.pricingType === 'Cash') {
    throw ValidationError.field('pricingType', 'Cash payments are recorded by the merchant, not processed: Card only.');
  }
  if (body.initiationChannel === 'Deeplink') {
    throw ValidationError.field('initiationChannel', 'Terminals here are reached through the cloud: Cloud only.');
  }
  const tip = body.extraAmounts;
  if (tip?.tipAmount && tip.tipRate) {
    throw ValidationError.field('extraAmounts', 'Send tipAmount or tipRate, not both.');
  }
  const type = typeOf(body);
  if (!(POS_TYPES as readonly string[]).includes(type)) {
    throw ValidationError.field(
      'transactionType',
      `A terminal takes ${POS_TYPES.join(', ')}; '${type}' is not a POS transaction here.`,
    );
  }
  return {
    merchantId,
    terminalId: body.terminalId,
    typeId: PosType[type as (typeof POS_TYPES)[number]],
    amountCents: optionalCents(either('baseAmount', body.amount, body.baseAmount)),
    tipCents: optionalCents(tip?.tipAmount || null),
    tipRateMpct: optionalMillipercent(tip?.tipRate || null),
    currencyId: 1,
    posDeviceId: body.posDeviceId?.trim() || null,
    referenceId: body.referenceId?.trim() || null,
    processorId: body.paymentProcessorId ?? null,
    customerId: body.customerId ?? null,
    targetTransactionId: body.targetTransactionId ?? null,
    readingMethodId:
      body.readingMethod === 'KeyedIn' || body.readingMethod === 'KeyedEntry'
        ? ReadingMethod.KeyedIn
        : ReadingMethod.Reading,
    requestStorageConsent:
      either(
        'requestPaymentMethodStorageConsent',
        body.shouldRequestPaymentMethodStorageConsent,
        body.requestPaymentMethodStorageConsent,
      ) ?? false,
  };
}

const waitFor = (body: CreateBody) =>
  either('waitForAcceptanceByTerminal', body.shouldWaitForAcceptanceByTerminal, body.waitForAcceptanceByTerminal) ??
  false;

function item(p: PosTransaction) {
  return {
    ...publishedPosFields(p, null),
    id: p.id,
    createdOn: p.createdAt.toISOString(),
    terminalId: p.terminalId,
    status: POS_STATUS_NAMES[p.statusId]!,
    transactionId: p.transactionId,
    amount: p.amountCents === null ? null : fromCents(p.amountCents),
    currencyCode: 'USD',
    targetTransactionId: p.targetTransactionId,
    transactionType: POS_TYPE_NAMES[p.typeId]!,
  };
}

/** A list item (PosItem of the published revision): no linkedTransaction. */
function listItem(p: PosTransaction) {
  const { linkedTransaction: _, ...rest } = item(p);
  return rest;
}

/**
 * `/v2/pos/transactions`: the POS API in both revisions' names (the older `status`, `amount`, `id`; the published
 * `posTransactionStatus`, `baseAmount`, `linkedTransaction`), over the same POS service as `/pos-api/v1`.
 */
export function v2PosRoutes(app: App, deps: { pos: PosService } & TransactionViewDeps): void {
  const { pos } = deps;
  /** The POS transaction with its payment in the published transaction names, once there is one. */
  const full = async (p: PosTransaction) => {
    const payment = p.transactionId ? await deps.transactions.get(p.merchantId, p.transactionId) : undefined;
    const linked = payment ? (await transactionViews(deps, p.merchantId, [payment], 'published'))[0] : null;
    return {
      ...item(p),
      ...publishedPosFields(p, linked),
      merchantId: p.merchantId,
      paymentProcessorId: p.processorId,
      posDeviceId: p.posDeviceId,
      referenceId: p.referenceId,
    };
  };
  const tags = ['POS transactions (v2)'];
  const base = '/v2/pos/transactions';
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);

  merchantOperation(app, {
    method: 'POST',
    url: base,
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Create a POS transaction on a terminal',
      description:
        'As POST /pos-api/v1/pos-transactions: a SemiIntegrated, online terminal, one transaction at a time (a ' +
        'second is a 400 "already in progress"). `shouldWaitForAcceptanceByTerminal` answers once the terminal ' +
        'accepts or declines (at most 30 s). Honours `idempotency-key`.',
      body: CreateSchema,
      response: { 200: CreatedView, ...ERRORS },
    },
    run: async ({ merchantId, body, idempotency }) =>
      full(await pos.create(draft(merchantId, body), waitFor(body), idempotency)),
    view: (answer) => answer,
  });

  merchantOperation(app, {
    method: 'GET',
    url: base,
    schema: {
      tags,
      summary: 'List POS transactions',
      description:
        'Newest first by default; `page` (older) or `pageIndex` (published) is zero-based. Answers `items` in ' +
        'both revisions’ names with `total` and `pageInfo`. Filters: `terminalId`, ' +
        '`fromDate`/`toDate` (created), `posTransactionStatus` (the published statuses).',
      querystring: ListQuery,
      response: { 200: ListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
    },
    run: async ({ merchantId, query, request }) => {
      const { from, to } = dateRange('fromDate', query.fromDate, 'toDate', query.toDate);
      const { page, pageIndex, pageSize } = publishedPageRequest(query, POS_LIST, listTerms(request, query));
      const result = await pos.list(
        {
          merchantId,
          terminalId: query.terminalId,
          from,
          to,
          ...(query.posTransactionStatus ? { statusIds: statusIdsOf(query.posTransactionStatus) } : {}),
        },
        page,
      );
      return {
        items: result.items.map(listItem),
        total: result.total,
        pageInfo: pageInfoOf(pageIndex, pageSize, result.total),
      };
    },
    view: (answer) => answer,
  });

  merchantOperation(app, {
    method: 'GET',
    url: `${base}/:id`,
    schema: {
      tags,
      summary: 'Get a POS transaction',
      description:
        'With `waitForTransactionProcessing=true` the request is held until the transaction is final or the ' +
        'bound passes (POS_LONG_POLL_MS, default 30 s), then answered as it stands; a move on any node releases it.',
      params: IdParams,
      querystring: GetQuery,
      response: { 200: View, ...ERRORS },
    },
    run: async ({ merchantId, params, query }) =>
      full(await pos.read(merchantId, params.id, query.waitForTransactionProcessing ?? false)),
    view: (answer) => answer,
  });

  merchantOperation(app, {
    method: 'POST',
    url: `${base}/:id/cancel`,
    schema: {
      tags,
      summary: 'Cancel a POS transaction',
      description: 'Only before the card is read: CancelByPos. Once the card is read, or when final: 400.',
      params: IdParams,
      response: { 200: CreatedView, ...ERRORS },
    },
    run: async ({ merchantId, params }) => full(await pos.cancel(merchantId, params.id)),
    view: (answer) => answer,
  });

  merchantOperation(app, {
    method: 'POST',
    url: `${base}/:posTransactionId/print-receipt`,
    schema: {
      tags,
      summary: 'Print the receipt again',
      description:
        "A Completed transaction's receipt, printed again on its terminal (`terminalId`, when given, must be the " +
        'one it was made on). Offline or out of paper: 400. Answers 200 with an empty body.',
      params: Type.Object({ posTransactionId: Type.String({ format: 'uuid' }) }),
      body: Type.Optional(PrintBody),
      response: { 200: EMPTY_OK, ...ERRORS },
    },
    run: ({ merchantId, params, body }) => pos.print(merchantId, params.posTransactionId, body?.terminalId),
    view: () => undefined,
  });
}
