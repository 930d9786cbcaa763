import type { Sql } from '../../platform/db/pool.js';
import { type DateRange, likePattern, type PageRequest } from '../../platform/http/paging.js';
import type { LinkStatus, LinkSurface, NewLink, PaymentLink } from './links.model.js';

/** A link's customer by primary key for each link (invoices.repo.ts says why not a plain join). */
const CUSTOMER_OF_LINK = `LEFT JOIN LATERAL (
    SELECT first_name, last_name, email FROM customer_contacts cc
    WHERE cc.merchant_id = l.merchant_id AND cc.id = l.customer_id LIMIT 1) c ON true`;
const SELECT = `SELECT l.*, c.first_name AS customer_first_name, c.last_name AS customer_last_name
  FROM payment_links l ${CUSTOMER_OF_LINK}`;

interface Row {
  id: string;
  merchant_id: string;
  surface: LinkSurface;
  single_use: boolean;
  status: LinkStatus;
  code: string;
  amount_cents: number | null;
  currency_code: string;
  reference_id: string | null;
  name: string | null;
  description: string | null;
  customer_id: string | null;
  card_enabled: boolean;
  card_processor_id: string | null;
  ach_enabled: boolean;
  ach_processor_id: string | null;
  expires_at: Date | null;
  payment_count: number;
  total_collected_cents: number;
  last_payment_at: Date | null;
  created_at: Date;
  modified_at: Date;
  customer_first_name: string | null;
  customer_last_name: string | null;
}

const toLink = (r: Row): PaymentLink => ({
  id: r.id,
  merchantId: r.merchant_id,
  surface: r.surface,
  singleUse: r.single_use,
  status: r.status,
  code: r.code,
  amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
  currencyCode: r.currency_code,
  referenceId: r.reference_id,
  name: r.name,
  description: r.description,
  customerId: r.customer_id,
  card: { enabled: r.card_enabled, processorId: r.card_processor_id },
  ach: { enabled: r.ach_enabled, processorId: r.ach_processor_id },
  expiresAt: r.expires_at,
  paymentCount: r.payment_count,
  totalCollectedCents: Number(r.total_collected_cents),
  lastPaymentAt: r.last_payment_at,
  createdAt: r.created_at,
  modifiedAt: r.modified_at,
  customerFirstName: r.customer_first_name,
  customerLastName: r.customer_last_name,
});

export async function insertLink(sql: Sql, id: string, code: string, v: NewLink, at: Date): Promise<void> {
  await sql.query(
    `INSERT INTO payment_links (id, merchant_id, surface, single_use, status, code, amount_cents, currency_code,
       reference_id, name, description, customer_id, card_enabled, card_processor_id, ach_enabled, ach_processor_id,
       expires_at, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)`,
    [
      id,
      v.merchantId,
      v.surface,
      v.singleUse,
      v.status,
      code,
      v.amountCents,
      v.currencyCode,
      v.referenceId,
      v.name,
      v.description,
      v.customerId,
      v.card.enabled,
      v.card.processorId,
      v.ach.enabled,
      v.ach.processorId,
      v.expiresAt,
      at,
    ],
  );
}

/** A merchant's link of one surface (another surface's link, or a deleted one, is not found). */
export async function findLink(
  sql: Sql,
  merchantId: string,
  id: string,
  surface: LinkSurface,
  lock = false,
): Promise<PaymentLink | undefined> {
  const { rows } = await sql.query<Row>(
    `${SELECT} WHERE l.id = $1 AND l.merchant_id = $2 AND l.surface = $3 AND l.deleted_at IS NULL
     ${lock ? 'FOR UPDATE OF l' : ''}`,
    [id, merchantId, surface],
  );
  return rows[0] ? toLink(rows[0]) : undefined;
}

/** The payer's side: a link by its page's code (without the customer's name, which the page does not show). */
export async function findByCode(sql: Sql, code: string): Promise<PaymentLink | undefined> {
  const { rows } = await sql.query<Row>({
    name: 'links.find-by-code',
    text: `SELECT /* across merchants: the public link page knows only the code */ l.*,
             NULL AS customer_first_name, NULL AS customer_last_name FROM payment_links l
           WHERE l.code = $1 AND l.deleted_at IS NULL`,
    values: [code],
  });
  return rows[0] ? toLink(rows[0]) : undefined;
}

export async function findById(sql: Sql, merchantId: string, id: string): Promise<PaymentLink | undefined> {
  const { rows } = await sql.query<Row>(`${SELECT} WHERE l.merchant_id = $2 AND l.id = $1`, [id, merchantId]);
  return rows[0] ? toLink(rows[0]) : undefined;
}

/** A status move as a compare-and-set from `from`; true when it moved. */
export async function moveLink(
  sql: Sql,
  link: { merchantId: string; id: string },
  from: readonly LinkStatus[],
  to: LinkStatus,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE payment_links SET status = $3, modified_at = $4
     WHERE merchant_id = $5 AND id = $1 AND status = ANY($2::text[]) AND deleted_at IS NULL`,
    [link.id, from, to, at, link.merchantId],
  );
  return rowCount === 1;
}

export interface LinkChanges {
  amount_cents?: number | null;
  currency_code?: string;
  reference_id?: string | null;
  name?: string | null;
  description?: string | null;
  customer_id?: string | null;
  card_enabled?: boolean;
  card_processor_id?: string | null;
  ach_enabled?: boolean;
  ach_processor_id?: string | null;
  expires_at?: Date | null;
  status?: LinkStatus;
  single_use?: boolean;
}

export async function updateLink(
  sql: Sql,
  merchantId: string,
  id: string,
  changes: LinkChanges,
  at: Date,
): Promise<void> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const sets = entries.map(([column], n) => `${column} = $${n + 4}`);
  await sql.query(
    `UPDATE payment_links SET ${[...sets, 'modified_at = $2'].join(', ')} WHERE merchant_id = $3 AND id = $1`,
    [id, at, merchantId, ...entries.map(([, value]) => value)],
  );
}

export async function softDelete(sql: Sql, merchantId: string, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE payment_links SET deleted_at = $3, modified_at = $3, status = 'inactive'
     WHERE id = $1 AND merchant_id = $2 AND surface = 'v2' AND deleted_at IS NULL`,
    [id, merchantId, at],
  );
  return rowCount === 1;
}

