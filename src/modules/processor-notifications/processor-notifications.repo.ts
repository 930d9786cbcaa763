import type { ProcessorNotification } from '../../connectors/card/card-connector.js';
import type { Sql } from '../../platform/db/pool.js';

export interface RecordedNotification {
  id: string;
  merchantId: string;
  processorId: string;
  notification: ProcessorNotification;
  appliedAt: Date | null;
}

/** Records a notification once (a repeat finds the first record); answers the new record's id, or undefined. */
export async function insertNotification(
  sql: Sql,
  row: { id: string; merchantId: string; processorId: string; notification: ProcessorNotification; receivedAt: Date },
): Promise<string | undefined> {
  const n = row.notification;
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO processor_notifications
       (id, merchant_id, processor_id, event_code, processor_reference, success, notification, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (merchant_id, processor_id, event_code, processor_reference, success) DO NOTHING
     RETURNING id`,
    [
      row.id,
      row.merchantId,
      row.processorId,
      n.eventCode,
      n.processorReference,
      n.success,
      JSON.stringify(n),
      row.receivedAt,
    ],
  );
  return rows[0]?.id;
}

/** A recorded notification not applied yet (undefined: applied already). */
export async function findUnappliedNotification(
  sql: Sql,
  merchantId: string,
  id: string,
): Promise<RecordedNotification | undefined> {
  const { rows } = await sql.query<{
    id: string;
    merchant_id: string;
    processor_id: string;
    notification: ProcessorNotification;
    applied_at: Date | null;
  }>(
    `SELECT id, merchant_id, processor_id, notification, applied_at FROM processor_notifications
     WHERE merchant_id = $1 AND id = $2 AND applied_at IS NULL`,
    [merchantId, id],
  );
  const r = rows[0];
  return r
    ? {
        id: r.id,
        merchantId: r.merchant_id,
        processorId: r.processor_id,
        notification: r.notification,
        appliedAt: r.applied_at,
      }
    : undefined;
}

export async function markApplied(sql: Sql, merchantId: string, id: string, outcome: string, at: Date): Promise<void> {
  await sql.query(
    'UPDATE processor_notifications SET applied_at = $3, outcome = $4 WHERE merchant_id = $1 AND id = $2 AND applied_at IS NULL',
    [merchantId, id, at, outcome],
  );
}

/** Recorded notifications whose job was lost (older than `before`, not applied), for the sweep to hand out again. */
export async function findUnapplied(
  sql: Sql,
  before: Date,
  limit: number,
): Promise<Array<{ id: string; merchantId: string }>> {
  const { rows } = await sql.query<{ id: string; merchant_id: string }>(
    `SELECT /* across merchants: the sweep */ id, merchant_id FROM processor_notifications
     WHERE applied_at IS NULL AND received_at < $1 ORDER BY received_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => ({ id: r.id, merchantId: r.merchant_id }));
}
