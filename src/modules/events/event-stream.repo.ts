import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';

export interface StreamedEvent {
  seq: number;
  id: string;
  type: string;
  resourceType: string;
  resourceId: string;
  occurredAt: Date;
  txid: bigint;
}

/**
 * Where a read of a merchant's events starts: everything visible in `from` was read before; with `to`, a read that
 * was cut short (a full batch) goes on with what was visible in `to` after `seq`, before anything newer.
 */
export interface ReadPosition {
  from: string;
  to: string | null;
  seq: number;
}

export interface MerchantRead {
  merchantId: string;
  position: ReadPosition;
}

export interface ReadResult {
  /** The snapshot the read saw (pg_current_snapshot of its statement). */
  now: string;
  events: Map<string, StreamedEvent[]>;
}

/** The current snapshot: a stream that starts here sees what becomes visible after it. */
export async function currentSnapshot(sql: Sql): Promise<string> {
  const { rows } = await sql.query<{ now: string }>('SELECT pg_current_snapshot()::text AS now');
  return rows[0]!.now;
}

/**
 * Each merchant's events from its position, at most `limit` each, in order of `seq`, in one statement for every
 * merchant (the node's one reader), with the snapshot the statement saw. An event is read once it is visible: not in
 * `from` (the snapshot of the last read) and, while a cut-short read goes on, in `to` after `seq`.
 */
export async function readEvents(sql: Sql, reads: readonly MerchantRead[], limit: number): Promise<ReadResult> {
  const { rows } = await sql.query<{
    now: string;
    merchant_id: string | null;
    seq: string | null;
    id: string;
    type: string;
    resource_type: string;
    resource_id: string;
    occurred_at: Date;
    txid: string;
  }>(
    `SELECT /* across merchants: the node's one reader, each merchant's events from its own position */
       s.now::text AS now, e.merchant_id, e.seq::text, e.id, e.type, e.resource_type, e.resource_id, e.occurred_at,
       e.txid::text
     FROM (SELECT pg_current_snapshot() AS now) s
     LEFT JOIN LATERAL (
       SELECT ev.* FROM unnest($1::uuid[], $2::pg_snapshot[], $3::pg_snapshot[], $4::bigint[])
         AS r(merchant_id, from_snap, to_snap, after_seq)
       CROSS JOIN LATERAL (
         SELECT merchant_id, seq, id, type, resource_type, resource_id, occurred_at, txid FROM events
         WHERE merchant_id = r.merchant_id
           AND txid >= pg_snapshot_xmin(r.from_snap) AND NOT pg_visible_in_snapshot(txid, r.from_snap)
           AND (r.to_snap IS NULL OR (pg_visible_in_snapshot(txid, r.to_snap) AND seq > r.after_seq))
         ORDER BY seq LIMIT $5
       ) ev
     ) e ON true
     ORDER BY e.merchant_id, e.seq`,
    [
      reads.map((r) => r.merchantId),
      reads.map((r) => r.position.from),
      reads.map((r) => r.position.to),
      reads.map((r) => r.position.seq),
      limit,
    ],
  );
  const events = new Map<string, StreamedEvent[]>();
  for (const row of rows) {
    if (row.merchant_id === null || row.seq === null) continue;
    const list = events.get(row.merchant_id) ?? [];
    list.push({
      seq: Number(row.seq),
      id: row.id,
      type: row.type,
      resourceType: row.resource_type,
      resourceId: row.resource_id,
      occurredAt: row.occurred_at,
      txid: BigInt(row.txid),
    });
    events.set(row.merchant_id, list);
  }
  return { now: rows[0]!.now, events };
}

/**
 * A lease for one more stream of the merchant, unless it has `cap` open on live nodes already. The count runs under a
 * lock of the merchant's, in a statement after the one that took it (so it sees what the lock's last holder
 * committed): two opens at once cannot both take the last place. Leases of dead nodes go first.
 */
export async function takeStreamLease(
  pool: Pool,
  lease: { id: string; merchantId: string; node: number },
  cap: number,
): Promise<boolean> {
  return withTransaction(pool, async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('event-stream:' || $1::text, 0))", [
      lease.merchantId,
    ]);
    await tx.query('DELETE FROM event_stream_leases WHERE merchant_id = $1 AND NOT tessera_node_alive(node)', [
      lease.merchantId,
    ]);
    const { rowCount } = await tx.query(
      `INSERT INTO event_stream_leases (id, merchant_id, node)
       SELECT $1, $2, $3 WHERE (SELECT count(*) FROM event_stream_leases WHERE merchant_id = $2) < $4`,
      [lease.id, lease.merchantId, lease.node, cap],
    );
    return rowCount === 1;
  });
}

export async function dropStreamLease(sql: Sql, merchantId: string, id: string): Promise<void> {
  await sql.query('DELETE FROM event_stream_leases WHERE merchant_id = $1 AND id = $2', [merchantId, id]);
}
