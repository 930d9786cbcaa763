import type { QueryConfig } from 'pg';
import type { Clock } from '../../platform/clock/clock.js';
import { eventsInsert } from '../../platform/events/outbox.js';
import { fromCents } from '../../platform/money.js';
import type { Transaction } from './transactions.model.js';

/**
 * The outbox insert for events about a transaction, card or ACH: one data shape (reference data only, never card or
 * account numbers), one row per type in the order given.
 */
export function transactionEvents(
  clock: Clock,
  types: string | readonly string[],
  t: Transaction,
  extra: Record<string, unknown> = {},
): QueryConfig {
  const data = {
    transactionId: t.id,
    typeId: t.typeId,
    statusId: t.statusId,
    amount: fromCents(t.totalCents),
    currency: 'USD',
    ...(t.customerId ? { customerId: t.customerId } : {}),
    ...extra,
  };
  return eventsInsert(
    clock,
    (typeof types === 'string' ? [types] : types).map((type) => ({
      type,
      merchantId: t.merchantId,
      resourceType: 'transaction',
      resourceId: t.id,
      data,
    })),
  ).query;
}
