import type { QueryConfig } from 'pg';
import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { type DateRange, likePattern, type PageRequest } from '../../platform/http/paging.js';
import { type Invoice, type InvoiceContent, type InvoiceLine, InvoiceStatus } from './invoices.model.js';

/**
 * An invoice's customer, looked up by primary key for each invoice. As a plain join the merchant's id reached
 * `customers` as a constant and, with statistics that predated the merchant's customers, PostgreSQL estimated one
 * row, kept them all in memory and compared each with every invoice: a search over 100,000 invoices took over five
 * seconds once the merchant had a few thousand customers. LIMIT keeps the lateral lookup from being flattened back.
 */
const CUSTOMER_OF_INVOICE = `LEFT JOIN LATERAL (
    SELECT first_name, last_name, company_name, email FROM customer_contacts cc
    WHERE cc.merchant_id = v.merchant_id AND cc.id = v.customer_id LIMIT 1) c ON true`;
/** What toInvoice reads, named: findInvoice is prepared, and a prepared `v.*` breaks when an upgrade adds a column. */
const INVOICE_COLUMNS = [
  'id',
  'merchant_id',
  'number',
  'status_id',
  'customer_id',
  'customer',
  'issue_date',
  'due_date',
  'lines',
  'discount_mpct',
  'tax_mpct',
  'shipping_fee_cents',
  'fees_mpct',
  'notes',
  'payment_method_type_id',
  'reference_id',
  'total_cents',
  'paid_cents',
  'payment_date',
  'paid_note',
  'transaction_ids',
  'published_at',
  'payment_attempts',
  'processing_method',
  'processing_since',
  'processing_node',
  'payment_claim',
  'last_payment_error',
  'public_token',
  'checkout_session_id',
  'created_at',
  'modified_at',
]
  .map((column) => `v.${column}`)
  .join(', ');
const SELECT = `SELECT ${INVOICE_COLUMNS}, coalesce(
    nullif(concat_ws(' ', c.first_name, c.last_name), ''), c.company_name,
    nullif(concat_ws(' ', v.customer->>'firstName', v.customer->>'lastName'), ''), v.customer->>'companyName'
  ) AS customer_name
  FROM invoices v ${CUSTOMER_OF_INVOICE}`;

function toInvoice(r: Record<string, unknown>): Invoice {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    number: r.number as string,
    statusId: r.status_id as number,
    customerId: (r.customer_id as string | null) ?? null,
    customer: (r.customer as Invoice['customer']) ?? null,
    issueDate: r.issue_date as Date,
    dueDate: r.due_date as Date,
    lines: r.lines as InvoiceLine[],
    discountMpct: num(r.discount_mpct),
    taxMpct: num(r.tax_mpct),
    shippingFeeCents: num(r.shipping_fee_cents),
    feesMpct: num(r.fees_mpct),
    notes: (r.notes as string | null) ?? null,
    paymentMethodTypeId: r.payment_method_type_id as number,
    referenceId: (r.reference_id as string | null) ?? null,
    totalCents: Number(r.total_cents),
    paidCents: Number(r.paid_cents),
    paymentDate: (r.payment_date as Date | null) ?? null,
    paidNote: (r.paid_note as string | null) ?? null,
    transactionIds: (r.transaction_ids as string[]) ?? [],
    publishedAt: (r.published_at as Date | null) ?? null,
    paymentAttempts: r.payment_attempts as number,
    processingMethod: (r.processing_method as Invoice['processingMethod']) ?? null,
    processingSince: (r.processing_since as Date | null) ?? null,
    processingNode: (r.processing_node as number | null) ?? null,
    paymentClaim: (r.payment_claim as string | null) ?? null,
    lastPaymentError: (r.last_payment_error as string | null) ?? null,
    publicToken: (r.public_token as string | null) ?? null,
    checkoutSessionId: (r.checkout_session_id as string | null) ?? null,
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
    customerName: (r.customer_name as string | null) ?? null,
  };
}

/** Unique violations of the per-merchant number index. */
export const isNumberTaken = (error: unknown) =>
  (error as { code?: string }).code === '23505' && (error as { constraint?: string }).constraint === 'invoices_number';

/** A counter value as an invoice number: INV-000042 (more digits once past a million). */
const numbered = (value: string) =>
  `'INV-' || CASE WHEN ${value} >= 1000000 THEN ${value}::text ELSE lpad(${value}::text, 6, '0') END`;
