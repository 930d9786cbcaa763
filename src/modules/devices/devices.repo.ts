import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { type Device, TapToPayStatus, type UserProfile } from './devices.model.js';

function toDevice(r: Record<string, unknown>): Device {
  return {
    merchantId: r.merchant_id as string,
    deviceId: r.device_id as string,
    deviceName: r.device_name as string,
    apiKeyName: (r.api_key_name as string | null) ?? null,
    lastLoginAt: r.last_login_at as Date,
    tapToPayStatusId: r.tap_to_pay_status_id as number,
    tapToPayRequestedAt: (r.tap_to_pay_requested_at as Date | null) ?? null,
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
    users: (r.users as UserProfile[] | null) ?? [],
  };
}

/** A device row's users, newest sign-in first, as a select item over `devices` (named `devices`). */
const USERS = `(SELECT json_agg(json_build_object('id', u.user_id, 'firstName', u.first_name, 'lastName', u.last_name,
    'email', u.email) ORDER BY u.signed_in_at DESC)
  FROM device_users u WHERE u.merchant_id = devices.merchant_id AND u.device_id = devices.device_id) AS users`;

/** A user who signed in on the device: added, or their profile and time brought up to date. */
export async function recordDeviceUser(
  sql: Sql,
  merchantId: string,
  deviceId: string,
  user: UserProfile,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO device_users (merchant_id, device_id, user_id, first_name, last_name, email, signed_in_at)
     SELECT merchant_id, device_id, $3, $4, $5, $6, $7 FROM devices WHERE merchant_id = $1 AND device_id = $2
     ON CONFLICT (merchant_id, device_id, user_id) DO UPDATE SET first_name = EXCLUDED.first_name,
       last_name = EXCLUDED.last_name, email = EXCLUDED.email, signed_in_at = EXCLUDED.signed_in_at`,
    [merchantId, deviceId, user.id, user.firstName, user.lastName, user.email, at],
  );
  return (rowCount ?? 0) > 0;
}

/** Create or update by id: a new device starts Inactive; an existing one keeps its status. */
export async function upsertDevice(
  sql: Sql,
  d: { merchantId: string; deviceId: string; deviceName: string; apiKeyName: string | null; at: Date },
): Promise<Device> {
  const { rows } = await sql.query(
    `INSERT INTO devices (merchant_id, device_id, device_name, api_key_name, last_login_at, tap_to_pay_status_id,
       created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, ${TapToPayStatus.Inactive}, $5, $5)
     ON CONFLICT (merchant_id, device_id) DO UPDATE SET device_name = EXCLUDED.device_name,
       api_key_name = EXCLUDED.api_key_name, last_login_at = EXCLUDED.last_login_at, modified_at = EXCLUDED.modified_at
     RETURNING *, ${USERS}`,
    [d.merchantId, d.deviceId, d.deviceName, d.apiKeyName, d.at],
  );
  return toDevice(rows[0]!);
}

export async function findDevice(sql: Sql, merchantId: string, deviceId: string): Promise<Device | null> {
  const { rows } = await sql.query(`SELECT *, ${USERS} FROM devices WHERE merchant_id = $1 AND device_id = $2`, [
    merchantId,
    deviceId,
  ]);
  return rows[0] ? toDevice(rows[0]) : null;
}

export async function listDevices(sql: Sql, merchantId: string): Promise<Device[]> {
  const { rows } = await sql.query(
    `SELECT *, ${USERS} FROM devices WHERE merchant_id = $1 ORDER BY created_at, device_id`,
    [merchantId],
  );
  return rows.map(toDevice);
}

/** One move of the contactless status, as a compare-and-set from `from`; answers the device when it moved. */
export async function moveTapToPay(
  sql: Sql,
  merchantId: string,
  deviceId: string,
  from: readonly number[],
  to: number,
  at: Date,
): Promise<Device | null> {
  const { rows } = await sql.query(
    `UPDATE devices SET tap_to_pay_status_id = $4::smallint, modified_at = $5,
       tap_to_pay_requested_at = CASE WHEN $4::smallint = ${TapToPayStatus.Requested} THEN $5
         ELSE tap_to_pay_requested_at END
     WHERE merchant_id = $1 AND device_id = $2 AND tap_to_pay_status_id = ANY($3::smallint[]) RETURNING *, ${USERS}`,
    [merchantId, deviceId, from, to, at],
  );
  return rows[0] ? toDevice(rows[0]) : null;
}

/** Sandbox: requests older than `before` are approved. */
export async function approveRequestedBefore(sql: Sql, before: Date, at: Date): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE /* across merchants: the approval sweep */ devices
     SET tap_to_pay_status_id = ${TapToPayStatus.Approved}, modified_at = $2
     WHERE tap_to_pay_status_id IN (${sqlIds(TapToPayStatus.Requested)}) AND tap_to_pay_requested_at <= $1`,
    [before, at],
  );
  return rowCount ?? 0;
}
