import type { Pool, Sql } from '../../platform/db/pool.js';
import { ConflictError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import { fromCents } from '../../platform/money.js';
import type { SettlementsService } from '../settlements/settlements.service.js';
import type { Transaction } from './transactions.model.js';
import { findBySource, findTransaction, listTransactions, type TransactionFilter } from './transactions.repo.js';

/** Reads of transactions (any method) and the settle command. */
export class TransactionsService {
  constructor(
    private readonly pool: Pool,
    private readonly settlements: SettlementsService,
  ) {}

  get(merchantId: string, id: string): Promise<Transaction | undefined> {
    return findTransaction(this.pool, merchantId, id);
  }

  /** The transactions a payment session (or another hosted flow) created, oldest first. */
  bySource(merchantId: string, sourceId: string, sql: Sql = this.pool): Promise<Transaction[]> {
    return findBySource(sql, merchantId, sourceId);
  }

  list(filter: TransactionFilter, page: PageRequest) {
    return listTransactions(this.pool, filter, page);
  }

  /** POST /settle: closes the processor's Open batch now; waits briefly for a void in flight to finish. */
  async settle(merchantId: string, processorId: string) {
    let result = await this.settlements.closeOpenBatch(merchantId, processorId);
    for (let attempt = 0; result.kind === 'busy' && attempt < 10; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      result = await this.settlements.closeOpenBatch(merchantId, processorId);
    }
    const now = new Date();
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
          statusId: 3,
          status: 'PendingSettlement',
          code: 'Error',
          message: `The processor did not close the batch (${result.message}); it is retried automatically.`,
          detailsMessage: result.message,
        });
      case 'settled':
        return settleResponse({
          at: result.batch.settledAt ?? now,
          statusId: 6,
          status: 'Settled',
          code: 'Approve',
          message: 'Batch closed successfully',
          processorResponseCode: '00',
          batchId: result.batch.id,
          processedCents: result.batch.netCents,
        });
    }
  }
}

/** The answer to POST /settle: the TransactionResponse shape with the v2 settle fields (`batchId`, `message`, ...). */
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
