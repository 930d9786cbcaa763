import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { type Installment, InstallmentStatus, type Subscription, SubscriptionStatus } from './subscriptions.model.js';
import { toSubscription } from './subscriptions.repo.js';

/** Installments and their attempts: the rows the billing engine claims, charges and settles. */

export function toInstallment(r: Record<string, unknown>): Installment {
  return {
    id: r.id as string,
    subscriptionId: r.subscription_id as string,
    merchantId: r.merchant_id as string,
    paymentOrder: r.payment_order as number,
    dueAt: r.due_at as Date,
    amountCents: Number(r.amount_cents),
    statusId: r.status_id as number,
    nextAttemptAt: r.next_attempt_at as Date | null,
    attempts: r.attempts as number,
    failedAttempts: r.failed_attempts as number,
    firstFailedAt: r.first_failed_at as Date | null,
    attemptStartedAt: r.attempt_started_at as Date | null,
    attemptNode: r.attempt_node as number | null,
    recheckAt: r.recheck_at as Date | null,
    transactionId: r.transaction_id as string | null,
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
  };
}

/**
 * Installments that fell due while their subscription was Suspended or Delinquent and are past the window in which
 * a resume would still charge them (the merchant's last retry day): Skipped, in one statement. Answers how many.
 */
export async function skipLapsedInstallments(sql: Sql, now: Date): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE /* across merchants: the lapse sweep */
       subscription_installments i SET status_id = ${InstallmentStatus.Skipped}, next_attempt_at = NULL,
       modified_at = $1::timestamptz
     FROM subscriptions s JOIN merchant_accounts m ON m.id = s.merchant_id
     WHERE i.subscription_id = s.id
       AND s.status_id IN (${sqlIds(SubscriptionStatus.Suspended, SubscriptionStatus.Delinquent)})
       AND i.status_id = ${InstallmentStatus.Scheduled}
       AND i.due_at < $1::timestamptz
         - coalesce(m.subscription_retry_days[cardinality(m.subscription_retry_days)], 0) * interval '1 day'`,
    [now],
  );
  return rowCount ?? 0;
}

export async function insertInstallment(sql: Sql, i: Installment): Promise<void> {
  await sql.query(
    `INSERT INTO subscription_installments (id, subscription_id, merchant_id, payment_order, due_at, amount_cents,
       status_id, next_attempt_at, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     ON CONFLICT (subscription_id, payment_order) DO NOTHING`,
    [
      i.id,
      i.subscriptionId,
      i.merchantId,
      i.paymentOrder,
      i.dueAt,
      i.amountCents,
      i.statusId,
      i.nextAttemptAt,
      i.createdAt,
    ],
  );
}

/**
 * Claims installments due now for charging, as one compare-and-set: each goes Pending with its attempt number
 * raised, under this node's name. An installment is claimed by one caller only (FOR UPDATE SKIP LOCKED and the
 * status check), and only while its subscription is Active (or Delinquent, for a retry asked for explicitly).
 */
export async function claimDue(
  sql: Sql,
  now: Date,
  node: number,
  limit: number,
  recheckAfterMs: number,
): Promise<Array<{ installment: Installment; subscription: Subscription }>> {
  const { rows } = await sql.query(
    `WITH /* across merchants: the billing sweep */ due AS (
       SELECT i.id FROM subscription_installments i JOIN subscriptions s ON s.id = i.subscription_id
       WHERE i.next_attempt_at <= $1
         AND i.status_id IN (${sqlIds(InstallmentStatus.Scheduled, InstallmentStatus.Failed)})
         -- A Delinquent subscription is charged only for an explicit retry (a new payment method).
         AND (s.status_id = ${SubscriptionStatus.Active}
           OR (s.status_id = ${SubscriptionStatus.Delinquent} AND i.status_id = ${InstallmentStatus.Failed}))
       ORDER BY i.next_attempt_at, i.id LIMIT $3
       -- The subscription's row is share-locked too: a merchant's move (terminate, suspend) holds it FOR UPDATE,
       -- so a claim either comes before the move (and is charged) or skips the installment.
       FOR UPDATE OF i SKIP LOCKED FOR KEY SHARE OF s SKIP LOCKED
     ), claimed AS (
       UPDATE subscription_installments i SET status_id = ${InstallmentStatus.Pending}, attempts = i.attempts + 1,
         attempt_started_at = $1, attempt_node = $2, next_attempt_at = NULL, modified_at = $1,
         recheck_at = $1::timestamptz + $4 * interval '1 millisecond'
       FROM due WHERE i.id = due.id
       RETURNING i.*
     )
     SELECT to_jsonb(claimed.*) AS installment, to_jsonb(s.*) AS subscription
     FROM claimed JOIN subscriptions s ON s.id = claimed.subscription_id`,
    [now, node, limit, recheckAfterMs],
  );
  return rows.map((row) => ({
    installment: toInstallment(fromJson(row.installment)),
    subscription: toSubscription(fromJson(row.subscription)),
  }));
}

/**
 * Whether any installment is due for a charge (or a retry) by `now` that claimDue would take, locks aside: the same
 * conditions, so an installment of a Suspended subscription does not start chargers that find nothing.
 */
export async function hasDueInstallments(sql: Sql, now: Date): Promise<boolean> {
  const { rows } = await sql.query<{ due: boolean }>(
    `SELECT /* across merchants: the billing sweep */ EXISTS (
       SELECT 1 FROM subscription_installments i JOIN subscriptions s ON s.id = i.subscription_id
       WHERE i.next_attempt_at <= $1
         AND i.status_id IN (${sqlIds(InstallmentStatus.Scheduled, InstallmentStatus.Failed)})
         AND (s.status_id = ${SubscriptionStatus.Active}
           OR (s.status_id = ${SubscriptionStatus.Delinquent} AND i.status_id = ${InstallmentStatus.Failed}))
     ) AS due`,
    [now],
  );
  return rows[0]!.due;
}

/** to_jsonb gives timestamps as text: back to Dates for the mappers. */
function fromJson(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === 'string' && /_(at|on)$/.test(key) && !Number.isNaN(Date.parse(value)) ? new Date(value) : value,
    ]),
  );
}

/**
 * Pending installments to look at again: their recheck time has come (an unknown card answer; an ACH debit not
 * heard of; a node holding one for too long) or the node that claimed them is gone.
 */
export async function findPending(
  sql: Sql,
  now: Date,
  limit: number,
): Promise<Array<{ installment: Installment; subscription: Subscription }>> {
  const { rows } = await sql.query(
    `SELECT /* across merchants: the recheck sweep */ to_jsonb(i.*) AS installment, to_jsonb(s.*) AS subscription
     FROM subscription_installments i JOIN subscriptions s ON s.id = i.subscription_id
     WHERE i.id IN (
       SELECT id FROM subscription_installments WHERE status_id = ${InstallmentStatus.Pending} AND recheck_at <= $1
       UNION
       SELECT id FROM subscription_installments
       WHERE status_id = ${InstallmentStatus.Pending} AND attempt_node IS NOT NULL
         AND NOT tessera_node_alive(attempt_node)
     )
     ORDER BY i.recheck_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => ({
    installment: toInstallment(fromJson(row.installment)),
    subscription: toSubscription(fromJson(row.subscription)),
  }));
}

