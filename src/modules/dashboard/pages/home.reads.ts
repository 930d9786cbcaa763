import { localParts, zonedInstant } from '../../../platform/clock/zoned.js';
import type { Pool } from '../../../platform/db/pool.js';
import { REFUND_TYPES, SALE_TYPES, TransactionStatus } from '../../payments/transactions.model.js';

export interface HomeFigures {
  timeZone: string;
  today: PeriodFigures;
  month: PeriodFigures;
  /** Sales volume per local hour of today (24 values, cents). */
  hourly: number[];
  recent: Array<{ id: string; typeId: number; statusId: number; totalCents: number; createdAt: Date }>;
}

export interface PeriodFigures {
  salesCents: number;
  approved: number;
  declined: number;
  refundsCents: number;
}

const APPROVED = [
  TransactionStatus.Authorized,
  TransactionStatus.Captured,
  TransactionStatus.Settled,
  TransactionStatus.PartiallyAuthorized,
  TransactionStatus.Refunded,
  TransactionStatus.Scheduled,
  TransactionStatus.Pending,
  TransactionStatus.Cleared,
];
const DECLINED = [TransactionStatus.Declined, TransactionStatus.Failed];

/**
 * The merchant's home figures, read from the payments core's published `transaction_amounts` view over the
 * merchant's index on (merchant_id, created_at): today's and this month's sales, approvals, declines and refunds in
 * the merchant's time zone, today's volume per hour, and the latest transactions.
 */
export async function homeFigures(pool: Pool, merchantId: string, now: Date, timeZone: string): Promise<HomeFigures> {
  const local = localParts(now, timeZone);
  const dayStart = zonedInstant(local.year, local.month, local.day, 0, 0, timeZone);
  const monthStart = zonedInstant(local.year, local.month, 1, 0, 0, timeZone);
  const { rows } = await pool.query<{
    today: boolean;
    hour: number;
    sales: string;
    approved: number;
    declined: number;
    refunds: string;
  }>(
    `SELECT created_at >= $3 AS today, extract(hour FROM created_at AT TIME ZONE $4)::int AS hour,
       COALESCE(sum(total_cents) FILTER (WHERE type_id = ANY($5) AND status_id = ANY($7)), 0)::text AS sales,
       count(*) FILTER (WHERE type_id = ANY($5) AND status_id = ANY($7))::int AS approved,
       count(*) FILTER (WHERE status_id = ANY($8))::int AS declined,
       COALESCE(sum(total_cents) FILTER (WHERE type_id = ANY($6) AND status_id = ANY($7)), 0)::text AS refunds
     FROM transaction_amounts
     WHERE merchant_id = $1 AND created_at >= $2 AND created_at <= $9
     GROUP BY 1, 2`,
    [merchantId, monthStart, dayStart, timeZone, [...SALE_TYPES], [...REFUND_TYPES], APPROVED, DECLINED, now],
  );
  const empty = (): PeriodFigures => ({ salesCents: 0, approved: 0, declined: 0, refundsCents: 0 });
  const today = empty();
  const month = empty();
  const hourly = Array.from({ length: 24 }, () => 0);
  for (const row of rows) {
    for (const period of row.today ? [today, month] : [month]) {
      period.salesCents += Number(row.sales);
      period.approved += row.approved;
      period.declined += row.declined;
      period.refundsCents += Number(row.refunds);
    }
    if (row.today) hourly[row.hour] = (hourly[row.hour] ?? 0) + Number(row.sales);
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
    recent: recent.rows.map((r) => ({
      id: r.id,
      typeId: r.type_id,
      statusId: r.status_id,
      totalCents: Number(r.total_cents),
      createdAt: r.created_at,
    })),
  };
}
