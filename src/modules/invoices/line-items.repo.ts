import type { Sql } from '../../platform/db/pool.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import type { LineItem, LineItemInput } from './catalog.model.js';

const SELECT = `SELECT i.*, c.name AS category_name, c.default_unit_type_id AS category_default_unit_type_id
                FROM invoice_line_items i
                LEFT JOIN invoice_categories c ON c.merchant_id = i.merchant_id AND c.id = i.category_id`;

function toLineItem(r: Record<string, unknown>): LineItem {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    categoryId: (r.category_id as string | null) ?? null,
    categoryName: (r.category_name as string | null) ?? null,
    categoryDefaultUnitTypeId: (r.category_default_unit_type_id as number | null) ?? null,
    productName: r.product_name as string,
    description: (r.description as string | null) ?? null,
    sku: (r.sku as string | null) ?? null,
    unitPriceCents: Number(r.unit_price_cents),
    unitTypeId: r.unit_type_id as number,
    taxRateMpct: (r.tax_rate_mpct as number | null) ?? null,
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
  };
}

type Stored = Omit<LineItemInput, 'unitTypeId'> & { unitTypeId: number };

/** A stored item's columns from category_id to tax_rate_mpct, in their order in both statements below. */
const storedValues = (item: Stored) => [
  item.categoryId,
  item.productName,
  item.description,
  item.sku,
  item.unitPriceCents,
  item.unitTypeId,
  item.taxRateMpct,
];

export async function insertLineItem(
  sql: Sql,
  item: Stored & { id: string; merchantId: string; at: Date },
): Promise<void> {
  await sql.query(
    `INSERT INTO invoice_line_items (id, merchant_id, category_id, product_name, description, sku, unit_price_cents,
       unit_type_id, tax_rate_mpct, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [item.id, item.merchantId, ...storedValues(item), item.at],
  );
}

/** A full replacement of a catalog item still in the catalog. */
export async function replaceLineItem(sql: Sql, merchantId: string, id: string, item: Stored, at: Date) {
  const { rowCount } = await sql.query(
    `UPDATE invoice_line_items SET category_id = $3, product_name = $4, description = $5, sku = $6,
       unit_price_cents = $7, unit_type_id = $8, tax_rate_mpct = $9, modified_at = $10
     WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
    [id, merchantId, ...storedValues(item), at],
  );
  return rowCount === 1;
}

/** Out of the catalog for future invoices; invoices keep their copy. */
export async function removeLineItem(sql: Sql, merchantId: string, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE invoice_line_items SET deleted_at = $3, modified_at = $3
     WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
    [id, merchantId, at],
  );
  return rowCount === 1;
}

export async function findLineItem(sql: Sql, merchantId: string, id: string): Promise<LineItem | null> {
  const { rows } = await sql.query(`${SELECT} WHERE i.id = $1 AND i.merchant_id = $2 AND i.deleted_at IS NULL`, [
    id,
    merchantId,
  ]);
  return rows[0] ? toLineItem(rows[0]) : null;
}

export interface LineItemFilter {
  merchantId: string;
  categoryId?: string;
  noCategory?: boolean;
}

export async function listLineItems(
  sql: Sql,
  filter: LineItemFilter,
  page: PageRequest,
): Promise<{ items: LineItem[]; total: number }> {
  const where = ['i.deleted_at IS NULL'];
  const params: unknown[] = [filter.merchantId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  // `noCategory` is ignored when a category is asked for.
  if (filter.categoryId) add((n) => `i.category_id = ${n}`, filter.categoryId);
  else if (filter.noCategory) where.push('i.category_id IS NULL');
  if (page.search) {
    add((n) => `(i.product_name ILIKE ${n} OR i.description ILIKE ${n} OR i.sku ILIKE ${n})`, likePattern(page.search));
  }
  const whereSql = where.join(' AND ');
  const [{ rows }, count] = await Promise.all([
    sql.query(
      `${SELECT} WHERE i.merchant_id = $1 AND ${whereSql} ${page.orderSql}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoice_line_items i WHERE i.merchant_id = $1 AND ${whereSql}`,
      params,
    ),
  ]);
  return { items: rows.map(toLineItem), total: count.rows[0]!.n };
}

export const LINE_ITEM_LIST = {
  orderBy: {
    productName: 'lower(i.product_name)',
    unitPrice: 'i.unit_price_cents',
    sku: 'i.sku',
    createdOn: 'i.created_at',
    modifiedOn: 'i.modified_at',
  },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'i.id',
};
