import type { Clock } from '../clock/clock.js';
import { newId } from '../crypto/ids.js';
import type { Sql } from '../db/pool.js';

export interface DomainEvent {
  type: string;
  merchantId?: string | null;
  partnerId?: string | null;
  resourceType: string;
  resourceId: string;
  /** Reference data only: never secrets or card data (receivers refetch the resource). */
  data?: Record<string, unknown>;
}

/**
 * Writes an event in the caller's transaction (transactional outbox): a rolled-back change leaves no event, and a
 * committed change always has one. Delivery (webhooks) reads the table; nothing here talks to the network.
 */
export async function recordEvent(tx: Sql, clock: Clock, event: DomainEvent): Promise<string> {
  const id = newId();
  await tx.query(
    `INSERT INTO events (id, type, merchant_id, partner_id, resource_type, resource_id, data, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      event.type,
      event.merchantId ?? null,
      event.partnerId ?? null,
      event.resourceType,
      event.resourceId,
      event.data ?? {},
      clock.now(),
    ],
  );
  return id;
}
