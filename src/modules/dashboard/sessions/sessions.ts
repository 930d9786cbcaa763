import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../../platform/clock/clock.js';
import type { Pool, Sql } from '../../../platform/db/pool.js';
import { type DashboardUser, findUser, publicUser } from '../accounts/users.repo.js';

export interface SessionPolicy {
  /** A session unused this long ends. */
  idleMinutes: number;
  /** A session ends this long after sign-in, however busy. */
  maxHours: number;
}

export interface SignedIn {
  /** The user as the pages see it: a partner's user acting in a merchant's dashboard is that merchant's, for now. */
  user: DashboardUser;
  csrf: string;
  idHash: string;
  /** Set when a partner's user acts in one of its merchants' dashboards: the partner's id. */
  actingForPartner?: string;
}

const hashOf = (cookie: string) => createHash('sha256').update(cookie).digest('hex');

/**
 * Dashboard sessions: a random 256-bit cookie (HttpOnly, SameSite=Strict, Secure over https), stored only as its
 * SHA-256, with a CSRF token of its own. Valid on every node (the row is the session), until it is idle too long,
 * reaches its absolute end, is signed out, or the user signs out everywhere or changes a password (generation).
 */
export class DashboardSessions {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly policy: SessionPolicy,
  ) {}

  async create(
    user: DashboardUser & { sessionGeneration: number },
    client: { ip?: string; userAgent?: string },
    sql: Sql = this.pool,
  ): Promise<{ cookie: string; csrf: string }> {
    const cookie = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    await sql.query(
      `INSERT INTO dashboard_sessions (id_hash, user_id, generation, csrf_token, created_at, last_seen_at, expires_at,
         user_agent, ip)
       VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8)`,
      [
        hashOf(cookie),
        user.id,
        user.sessionGeneration,
        csrf,
        now,
        new Date(now.getTime() + this.policy.maxHours * 3_600_000),
        client.userAgent?.slice(0, 300) ?? null,
        client.ip ?? null,
      ],
    );
    return { cookie, csrf };
  }

  /** The signed-in user of a cookie, or undefined (unknown, ended, idle, revoked, or the user no longer active). */
  async resolve(cookie: string | undefined): Promise<SignedIn | undefined> {
    if (!cookie || cookie.length > 100) return undefined;
    const idHash = hashOf(cookie);
    const now = this.clock.now();
    const { rows } = await this.pool.query<{
      user_id: string;
      generation: number;
      csrf_token: string;
      last_seen_at: Date;
      expires_at: Date;
      revoked_at: Date | null;
      acting_merchant_id: string | null;
    }>(
      'SELECT user_id, generation, csrf_token, last_seen_at, expires_at, revoked_at, acting_merchant_id FROM dashboard_sessions WHERE id_hash = $1',
      [idHash],
    );
    const row = rows[0];
    if (!row || row.revoked_at || row.expires_at <= now) return undefined;
    if (now.getTime() - row.last_seen_at.getTime() > this.policy.idleMinutes * 60_000) return undefined;
    const user = await findUser(this.pool, row.user_id);
    if (!user || user.status !== 'active' || user.sessionGeneration !== row.generation) return undefined;
    // Touched at most once a minute: a busy page does not write on every request.
    if (now.getTime() - row.last_seen_at.getTime() > 60_000) {
      await this.pool.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, now]);
    }
    const signedIn = { user: publicUser(user), csrf: row.csrf_token, idHash };
    // Acting in a merchant only while the merchant is still the partner's (a merchant moved away ends it at once).
    const stillTheirs =
      row.acting_merchant_id && user.ownerKind === 'partner' && user.partnerId
        ? (
            await this.pool.query('SELECT 1 FROM merchant_accounts WHERE id = $1 AND partner_id = $2', [
              row.acting_merchant_id,
              user.partnerId,
            ])
          ).rowCount === 1
        : false;
    if (stillTheirs && user.partnerId) {
      return {
        ...signedIn,
        user: { ...signedIn.user, ownerKind: 'merchant' as const, merchantId: row.acting_merchant_id },
        actingForPartner: user.partnerId,
      };
    }
    return signedIn;
  }

  /** A partner's user opens one of its merchants' dashboards (the caller checked the merchant is the partner's). */
  async act(idHash: string, merchantId: string | null): Promise<void> {
    await this.pool.query('UPDATE dashboard_sessions SET acting_merchant_id = $2 WHERE id_hash = $1', [
      idHash,
      merchantId,
    ]);
  }

  async end(idHash: string): Promise<void> {
    await this.pool.query('UPDATE dashboard_sessions SET revoked_at = $2 WHERE id_hash = $1 AND revoked_at IS NULL', [
      idHash,
      this.clock.now(),
    ]);
  }

  /** Every session of the user ends (sign out everywhere; a new password). */
  async endAll(userId: string, sql: Sql = this.pool): Promise<void> {
    await sql.query('UPDATE dashboard_users SET session_generation = session_generation + 1 WHERE id = $1', [userId]);
    await sql.query('UPDATE dashboard_sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [
      userId,
      this.clock.now(),
    ]);
  }
}
