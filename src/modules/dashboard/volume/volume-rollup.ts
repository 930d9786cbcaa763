import type { Clock } from '../../../platform/clock/clock.js';
import type { Pool } from '../../../platform/db/pool.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { volumeColumns, volumeParams } from './volume-figures.js';

const QUARTER_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Far enough back to hold the start of this month in any time zone. */
const KEPT_DAYS = 35;
/** What the refresh job recomputes every run (voids, captures and declines happen within it)... */
const RECHECK_MS = 48 * HOUR_MS;
/** ...and, once a day, the whole kept window (later changes: an ACH return, a late void). */
const FULL_RECHECK_MS = DAY_MS;
/** Merchants whose dashboard nobody opened for this long are no longer kept current (their next view catches up). */
const VIEWED_MS = 7 * DAY_MS;

export const floorQuarter = (at: Date) => new Date(Math.floor(at.getTime() / QUARTER_MS) * QUARTER_MS);

/**
 * The home page's kept figures (dashboard_volume): per merchant and UTC quarter hour, recomputed from the payments
 * core's `transaction_amounts`. A view catches the merchant's buckets up to the current quarter (the rows since the
 * last view: few); the refresh job recomputes the last two days every few minutes and the kept month once a day, for
 * merchants whose dashboard is being looked at. One merchant's buckets are written under a transaction-scoped
 * advisory lock, so two nodes (or a view and the job) never interleave.
 */
export class VolumeRollup {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  /** The merchant's buckets brought up to the current quarter; answers the instant they are complete until. */
  async current(merchantId: string, now = this.clock.now()): Promise<Date> {
    const quarter = floorQuarter(now);
    const { rows } = await this.pool.query<{ complete_until: Date; viewed_at: Date }>(
      'SELECT complete_until, viewed_at FROM dashboard_volume_marks WHERE merchant_id = $1',
      [merchantId],
    );
    const mark = rows[0];
    if (mark && mark.complete_until >= quarter) {
      if (now.getTime() - mark.viewed_at.getTime() > HOUR_MS) {
        await this.pool.query('UPDATE dashboard_volume_marks SET viewed_at = $2 WHERE merchant_id = $1', [
          merchantId,
          now,
        ]);
      }
      return mark.complete_until;
    }
    return this.recompute(merchantId, mark ? mark.complete_until : new Date(quarter.getTime() - KEPT_DAYS * DAY_MS), {
      now,
    });
  }

  /**
   * Buckets from `from` (or from where the merchant's are complete, if that is earlier) to the current quarter,
   * recomputed in one transaction; answers the new `complete_until`.
   */
  async recompute(merchantId: string, from: Date, o: { now?: Date; full?: boolean } = {}): Promise<Date> {
    const now = o.now ?? this.clock.now();
    const until = floorQuarter(now);
    return withTransaction(this.pool, async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('dashboard-volume:' || $1::text, 0))", [
        merchantId,
      ]);
      const { rows } = await tx.query<{ complete_until: Date }>(
        'SELECT complete_until FROM dashboard_volume_marks WHERE merchant_id = $1',
        [merchantId],
      );
      const complete = rows[0]?.complete_until;
      const start = floorQuarter(complete && complete < from ? complete : from);
      if (start >= until && complete && complete >= until) return complete;
      await tx.query('DELETE FROM dashboard_volume WHERE merchant_id = $1 AND bucket >= $2 AND bucket < $3', [
        merchantId,
        start,
        until,
      ]);
      await tx.query(
        `INSERT INTO dashboard_volume (merchant_id, bucket, sales_cents, approved, declined, refunds_cents)
         SELECT $1, bucket, sales, approved, declined, refunds FROM (
           SELECT to_timestamp(floor(extract(epoch FROM created_at) / 900) * 900) AS bucket, ${volumeColumns(4)}
           FROM transaction_amounts WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1
         ) b`,
        [merchantId, start, until, ...volumeParams()],
      );
      await tx.query(
        `INSERT INTO dashboard_volume_marks (merchant_id, complete_until, viewed_at, rechecked_at)
         VALUES ($1, $2, $3, $3)
         ON CONFLICT (merchant_id) DO UPDATE SET complete_until = GREATEST(dashboard_volume_marks.complete_until, $2),
           rechecked_at = CASE WHEN $4 THEN $3 ELSE dashboard_volume_marks.rechecked_at END`,
        [merchantId, until, now, o.full === true],
      );
      await tx.query('DELETE FROM dashboard_volume WHERE merchant_id = $1 AND bucket < $2', [
        merchantId,
        new Date(until.getTime() - (KEPT_DAYS + 5) * DAY_MS),
      ]);
      return complete && complete > until ? complete : until;
    });
  }

  /** The refresh job: the last two days of every merchant being looked at, and their whole kept window once a day. */
  async refreshViewed(): Promise<number> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<{ merchant_id: string; rechecked_at: Date }>(
      `SELECT /* across merchants: the refresh job picks the merchants being looked at */ merchant_id, rechecked_at
       FROM dashboard_volume_marks WHERE viewed_at > $1`,
      [new Date(now.getTime() - VIEWED_MS)],
    );
    for (const row of rows) {
      const full = now.getTime() - row.rechecked_at.getTime() > FULL_RECHECK_MS;
      const from = new Date(now.getTime() - (full ? KEPT_DAYS * DAY_MS : RECHECK_MS));
      await this.recompute(row.merchant_id, from, { now, full });
    }
    return rows.length;
  }
}