/**
 * The first counter value after `from` whose number no invoice of merchant $15 has (a client may have chosen it),
 * looking at most 1,000 ahead. A walk that stops at the first free value: one index probe when the next number is
 * free (as it nearly always is), where a minimum over the 1,000 candidates probed every one of them (1.8 ms a create).
 */
const nextFree = (from: string) =>
  `(WITH RECURSIVE walk(k) AS (
      SELECT ${from} + 1
      UNION ALL
      SELECT k + 1 FROM walk WHERE k < ${from} + 1000
        AND EXISTS (SELECT 1 FROM invoices WHERE merchant_id = $15 AND number = ${numbered('k')})
    )
    SELECT max(k) FROM walk WHERE NOT EXISTS (SELECT 1 FROM invoices WHERE merchant_id = $15 AND number = ${numbered('k')}))`;

const contentValues = (c: InvoiceContent & { number: string }) => [
  c.number,
  c.customerId,
  c.customer === null ? null : JSON.stringify(c.customer),
  c.issueDate,
  c.dueDate,
  JSON.stringify(c.lines),
  c.discountMpct,
  c.taxMpct,
  c.shippingFeeCents,
  c.feesMpct,
  c.notes,
  c.paymentMethodTypeId,
  c.referenceId,
];

/**
 * A Draft's insert. Without a number, the merchant's next one comes from its counter row in the same statement: the
 * row is locked until the creating transaction commits (a rolled-back create gives its number back, so generated
 * numbers have no gaps), and the caller sends it with COMMIT (`Tx.defer`), so the lock is held for no round trip at
 * all. The next number is the counter's next value, which no invoice holds unless a client chose it: then the insert
 * fails on the number index, and the create tries again with `afterCollision`, walking past the numbers taken.
 *
 * The first statement reads no invoice. The walk used to run on every create, and with statistics that had not seen
 * the merchant its probes read all of the merchant's invoices (2,600 of them, 7 ms a create, after five seconds of
 * the benchmark's creates), under the counter's row lock (docs/performance.md).
 */
export function insertInvoiceQuery(
  v: Omit<InvoiceContent, 'number'> & {
    number: string | null;
    id: string;
    merchantId: string;
    totalCents: number;
    at: Date;
    /** The counter's next number was taken (a client chose it): walk to the first free one. */
    afterCollision?: boolean;
  },
): QueryConfig {
  const columns = `number, customer_id, customer, issue_date, due_date, lines, discount_mpct, tax_mpct,
       shipping_fee_cents, fees_mpct, notes, payment_method_type_id, reference_id, id, merchant_id, status_id,
       total_cents, created_at, modified_at`;
  const values = [...contentValues({ ...v, number: v.number ?? '' }), v.id, v.merchantId, v.totalCents, v.at];
  const rest = `$2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, ${InvoiceStatus.Draft}, $16, $17, $17`;
  // Named (prepared once per connection): the numbered insert took longer to plan than to run.
  if (v.number !== null) {
    return {
      name: 'invoices.insert-chosen-number',
      text: `INSERT INTO invoices (${columns}) VALUES ($1, ${rest})`,
      values,
    };
  }
  const fromCounter = (counter: string) => `WITH counter AS (${counter}
         RETURNING ${numbered('last_value')} AS number
       )
       INSERT INTO invoices (${columns})
       SELECT counter.number, ${rest} FROM counter WHERE $1::text = ''`;
  if (!v.afterCollision) {
    return {
      name: 'invoices.insert-next-number',
      text: fromCounter(`
         INSERT INTO invoice_number_counters AS c (merchant_id, last_value) VALUES ($15, 1)
         ON CONFLICT (merchant_id) DO UPDATE SET last_value = c.last_value + 1`),
      values,
    };
  }
  return {
    name: 'invoices.insert-next-free-number',
    text: fromCounter(`
         INSERT INTO invoice_number_counters AS c (merchant_id, last_value)
         -- The merchant's first number; once its counter exists the value is unused (the update below applies).
         VALUES ($15, CASE WHEN EXISTS (SELECT 1 FROM invoice_number_counters WHERE merchant_id = $15) THEN 0
           ELSE ${nextFree('0')} END)
         ON CONFLICT (merchant_id) DO UPDATE SET last_value = ${nextFree('c.last_value')}`),
    values,
  };
}

