// The batch list's query filters, shared by version 1 and version 2 (each adds its own status filter).
import Type from 'typebox';
import { DateFilter, dateRange, idList, ListParam } from '../../platform/http/paging.js';
import type { BatchFilter } from './settlements.service.js';

export const BATCH_FILTERS = {
  dateFrom: DateFilter('Batch date (settlement time, or opening time while open) on or after.'),
  dateTo: DateFilter('Batch date on or before.'),
  batchIds: ListParam('Batch ids.'),
  paymentProcessorIds: ListParam('Processor ids.'),
};

/** Those filters, checked, for the merchant (a bad id or an inverted range is a 400 naming the parameter). */
export function batchFilter(
  merchantId: string,
  q: { dateFrom?: string; dateTo?: string; batchIds?: string[]; paymentProcessorIds?: string[] },
): BatchFilter {
  const range = dateRange('dateFrom', q.dateFrom, 'dateTo', q.dateTo);
  return {
    merchantId,
    batchIds: idList('batchIds', q.batchIds),
    processorIds: idList('paymentProcessorIds', q.paymentProcessorIds),
    from: range.from,
    to: range.to,
  };
}
