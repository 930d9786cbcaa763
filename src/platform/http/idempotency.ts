import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import type { KeyEncryptionKey } from '../crypto/kek.js';
import type { SealedColumn } from '../crypto/key-rotation.js';
import type { Pool, Sql } from '../db/pool.js';
import { IdempotencyKeyConflictError, IdempotencyKeyInProgressError } from './errors.js';

/**
 * A key this request holds. `id` names the claim for as long as the key lives, also across a takeover, so what the
 * request starts can carry it and be found again. `recovering`: an earlier request with this key and this body was
 * cut off (its node died, or it failed with a 5xx); the handler must look for what that request started before it
 * starts anything.
 */
export interface IdempotencyClaim {
  principal: string;
  key: string;
  id: string;
  recovering: boolean;
}

/** Longer than any request runs (the processor deadline is 30 s): a claim held this long is stuck, not busy. */
const STUCK_AFTER = '2 minutes';

export type IdempotencyOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'replay'; statusCode: number; contentType: string | null; body: string };

/**
 * Idempotency keys in PostgreSQL, scoped to the principal. The first request claims the key with an INSERT (the
 * primary key makes the claim atomic across nodes) and holds it as its node (`holder`, see NodeLiveness); a
 * concurrent duplicate finds the claim held by a live node and gets 409; a later retry gets the stored response
 * byte for byte; the same key with another request gets 422. A claim whose node died, or that a 5xx released, is
 * taken over by the next retry at once, as a recovering claim. Storing or releasing a response is fenced on the
 * holder, so a node that lost its claim cannot overwrite what the new holder does. Retention follows the business
 * clock.
 */
export class IdempotencyStore {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly kek: KeyEncryptionKey,
    private readonly retentionMinutes: number,
    private readonly node: () => number,
  ) {}

  async claim(principal: string, key: string, fingerprint: string): Promise<IdempotencyOutcome> {
    const holder = this.node();
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      const expiresAt = new Date(now.getTime() + this.retentionMinutes * 60_000);
      const claimed = await this.pool.query<{ claim_id: string }>(
        `INSERT INTO idempotency_keys AS k
           (principal, key, fingerprint, state, holder, claim_id, locked_until, created_at, expires_at)
         VALUES ($1, $2, $3, 'in_progress', $6, $7, clock_timestamp() + interval '${STUCK_AFTER}', $4, $5)
         ON CONFLICT (principal, key) DO UPDATE SET
           fingerprint = EXCLUDED.fingerprint, state = 'in_progress', status_code = NULL, content_type = NULL,
           response_body = NULL, locked_until = EXCLUDED.locked_until, holder = EXCLUDED.holder,
           claim_id = EXCLUDED.claim_id,
           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE k.expires_at <= $4
         RETURNING claim_id`,
        [principal, key, fingerprint, now, expiresAt, holder, randomUUID()],
      );
      if (claimed.rowCount === 1) {
        return { kind: 'claimed', claim: { principal, key, id: claimed.rows[0]!.claim_id, recovering: false } };
      }

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
      if (!existing) continue; // gone between our INSERT and SELECT: try to claim again
      if (existing.fingerprint !== fingerprint) throw new IdempotencyKeyConflictError();
      if (existing.state === 'in_progress') {
        const taken = await this.takeOver(principal, key, holder);
        if (taken) return { kind: 'claimed', claim: { principal, key, id: taken, recovering: true } };
        throw new IdempotencyKeyInProgressError();
      }
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

  /**
   * Takes an in-progress claim whose holder is gone: its node died, or a 5xx released it. A claim held longer than
   * any request runs (STUCK_AFTER) is taken too: its node lives but could not store the response (its database
   * connection failed at the end). One statement, so of several retries arriving together exactly one takes it.
   */
  private async takeOver(principal: string, key: string, holder: number): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ claim_id: string }>(
      `UPDATE idempotency_keys SET holder = $3, locked_until = clock_timestamp() + interval '${STUCK_AFTER}',
         claim_id = coalesce(claim_id, gen_random_uuid())
       WHERE principal = $1 AND key = $2 AND state = 'in_progress'
         AND (holder IS NULL OR locked_until < clock_timestamp() OR NOT tessera_node_alive(holder))
       RETURNING claim_id`,
      [principal, key, holder],
    );
    return rows[0]?.claim_id;
  }

  /** Stores the response, if this node still holds the claim (else the node that took it over answers). */
  async complete(
    claim: IdempotencyClaim,
    statusCode: number,
    contentType: string | null,
    body: string,
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE idempotency_keys SET state = 'completed', status_code = $5, content_type = $6, response_body = $7,
         kek_version = $8, locked_until = NULL, holder = NULL
       WHERE principal = $1 AND key = $2 AND state = 'in_progress' AND claim_id = $3 AND holder = $4`,
      [
        claim.principal,
        claim.key,
        claim.id,
        this.node(),
        statusCode,
        contentType,
        this.kek.seal(Buffer.from(body, 'utf8'), idempotencyAad(claim.principal, claim.key)),
        this.kek.version,
      ],
    );
    return rowCount === 1;
  }

  /**
   * After an answer about the moment rather than the request (409: something else is in progress; 429: too many
   * requests): nothing is kept, so a retry with the key is processed anew, as a first request.
   */
  async forget(claim: IdempotencyClaim): Promise<void> {
    await this.pool.query(
      `DELETE FROM idempotency_keys
       WHERE principal = $1 AND key = $2 AND state = 'in_progress' AND claim_id = $3 AND holder = $4`,
      [claim.principal, claim.key, claim.id, this.node()],
    );
  }

  /**
   * After a 5xx: the next retry takes the claim over at once. The claim (and its id) stays, so that retry still finds
   * whatever this request started before it failed, instead of starting it a second time.
   */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.pool.query(
      `UPDATE idempotency_keys SET holder = NULL, locked_until = '-infinity'
       WHERE principal = $1 AND key = $2 AND state = 'in_progress' AND claim_id = $3 AND holder = $4`,
      [claim.principal, claim.key, claim.id, this.node()],
    );
  }
}

/** Drops keys past their retention (business clock); the maintenance job calls it. Returns how many. */
export async function purgeExpiredIdempotencyKeys(sql: Sql, now: Date): Promise<number> {
  const result = await sql.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  return result.rowCount ?? 0;
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

/** The platform's own sealed column: stored idempotent responses (key rotation re-wraps it with the modules'). */
export const IDEMPOTENCY_SEALED: SealedColumn = {
  name: 'stored idempotent responses',
  table: 'idempotency_keys',
  column: 'response_body',
  key: ['principal', 'key'],
  aad: (row) => idempotencyAad(String(row.principal), String(row.key)),
  where: 'response_body IS NOT NULL',
};