export async function replaceDraft(
  tx: Sql,
  merchantId: string,
  id: string,
  v: InvoiceContent & { number: string; totalCents: number; at: Date },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE invoices SET number = $1, customer_id = $2, customer = $3, issue_date = $4, due_date = $5, lines = $6,
       discount_mpct = $7, tax_mpct = $8, shipping_fee_cents = $9, fees_mpct = $10, notes = $11,
       payment_method_type_id = $12, reference_id = $13, total_cents = $14, modified_at = $15
     WHERE id = $16 AND merchant_id = $17 AND status_id = ${InvoiceStatus.Draft}`,
    [...contentValues(v), v.totalCents, v.at, id, merchantId],
  );
  return rowCount === 1;
}

export async function deleteDraft(sql: Sql, merchantId: string, id: string): Promise<boolean> {
  const { rowCount } = await sql.query(
    `DELETE FROM invoices WHERE id = $1 AND merchant_id = $2 AND status_id = ${InvoiceStatus.Draft}`,
    [id, merchantId],
  );
  return rowCount === 1;
}

/** The read as a value, for a caller that pipelines it (`Tx.batch`); `invoiceOf` maps its result. */
export function findInvoiceQuery(merchantId: string, id: string, lock = false): QueryConfig {
  // Prepared: each invoice created and published reads itself three times, and planning the read cost more than it.
  return {
    name: lock ? 'invoices.find-for-update' : 'invoices.find',
    text: `${SELECT} WHERE v.id = $1 AND v.merchant_id = $2${lock ? ' FOR UPDATE OF v' : ''}`,
    values: [id, merchantId],
  };
}

export const invoiceOf = ({ rows }: { rows: Record<string, unknown>[] }): Invoice | null =>
  rows[0] ? toInvoice(rows[0]) : null;

export async function findInvoice(sql: Sql, merchantId: string, id: string, lock = false): Promise<Invoice | null> {
  return invoiceOf(await sql.query(findInvoiceQuery(merchantId, id, lock)));
}

/** A published invoice by its hosted page's token (the payer's side: no merchant scope, the token is the key). */
export async function findByPublicToken(sql: Sql, token: string): Promise<Invoice | null> {
  // The public invoice page knows only its token.
  const { rows } = await sql.query(
    `${SELECT} /* across merchants: found by its page's token */ WHERE v.public_token = $1`,
    [token],
  );
  return rows[0] ? toInvoice(rows[0]) : null;
}

/** The payment session the invoice's page opened (compare-and-set on the one it replaces). */
export async function setCheckoutSession(
  sql: Sql,
  invoice: { merchantId: string; id: string },
  previous: string | null,
  sessionId: string,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE invoices SET checkout_session_id = $3
     WHERE merchant_id = $4 AND id = $1 AND checkout_session_id IS NOT DISTINCT FROM $2`,
    [invoice.id, previous, sessionId, invoice.merchantId],
  );
  return rowCount === 1;
}

export interface InvoiceMove {
  customerId?: string;
  paidCents?: number;
  paymentDate?: Date;
  paidNote?: string | null;
  published?: boolean;
  /** The hosted page's token, given when the invoice is published. */
  publicToken?: string;
}

/** One status move as a compare-and-set from `from`; the moved invoice, or null when it was in no such status. */
export async function moveInvoice(
  sql: Sql,
  merchantId: string,
  id: string,
  from: readonly number[],
  to: number,
  at: Date,
  move: InvoiceMove = {},
): Promise<boolean> {
  const { rowCount } = await sql.query(moveInvoiceQuery(merchantId, id, from, to, at, move));
  return rowCount === 1;
}

/** The move as a value, for a caller that pipelines it (`Tx.batch`); it moved the invoice when its rowCount is 1. */
export function moveInvoiceQuery(
  merchantId: string,
  id: string,
  from: readonly number[],
  to: number,
  at: Date,
  move: InvoiceMove = {},
): QueryConfig {
  return {
    name: 'invoices.move',
    text: `UPDATE invoices SET status_id = $4::smallint, modified_at = $5,
       customer_id = coalesce($6, customer_id),
       paid_cents = coalesce($7, paid_cents),
       payment_date = coalesce($8, payment_date),
       paid_note = coalesce($9, paid_note),
       published_at = CASE WHEN $10 THEN $5 ELSE published_at END,
       public_token = coalesce($11, public_token)
     WHERE id = $1 AND merchant_id = $2 AND status_id = ANY($3::smallint[])`,
    values: [
      id,
      merchantId,
      from,
      to,
      at,
      move.customerId ?? null,
      move.paidCents ?? null,
      move.paymentDate ?? null,
      move.paidNote ?? null,
      move.published ?? false,
      move.publicToken ?? null,
    ],
  };
}

