import { createHash } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import type { KeyEncryptionKey } from '../crypto/kek.js';
import type { Pool } from '../db/pool.js';
import { IdempotencyKeyConflictError, IdempotencyKeyInProgressError } from './errors.js';

export type IdempotencyOutcome =
  | { kind: 'claimed' }
  | { kind: 'replay'; statusCode: number; contentType: string | null; body: string };

/** How long an in-progress claim survives a node that died mid-request before another request may take it over. */
const CLAIM_LEASE = '2 minutes';

/**
 * Idempotency keys in PostgreSQL, scoped to the principal. The first request claims the key with an INSERT (the
 * primary key makes the claim atomic across nodes); a concurrent duplicate finds the claim and gets 409; a later
 * retry gets the stored response byte for byte; the same key with another request gets 422. 5xx responses release
 * the key so the retry runs again. Retention follows the business clock.
 */
export class IdempotencyStore {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly kek: KeyEncryptionKey,
    private readonly retentionMinutes: number,
  ) {}

  async claim(principal: string, key: string, fingerprint: string): Promise<IdempotencyOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      const expiresAt = new Date(now.getTime() + this.retentionMinutes * 60_000);
      const claimed = await this.pool.query(
        `INSERT INTO idempotency_keys AS k (principal, key, fingerprint, state, locked_until, created_at, expires_at)
         VALUES ($1, $2, $3, 'in_progress', clock_timestamp() + interval '${CLAIM_LEASE}', $4, $5)
         ON CONFLICT (principal, key) DO UPDATE SET
           fingerprint = EXCLUDED.fingerprint, state = 'in_progress', status_code = NULL, content_type = NULL,
           response_body = NULL, locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at,
           expires_at = EXCLUDED.expires_at
         WHERE k.expires_at <= $4
            OR (k.state = 'in_progress' AND k.locked_until < clock_timestamp() AND k.fingerprint = EXCLUDED.fingerprint)
         RETURNING 1`,
        [principal, key, fingerprint, now, expiresAt],
      );
      if (claimed.rowCount === 1) return { kind: 'claimed' };

      const { rows } = await this.pool.query<{
        fingerprint: string;
        state: string;
        status_code: number | null;
        content_type: string | null;
        response_body: Buffer | null;
        kek_version: number;
      }>(
        'SELECT fingerprint, state, status_code, content_type, response_body, kek_version FROM idempotency_keys WHERE principal = $1 AND key = $2',
        [principal, key],
      );
      const existing = rows[0];
      if (!existing) continue; // released between our INSERT and SELECT: try to claim again
      if (existing.fingerprint !== fingerprint) throw new IdempotencyKeyConflictError();
      if (existing.state === 'in_progress') throw new IdempotencyKeyInProgressError();
      return {
        kind: 'replay',
        statusCode: existing.status_code!,
        contentType: existing.content_type,
        body: existing.response_body
          ? this.kek.open(existing.response_body, idempotencyAad(principal, key), existing.kek_version).toString('utf8')
          : '',
      };
    }
    throw new IdempotencyKeyInProgressError();
  }

  async complete(principal: string, key: string, statusCode: number, contentType: string | null, body: string) {
    await this.pool.query(
      `UPDATE idempotency_keys SET state = 'completed', status_code = $3, content_type = $4, response_body = $5,
         kek_version = $6, locked_until = NULL
       WHERE principal = $1 AND key = $2 AND state = 'in_progress'`,
      [
        principal,
        key,
        statusCode,
        contentType,
        this.kek.seal(Buffer.from(body, 'utf8'), idempotencyAad(principal, key)),
        this.kek.version,
      ],
    );
  }

  async release(principal: string, key: string): Promise<void> {
    await this.pool.query("DELETE FROM idempotency_keys WHERE principal = $1 AND key = $2 AND state = 'in_progress'", [
      principal,
      key,
    ]);
  }
}

export function idempotencyAad(principal: string, key: string): string {
  return `idempotency:${principal}|${key}`;
}

/** Same endpoint, same query, same JSON (whatever its key order or whitespace) → same fingerprint. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${url}\n`).update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