/**
 * A single-use link's payment starts: the session takes the link (a compare-and-set, so of two payers at once one
 * pays and the other is told it is taken); the same session may take it again, a lapsed claim may be taken over.
 */
export async function claimLink(
  sql: Sql,
  link: { merchantId: string; id: string },
  sessionId: string,
  now: Date,
  until: Date,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE payment_links SET claimed_by = $2, claimed_until = $4
     WHERE merchant_id = $5 AND id = $1 AND status = 'active' AND deleted_at IS NULL
       AND (expires_at IS NULL OR expires_at > $3) AND (claimed_by IS NULL OR claimed_by = $2 OR claimed_until < $3)`,
    [link.id, sessionId, now, until, link.merchantId],
  );
  return rowCount === 1;
}

export async function releaseClaim(sql: Sql, merchantId: string, id: string, sessionId: string): Promise<void> {
  await sql.query(
    `UPDATE payment_links SET claimed_by = NULL, claimed_until = NULL
     WHERE merchant_id = $3 AND id = $1 AND claimed_by = $2`,
    [id, sessionId],
  );
}

/**
 * A payment through the link, recorded once per session (the session completes once): the counts move only when the
 * row is new; a single-use link is then used up. True when it was recorded now.
 */
export async function recordPayment(
  sql: Sql,
  link: Pick<PaymentLink, 'id' | 'merchantId' | 'singleUse'>,
  payment: { sessionId: string; transactionId: string; cents: number; at: Date; usedStatus: LinkStatus },
): Promise<boolean> {
  const { rows } = await sql.query<{ recorded: boolean }>(
    `WITH recorded AS (
       INSERT INTO payment_link_payments (merchant_id, link_id, session_id, transaction_id, amount_cents, paid_at)
       VALUES ($8, $1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING link_id
     ), counted AS (
       UPDATE payment_links SET payment_count = payment_count + 1, total_collected_cents = total_collected_cents + $4,
         last_payment_at = $5, modified_at = $5, claimed_by = NULL, claimed_until = NULL,
         status = CASE WHEN $6 THEN $7 ELSE status END
       WHERE merchant_id = $8 AND id = (SELECT link_id FROM recorded)
       RETURNING id
     )
     SELECT EXISTS (SELECT 1 FROM counted) AS recorded`,
    [
      link.id,
      payment.sessionId,
      payment.transactionId,
      payment.cents,
      payment.at,
      link.singleUse,
      payment.usedStatus,
      link.merchantId,
    ],
  );
  return rows[0]!.recorded;
}

/** Links whose expiry has come and that are still open: moved by the expiry sweep. */
export async function findExpiring(sql: Sql, now: Date, limit: number): Promise<PaymentLink[]> {
  const { rows } = await sql.query<Row>(
    `${SELECT} /* across merchants: the expiry sweep */
     WHERE l.status IN ('created', 'active') AND l.expires_at <= $1 AND l.deleted_at IS NULL
     ORDER BY l.expires_at LIMIT $2`,
    [now, limit],
  );
  return rows.map(toLink);
}

export interface LinkFilter {
  merchantId: string;
  surface: LinkSurface;
  singleUse?: boolean;
  statuses?: LinkStatus[];
  created: DateRange;
}

export async function listLinks(
  sql: Sql,
  filter: LinkFilter,
  page: Pick<PageRequest, 'limit' | 'offset' | 'orderSql' | 'search'>,
): Promise<{ items: PaymentLink[]; total: number }> {
  const where = ['l.merchant_id = $1', 'l.surface = $2', 'l.deleted_at IS NULL'];
  const params: unknown[] = [filter.merchantId, filter.surface];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.singleUse !== undefined) add((n) => `l.single_use = ${n}`, filter.singleUse);
  if (filter.statuses) add((n) => `l.status = ANY(${n}::text[])`, filter.statuses);
  if (filter.created.from) add((n) => `l.created_at >= ${n}`, filter.created.from);
  if (filter.created.to) add((n) => `l.created_at <= ${n}`, filter.created.to);
  if (page.search) {
    add(
      (n) =>
        `(l.name ILIKE ${n} OR l.description ILIKE ${n} OR l.reference_id ILIKE ${n}
          OR concat_ws(' ', c.first_name, c.last_name) ILIKE ${n})`,
      likePattern(page.search),
    );
  }
  const whereSql = where.join(' AND ');
  const [{ rows }, count] = await Promise.all([
    sql.query<Row>(
      `${SELECT} WHERE ${whereSql} ${page.orderSql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payment_links l ${CUSTOMER_OF_LINK} WHERE ${whereSql}`,
      params,
    ),
  ]);
  return { items: rows.map(toLink), total: count.rows[0]!.n };
}
