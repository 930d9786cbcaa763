import type { QueryConfig } from 'pg';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Sql } from '../../platform/db/pool.js';
import type { Tx } from '../../platform/db/tx.js';
import type { EventName } from './event-catalog.js';

/**
 * What an event is about, as webhook receivers see it (`data.object.resourceType`): the resource to fetch again.
 * Batch events name `settlement`; the others name the resource's API (docs/webhooks.md).
 */
export const RESOURCE_TYPES = [
  'transaction',
  'settlement',
  'payment_session',
  'subscription',
  'terminal',
  'invoice',
  'quick_payment',
  'payment_link',
  'merchant',
  'api_key',
  'webhook_endpoint',
  // An ACH file of the merchant's (an operator's resource: the event's data says what the merchant needs).
  'ach_file',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface DomainEvent {
  /** A name of the event catalog (either set's). */
  type: EventName;
  merchantId?: string | null;
  partnerId?: string | null;
  resourceType: ResourceType;
  resourceId: string;
  /** Reference data only: never secrets or card data (receivers refetch the resource). */
  data?: Record<string, unknown>;
}

/**
 * Writes an event in the caller's transaction (transactional outbox): a rolled-back change leaves no event, and a
 * committed change always has one. Delivery (webhooks) reads the table; nothing here talks to the network.
 */
export async function recordEvent(tx: Sql, clock: Clock, event: DomainEvent): Promise<string> {
  const { query, ids } = eventsInsert(clock, [event]);
  await tx.query(query);
  return ids[0]!;
}

/**
 * Several events of one change as one insert statement, in order (their `seq` follows the array), as a value for a
 * transaction that sends it with other statements (`Tx.defer`).
 */
export function eventsInsert(clock: Clock, events: readonly DomainEvent[]): { query: QueryConfig; ids: string[] } {
  const ids = events.map(() => newId());
  return {
    ids,
    query: {
      name: 'events.insert',
      text: `INSERT INTO events (id, type, merchant_id, partner_id, resource_type, resource_id, data, occurred_at)
             SELECT id, type, merchant_id, partner_id, resource_type, resource_id, data, $8
             FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::jsonb[])
               WITH ORDINALITY AS e(id, type, merchant_id, partner_id, resource_type, resource_id, data, n)
             ORDER BY n`,
      values: [
        ids,
        events.map((event) => event.type),
        events.map((event) => event.merchantId ?? null),
        events.map((event) => event.partnerId ?? null),
        events.map((event) => event.resourceType),
        events.map((event) => event.resourceId),
        events.map((event) => JSON.stringify(event.data ?? {})),
        clock.now(),
      ],
    },
  };
}

const queuedEvents = new WeakMap<Tx, DomainEvent[]>();

/**
 * Queues events to be written with COMMIT; every event a transaction queues goes into one insert, so the webhook
 * fan-out trigger runs once per transaction however many changes it carries (a group of payments written together).
 */
export function deferEvents(tx: Tx, clock: Clock, events: readonly DomainEvent[]): void {
  let queued = queuedEvents.get(tx);
  if (!queued) {
    const list: DomainEvent[] = [];
    queued = list;
    queuedEvents.set(tx, list);
    tx.beforeCommit(async () => {
      queuedEvents.delete(tx);
      tx.defer(eventsInsert(clock, list).query);
    });
  }
  queued.push(...events);
}
