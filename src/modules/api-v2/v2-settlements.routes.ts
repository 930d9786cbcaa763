import Type, { type TSchema } from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ConflictError, NotFoundError } from '../../platform/http/errors.js';
import {
  DateFilter,
  listQuerySchema,
  PageInfo,
  PublishedPaging,
  pageInfoOf,
  publishedPageRequest,
} from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { fromCents } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { BATCH_FILTERS, batchFilter } from '../settlements/batch-query.js';
import { BatchStatus } from '../settlements/settlements.model.js';
import { BATCH_LIST, type Batch, type SettlementsService } from '../settlements/settlements.service.js';
import { listTerms } from './v2-revision.js';
import { SettleBody, SettleResult } from './v2-transactions.schemas.js';

const PUBLISHED_BATCH_STATUSES = ['Open', 'PendingSettlement', 'Settled', 'Declined'] as const;
const PUBLISHED_STATUS_IDS: Record<(typeof PUBLISHED_BATCH_STATUSES)[number], number[]> = {
  Open: [BatchStatus.Open],
  PendingSettlement: [BatchStatus.PendingSettlement],
  Settled: [BatchStatus.Settled],
  // Tessera's processors never decline a batch close (a refused close stays PendingSettlement and is retried).
  Declined: [-1],
};

const BatchQuery = listQuerySchema(BATCH_LIST, {
  ...BATCH_FILTERS,
  ...PublishedPaging,
  fromDate: DateFilter('Alias of dateFrom (published revision).'),
  toDate: DateFilter('Alias of dateTo (published revision).'),
  batchStatus: Type.Optional(
    Type.Union(
      PUBLISHED_BATCH_STATUSES.map((s) => Type.Literal(s)),
      { description: 'The published revision’s batch status (PendingSettlement apart from Open).' },
    ),
  ),
  status: Type.Optional(
    Type.Union([Type.Literal('Open'), Type.Literal('Settled')], {
      description: 'Open (taking payments, or closing) or Settled.',
    }),
  ),
});

const BatchItem = Type.Object({
  id: Type.String({ format: 'uuid' }),
  paymentProcessorId: Type.String({ format: 'uuid' }),
  paymentProcessorName: Type.String(),
  externalBatchId: Type.Union([Type.String(), Type.Null()]),
  batchDateTime: Type.String({ format: 'date-time' }),
  transactionCount: Type.Integer(),
  netAmount: Type.Number(),
  refundsAmount: Type.Number(),
  salesAmount: Type.Number(),
  status: Type.Union([Type.Literal('Open'), Type.Literal('Settled')], {
    description: 'A batch closing at this moment (PendingSettlement on v1) is still Open here.',
  }),
});

const O = <T extends TSchema>(schema: T) => Type.Optional(schema);
const PublishedBatchFields = {
  batchId: O(Type.String({ format: 'uuid' })),
  createdOn: O(Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Null while open.' })),
  totalNetAmount: O(Type.Number()),
  totalSalesAmount: O(Type.Number()),
  totalRefundsAmount: O(Type.Number()),
  batchStatus: O(Type.String({ description: 'Open, PendingSettlement or Settled.' })),
};
/**
 * The batch list in either revision: a request without `pageIndex` gets the older items (`id`, `status`…) and
 * `total`, one with it the published items (`batchId`, `batchStatus`…) and `pageInfo` (docs/api-v2.md).
 */
const BatchPage = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        id: O(BatchItem.properties.id),
        paymentProcessorId: BatchItem.properties.paymentProcessorId,
        paymentProcessorName: BatchItem.properties.paymentProcessorName,
        externalBatchId: BatchItem.properties.externalBatchId,
        batchDateTime: O(BatchItem.properties.batchDateTime),
        transactionCount: BatchItem.properties.transactionCount,
        netAmount: O(BatchItem.properties.netAmount),
        refundsAmount: O(BatchItem.properties.refundsAmount),
        salesAmount: O(BatchItem.properties.salesAmount),
        status: O(BatchItem.properties.status),
        ...PublishedBatchFields,
      }),
    ),
    total: O(Type.Integer()),
    pageInfo: O(PageInfo),
  },
  {
    examples: [
      {
        items: [
          {
            id: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c03',
            paymentProcessorId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c02',
            paymentProcessorName: 'Sandbox Card',
            externalBatchId: 'SBXB1A2B3C',
            batchDateTime: '2026-11-22T03:00:00.000Z',
            transactionCount: 12,
            netAmount: 1250.75,
            refundsAmount: 50,
            salesAmount: 1300.75,
            status: 'Settled',
          },
        ],
        total: 1,
      },
    ],
  },
);