/** A Pending installment's next look, after this one found it still waiting. */
export async function deferRecheck(sql: Sql, installment: InstallmentRef, attempt: number, at: Date): Promise<void> {
  await sql.query(
    `UPDATE subscription_installments SET recheck_at = $3, attempt_node = NULL
     WHERE merchant_id = $4 AND id = $1 AND attempts = $2 AND status_id = ${InstallmentStatus.Pending}`,
    [installment.id, attempt, at, installment.merchantId],
  );
}

/** An installment by its merchant and id. */
export interface InstallmentRef {
  merchantId: string;
  id: string;
}

export interface NewAttempt {
  merchantId: string;
  installmentId: string;
  attemptNumber: number;
  executedAt: Date;
  paymentClaimId: string;
}

/** The attempt as claimed: its number and the payment idempotency id it charges with. */
export async function insertAttempt(sql: Sql, a: NewAttempt): Promise<void> {
  await sql.query(
    `INSERT INTO subscription_attempts (merchant_id, installment_id, attempt_number, executed_at, payment_claim_id)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [a.merchantId, a.installmentId, a.attemptNumber, a.executedAt, a.paymentClaimId],
  );
}

/** The attempts of a claimed batch, as claimed, in one statement (what insertAttempt does for one). */
export async function insertAttempts(sql: Sql, attempts: ReadonlyArray<NewAttempt>): Promise<void> {
  if (attempts.length === 0) return;
  await sql.query(
    `INSERT INTO subscription_attempts (merchant_id, installment_id, attempt_number, executed_at, payment_claim_id)
     SELECT * FROM unnest($5::uuid[], $1::uuid[], $2::int[], $3::timestamptz[], $4::uuid[])
     ON CONFLICT DO NOTHING`,
    [
      attempts.map((a) => a.installmentId),
      attempts.map((a) => a.attemptNumber),
      attempts.map((a) => a.executedAt),
      attempts.map((a) => a.paymentClaimId),
      attempts.map((a) => a.merchantId),
    ],
  );
}

/**
 * A subscription with an end is complete when every installment is paid, or when its last one is paid and nothing
 * before it is still open (a Skipped installment stays skipped, a Failed one with no retry left stays failed).
 * Inside recordPaidInstallments: `s` the subscription row, `c` this statement's paid installments of it (the
 * statement's own installment updates are not visible to its subqueries, hence `c.ids`).
 */
const COMPLETES = `(s.number_of_payments IS NOT NULL AND (s.successful_count + c.n >= s.number_of_payments
  OR (c.last_order >= s.number_of_payments AND NOT EXISTS (
    SELECT 1 FROM subscription_installments o WHERE o.subscription_id = s.id AND o.id <> ALL (c.ids)
      AND (o.status_id IN (${InstallmentStatus.Scheduled}, ${InstallmentStatus.Pending})
        OR (o.status_id = ${InstallmentStatus.Failed} AND o.next_attempt_at IS NOT NULL))))))`;

export interface PaidInstallment {
  installmentId: string;
  attempt: number;
  transactionId: string;
  cents: number;
  responseCode: string | null;
  responseMessage: string | null;
}

/**
 * Installments whose attempts paid, in one statement: each Successful (compare-and-set on Pending and its attempt;
 * one that moved on meanwhile is left out), its attempt Approved, and its subscription's counters and status moved
 * (Completed after its last installment, Active again if it was Delinquent). Answers what moved, with the
 * subscription as it now is, for the events.
 */
export async function recordPaidInstallments(
  sql: Sql,
  paid: readonly PaidInstallment[],
  now: Date,
): Promise<
  Array<{
    installmentId: string;
    paymentOrder: number;
    transactionId: string;
    cents: number;
    subscriptionId: string;
    merchantId: string;
    customerId: string;
    statusId: number;
  }>
> {
  if (paid.length === 0) return [];
  const live = sqlIds(SubscriptionStatus.Active, SubscriptionStatus.Suspended, SubscriptionStatus.Delinquent);
  const { rows } = await sql.query(
    `WITH /* across merchants: a claimed batch holds several merchants' installments */ paid AS (
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::uuid[], $4::bigint[], $5::text[], $6::text[])
         AS p(id, attempt, transaction_id, cents, code, message)
     ), moved AS (
       UPDATE subscription_installments i SET status_id = ${InstallmentStatus.Successful}, next_attempt_at = NULL,
         transaction_id = p.transaction_id, modified_at = $7, attempt_node = NULL, recheck_at = NULL
       FROM paid p WHERE i.id = p.id AND i.attempts = p.attempt AND i.status_id = ${InstallmentStatus.Pending}
       RETURNING i.merchant_id, i.id, i.subscription_id, i.attempts, i.payment_order, p.transaction_id, p.cents, p.code, p.message
     ), approved AS (
       UPDATE subscription_attempts a SET transaction_id = m.transaction_id, result = 'Approved',
         response_code = m.code, response_message = m.message
       FROM moved m WHERE a.merchant_id = m.merchant_id AND a.installment_id = m.id AND a.attempt_number = m.attempts
     ), counted AS (
       UPDATE subscriptions s SET successful_count = s.successful_count + c.n, paid_cents = s.paid_cents + c.cents,
         last_payment_at = greatest(s.last_payment_at, $7), modified_at = $7,
         status_id = CASE
           WHEN s.status_id IN (${live}) AND ${COMPLETES} THEN ${SubscriptionStatus.Completed}
           WHEN s.status_id = ${SubscriptionStatus.Delinquent} THEN ${SubscriptionStatus.Active}
           ELSE s.status_id END,
         next_due_at = CASE WHEN ${COMPLETES} THEN NULL ELSE s.next_due_at END
       FROM (SELECT subscription_id, count(*)::int AS n, sum(cents)::bigint AS cents,
               max(payment_order) AS last_order, array_agg(id) AS ids
             FROM moved GROUP BY subscription_id) c
       WHERE s.id = c.subscription_id
       RETURNING s.id, s.merchant_id, s.customer_id, s.status_id
     )
     SELECT m.id, m.payment_order, m.transaction_id, m.cents, c.id AS subscription_id, c.merchant_id, c.customer_id,
       c.status_id
     FROM moved m JOIN counted c ON c.id = m.subscription_id`,
    [
      paid.map((p) => p.installmentId),
      paid.map((p) => p.attempt),
      paid.map((p) => p.transactionId),
      paid.map((p) => p.cents),
      paid.map((p) => p.responseCode),
      paid.map((p) => p.responseMessage),
      now,
    ],
  );
  return rows.map((row) => ({
    installmentId: row.id,
    paymentOrder: row.payment_order,
    transactionId: row.transaction_id,
    cents: Number(row.cents),
    subscriptionId: row.subscription_id,
    merchantId: row.merchant_id,
    customerId: row.customer_id,
    statusId: row.status_id,
  }));
}

export async function recordAttemptResult(
  sql: Sql,
  installment: { merchantId: string; id: string },
  attemptNumber: number,
  r: { transactionId: string | null; result: string; responseCode: string | null; responseMessage: string | null },
): Promise<void> {
  await sql.query(
    `UPDATE subscription_attempts SET transaction_id = $3, result = $4, response_code = $5, response_message = $6
     WHERE merchant_id = $7 AND installment_id = $1 AND attempt_number = $2`,
    [
      installment.id,
      attemptNumber,
      r.transactionId,
      r.result,
      r.responseCode,
      r.responseMessage,
      installment.merchantId,
    ],
  );
}

/** An installment's move out of Pending for its current attempt (compare-and-set on status and attempt number). */
export async function settleInstallment(
  sql: Sql,
  installment: InstallmentRef,
  attemptNumber: number,
  next: {
    statusId: number;
    nextAttemptAt: Date | null;
    firstFailedAt?: Date;
    transactionId: string | null;
    now: Date;
  },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE subscription_installments SET status_id = $3::smallint, next_attempt_at = $4,
       first_failed_at = coalesce(first_failed_at, $5), transaction_id = $6, modified_at = $7,
       attempt_node = NULL, recheck_at = NULL,
       failed_attempts = failed_attempts + CASE WHEN $3::smallint = ${InstallmentStatus.Failed} THEN 1 ELSE 0 END
     WHERE merchant_id = $8 AND id = $1 AND attempts = $2 AND status_id = ${InstallmentStatus.Pending}`,
    [
      installment.id,
      attemptNumber,
      next.statusId,
      next.nextAttemptAt,
      next.firstFailedAt ?? null,
      next.transactionId,
      next.now,
      installment.merchantId,
    ],
  );
  return rowCount === 1;
}

