import type { Sql } from '../../platform/db/pool.js';

export interface StreamedEvent {
  seq: number;
  id: string;
  type: string;
  resourceType: string;
  resourceId: string;
  occurredAt: Date;
}

// Only events whose transaction ended before the oldest one still running: a lower seq can commit after a higher
// one, and a reader that moved past it would never see it (migration 0050).
const SETTLED = 'txid < pg_snapshot_xmin(pg_current_snapshot())';

/** Where a stream without a cursor starts: after the merchant's latest settled event (it shows what happens next). */
export async function latestSeq(sql: Sql, merchantId: string): Promise<number> {
  const { rows } = await sql.query<{ seq: string | null }>(
    `SELECT max(seq)::text AS seq FROM events WHERE merchant_id = $1 AND ${SETTLED}`,
    [merchantId],
  );
  return Number(rows[0]?.seq ?? 0);
}

/** The merchant's settled events after `after`, in order. */
export async function eventsAfter(
  sql: Sql,
  merchantId: string,
  after: number,
  limit: number,
): Promise<StreamedEvent[]> {
  const { rows } = await sql.query<{
    seq: string;
    id: string;
    type: string;
    resource_type: string;
    resource_id: string;
    occurred_at: Date;
  }>(
    `SELECT seq::text, id, type, resource_type, resource_id, occurred_at FROM events
     WHERE merchant_id = $1 AND seq > $2 AND ${SETTLED}
     ORDER BY seq LIMIT $3`,
    [merchantId, after, limit],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    type: r.type,
    resourceType: r.resource_type,
    resourceId: r.resource_id,
    occurredAt: r.occurred_at,
  }));
}
