import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { merchantOperation } from '../../platform/http/merchant-operation.js';
import { pageRequest } from '../../platform/http/paging.js';
import type { App } from '../../platform/http/server.js';
import { fromCents, optionalCents } from '../../platform/money.js';
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

function draft(merchantId: string, body: CreateBody): PosDraft {
  checkCurrency('currencyCode', body.currencyCode);
  if (body.pricingType === 'Cash') {
    throw ValidationError.field('pricingType', 'Cash payments are recorded by the merchant, not processed: Card only.');
  }
  const type = body.transactionType ?? 'Sale';
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
    amountCents: optionalCents(body.amount),
    tipCents: null,
    tipRateMpct: null,
    currencyId: 1,
    posDeviceId: body.posDeviceId?.trim() || null,
    referenceId: body.referenceId?.trim() || null,
    processorId: body.paymentProcessorId ?? null,
    customerId: null,
    targetTransactionId: body.targetTransactionId ?? null,
    readingMethodId: body.readingMethod === 'KeyedIn' ? ReadingMethod.KeyedIn : ReadingMethod.Reading,
    requestStorageConsent: body.shouldRequestPaymentMethodStorageConsent ?? false,
  };
}

const created = (p: PosTransaction) => ({ posTransactionId: p.id, status: POS_STATUS_NAMES[p.statusId]! });

function item(p: PosTransaction) {
  return {
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

/** `/v2/pos/transactions`: the POS API in the version 2 names, over the same POS service as `/pos-api/v1`. */
export function v2PosRoutes(app: App, deps: { pos: PosService }): void {
  const { pos } = deps;
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
    run: ({ merchantId, body, idempotency }) =>
      pos.create(draft(merchantId, body), body.shouldWaitForAcceptanceByTerminal ?? false, idempotency),
    view: created,
  });

  merchantOperation(app, {
    method: 'GET',
    url: base,
    schema: {
      tags,
      summary: 'List POS transactions',
      description: 'Newest first by default; `page` is zero-based.',
      querystring: ListQuery,
      response: { 200: ListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
    },
    run: ({ merchantId, query }) =>
      pos.list({ merchantId, terminalId: query.terminalId }, pageRequest(query, POS_LIST)),
    view: (result) => ({ items: result.items.map(item), total: result.total }),
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
    run: ({ merchantId, params, query }) =>
      pos.read(merchantId, params.id, query.waitForTransactionProcessing ?? false),
    view: (found) => ({
      ...item(found),
      merchantId: found.merchantId,
      paymentProcessorId: found.processorId,
      posDeviceId: found.posDeviceId,
      referenceId: found.referenceId,
    }),
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
    run: ({ merchantId, params }) => pos.cancel(merchantId, params.id),
    view: created,
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
