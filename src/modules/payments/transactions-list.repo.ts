import type { Sql } from '../../platform/db/pool.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import { withFields } from '../../platform/objects.js';
import { type Transaction, TransactionStatus } from './transactions.model.js';
import { TX_COLUMNS, toTransaction } from './transactions.repo.js';

export interface TransactionFilter {
  merchantId: string;
  createMethodId?: number;
  batchId?: string;
  noBatch?: boolean;
  statusId?: number;
  customerId?: string;
  from?: Date;
  to?: Date;
  typeId?: number;
  /** The payment source that made it (with createMethodId): e.g. the dashboard user of a virtual terminal sale. */
  sourceId?: string;
  /** The transaction's total, inclusive bounds (cents). */
  minCents?: number;
  maxCents?: number;
  /** What the transaction moved (its v2 `processedAmount`), inclusive bounds (cents). */
  minProcessedCents?: number;
  maxProcessedCents?: number;
  /** Card or ACH; `none`: a method Tessera has no transactions of (the v2 filter's `Cash`), so nothing matches. */
  method?: 'card' | 'ach' | 'none';
  /** The caller's reference, exactly. */
  referenceId?: string;
}

/** What a transaction moved: captured less refunded once captured, else what was authorized (v2 `processedAmount`). */
export const PROCESSED_CENTS =
  '(CASE WHEN t.captured_cents > 0 THEN t.captured_cents - t.refunded_cents ELSE t.authorized_cents END)';

export async function listTransactions(
  sql: Sql,
  filter: TransactionFilter,
  page: PageRequest,
): Promise<{
  items: Array<
    Transaction & {
      customerName: string | null;
      customerCompany: string | null;
      customerEmail: string | null;
      customerPhone: string | null;
    }
  >;
  total: number;
}> {
  const { where, params } = whereOf(filter, page.search);
  params.push(page.limit, page.offset);
  const { rows } = await sql.query(
    `SELECT ${TX_COLUMNS}, nullif(concat_ws(' ', c.first_name, c.last_name), '') AS customer_name,
            c.company_name AS customer_company, c.email AS customer_email, c.mobile_phone_number AS customer_phone,
            count(*) OVER ()::int AS total
     FROM transactions t LEFT JOIN customer_contacts c ON c.id = t.customer_id
     WHERE ${where.join(' AND ')}
     ${page.orderSql}
     LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  let total = rows[0]?.total as number | undefined;
  if (total === undefined) {
    const counted = await sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM transactions t LEFT JOIN customer_contacts c ON c.id = t.customer_id
       WHERE ${where.join(' AND ')}`,
      params.slice(0, -2),
    );
    total = counted.rows[0]!.total;
  }
  return {
    items: rows.map((row) =>
      withFields(toTransaction(row), {
        customerName: row.customer_name,
        customerCompany: row.customer_company,
        customerEmail: row.customer_email,
        customerPhone: row.customer_phone,
      }),
    ),
    total,
  };
}

