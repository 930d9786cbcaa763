import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../../../platform/db/pool.js';

export type TokenPurpose = 'invitation' | 'reset';

/** How long each kind of link stays good. */
export const TOKEN_HOURS: Record<TokenPurpose, number> = { invitation: 7 * 24, reset: 1 };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new single-use token for the user: only its SHA-256 is kept; the token itself goes into the e-mailed link. */
export async function issueToken(sql: Sql, userId: string, purpose: TokenPurpose, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql.query(
    `INSERT INTO dashboard_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [hashOf(token), userId, purpose, now, new Date(now.getTime() + TOKEN_HOURS[purpose] * 3_600_000)],
  );
  return token;
}

/** The user a token is for, if it is unused and unexpired (not using it up). */
export async function peekToken(
  sql: Sql,
  token: string,
  purpose: TokenPurpose,
  now: Date,
): Promise<string | undefined> {
  if (!token || token.length > 100) return undefined;
  const { rows } = await sql.query<{ user_id: string }>(
    `SELECT user_id FROM dashboard_tokens
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3`,
    [hashOf(token), purpose, now],
  );
  return rows[0]?.user_id;
}

/** Uses the token up (a compare-and-set: of two concurrent uses, one wins); the user it was for, or undefined. */
export async function spendToken(
  sql: Sql,
  token: string,
  purpose: TokenPurpose,
  now: Date,
): Promise<string | undefined> {
  if (!token || token.length > 100) return undefined;
  const { rows } = await sql.query<{ user_id: string }>(
    `UPDATE dashboard_tokens SET used_at = $3
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id`,
    [hashOf(token), purpose, now],
  );
  return rows[0]?.user_id;
}
