import type { MerchantsService } from '../merchants/merchants.service.js';
import type { AchEntry } from '../payments/ach/ach.model.js';
import type { AchPaymentsService } from '../payments/ach/ach.service.js';
import type { Transaction } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { transactionDetail } from './v2-transaction-detail.js';

export interface TransactionViewDeps {
  ach: AchPaymentsService;
  merchants: MerchantsService;
  transactions: TransactionsService;
}

/** The detail shape of these transactions: their ACH entries and refunds are read for all of them at once. */
export async function transactionViews(
  deps: TransactionViewDeps,
  merchantId: string,
  list: Transaction[],
  revision: 'published' | 'older',
) {
  const achIds = list.filter((t) => t.method === 'ach').map((t) => t.id);
  const [configuration, entries, refunds] = await Promise.all([
    deps.merchants.getConfiguration(merchantId),
    achIds.length ? deps.ach.entries(merchantId, achIds) : new Map<string, AchEntry>(),
    deps.transactions.refundsOf(
      merchantId,
      list.filter((t) => t.refundedCents > 0).map((t) => t.id),
    ),
  ]);
  return list.map((t) =>
    transactionDetail(
      t,
      { configuration, entry: entries.get(t.id), refunds: refunds.filter((r) => r.originalTransactionId === t.id) },
      revision,
    ),
  );
}
