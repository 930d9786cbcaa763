import type { QueryConfig } from 'pg';
import type { Clock } from '../../platform/clock/clock.js';
import { fromCents } from '../../platform/money.js';
import type { EventName } from '../events/event-catalog.js';
import { type DomainEvent, eventsInsert } from '../events/outbox.js';
import type { Transaction } from './transactions.model.js';

/** The events a transaction can announce: the catalog's card and ACH transaction events (checked at compile time). */
export type TransactionEventType = Extract<EventName, `transaction.${string}` | `payment.${string}`>;

/** One event about a transaction, card or ACH: reference data only, never card or account numbers. */
function transactionEvent(type: TransactionEventType, t: Transaction, extra: Record<string, unknown>): DomainEvent {
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
  types: TransactionEventType | readonly TransactionEventType[],
  t: Transaction,
  extra: Record<string, unknown> = {},
): DomainEvent[] {
  const list: readonly TransactionEventType[] =
    typeof types === 'string' ? [types] : (types as readonly TransactionEventType[]);
  return list.map((type) => transactionEvent(type, t, extra));
}

/** The outbox insert for events about a transaction: one row per type in the order given. */
export function transactionEvents(
  clock: Clock,
  types: TransactionEventType | readonly TransactionEventType[],
  t: Transaction,
  extra: Record<string, unknown> = {},
): QueryConfig {
  return eventsInsert(clock, transactionEventList(types, t, extra)).query;
}

/** One insert for the same event about many transactions (an ACH file's entries moving together). */
export function eventsForEach(
  clock: Clock,
  type: TransactionEventType,
  transactions: readonly Transaction[],
): QueryConfig {
  return eventsInsert(
    clock,
    transactions.map((t) => transactionEvent(type, t, {})),
  ).query;
}
