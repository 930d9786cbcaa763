import type { Static } from 'typebox';
import { ValidationError } from '../../platform/http/errors.js';
import { DEFAULT_PAGE_SIZE, type PageRequest, PUBLISHED_PAGE_SIZE, pageRequest } from '../../platform/http/paging.js';
import { toCents } from '../../platform/money.js';
import { CreateMethod, TransactionStatus } from '../payments/transactions.model.js';
import { V2_TRANSACTION_LIST } from '../payments/transactions.schemas.js';
import type { TransactionFilter } from '../payments/transactions-list.repo.js';
import type { ListQuery } from './v2-transactions.schemas.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SOURCE_IDS: Record<string, number> = { ...CreateMethod, ApiKey: CreateMethod.ApiToken };

/**
 * `GET /v2/transactions`' query as the payments core's filter and page: the published filters (each as its
 * document describes; `Cash` and `HeldByProcessor` match nothing Tessera has), `pageIndex` or the older `page`, and
 * `sortBy`/`sortOrder` (a `sortOrder` without `sortBy` is ignored: newest first, as the vendor's server does).
 */
export function v2TransactionList(
  merchantId: string,
  q: Static<typeof ListQuery>,
  terms: 'published' | 'older',
): { filter: TransactionFilter; page: PageRequest; pageIndex: number; pageSize: number } {
  const filter: TransactionFilter = { merchantId };
  if (q.fromDate) filter.from = new Date(q.fromDate);
  if (q.toDate) filter.to = new Date(q.toDate);
  if (q.sourceType) filter.createMethodId = SOURCE_IDS[q.sourceType]!;
  if (q.sourceId) filter.sourceId = q.sourceId;
  if (q.batchId !== undefined) {
    if (q.batchId === 'null') filter.noBatch = true;
    else if (UUID.test(q.batchId)) filter.batchId = q.batchId;
    else throw ValidationError.field('batchId', "'batchId' is a batch id, or null for transactions in no batch.");
  }
  if (q.transactionStatus) {
    const status = q.transactionStatus;
    if (status === 'InProgress') Object.assign(filter, { statusId: TransactionStatus.Pending, method: 'ach' });
    else if (status === 'Pending') Object.assign(filter, { statusId: TransactionStatus.Pending, method: 'card' });
    else if (status === 'HeldByProcessor') filter.method = 'none';
    else filter.statusId = TransactionStatus[status];
  }
  if (q.paymentMethodType) {
    const method = q.paymentMethodType === 'ACH' ? 'ach' : q.paymentMethodType === 'Card' ? 'card' : 'none';
    // Two filters on the method that disagree match nothing.
    filter.method = filter.method && filter.method !== method ? 'none' : method;
  }
  if (q.customerId) filter.customerId = q.customerId;
  if (q.minAmount !== undefined) filter.minProcessedCents = toCents(q.minAmount);
  if (q.maxAmount !== undefined) filter.maxProcessedCents = toCents(q.maxAmount);
  if (q.referenceId) filter.referenceId = q.referenceId;
  const pageIndex = q.pageIndex ?? q.page ?? 0;
  // The published revision's default page is 20 items, the older one's 15.
  const pageSize = q.pageSize ?? (terms === 'published' ? PUBLISHED_PAGE_SIZE : DEFAULT_PAGE_SIZE);
  const page = pageRequest(
    {
      page: pageIndex,
      pageSize,
      ...(q.sortBy ? { orderBy: q.sortBy, asc: q.sortOrder !== 'desc' } : {}),
    },
    V2_TRANSACTION_LIST,
  );
  return { filter, page, pageIndex, pageSize };
}
