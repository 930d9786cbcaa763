import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import { withFields } from '../../platform/objects.js';
import { InstallmentStatus, LIVE_STATUSES, type Subscription, SubscriptionStatus } from './subscriptions.model.js';

const LIVE = sqlIds(...LIVE_STATUSES);

/** A subscription row (`s`) with when it is next charged: its earliest due installment or retry, else its plan's next. */
const WITH_NEXT_PAYMENT = `s.*, CASE WHEN s.status_id = ${SubscriptionStatus.Active} THEN coalesce(
    (SELECT min(i.next_attempt_at) FROM subscription_installments i
     WHERE i.subscription_id = s.id AND i.next_attempt_at IS NOT NULL), s.next_due_at) END AS next_payment_at`;

export function toSubscription(r: Record<string, unknown>): Subscription {
  const amounts = r.installment_amounts as Record<string, number> | null;
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    customerId: r.customer_id as string,
    paymentMethodId: r.payment_method_id as string,
    processorId: r.payment_processor_id as string,
    statusId: r.status_id as number,
    transactionTypeId: r.transaction_type_id as number,
    baseCents: Number(r.base_cents),
    percentageOffRateMpct: r.percentage_off_rate_mpct as number | null,
    surchargeRateMpct: r.surcharge_rate_mpct as number | null,
    useCardPrice: r.use_card_price as boolean | null,
    amount: r.amount as Subscription['amount'],
    totalCents: Number(r.total_cents),
    allPaymentsCents: r.all_payments_cents === null ? null : Number(r.all_payments_cents),
    installmentAmounts: amounts
      ? Object.fromEntries(Object.entries(amounts).map(([order, cents]) => [Number(order), cents]))
      : null,
    currencyId: r.currency_id as number,
    frequencyUnitId: r.frequency_unit_id as number,
    frequency: r.frequency as number,
    schedule: r.schedule as Subscription['schedule'],
    numberOfPayments: r.number_of_payments as number | null,
    timeZone: r.time_zone as string,
    requesterIp: r.requester_ip as string,
    secCode: r.sec_code as number | null,
    isFasterProcessing: r.is_faster_processing as boolean,
    startAt: r.start_at as Date,
    endAt: r.end_at as Date | null,
    plannedOrder: r.planned_order as number,
    nextDueAt: r.next_due_at as Date | null,
    successfulCount: r.successful_count as number,
    paidCents: Number(r.paid_cents),
    lastPaymentAt: r.last_payment_at as Date | null,
    nextPaymentAt: (r.next_payment_at as Date | null | undefined) ?? null,
    sourceTypeId: r.source_type_id as number,
    sourceId: r.source_id as string | null,
    idempotencyId: r.idempotency_id as string | null,
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
  };
}

export async function insertSubscription(sql: Sql, s: Subscription): Promise<void> {
  await sql.query(
    `INSERT INTO subscriptions (id, merchant_id, customer_id, payment_method_id, payment_processor_id, status_id,
       transaction_type_id, base_cents, percentage_off_rate_mpct, surcharge_rate_mpct, use_card_price, amount,
       installment_amounts, currency_id, frequency_unit_id, frequency, schedule, number_of_payments, time_zone,
       requester_ip, sec_code, is_faster_processing, start_at, end_at, planned_order, next_due_at, source_type_id,
       idempotency_id, created_at, modified_at, total_cents, all_payments_cents, source_id)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,
       $29,$29,$30,$31,$32)`,
    [
      s.id,
      s.merchantId,
      s.customerId,
      s.paymentMethodId,
      s.processorId,
      s.statusId,
      s.transactionTypeId,
      s.baseCents,
      s.percentageOffRateMpct,
      s.surchargeRateMpct,
      s.useCardPrice,
      JSON.stringify(s.amount),
      s.installmentAmounts ? JSON.stringify(s.installmentAmounts) : null,
      s.currencyId,
      s.frequencyUnitId,
      s.frequency,
      s.schedule ? JSON.stringify(s.schedule) : null,
      s.numberOfPayments,
      s.timeZone,
      s.requesterIp,
      s.secCode,
      s.isFasterProcessing,
      s.startAt,
      s.endAt,
      s.plannedOrder,
      s.nextDueAt,
      s.sourceTypeId,
      s.idempotencyId,
      s.createdAt,
      s.totalCents,
      s.allPaymentsCents,
      s.sourceId,
    ],
  );
}

