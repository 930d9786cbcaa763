import type { QueryConfig } from 'pg';
import type { Clock } from '../../platform/clock/clock.js';
import { type DomainEvent, eventsInsert } from '../../platform/events/outbox.js';
import { fromCents } from '../../platform/money.js';
import type { Transaction } from './transactions.model.js';

/** One event about a transaction, card or ACH: reference data only, never card or account numbers. */
function transactionEvent(type: string, t: Transaction, extra: Record<string, unknown>): DomainEvent {
  return {
    type,
    merchantId: t.merchantId,
    resourceType: 'transaction',
    resourceId: t.id,
    data: {
      transactionId: t.id,
      typeId: t.typeId,
      statusId: t.statusId,
      amount: fromCents(t.totalCents),
      currency: 'USD',
      ...(t.customerId ? { customerId: t.customerId } : {}),
      ...extra,
    },
  };
}

/** Events about a transaction: one per type in the order given. */
export function transactionEventList(
  types: string | readonly string[],
  t: Transaction,
  extra: Record<string, unknown> = {},
): DomainEvent[] {
  const list = typeof types === 'string' ? [types] : types;
  return list.map((type) => transactionEvent(type, t, extra));
}

/** The outbox insert for events about a transaction: one row per type in the order given. */
export function transactionEvents(
  clock: Clock,
  types: string | readonly string[],
  t: Transaction,
  extra: Record<string, unknown> = {},
): QueryConfig {
  return eventsInsert(clock, transactionEventList(types, t, extra)).query;
}

/** One insert for the same event about many transactions (an ACH file's entries moving together). */
export function eventsForEach(clock: Clock, type: string, transactions: readonly Transaction[]): QueryConfig {
  return eventsInsert(
    clock,
    transactions.map((t) => transactionEvent(type, t, {})),
  ).query;
}