/** A batch in the published revision's names: its own PendingSettlement, `createdOn` null while open. */
function publishedBatchItem(b: Batch) {
  const status =
    b.statusId === BatchStatus.Settled
      ? 'Settled'
      : b.statusId === BatchStatus.PendingSettlement
        ? 'PendingSettlement'
        : 'Open';
  return {
    batchId: b.id,
    paymentProcessorId: b.processorId,
    paymentProcessorName: b.processorName,
    externalBatchId: b.externalBatchId,
    createdOn: b.settledAt ? b.settledAt.toISOString() : null,
    transactionCount: b.transactionCount,
    totalNetAmount: fromCents(b.netCents),
    totalSalesAmount: fromCents(b.salesCents),
    totalRefundsAmount: fromCents(b.refundsCents),
    batchStatus: status,
  };
}

function batchItem(b: Batch) {
  return {
    id: b.id,
    paymentProcessorId: b.processorId,
    paymentProcessorName: b.processorName,
    externalBatchId: b.externalBatchId,
    batchDateTime: (b.settledAt ?? b.openedAt).toISOString(),
    transactionCount: b.transactionCount,
    netAmount: fromCents(b.netCents),
    refundsAmount: fromCents(b.refundsCents),
    salesAmount: fromCents(b.salesCents),
    status: b.statusId === BatchStatus.Settled ? ('Settled' as const) : ('Open' as const),
  };
}

export interface V2SettlementsRouteDeps {
  settlements: SettlementsService;
  merchants: MerchantsService;
  transactions: TransactionsService;
}

/** `/v2/settlements`: the batches, and closing a processor's open batch now. */
export function v2SettlementsRoutes(app: App, deps: V2SettlementsRouteDeps): void {
  app.get(
    '/v2/settlements/batches',
    {
      schema: {
        tags: ['Settlements (v2)'],
        summary: 'List settlement batches',
        description:
          'As GET /pay-api/v1/settlements/batches, in the version 2 names: open batches show live totals, settled ' +
          'ones the totals frozen when they closed. `page` or `pageIndex` is zero-based; the items carry both ' +
          'revisions’ names (`id` and `batchId`, `status` and `batchStatus`, …), the envelope `total` and `pageInfo`.',
        querystring: BatchQuery,
        response: {
          200: BatchPage,
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const olderStatus =
        q.status === undefined
          ? undefined
          : q.status === 'Settled'
            ? [BatchStatus.Settled]
            : [BatchStatus.Open, BatchStatus.PendingSettlement];
      // The published revision sorts descending unless told (`sortOrder`), as the older `asc` does.
      const { page, pageIndex, pageSize } = publishedPageRequest(q, BATCH_LIST, listTerms(request, q));
      const result = await deps.settlements.list(
        {
          ...batchFilter(merchantOf(request).merchantId, {
            ...q,
            dateFrom: q.dateFrom ?? q.fromDate,
            dateTo: q.dateTo ?? q.toDate,
          }),
          statusIds: q.batchStatus ? PUBLISHED_STATUS_IDS[q.batchStatus] : olderStatus,
        },
        page,
      );
      // Both revisions' names and envelopes (`status` and `batchStatus` differ in name, so both are answered).
      return {
        items: result.items.map((b) => withFields(batchItem(b), publishedBatchItem(b))),
        total: result.total,
        pageInfo: pageInfoOf(pageIndex, pageSize, result.total),
      };
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
        response: { 200: SettleResult, ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const configuration = await deps.merchants.getConfiguration(merchantId);
      const processor = configuration.processors.find((p) => p.id === request.body.paymentProcessorId);
      if (!processor) throw new NotFoundError('PaymentProcessor', request.body.paymentProcessorId);
      const settled = await deps.transactions.settle(merchantId, processor.id);
      return {
        status: settled.details.code,
        message: settled.message,
        processorResponseCode: settled.processorResponseCode,
      };
    },
  );

  // The published revision: `batchStatus` of the closed batch (Settled, or PendingSettlement while the processor is
  // retried); with no open batch, a 409 (the older `settle` answers NothingToSettle instead).
  app.post(
    '/v2/settlements/batches/close',
    {
      schema: {
        tags: ['Settlements (v2)'],
        summary: "Close a processor's open batch now (published path)",
        description:
          'As POST /v2/settlements/settle, in the published revision’s answer: `{batchStatus}`. 409 while an ' +
          'operation on one of its transactions is in flight, or when the processor has no open batch.',
        body: SettleBody,
        response: {
          200: Type.Object(
            { batchStatus: Type.Union([Type.Literal('Settled'), Type.Literal('PendingSettlement')]) },
            { examples: [{ batchStatus: 'Settled' }] },
          ),
          ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409),
        },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const configuration = await deps.merchants.getConfiguration(merchantId);
      const processor = configuration.processors.find((p) => p.id === request.body.paymentProcessorId);
      if (!processor) throw new NotFoundError('PaymentProcessor', request.body.paymentProcessorId);
      const settled = await deps.transactions.settle(merchantId, processor.id);
      if (settled.status === 'NothingToSettle') {
        throw new ConflictError('There is no open batch to close.', 'NothingToSettle');
      }
      return { batchStatus: settled.status === 'Settled' ? ('Settled' as const) : ('PendingSettlement' as const) };
    },
  );
}
