import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { AchPaymentsService } from '../payments/ach/ach.service.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { holdResult } from './v2-transactions.mapper.js';
import { ProcessorResponse, TransactionIdParams } from './v2-transactions.schemas.js';

const HoldBody = Type.Object(
  { transactionId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false, examples: [{ transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5d20' }] },
);

const HoldResult = Type.Object(
  {
    transactionId: Type.String({ format: 'uuid' }),
    type: Type.Union([Type.Literal('Hold'), Type.Literal('UnHold')]),
    transactionStatus: Type.Literal('Approved', { description: 'The move was made (a refusal is a 400).' }),
    processorResponse: ProcessorResponse,
  },
  {
    examples: [
      {
        transactionId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5d20',
        type: 'Hold',
        transactionStatus: 'Approved',
        processorResponse: {
          processorName: 'SandboxAch',
          responseCode: '00',
          responseMessage: 'Held',
          responseDefinition: 'Held',
        },
      },
    ],
  },
);

export interface V2HoldsRouteDeps {
  ach: AchPaymentsService;
  merchants: MerchantsService;
  transactions: TransactionsService;
}

/** `/v2/transactions/hold` and `/release-hold`: keep a Scheduled ACH debit out of its file, then let it go. */
export function v2HoldsRoutes(app: App, deps: V2HoldsRouteDeps): void {
  const routes = [
    {
      url: '/v2/transactions/hold',
      published: '/v2/transactions/:transactionId/ach-hold',
      summary: 'Hold a Scheduled ACH transaction',
      description:
        'A Scheduled ACH transaction stays out of every NACHA file until it is released (its status becomes Held, ' +
        '`transaction.ach.held` is sent). Anything else, a card transaction among them, is a 400 naming its status.',
      move: (merchantId: string, id: string, claim: Parameters<AchPaymentsService['hold']>[2]) =>
        deps.ach.hold(merchantId, id, claim),
    },
    {
      url: '/v2/transactions/release-hold',
      published: '/v2/transactions/:transactionId/ach-release',
      summary: 'Release a Held ACH transaction',
      description:
        'Scheduled again, for the next cutoff window if its own has passed. Only a Held ACH transaction: 400 ' +
        'otherwise.',
      move: (merchantId: string, id: string, claim: Parameters<AchPaymentsService['unhold']>[2]) =>
        deps.ach.unhold(merchantId, id, claim),
    },
  ];
  for (const route of routes) {
    const run = async (merchantId: string, id: string, claim: Parameters<typeof route.move>[2]) => {
      const t = await deps.transactions.get(merchantId, id);
      if (!t) throw new NotFoundError('Transaction', id);
      if (t.method !== 'ach') {
        throw ValidationError.field('transactionId', 'Only an ACH transaction can be held or released.');
      }
      const moved = await route.move(merchantId, id, claim);
      return holdResult(moved, t, await deps.merchants.getConfiguration(merchantId));
    };
    const schema = {
      tags: ['Transactions (v2)'],
      summary: route.summary,
      description: route.description,
      response: { 200: HoldResult, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
    };
    // The older revision: the id in the body.
    app.post(route.url, { config: { idempotent: true }, schema: { ...schema, body: HoldBody } }, async (request) =>
      run(merchantOf(request).merchantId, request.body.transactionId, request.idempotency),
    );
    // The published revision: the id in the path, no body (a bodyless POST with Content-Length 0).
    app.post(
      route.published,
      {
        config: { idempotent: true },
        schema: { ...schema, summary: `${route.summary} (published path)`, params: TransactionIdParams },
      },
      async (request) => run(merchantOf(request).merchantId, request.params.transactionId, request.idempotency),
    );
  }
}
