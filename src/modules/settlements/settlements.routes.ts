import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { listQuerySchema, Paged, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { fromCents } from '../../platform/money.js';
import { BATCH_FILTERS, batchFilter } from './batch-query.js';
import { BATCH_STATUS_NAMES } from './settlements.model.js';
import type { SettlementsService } from './settlements.service.js';
import { BATCH_LIST, type Batch } from './settlements.service.js';

const BatchQuery = listQuerySchema(BATCH_LIST, {
  ...BATCH_FILTERS,
  statusId: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 3, description: '1 Open, 2 Settled, 3 PendingSettlement.' }),
  ),
});

const BatchItem = Type.Object({
  id: Type.String({ format: 'uuid' }),
  paymentProcessorId: Type.String({ format: 'uuid' }),
  paymentProcessorName: Type.String(),
  externalBatchId: Type.Union([Type.String(), Type.Null()]),
  batchDateTime: Type.String({ format: 'date-time' }),
  closesAt: Type.String({ format: 'date-time', description: 'When an Open batch closes by itself.' }),
  transactionCount: Type.Integer(),
  salesAmount: Type.Number(),
  refundsAmount: Type.Number(),
  netAmount: Type.Number(),
  statusId: Type.Integer(),
  statusName: Type.String(),
  status: Type.String(),
});

const EXAMPLE_BATCH = {
  id: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c03',
  paymentProcessorId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c02',
  paymentProcessorName: 'Sandbox Card',
  externalBatchId: 'SBXB1A2B3C',
  batchDateTime: '2026-11-22T03:00:00.000Z',
  closesAt: '2026-11-22T03:00:00.000Z',
  transactionCount: 12,
  salesAmount: 1300.75,
  refundsAmount: 50,
  netAmount: 1250.75,
  statusId: 2,
  statusName: 'Settled',
  status: 'Settled',
};

export function batchView(b: Batch) {
  return {
    id: b.id,
    paymentProcessorId: b.processorId,
    paymentProcessorName: b.processorName,
    externalBatchId: b.externalBatchId,
    batchDateTime: (b.settledAt ?? b.openedAt).toISOString(),
    closesAt: b.closesAt.toISOString(),
    transactionCount: b.transactionCount,
    salesAmount: fromCents(b.salesCents),
    refundsAmount: fromCents(b.refundsCents),
    netAmount: fromCents(b.netCents),
    statusId: b.statusId,
    statusName: BATCH_STATUS_NAMES[b.statusId]!,
    status: BATCH_STATUS_NAMES[b.statusId]!,
  };
}

/** What these routes use. */
export interface SettlementsRouteDeps {
  settlements: SettlementsService;
}

export function settlementsRoutes(app: App, deps: SettlementsRouteDeps): void {
  app.get(
    '/pay-api/v1/settlements/batches',
    {
      schema: {
        tags: ['Settlements'],
        summary: 'List settlement batches',
        description: 'Open batches show live totals; settled ones the totals frozen when they closed.',
        querystring: BatchQuery,
        response: {
          200: Paged(BatchItem, { items: [EXAMPLE_BATCH], total: 1 }),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await deps.settlements.list(
        { ...batchFilter(merchantOf(request).merchantId, q), statusId: q.statusId },
        pageRequest(q, BATCH_LIST),
      );
      return { items: result.items.map(batchView), total: result.total };
    },
  );
}