/**
 * The installment's payment is made but its outcome is not final (an ACH debit until it clears, a card answer
 * that was lost): it stays Pending with its transaction, no node working on it, looked at again at `recheckAt`.
 */
export async function awaitOutcome(
  sql: Sql,
  installment: InstallmentRef,
  attempt: number,
  transactionId: string,
  recheckAt: Date,
) {
  await sql.query(
    `UPDATE subscription_installments SET transaction_id = $3, recheck_at = $4, attempt_node = NULL
     WHERE merchant_id = $5 AND id = $1 AND attempts = $2 AND status_id = ${InstallmentStatus.Pending}`,
    [installment.id, attempt, transactionId, recheckAt, installment.merchantId],
  );
}

/** The Pending or Successful installment a payment belongs to (an ACH debit clearing or coming back). */
export async function findByTransaction(
  sql: Sql,
  transaction: { merchantId: string; id: string },
): Promise<{ installment: Installment; subscription: Subscription } | undefined> {
  const { rows } = await sql.query(
    `SELECT to_jsonb(i.*) AS installment, to_jsonb(s.*) AS subscription
     FROM subscription_installments i JOIN subscriptions s ON s.merchant_id = i.merchant_id AND s.id = i.subscription_id
     WHERE i.merchant_id = $2 AND i.transaction_id = $1 FOR UPDATE OF i`,
    [transaction.id, transaction.merchantId],
  );
  const row = rows[0];
  return row
    ? {
        installment: toInstallment(fromJson(row.installment)),
        subscription: toSubscription(fromJson(row.subscription)),
      }
    : undefined;
}

