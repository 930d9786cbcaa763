import type { Sql } from '../../platform/db/pool.js';

export async function insertFamily(sql: Sql, family: { id: string; clientId: string; scope: string; now: Date }) {
  await sql.query('INSERT INTO token_families (id, client_id, scope, created_at) VALUES ($1, $2, $3, $4)', [
    family.id,
    family.clientId,
    family.scope,
    family.now,
  ]);
}

export async function insertRefreshToken(
  sql: Sql,
  token: { hash: Buffer; familyId: string; clientId: string; now: Date; expiresAt: Date },
) {
  await sql.query(
    'INSERT INTO refresh_tokens (token_hash, family_id, client_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [token.hash, token.familyId, token.clientId, token.now, token.expiresAt],
  );
}

export interface RefreshTokenRow {
  family_id: string;
  client_id: string;
  expires_at: Date;
  used_at: Date | null;
  family_revoked: boolean;
  scope: string;
}

/** Locks the token row: two concurrent refreshes with one token serialise here, and the second sees it spent. */
export async function lockRefreshToken(sql: Sql, hash: Buffer): Promise<RefreshTokenRow | undefined> {
  const { rows } = await sql.query<RefreshTokenRow>(
    `SELECT r.family_id, r.client_id, r.expires_at, r.used_at, f.revoked_at IS NOT NULL AS family_revoked, f.scope
     FROM refresh_tokens r JOIN token_families f ON f.id = r.family_id
     WHERE r.token_hash = $1
     FOR UPDATE OF r`,
    [hash],
  );
  return rows[0];
}

export async function markRefreshTokenUsed(sql: Sql, hash: Buffer, now: Date) {
  await sql.query('UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1', [hash, now]);
}

export async function revokeFamily(sql: Sql, familyId: string, reason: string, now: Date) {
  await sql.query(
    'UPDATE token_families SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL',
    [familyId, now, reason],
  );
}

export async function isFamilyRevoked(sql: Sql, familyId: string): Promise<boolean> {
  const { rows } = await sql.query<{ revoked: boolean }>(
    'SELECT revoked_at IS NOT NULL AS revoked FROM token_families WHERE id = $1',
    [familyId],
  );
  return rows[0]?.revoked ?? true;
}

/** Housekeeping: refresh tokens past expiry for more than a week can go (their families keep the audit trail). */
export async function purgeExpiredRefreshTokens(sql: Sql, now: Date): Promise<number> {
  const { rowCount } = await sql.query(
    "DELETE FROM refresh_tokens WHERE expires_at < $1::timestamptz - interval '7 days'",
    [now],
  );
  return rowCount ?? 0;
}