export interface InvoiceFilter {
  merchantId: string;
  statusId?: number;
  issueDate: DateRange;
  dueDate: DateRange;
  paymentDate: DateRange;
}

export async function listInvoices(
  sql: Sql,
  filter: InvoiceFilter,
  page: PageRequest,
): Promise<{ items: Invoice[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [filter.merchantId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.statusId !== undefined) add((n) => `v.status_id = ${n}`, filter.statusId);
  for (const [column, range] of [
    ['issue_date', filter.issueDate],
    ['due_date', filter.dueDate],
    ['payment_date', filter.paymentDate],
  ] as const) {
    if (range.from) add((n) => `v.${column} >= ${n}`, range.from);
    if (range.to) add((n) => `v.${column} <= ${n}`, range.to);
  }
  if (page.search) {
    add(
      (n) =>
        `(v.number ILIKE ${n} OR v.reference_id ILIKE ${n} OR c.email ILIKE ${n} OR v.customer->>'email' ILIKE ${n}
          OR concat_ws(' ', c.first_name, c.last_name, c.company_name) ILIKE ${n}
          OR concat_ws(' ', v.customer->>'firstName', v.customer->>'lastName', v.customer->>'companyName') ILIKE ${n})`,
      likePattern(page.search),
    );
  }
  const whereSql = where.map((condition) => ` AND ${condition}`).join('');
  // Only the merchant and maybe a status: the total is the trigger-kept count (a few rows), not a count of them all.
  const counted = params.length === (filter.statusId === undefined ? 1 : 2);
  const [{ rows }, count] = await Promise.all([
    sql.query(
      `${SELECT} WHERE v.merchant_id = $1${whereSql} ${page.orderSql}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    counted
      ? sql.query<{ n: number }>(
          `SELECT coalesce(sum(n), 0)::int AS n FROM invoice_counts
           WHERE merchant_id = $1${filter.statusId === undefined ? '' : ' AND status_id = $2'}`,
          params,
        )
      : sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM invoices v ${CUSTOMER_OF_INVOICE} WHERE v.merchant_id = $1${whereSql}`,
          params,
        ),
  ]);
  return { items: rows.map(toInvoice), total: count.rows[0]!.n };
}

export const INVOICE_LIST = {
  orderBy: {
    createdOn: 'v.created_at',
    number: 'v.number',
    issueDate: 'v.issue_date',
    dueDate: 'v.due_date',
    paymentDate: 'v.payment_date',
    totalAmount: 'v.total_cents',
    status: 'v.status_id',
    customerName: 'customer_name',
  },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'v.id',
  notNull: ['createdOn', 'number', 'issueDate', 'dueDate', 'totalAmount', 'status'],
};

/** Published, unpaid invoices whose due date is before `dueBefore`: Expired by the sweep. */
export async function expireOverdue(sql: Sql, dueBefore: Date, at: Date): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE /* across merchants: the expiry sweep */ invoices SET status_id = ${InvoiceStatus.Expired}, modified_at = $2
     WHERE status_id IN (${sqlIds(InvoiceStatus.Published)}) AND paid_cents = 0 AND due_date < $1`,
    [dueBefore, at],
  );
  return rowCount ?? 0;
}

/**
 * Published and unpaid → ProcessingPayment, as one compare-and-set: exactly one of concurrent payments starts.
 * Answers the attempt number the payment is made under, or null when the invoice was not payable.
 */
export async function startPayment(
  sql: Sql,
  merchantId: string,
  id: string,
  method: 'card' | 'ach',
  at: Date,
  holder: { node: number; claim: string | null },
): Promise<number | null> {
  const { rows } = await sql.query<{ attempt: number }>(
    `UPDATE invoices SET status_id = ${InvoiceStatus.ProcessingPayment}, payment_attempts = payment_attempts + 1,
       processing_method = $3, processing_since = $4, modified_at = $4, processing_node = $5, payment_claim = $6
     WHERE id = $1 AND merchant_id = $2 AND status_id = ${InvoiceStatus.Published} AND paid_cents = 0
     RETURNING payment_attempts AS attempt`,
    [id, merchantId, method, at, holder.node, holder.claim],
  );
  return rows[0]?.attempt ?? null;
}

/** The payment of `attempt` went through: Paid, with the transaction. */
export async function paymentSucceeded(
  sql: Sql,
  merchantId: string,
  id: string,
  attempt: number,
  paid: { transactionId: string; cents: number },
  at: Date,
  /** False when the transaction is recorded already (an ACH debit, recorded when it was scheduled). */
  append = true,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE invoices SET status_id = ${InvoiceStatus.Paid}, paid_cents = $5, payment_date = $6, modified_at = $6,
       transaction_ids = CASE WHEN $7 THEN array_append(transaction_ids, $4::uuid) ELSE transaction_ids END,
       processing_method = NULL, processing_since = NULL, last_payment_error = NULL
     WHERE id = $1 AND merchant_id = $2 AND payment_attempts = $3
       AND status_id = ${InvoiceStatus.ProcessingPayment}`,
    [id, merchantId, attempt, paid.transactionId, paid.cents, at, append],
  );
  return rowCount === 1;
}

