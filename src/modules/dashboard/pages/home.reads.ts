import { localParts, zonedInstant } from '../../../platform/clock/zoned.js';
import type { Pool } from '../../../platform/db/pool.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { volumeColumns, volumeParams } from '../volume/volume-figures.js';
import { floorQuarter, type VolumeRollup } from '../volume/volume-rollup.js';

export interface HomeFigures {
  timeZone: string;
  today: PeriodFigures;
  month: PeriodFigures;
  /** Sales volume per local hour of today (24 values, cents). */
  hourly: number[];
  /** Sales volume per local day of this month so far (day 1 first, cents). */
  daily: number[];
  recent: Array<{ id: string; typeId: number; statusId: number; totalCents: number; createdAt: Date }>;
}

export interface PeriodFigures {
  salesCents: number;
  approved: number;
  declined: number;
  refundsCents: number;
}

/**
 * The merchant's home figures in its time zone: today's and this month's sales, approvals, declines and refunds, and
 * today's volume per hour. The kept quarter-hour buckets (volume-rollup.ts) answer up to the current quarter; only the
 * rows newer than them are read from the payments core's published `transaction_amounts` view (over its index on
 * (merchant_id, created_at)), so the page costs the same with a million transactions this month as with ten.
 */
export async function homeFigures(
  pool: Pool,
  volume: VolumeRollup,
  merchantId: string,
  now: Date,
  timeZone: string,
): Promise<HomeFigures> {
  const local = localParts(now, timeZone);
  const dayStart = zonedInstant(local.year, local.month, local.day, 0, 0, timeZone);
  const monthStart = zonedInstant(local.year, local.month, 1, 0, 0, timeZone);
  const complete = await volume.current(merchantId, now);
  // The kept buckets end here; the rows from here to now are read as they are.
  const kept = new Date(Math.max(monthStart.getTime(), Math.min(complete.getTime(), floorQuarter(now).getTime())));
  type Row = {
    today: boolean;
    hour: number;
    day: number;
    sales: string;
    approved: number;
    declined: number;
    refunds: string;
  };
  const [buckets, fresh] = await Promise.all([
    pool.query<Row>(
      `SELECT bucket >= $3 AS today, extract(hour FROM bucket AT TIME ZONE $4)::int AS hour,
         extract(day FROM bucket AT TIME ZONE $4)::int AS day,
         sum(sales_cents)::text AS sales, sum(approved)::int AS approved, sum(declined)::int AS declined,
         sum(refunds_cents)::text AS refunds
       FROM dashboard_volume WHERE merchant_id = $1 AND bucket >= $2 AND bucket < $5
       GROUP BY 1, 2, 3`,
      [merchantId, monthStart, dayStart, timeZone, kept],
    ),
    // Over the index, whatever the planner estimates: it multiplies "this merchant" by "this quarter hour" as if
    // they were independent, so another merchant's burst in the same quarter (an ACH batch, a billing run) made it
    // expect 170,000 rows and scan the whole table in parallel (340 ms a view) for a few hundred rows.
    withTransaction(pool, async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<Row>(
        `SELECT created_at >= $3 AS today, extract(hour FROM created_at AT TIME ZONE $4)::int AS hour,
           extract(day FROM created_at AT TIME ZONE $4)::int AS day, ${volumeColumns(6)}
         FROM transaction_amounts
         WHERE merchant_id = $1 AND created_at >= $2 AND created_at <= $5
         GROUP BY 1, 2, 3`,
        [merchantId, kept, dayStart, timeZone, now, ...volumeParams()],
      );
    }),
  ]);
  const rows = [...buckets.rows, ...fresh.rows];
  const empty = (): PeriodFigures => ({ salesCents: 0, approved: 0, declined: 0, refundsCents: 0 });
  const today = empty();
  const month = empty();
  const hourly = Array.from({ length: 24 }, () => 0);
  const daily = Array.from({ length: local.day }, () => 0);
  for (const row of rows) {
    for (const period of row.today ? [today, month] : [month]) {
      period.salesCents += Number(row.sales);
      period.approved += row.approved;
      period.declined += row.declined;
      period.refundsCents += Number(row.refunds);
    }
    if (row.today) hourly[row.hour] = (hourly[row.hour] ?? 0) + Number(row.sales);
    if (row.day >= 1 && row.day <= daily.length) daily[row.day - 1] = (daily[row.day - 1] ?? 0) + Number(row.sales);
  }
  const recent = await pool.query<{
    id: string;
    type_id: number;
    status_id: number;
    total_cents: string;
    created_at: Date;
  }>(
    `SELECT id, type_id, status_id, total_cents, created_at FROM transaction_amounts
     WHERE merchant_id = $1 ORDER BY created_at DESC LIMIT 10`,
    [merchantId],
  );
  return {
    timeZone,
    today,
    month,
    hourly,
    daily,
    recent: recent.rows.map((r) => ({
      id: r.id,
      typeId: r.type_id,
      statusId: r.status_id,
      totalCents: Number(r.total_cents),
      createdAt: r.created_at,
    })),
  };
}
