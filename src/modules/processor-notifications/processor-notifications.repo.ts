import type { ProcessorNotification } from '../../connectors/card/card-connector.js';
import type { Sql } from '../../platform/db/pool.js';

export interface RecordedNotification {
  id: string;
  merchantId: string;
  processorId: string;
  notification: ProcessorNotification;
  appliedAt: Date | null;
}

export interface NotificationRow {
  id: string;
  merchantId: string;
  processorId: string;
  notification: ProcessorNotification;
  receivedAt: Date;
}

/**
 * Records notifications once each, in one statement (a repeat finds the first record and is skipped); answers the ids
 * of the new records. Rows go in the order of their unique key (a processor belongs to one merchant), so two writers
 * of the same notifications take the key's locks in the same order.
 */
export async function insertNotifications(sql: Sql, rows: readonly NotificationRow[]): Promise<Set<string>> {
  const ordered = [...rows].sort(
    (a, b) =>
      compare(a.processorId, b.processorId) ||
      compare(a.notification.processorReference, b.notification.processorReference) ||
      compare(a.notification.eventCode, b.notification.eventCode) ||
      Number(a.notification.success) - Number(b.notification.success),
  );
  const { rows: inserted } = await sql.query<{ id: string }>({
    name: 'processor-notifications.insert',
    text: `INSERT INTO processor_notifications
       (id, merchant_id, processor_id, event_code, processor_reference, success, notification, received_at)
     SELECT id, merchant_id, processor_id, event_code, processor_reference, success, notification, received_at
       FROM json_populate_recordset(NULL::processor_notifications, $1::json)
     ON CONFLICT (merchant_id, processor_id, event_code, processor_reference, success) DO NOTHING
     RETURNING id`,
    values: [
      JSON.stringify(
        ordered.map((row) => ({
          id: row.id,
          merchant_id: row.merchantId,
          processor_id: row.processorId,
          event_code: row.notification.eventCode,
          processor_reference: row.notification.processorReference,
          success: row.notification.success,
          notification: row.notification,
          received_at: row.receivedAt,
        })),
      ),
    ],
  });
  return new Set(inserted.map((row) => row.id));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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