/** Tenant-scoped read; `forUpdate` takes the row lock every change of status takes. */
export async function findSubscription(
  sql: Sql,
  merchantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Subscription | undefined> {
  const { rows } = await sql.query(
    `SELECT ${WITH_NEXT_PAYMENT} FROM subscriptions s
     WHERE s.id = $1 AND s.merchant_id = $2${options.forUpdate ? ' FOR UPDATE OF s' : ''}`,
    [id, merchantId],
  );
  return rows[0] ? toSubscription(rows[0]) : undefined;
}

export async function findSubscriptionByIdempotencyId(sql: Sql, merchantId: string, claimId: string) {
  const { rows } = await sql.query(
    `SELECT ${WITH_NEXT_PAYMENT} FROM subscriptions s WHERE s.idempotency_id = $1 AND s.merchant_id = $2`,
    [claimId, merchantId],
  );
  return rows[0] ? toSubscription(rows[0]) : undefined;
}

/** A status move as a compare-and-set: only from one of `from`; the row as it now is, or undefined when it moved on. */
export async function moveStatus(
  sql: Sql,
  merchantId: string,
  id: string,
  from: readonly number[],
  to: number,
  now: Date,
  extra: { nextDueAt?: null } = {},
): Promise<Subscription | undefined> {
  const { rows } = await sql.query(
    `UPDATE subscriptions SET status_id = $3, modified_at = $4${'nextDueAt' in extra ? ', next_due_at = NULL' : ''}
     WHERE merchant_id = $5 AND id = $1 AND status_id = ANY($2::smallint[]) RETURNING *`,
    [id, from, to, now, merchantId],
  );
  return rows[0] ? toSubscription(rows[0]) : undefined;
}

export async function setPaymentMethod(sql: Sql, merchantId: string, id: string, paymentMethodId: string, now: Date) {
  await sql.query(
    'UPDATE subscriptions SET payment_method_id = $2, modified_at = $3 WHERE merchant_id = $4 AND id = $1',
    [id, paymentMethodId, now, merchantId],
  );
}

/** The live subscriptions paying with a method (a method in use cannot be deleted). */
export async function findLiveByMethod(sql: Sql, merchantId: string, paymentMethodId: string): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM subscriptions WHERE merchant_id = $1 AND payment_method_id = $2 AND status_id IN (${LIVE})
     ORDER BY created_at`,
    [merchantId, paymentMethodId],
  );
  return rows.map((row) => row.id);
}

/**
 * A deleted customer's live subscriptions end with it (Deleted); answers their ids. The rows are locked FOR UPDATE
 * first, as every merchant move locks them, so an installment claim is ordered before or after, never during.
 */
export async function deleteCustomerSubscriptions(sql: Sql, merchantId: string, customerId: string, now: Date) {
  const { rows } = await sql.query<{ id: string }>(
    `WITH locked AS (
       SELECT id FROM subscriptions WHERE merchant_id = $1 AND customer_id = $2 AND status_id IN (${LIVE})
       FOR UPDATE
     )
     UPDATE subscriptions s SET status_id = ${SubscriptionStatus.Deleted}, modified_at = $3, next_due_at = NULL
     FROM locked WHERE s.id = locked.id AND s.status_id IN (${LIVE}) RETURNING s.id`,
    [merchantId, customerId, now],
  );
  return rows.map((row) => row.id);
}

/** The unique index on idempotency_id refused a second subscription for one idempotency claim. */
export function isSubscriptionIdempotencyIdTaken(error: unknown): boolean {
  return (error as { constraint?: string } | null)?.constraint === 'subscriptions_idempotency';
}

export interface SubscriptionFilter {
  merchantId: string;
  customerId?: string;
  statusId?: number;
}

export interface SubscriptionListRow extends Subscription {
  customerName: string | null;
  customerEmail: string | null;
  /** Installments charged so far (paid, failed or awaiting their outcome). */
  chargedCount: number;
}

export async function listSubscriptions(
  sql: Sql,
  filter: SubscriptionFilter,
  page: PageRequest,
): Promise<{ items: SubscriptionListRow[]; total: number }> {
  const where = ['s.merchant_id = $1'];
  const params: unknown[] = [filter.merchantId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.customerId) add((n) => `s.customer_id = ${n}`, filter.customerId);
  // Deleted subscriptions are listed only when asked for.
  if (filter.statusId !== undefined) add((n) => `s.status_id = ${n}`, filter.statusId);
  else where.push(`s.status_id <> ${SubscriptionStatus.Deleted}`);
  if (page.search) {
    add(
      (n) =>
        `(s.id::text ILIKE ${n} OR c.email ILIKE ${n} OR c.company_name ILIKE ${n}
          OR concat_ws(' ', c.first_name, c.last_name) ILIKE ${n})`,
      likePattern(page.search),
    );
  }
  params.push(page.limit, page.offset);
  const from = 'FROM subscriptions s LEFT JOIN customer_contacts c ON c.id = s.customer_id';
  const { rows } = await sql.query(
    `SELECT ${WITH_NEXT_PAYMENT}, nullif(concat_ws(' ', c.first_name, c.last_name), '') AS customer_name,
       c.email AS customer_email,
       (SELECT count(*)::int FROM subscription_installments i WHERE i.subscription_id = s.id
          AND i.status_id IN (${sqlIds(InstallmentStatus.Pending, InstallmentStatus.Successful, InstallmentStatus.Failed)}))
         AS charged_count
     ${from} WHERE ${where.join(' AND ')} ${page.orderSql}
     LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const counted = await sql.query<{ total: number }>(
    `SELECT count(*)::int AS total ${from} WHERE ${where.join(' AND ')}`,
    params.slice(0, -2),
  );
  return {
    items: rows.map((row) =>
      withFields(toSubscription(row), {
        customerName: row.customer_name,
        customerEmail: row.customer_email,
        chargedCount: row.charged_count,
      }),
    ),
    total: counted.rows[0]!.total,
  };
}

