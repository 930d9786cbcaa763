import type { Pool } from '../../platform/db/pool.js';
import { ConflictError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import { fromCents } from '../../platform/money.js';
import type { SettlementsService } from '../settlements/settlements.service.js';
import type { Transaction } from './transactions.model.js';
import { findTransaction, listTransactions, type TransactionFilter } from './transactions.repo.js';

/** Reads of transactions (any method) and the settle command. */
export class TransactionsService {
  constructor(
    private readonly pool: Pool,
    private readonly settlements: SettlementsService,
  ) {}

  get(merchantId: string, id: string): Promise<Transaction | undefined> {
    return findTransaction(this.pool, merchantId, id);
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
    const now = new Date().toISOString();
    switch (result.kind) {
      case 'busy':
        throw new ConflictError(
          'An operation on a transaction of this batch is in flight; retry shortly.',
          'OperationInProgress',
        );
      case 'nothing-open':
        return {
          transactionId: null,
          transactionDateTime: now,
          typeId: null,
          type: 'Settle',
          statusId: 0,
          status: 'NothingToSettle',
          processedAmount: 0,
          batchId: null,
          message: 'There is no open batch to close.',
          processorResponseCode: null,
          details: {
            code: 'Approve',
            message: 'There is no open batch to close.',
            authCode: null,
            maskedPan: null,
            hostResponseCode: null,
            hostResponseMessage: null,
            processorResponseCode: null,
          },
        };
      case 'processor-error':
        return {
          transactionId: null,
          transactionDateTime: now,
          typeId: null,
          type: 'Settle',
          statusId: 3,
          status: 'PendingSettlement',
          processedAmount: 0,
          batchId: null,
          message: `The processor did not close the batch (${result.message}); it is retried automatically.`,
          processorResponseCode: null,
          details: {
            code: 'Error',
            message: result.message,
            authCode: null,
            maskedPan: null,
            hostResponseCode: null,
            hostResponseMessage: null,
            processorResponseCode: null,
          },
        };
      case 'settled': {
        const batch = result.batch;
        return {
          transactionId: null,
          transactionDateTime: (batch.settledAt ?? new Date()).toISOString(),
          typeId: null,
          type: 'Settle',
          statusId: 6,
          status: 'Settled',
          processedAmount: fromCents(batch.netCents),
          batchId: batch.id,
          message: 'Batch closed successfully',
          processorResponseCode: '00',
          details: {
            code: 'Approve',
            message: 'Batch closed successfully',
            authCode: null,
            maskedPan: null,
            hostResponseCode: '00',
            hostResponseMessage: 'Batch closed successfully',
            processorResponseCode: '00',
          },
        };
      }
    }
  }
}
