import type { Sql } from '../../platform/db/pool.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import type { Category } from './catalog.model.js';

const SELECT = `SELECT c.*, (SELECT count(*)::int FROM invoice_line_items i
                  WHERE i.merchant_id = c.merchant_id AND i.category_id = c.id AND i.deleted_at IS NULL) AS item_count
                FROM invoice_categories c`;

function toCategory(r: Record<string, unknown>): Category {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    name: r.name as string,
    defaultUnitTypeId: (r.default_unit_type_id as number | null) ?? null,
    itemCount: (r.item_count as number) ?? 0,
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
  };
}

/** Unique violations of the case-insensitive name index, told apart from other errors. */
export const isNameTaken = (error: unknown) =>
  (error as { code?: string; constraint?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === 'invoice_categories_name';

export async function insertCategory(
  sql: Sql,
  c: { id: string; merchantId: string; name: string; defaultUnitTypeId: number | null; at: Date },
): Promise<void> {
  await sql.query(
    `INSERT INTO invoice_categories (id, merchant_id, name, default_unit_type_id, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $5)`,
    [c.id, c.merchantId, c.name, c.defaultUnitTypeId, c.at],
  );
}

export async function updateCategory(
  sql: Sql,
  merchantId: string,
  id: string,
  change: { name: string; defaultUnitTypeId: number | null },
  at: Date,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE invoice_categories SET name = $3, default_unit_type_id = $4, modified_at = $5
     WHERE id = $1 AND merchant_id = $2`,
    [id, merchantId, change.name, change.defaultUnitTypeId, at],
  );
  return rowCount === 1;
}

/** Its line items stay, with no category (the foreign key sets it null). */
export async function deleteCategory(sql: Sql, merchantId: string, id: string): Promise<boolean> {
  const { rowCount } = await sql.query('DELETE FROM invoice_categories WHERE id = $1 AND merchant_id = $2', [
    id,
    merchantId,
  ]);
  return rowCount === 1;
}

export async function findCategory(sql: Sql, merchantId: string, id: string): Promise<Category | null> {
  const { rows } = await sql.query(`${SELECT} WHERE c.id = $1 AND c.merchant_id = $2`, [id, merchantId]);
  return rows[0] ? toCategory(rows[0]) : null;
}

export async function listCategories(
  sql: Sql,
  merchantId: string,
  page: PageRequest,
): Promise<{ items: Category[]; total: number }> {
  const search = page.search ? likePattern(page.search) : null;
  const matches = '($2::text IS NULL OR c.name ILIKE $2)';
  const [{ rows }, count] = await Promise.all([
    sql.query(`${SELECT} WHERE c.merchant_id = $1 AND ${matches} ${page.orderSql} LIMIT $3 OFFSET $4`, [
      merchantId,
      search,
      page.limit,
      page.offset,
    ]),
    sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoice_categories c WHERE c.merchant_id = $1 AND ${matches}`,
      [merchantId, search],
    ),
  ]);
  return { items: rows.map(toCategory), total: count.rows[0]!.n };
}

export const CATEGORY_LIST = {
  orderBy: { name: 'lower(c.name)', createdOn: 'c.created_at', itemCount: 'item_count' },
  defaultOrderBy: 'name',
  tieBreaker: 'c.id',
};