/** A Successful installment whose ACH debit came back: Failed again, its payment no longer counted. */
export async function reopenReturned(
  sql: Sql,
  installment: InstallmentRef,
  next: { nextAttemptAt: Date | null; now: Date },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE subscription_installments SET status_id = ${InstallmentStatus.Failed}, next_attempt_at = $2,
       first_failed_at = $3, modified_at = $3, failed_attempts = 1
     WHERE merchant_id = $4 AND id = $1 AND status_id = ${InstallmentStatus.Successful}`,
    [installment.id, next.nextAttemptAt, next.now, installment.merchantId],
  );
  return rowCount === 1;
}

/**
 * A subscription's installments never to be charged: the Scheduled ones (due before `dueBefore`, when given) are
 * Skipped. Without `dueBefore` (it ended) its Failed ones also stop being retried; they stay Failed in the history.
 */
export async function skipOpenInstallments(
  sql: Sql,
  merchantId: string,
  subscriptionId: string,
  now: Date,
  dueBefore?: Date,
) {
  await sql.query(
    `UPDATE subscription_installments SET status_id = ${InstallmentStatus.Skipped}, next_attempt_at = NULL,
       modified_at = $2
     WHERE merchant_id = $4 AND subscription_id = $1 AND status_id = ${InstallmentStatus.Scheduled}
       AND ($3::timestamptz IS NULL OR due_at < $3)`,
    [subscriptionId, now, dueBefore ?? null, merchantId],
  );
  if (dueBefore) return;
  await sql.query(
    `UPDATE subscription_installments SET next_attempt_at = NULL, modified_at = $2
     WHERE merchant_id = $3 AND subscription_id = $1 AND status_id = ${InstallmentStatus.Failed}
       AND next_attempt_at IS NOT NULL`,
    [subscriptionId, now, merchantId],
  );
}

/** A failed installment retried now (resume, a new payment method): due again at once. */
export async function retryFailedNow(sql: Sql, merchantId: string, subscriptionId: string, now: Date): Promise<void> {
  await sql.query(
    `UPDATE subscription_installments SET next_attempt_at = $2, modified_at = $2
     WHERE merchant_id = $3 AND subscription_id = $1 AND status_id = ${InstallmentStatus.Failed}`,
    [subscriptionId, now, merchantId],
  );
}

export async function listInstallments(
  sql: Sql,
  merchantId: string,
  subscriptionId: string,
  page: { limit: number; offset: number },
): Promise<{ items: Array<Installment & { attemptRows: Array<Record<string, unknown>> }>; total: number }> {
  const { rows } = await sql.query(
    `SELECT i.*, coalesce((SELECT jsonb_agg(a ORDER BY a.attempt_number) FROM subscription_attempts a
              WHERE a.merchant_id = i.merchant_id AND a.installment_id = i.id), '[]'::jsonb) AS attempt_rows
     FROM subscription_installments i WHERE i.merchant_id = $4 AND i.subscription_id = $1
     ORDER BY i.payment_order LIMIT $2 OFFSET $3`,
    [subscriptionId, page.limit, page.offset, merchantId],
  );
  const counted = await sql.query<{ total: number }>(
    'SELECT count(*)::int AS total FROM subscription_installments WHERE merchant_id = $2 AND subscription_id = $1',
    [subscriptionId, merchantId],
  );
  return {
    items: rows.map((row) => ({ ...toInstallment(row), attemptRows: row.attempt_rows })),
    total: counted.rows[0]!.total,
  };
}
