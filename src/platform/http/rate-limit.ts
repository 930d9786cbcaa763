import type { Clock } from '../clock/clock.js';
import type { Pool, Sql } from '../db/pool.js';

export interface RateLimitRule {
  name: string;
  windowSeconds: number;
  limit: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** One rule's window for a principal: what is used of it, and when it resets (business time). */
export interface RateLimitWindow {
  name: string;
  limit: number;
  used: number;
  remaining: number;
  resetAt: Date;
}

interface WindowState {
  windowStart: number;
  /** Hits this node has counted but not yet written to PostgreSQL. */
  pending: number;
  /** The cluster-wide count as of our last write (includes our own flushed hits). */
  known: number;
}

/**
 * Fixed-window counters per principal, held in PostgreSQL so every node counts against the same budget.
 *
 * Writing one row per request would serialise all of a busy principal's requests on one row, so each node batches:
 * far from the limit it counts locally and flushes its pending hits every FLUSH_MS (or every few hits), learning the
 * cluster total in the same statement. Once the known total reaches half the limit, every request goes to PostgreSQL
 * synchronously and atomically, so the limit itself is exact on one node and overshoots by at most the hits other
 * nodes have not yet flushed (bounded by BATCH_MAX per node) across several. Windows follow the business clock.
 */
export class RateLimiter {
  private readonly state = new Map<string, WindowState>();
  private timer: NodeJS.Timeout | undefined;
  private static readonly FLUSH_MS = 200;
  private static readonly BATCH_FRACTION = 0.05;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly rules: readonly RateLimitRule[],
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flushAll(), RateLimiter.FLUSH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushAll();
  }

  async hit(principal: string): Promise<RateLimitDecision> {
    const now = this.clock.nowMs();
    let worst: RateLimitDecision = { allowed: true, retryAfterSeconds: 0 };
    for (const rule of this.rules) {
      const decision = await this.hitRule(principal, rule, now);
      if (!decision.allowed && decision.retryAfterSeconds >= worst.retryAfterSeconds) worst = decision;
    }
    return worst;
  }

  /**
   * The principal's current windows, cluster-wide: this node's pending hits are written first, then every node's
   * flushed count is read (other nodes' unflushed hits, at most a few per node, are not in it).
   */
  async windows(principal: string): Promise<RateLimitWindow[]> {
    const now = this.clock.nowMs();
    const out: RateLimitWindow[] = [];
    for (const rule of this.rules) {
      const windowMs = rule.windowSeconds * 1000;
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const key = `${rule.name}|${principal}`;
      const state = this.state.get(key);
      if (state && state.windowStart === windowStart) await this.flush(key, state, windowMs);
      const { rows } = await this.pool.query<{ hits: number }>(
        'SELECT hits FROM rate_limit_counters WHERE bucket = $1 AND window_start = $2',
        [key, new Date(windowStart)],
      );
      const used = Math.min(rule.limit, rows[0]?.hits ?? 0);
      out.push({
        name: rule.name,
        limit: rule.limit,
        used,
        remaining: rule.limit - used,
        resetAt: new Date(windowStart + windowMs),
      });
    }
    return out;
  }

  private async hitRule(principal: string, rule: RateLimitRule, now: number): Promise<RateLimitDecision> {
    const windowMs = rule.windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    const key = `${rule.name}|${principal}`;
    let state = this.state.get(key);
    if (!state || state.windowStart !== windowStart) {
      state = { windowStart, pending: 0, known: 0 };
      this.state.set(key, state);
    }
    const batchMax = Math.max(1, Math.floor(rule.limit * RateLimiter.BATCH_FRACTION));
    const nearLimit = state.known + state.pending + 1 > rule.limit / 2;

    if (nearLimit) {
      if (state.known + state.pending >= rule.limit) return { allowed: false, retryAfterSeconds };
      // Requests already served must count even if this one is refused, so pending hits go in unconditionally.
      if (state.pending > 0) await this.flush(key, state, windowMs);
      // Exact path: add this hit atomically, or refuse without counting it if that would go over the limit.
      const total = await this.write(key, windowStart, windowMs, 1, rule.limit);
      if (total === null) {
        state.known = rule.limit;
        return { allowed: false, retryAfterSeconds };
      }
      state.known = total;
      return { allowed: true, retryAfterSeconds: 0 };
    }

    state.pending++;
    if (state.pending >= batchMax) await this.flush(key, state, windowMs);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Adds `hits`; returns the new total, or null (and adds nothing) when that would exceed `limit`. */
  private async write(
    key: string,
    windowStart: number,
    windowMs: number,
    hits: number,
    limit: number | null,
  ): Promise<number | null> {
    const { rows } = await this.pool.query<{ hits: number }>(
      `INSERT INTO rate_limit_counters AS c (bucket, window_start, hits, expires_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = c.hits + EXCLUDED.hits
         WHERE $5::int IS NULL OR c.hits + EXCLUDED.hits <= $5::int
       RETURNING hits`,
      [key, new Date(windowStart), hits, new Date(windowStart + 2 * windowMs), limit],
    );
    return rows[0]?.hits ?? null;
  }

  private async flush(key: string, state: WindowState, windowMs: number): Promise<void> {
    const hits = state.pending;
    if (hits === 0) return;
    state.pending = 0;
    try {
      const total = await this.write(key, state.windowStart, windowMs, hits, null);
      if (total !== null) state.known = Math.max(state.known, total);
    } catch {
      state.pending += hits; // try again on the next flush
    }
  }

  private async flushAll(): Promise<void> {
    const now = this.clock.nowMs();
    const work: Promise<void>[] = [];
    for (const [key, state] of this.state) {
      const rule = this.rules.find((r) => key.startsWith(`${r.name}|`))!;
      const windowMs = rule.windowSeconds * 1000;
      if (state.windowStart + windowMs <= now && state.pending === 0) {
        this.state.delete(key);
        continue;
      }
      work.push(this.flush(key, state, windowMs));
    }
    await Promise.all(work);
  }
}

/** Drops counters of windows that have ended (business clock); the maintenance job calls it. Returns how many. */
export async function purgeExpiredRateLimitCounters(sql: Sql, now: Date): Promise<number> {
  const result = await sql.query('DELETE FROM rate_limit_counters WHERE expires_at <= $1', [now]);
  return result.rowCount ?? 0;
}