/** The payment of `attempt` did not go through: Published again, payable, with the reason (and its transaction). */
export async function paymentFailed(
  sql: Sql,
  merchantId: string,
  id: string,
  attempt: number,
  failure: { transactionId: string | null; reason: string },
  at: Date,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE invoices SET status_id = ${InvoiceStatus.Published}, modified_at = $6, last_payment_error = $5,
       transaction_ids = CASE WHEN $4::uuid IS NULL THEN transaction_ids ELSE array_append(transaction_ids, $4::uuid) END,
       processing_method = NULL, processing_since = NULL
     WHERE id = $1 AND merchant_id = $2 AND payment_attempts = $3
       AND status_id = ${InvoiceStatus.ProcessingPayment}`,
    [id, merchantId, attempt, failure.transactionId, failure.reason, at],
  );
  return rowCount === 1;
}

/** Card payments in progress since before `before` (their request died with its node, or is stuck): the sweep's. */
/**
 * Payments left by their request: a card payment quiet since `before` or whose node died, an ACH debit whose node died
 * before it was recorded (a recorded one is the ACH module's to follow, and holds no node).
 */
export async function findStuckPayments(sql: Sql, before: Date, limit: number): Promise<Invoice[]> {
  const { rows } = await sql.query(
    `${SELECT} /* across merchants: the stuck-payment sweep */
     WHERE v.status_id = ${InvoiceStatus.ProcessingPayment}
       AND ((v.processing_method = 'card' AND v.processing_since <= $1)
         OR (v.processing_node IS NOT NULL AND NOT tessera_node_alive(v.processing_node)))
     ORDER BY v.processing_since LIMIT $2`,
    [before, limit],
  );
  return rows.map(toInvoice);
}

/** An ACH debit of the current attempt is on its way: its transaction is recorded (the clearing finds it). */
export async function recordPendingTransaction(
  sql: Sql,
  merchantId: string,
  id: string,
  attempt: number,
  transactionId: string,
) {
  // Once recorded, the debit is the ACH module's to follow (its clearing or return moves the invoice): no node holds
  // the payment any more.
  await sql.query(
    `UPDATE invoices SET transaction_ids = array_append(transaction_ids, $4::uuid), processing_node = NULL
     WHERE id = $1 AND merchant_id = $2 AND payment_attempts = $3 AND status_id = ${InvoiceStatus.ProcessingPayment}
       AND NOT $4::uuid = ANY(transaction_ids)`,
    [id, merchantId, attempt, transactionId],
  );
}

/** The invoice an ACH debit pays, locked: its payment in progress, or the payment it was paid by. */
export async function lockByTransaction(sql: Sql, merchantId: string, id: string, transactionId: string) {
  const { rows } = await sql.query(
    `${SELECT} WHERE v.id = $1 AND v.merchant_id = $2 AND $3::uuid = ANY(v.transaction_ids) FOR UPDATE OF v`,
    [id, merchantId, transactionId],
  );
  return rows[0] ? toInvoice(rows[0]) : null;
}

/** A debit came back after it had paid the invoice: Published again, unpaid, with the reason. */
export async function paymentReversed(sql: Sql, merchantId: string, id: string, reason: string, at: Date) {
  const { rowCount } = await sql.query(
    `UPDATE invoices SET status_id = ${InvoiceStatus.Published}, paid_cents = 0, payment_date = NULL,
       last_payment_error = $3, modified_at = $4
     WHERE id = $1 AND merchant_id = $2 AND status_id = ${InvoiceStatus.Paid}`,
    [id, merchantId, reason, at],
  );
  return rowCount === 1;
}