export const SUBSCRIPTION_LIST = {
  orderBy: {
    createdOn: 's.created_at',
    nextPaymentDate: 'next_payment_at',
    amount: 's.base_cents',
    status: 's.status_id',
    customerName: "concat_ws(' ', c.first_name, c.last_name)",
  },
  defaultOrderBy: 'createdOn',
  tieBreaker: 's.id',
};

/** The planner's progress: the installments created so far and when the next falls due (compare-and-set). */
export async function advancePlan(
  sql: Sql,
  subscription: { merchantId: string; id: string },
  fromOrder: number,
  toOrder: number,
  nextDueAt: Date | null,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE subscriptions SET planned_order = $3, next_due_at = $4
     WHERE merchant_id = $5 AND id = $1 AND planned_order = $2`,
    [subscription.id, fromOrder, toOrder, nextDueAt, subscription.merchantId],
  );
  return rowCount === 1;
}

/** Live subscriptions whose next installment should exist by `horizon`. */
export async function findToPlan(sql: Sql, horizon: Date, limit: number): Promise<Subscription[]> {
  const { rows } = await sql.query(
    `SELECT /* across merchants: the scheduling sweep */ * FROM subscriptions
     WHERE next_due_at <= $1 AND status_id IN (${LIVE})
     ORDER BY next_due_at LIMIT $2`,
    [horizon, limit],
  );
  return rows.map(toSubscription);
}

/** A paid installment no longer counts (its ACH debit came back). */
export async function recordUnpaid(
  sql: Sql,
  merchantId: string,
  id: string,
  cents: number,
  now: Date,
): Promise<Subscription> {
  const { rows } = await sql.query(
    `UPDATE subscriptions SET successful_count = successful_count - 1, paid_cents = paid_cents - $2, modified_at = $3
     WHERE merchant_id = $4 AND id = $1 RETURNING *`,
    [id, cents, now, merchantId],
  );
  return toSubscription(rows[0]!);
}
