import type { Pool, Sql } from '../../platform/db/pool.js';
import { ConflictError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import { fromCents } from '../../platform/money.js';
import { BatchStatus } from '../settlements/settlements.model.js';
import { closeOpenBatch, type SettleBatchDeps } from './settle-batch.js';
import { type Transaction, TransactionStatus } from './transactions.model.js';
import {
  findByIdempotencyId,
  findByIdempotencyIds,
  findBySource,
  findRefundsOf,
  findTransaction,
} from './transactions.repo.js';
import {
  keysetTransactions,
  type ListCursor,
  listTransactions,
  streamTransactions,
  type TransactionFilter,
} from './transactions-list.repo.js';

/** Reads of transactions (any method) and the settle command. */
export class TransactionsService {
  constructor(
    private readonly pool: Pool,
    private readonly settling: SettleBatchDeps,
  ) {}

  /** The payment a source made under an idempotency id, if one was made (read only). */
  byIdempotencyId(merchantId: string, idempotencyId: string): Promise<Transaction | undefined> {
    return findByIdempotencyId(this.pool, merchantId, idempotencyId);
  }

  get(merchantId: string, id: string): Promise<Transaction | undefined> {
    return findTransaction(this.pool, merchantId, id);
  }

  /** The transactions a payment session (or another hosted flow) created, oldest first. */
  bySource(merchantId: string, sourceId: string, sql: Sql = this.pool): Promise<Transaction[]> {
    return findBySource(sql, merchantId, sourceId);
  }

  /** The transactions made under these idempotency ids (what a payment session's submissions made for a link). */
  byIdempotencyIds(merchantId: string, ids: string[]): Promise<Transaction[]> {
    return findByIdempotencyIds(this.pool, merchantId, ids);
  }

  /** The refunds of these transactions, oldest first. */
  refundsOf(merchantId: string, ids: readonly string[]): Promise<Transaction[]> {
    return findRefundsOf(this.pool, merchantId, ids);
  }

  list(filter: TransactionFilter, page: PageRequest) {
    return listTransactions(this.pool, filter, page);
  }

  /** A page of matching transactions, newest first, after a cursor; no total (its cost is the page's alone). */
  page(filter: TransactionFilter, search: string | undefined, after: ListCursor | undefined, limit: number) {
    return keysetTransactions(this.pool, filter, search, after, limit);
  }

  /** Every matching transaction, newest first, a page at a time (an export of any size). */
  stream(filter: TransactionFilter, search?: string) {
    return streamTransactions(this.pool, filter, search);
  }

  /**
   * POST /settle: closes the processor's Open batch now. A batch with an operation in flight (a void) cannot close
   * until that operation ends: the answer is a 409 at once, and the batch's own close job retries by itself.
   */
  async settle(merchantId: string, processorId: string) {
    const result = await closeOpenBatch(this.settling, merchantId, processorId);
    const now = this.settling.clock.now();
    switch (result.kind) {
      case 'busy':
        throw new ConflictError(
          'An operation on a transaction of this batch is in flight; retry shortly.',
          'OperationInProgress',
        );
      case 'nothing-open':
        return settleResponse({
          at: now,
          statusId: 0,
          status: 'NothingToSettle',
          code: 'Approve',
          message: 'There is no open batch to close.',
        });
      case 'processor-error':
        return settleResponse({
          at: now,
          statusId: BatchStatus.PendingSettlement,
          status: 'PendingSettlement',
          code: 'Error',
          message: `The processor did not close the batch (${result.message}); it is retried automatically.`,
          detailsMessage: result.message,
        });
      case 'settled':
        return settleResponse({
          at: result.batch.settledAt ?? now,
          statusId: TransactionStatus.Settled,
          status: 'Settled',
          code: 'Approve',
          message: SETTLED_MESSAGE,
          processorResponseCode: '00',
          batchId: result.batch.id,
          processedCents: result.batch.netCents,
        });
    }
  }
}

/** The vendor's answer to a batch it closed (its PHP SDK's regression suite and v1 CLI expect these words). */
export const SETTLED_MESSAGE = 'Batch settled successfully';

/**
 * The answer to POST /settle: the vendor's `{code, message, processorResponseCode}` (code 0: the request succeeded,
 * whether a batch was closed or none was open; 1: the processor did not close it), plus the TransactionResponse
 * shape with the v2 settle fields (`batchId`, ...).
 */
function settleResponse(r: {
  at: Date;
  statusId: number;
  status: string;
  code: 'Approve' | 'Error';
  message: string;
  detailsMessage?: string;
  processorResponseCode?: string;
  batchId?: string;
  processedCents?: number;
}) {
  const responseCode = r.processorResponseCode ?? null;
  return {
    code: r.code === 'Approve' ? 0 : 1,
    transactionId: null,
    transactionDateTime: r.at.toISOString(),
    typeId: null,
    type: 'Settle',
    statusId: r.statusId,
    status: r.status,
    processedAmount: fromCents(r.processedCents ?? 0),
    batchId: r.batchId ?? null,
    message: r.message,
    processorResponseCode: responseCode,
    details: {
      code: r.code,
      message: r.detailsMessage ?? r.message,
      authCode: null,
      maskedPan: null,
      hostResponseCode: responseCode,
      hostResponseMessage: responseCode ? r.message : null,
      processorResponseCode: responseCode,
    },
  };
}
