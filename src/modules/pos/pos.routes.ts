import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { merchantOperation } from '../../platform/http/merchant-operation.js';
import { pageRequest } from '../../platform/http/paging.js';
import type { App } from '../../platform/http/server.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { posCreatedView, posDraft, posListItem, posView } from './pos.mapper.js';
import {
  CreatePosBody,
  PosCreatedView,
  PosGetQuery,
  PosIdParams,
  PosListQuery,
  PosListResponse,
  PosView,
} from './pos.schemas.js';
import type { PosService } from './pos.service.js';
import { POS_LIST } from './pos-list.js';

const EMPTY = Type.Unknown({ description: 'Empty body (200 with no content).', examples: [''] });

/** What these routes use. */
export interface PosRouteDeps {
  pos: PosService;
  merchants: MerchantsService;
  transactions: TransactionsService;
}

export function posRoutes(app: App, deps: PosRouteDeps): void {
  const { pos } = deps;
  const tags = ['POS transactions'];
  const base = '/pos-api/v1/pos-transactions';
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);

  merchantOperation(app, {
    method: 'POST',
    url: base,
    config: { idempotent: true },
    schema: {
      tags,
      summary: 'Create a POS transaction on a terminal',
      description:
        'Sends a sale, authorization, capture, void or refund to a SemiIntegrated, online terminal of the ' +
        'merchant (Standalone, offline or deactivated: 400). One transaction at a time per terminal: a second ' +
        'one, even sent at the same instant, is a 400 "already in progress". The terminal reads the card (capture ' +
        'and void need none) and the payment is card present (cardDataSource from the read, source 3 Terminal). ' +
        'With `waitForAcceptanceByTerminal` the answer waits until the terminal accepts or declines (at most ' +
        '30 s). Honours `idempotency-key`.',
      body: CreatePosBody,
      response: { 200: PosCreatedView, ...ERRORS },
    },
    run: ({ merchantId, body, idempotency }) =>
      pos.create(posDraft(merchantId, body), body.waitForAcceptanceByTerminal ?? false, idempotency),
    view: posCreatedView,
  });

  merchantOperation(app, {
    method: 'GET',
    url: base,
    schema: {
      tags,
      summary: 'List POS transactions',
      querystring: PosListQuery,
      response: { 200: PosListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
    },
    run: ({ merchantId, query }) =>
      pos.list({ merchantId, terminalId: query.terminalId }, pageRequest(query, POS_LIST)),
    view: (result) => ({ items: result.items.map(posListItem), total: result.total }),
  });

  merchantOperation(app, {
    method: 'GET',
    url: `${base}/:posTransactionId`,
    schema: {
      tags,
      summary: 'Get a POS transaction',
      description:
        'With `waitForTransactionProcessing=true` (or `waitForCompletion=true`) the request is held until the ' +
        'transaction is final (`isCompleted`) or the bound passes (POS_LONG_POLL_MS, default 30 s), then ' +
        'answered as it stands. Waiting polls nothing and holds no database connection; a move made on any node ' +
        'releases it.',
      params: PosIdParams,
      querystring: PosGetQuery,
      response: { 200: PosView, ...ERRORS },
    },
    run: ({ merchantId, params, query }) =>
      pos.read(
        merchantId,
        params.posTransactionId,
        (query.waitForTransactionProcessing || query.waitForCompletion) ?? false,
      ),
    view: (found) => posView(found, deps),
  });

  merchantOperation(app, {
    method: 'POST',
    url: `${base}/:posTransactionId/cancel`,
    schema: {
      tags,
      summary: 'Cancel a POS transaction',
      description:
        'Only before the card is read (status 1 or 2) → 4 CancelByPos; a cancel racing a card read: exactly one ' +
        'wins. Once the card is read, or when final: 400.',
      params: PosIdParams,
      response: { 200: PosCreatedView, ...ERRORS },
    },
    run: ({ merchantId, params }) => pos.cancel(merchantId, params.posTransactionId),
    view: posCreatedView,
  });

  merchantOperation(app, {
    method: 'POST',
    url: `${base}/:posTransactionId/print`,
    schema: {
      tags,
      summary: 'Print the receipt again',
      description:
        "A Completed transaction's receipt, printed again on its terminal. Offline: 400. Out of paper: 400, and " +
        '`terminal.out_of_paper` is recorded. Answers 200 with an empty body.',
      params: PosIdParams,
      response: { 200: EMPTY, ...ERRORS },
    },
    run: ({ merchantId, params }) => pos.print(merchantId, params.posTransactionId),
    view: () => undefined,
  });
}