/** The filter as SQL conditions over `transactions t` (joined to `customer_contacts c`) and their parameters. */
function whereOf(filter: TransactionFilter, search: string | undefined): { where: string[]; params: unknown[] } {
  const where = ['t.merchant_id = $1'];
  const params: unknown[] = [filter.merchantId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.createMethodId !== undefined) add((n) => `t.create_method_id = ${n}`, filter.createMethodId);
  if (filter.batchId !== undefined) add((n) => `t.batch_id = ${n}`, filter.batchId);
  if (filter.noBatch === true) where.push('t.batch_id IS NULL');
  if (filter.noBatch === false) where.push('t.batch_id IS NOT NULL');
  if (filter.statusId !== undefined) add((n) => `t.status_id = ${n}`, filter.statusId);
  if (filter.customerId !== undefined) add((n) => `t.customer_id = ${n}`, filter.customerId);
  if (filter.from) add((n) => `t.created_at >= ${n}`, filter.from);
  if (filter.to) add((n) => `t.created_at <= ${n}`, filter.to);
  if (filter.typeId !== undefined) add((n) => `t.type_id = ${n}`, filter.typeId);
  if (filter.sourceId !== undefined) add((n) => `t.source_id = ${n}`, filter.sourceId);
  if (filter.minCents !== undefined) add((n) => `t.total_cents >= ${n}`, filter.minCents);
  if (filter.maxCents !== undefined) add((n) => `t.total_cents <= ${n}`, filter.maxCents);
  if (filter.minProcessedCents !== undefined) add((n) => `${PROCESSED_CENTS} >= ${n}`, filter.minProcessedCents);
  if (filter.maxProcessedCents !== undefined) add((n) => `${PROCESSED_CENTS} <= ${n}`, filter.maxProcessedCents);
  if (filter.method === 'none') where.push('false');
  else if (filter.method !== undefined) add((n) => `t.method = ${n}`, filter.method);
  if (filter.referenceId !== undefined) add((n) => `t.reference_id = ${n}`, filter.referenceId);
  if (search) {
    add(
      (n) =>
        `(t.id::text ILIKE ${n} OR t.reference_id ILIKE ${n} OR t.pan_mask ILIKE ${n} OR t.auth_code ILIKE ${n}
          OR c.first_name ILIKE ${n} OR c.last_name ILIKE ${n} OR c.company_name ILIKE ${n} OR c.email ILIKE ${n}
          OR concat_ws(' ', c.first_name, c.last_name) ILIKE ${n})`,
      likePattern(search),
    );
  }
  return { where, params };
}

/**
 * Where a keyset page starts: after this transaction (newest first). `createdAt` is PostgreSQL's own text of the
 * instant: a JavaScript Date keeps milliseconds only, and a cursor cut to the millisecond would skip the rows of the
 * same millisecond that the page boundary falls between.
 */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/**
 * One page of matching transactions, newest first, after `after`: a read that costs the page, not the number of
 * matching rows (no total; the dashboard's list and the exports use it).
 */
export async function keysetTransactions(
  sql: Sql,
  filter: TransactionFilter,
  search: string | undefined,
  after: ListCursor | undefined,
  limit: number,
): Promise<Array<Transaction & { customerName: string | null; cursor: ListCursor }>> {
  const { where, params } = whereOf(filter, search);
  if (after) {
    params.push(after.createdAt, after.id);
    where.push(`(t.created_at, t.id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(limit);
  const { rows } = await sql.query(
    `SELECT ${TX_COLUMNS}, nullif(concat_ws(' ', c.first_name, c.last_name), '') AS customer_name,
            t.created_at::text AS cursor_at
     FROM transactions t LEFT JOIN customer_contacts c ON c.id = t.customer_id
     WHERE ${where.join(' AND ')} ORDER BY t.created_at DESC, t.id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((row) =>
    withFields(toTransaction(row), {
      customerName: row.customer_name,
      cursor: { createdAt: row.cursor_at, id: row.id },
    }),
  );
}

/**
 * Every matching transaction, newest first, in keyset pages (created_at, id): an export of any size holds one page in
 * memory, and a transaction made while it runs does not shift the pages.
 */
export async function* streamTransactions(
  sql: Sql,
  filter: TransactionFilter,
  search: string | undefined,
  pageSize = 1000,
): AsyncGenerator<Transaction & { customerName: string | null }> {
  let after: ListCursor | undefined;
  for (;;) {
    const rows = await keysetTransactions(sql, filter, search, after, pageSize);
    yield* rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!.cursor;
  }
}

/**
 * Transactions whose outcome is not known yet and that nobody touched for `olderThan`, or whose operation in flight
 * belongs to a node that is gone (PendingOperation.node).
 */
export async function findUnresolved(sql: Sql, olderThan: Date, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT /* across merchants: the reconciler's sweep */ id FROM transactions
     WHERE (status_id = ${TransactionStatus.Pending} OR pending_operation IS NOT NULL) AND method = 'card'
       AND (modified_at <= $1
         OR (pending_operation ? 'node' AND NOT tessera_node_alive((pending_operation->>'node')::int)))
     ORDER BY modified_at LIMIT $2`,
    [olderThan, limit],
  );
  return rows.map((r) => r.id);
}
