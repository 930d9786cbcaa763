import type { Sql } from '../../../platform/db/pool.js';
import type { Role } from './roles.js';

export type OwnerKind = 'merchant' | 'partner' | 'operator';

export interface DashboardUser {
  id: string;
  email: string;
  name: string;
  ownerKind: OwnerKind;
  merchantId: string | null;
  partnerId: string | null;
  role: Role;
  status: 'invited' | 'active' | 'disabled';
  createdAt: Date;
  lastSignInAt: Date | null;
}

/** The user with what signing in needs: never leaves the accounts code. */
export interface UserCredentials extends DashboardUser {
  passwordHash: string | null;
  totpSecretSealed: Buffer | null;
  totpLastStep: number | null;
  failedAttempts: number;
  lockedUntil: Date | null;
  sessionGeneration: number;
}

const COLUMNS = `id, email, name, owner_kind, merchant_id, partner_id, role, status, created_at, last_sign_in_at,
  password_hash, totp_secret_sealed, totp_last_step, failed_attempts, locked_until, session_generation`;

function toUser(row: Record<string, any>): UserCredentials {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    ownerKind: row.owner_kind,
    merchantId: row.merchant_id,
    partnerId: row.partner_id,
    role: row.role,
    status: row.status,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
    passwordHash: row.password_hash,
    totpSecretSealed: row.totp_secret_sealed,
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    failedAttempts: row.failed_attempts,
    lockedUntil: row.locked_until,
    sessionGeneration: row.session_generation,
  };
}

export function publicUser(u: UserCredentials): DashboardUser {
  const { passwordHash, totpSecretSealed, totpLastStep, failedAttempts, lockedUntil, sessionGeneration, ...user } = u;
  return user;
}

export async function insertUser(
  sql: Sql,
  u: DashboardUser & { passwordHash: string | null; totpSecretSealed: Buffer | null },
): Promise<void> {
  await sql.query(
    `INSERT INTO dashboard_users (id, email, name, owner_kind, merchant_id, partner_id, role, status, password_hash,
       totp_secret_sealed, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      u.id,
      u.email,
      u.name,
      u.ownerKind,
      u.merchantId,
      u.partnerId,
      u.role,
      u.status,
      u.passwordHash,
      u.totpSecretSealed,
      u.createdAt,
    ],
  );
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserCredentials | undefined> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM dashboard_users WHERE lower(email) = lower($1)`, [email]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

export async function findUser(sql: Sql, id: string): Promise<UserCredentials | undefined> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM dashboard_users WHERE id = $1`, [id]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

/** A failed sign-in: counted, and past the limit the account is locked for a while. */
export async function recordFailure(sql: Sql, id: string, lockAfter: number, lockUntil: Date): Promise<void> {
  await sql.query(
    `UPDATE dashboard_users SET failed_attempts = failed_attempts + 1,
       locked_until = CASE WHEN failed_attempts + 1 >= $2 THEN $3 ELSE locked_until END
     WHERE id = $1`,
    [id, lockAfter, lockUntil],
  );
}

/**
 * A good password and code: the code's step is taken (only if newer than the last one: a replayed code finds it
 * taken and fails), the failures forgotten. False when the step was already used.
 */
export async function recordSuccess(sql: Sql, id: string, step: number, at: Date): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE dashboard_users SET totp_last_step = $2, failed_attempts = 0, locked_until = NULL, last_sign_in_at = $3
     WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [id, step, at],
  );
  return rowCount === 1;
}

/** A merchant's, a partner's or (neither given) the operator's users, by name. */
export async function listTeam(sql: Sql, owner: { merchantId?: string; partnerId?: string }): Promise<DashboardUser[]> {
  const where = owner.merchantId ? 'merchant_id = $1' : owner.partnerId ? 'partner_id = $1' : "owner_kind = 'operator'";
  const values = owner.merchantId ? [owner.merchantId] : owner.partnerId ? [owner.partnerId] : [];
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM dashboard_users WHERE ${where} ORDER BY lower(name), id`,
    values,
  );
  return rows.map((row) => publicUser(toUser(row)));
}

/** The users of partners and of the operator (the operator's console: their resets), newest first. */
export async function listNonMerchantUsers(sql: Sql, limit: number): Promise<DashboardUser[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM dashboard_users WHERE owner_kind IN ('partner', 'operator')
     ORDER BY created_at DESC, id LIMIT $1`,
    [limit],
  );
  return rows.map((row) => publicUser(toUser(row)));
}
