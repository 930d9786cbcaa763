import type { Sql } from '../../platform/db/pool.js';
import { likePattern } from '../../platform/http/paging.js';
import { withFields } from '../../platform/objects.js';
import type { PaymentMethod } from './vault.model.js';

interface PaymentMethodRow {
  id: string;
  merchant_id: string;
  customer_id: string | null;
  type_id: number;
  name: string | null;
  mask: string;
  fingerprint: Buffer;
  card_type_id: number | null;
  credit_debit_type_id: number | null;
  card_token_type_id: number | null;
  expiration_month: number | null;
  expiration_year: number | null;
  routing_number: string | null;
  account_type_id: number | null;
  account_holder_type_id: number | null;
  tax_id: string | null;
  company_name: string | null;
  created_at: Date;
  modified_at: Date;
}

const COLUMNS = `id, merchant_id, customer_id, type_id, name, mask, fingerprint, card_type_id, credit_debit_type_id,
  card_token_type_id, expiration_month, expiration_year, routing_number, account_type_id, account_holder_type_id,
  tax_id, company_name, created_at, modified_at`;

function toModel(row: PaymentMethodRow): PaymentMethod {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    customerId: row.customer_id,
    typeId: row.type_id,
    name: row.name,
    mask: row.mask,
    fingerprint: row.fingerprint,
    cardTypeId: row.card_type_id,
    creditDebitTypeId: row.credit_debit_type_id,
    cardTokenTypeId: row.card_token_type_id,
    expirationMonth: row.expiration_month,
    expirationYear: row.expiration_year,
    routingNumber: row.routing_number,
    accountTypeId: row.account_type_id,
    accountHolderTypeId: row.account_holder_type_id,
    taxId: row.tax_id,
    companyName: row.company_name,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  };
}

export interface NewPaymentMethod extends PaymentMethod {
  dataKeyVersion: number;
  secretSealed: Buffer;
}

export async function insertPaymentMethod(sql: Sql, pm: NewPaymentMethod): Promise<void> {
  await sql.query(
    `INSERT INTO payment_methods (id, merchant_id, customer_id, type_id, name, data_key_version, secret_sealed,
       fingerprint, mask, card_type_id, credit_debit_type_id, card_token_type_id, expiration_month, expiration_year,
       routing_number, account_type_id, account_holder_type_id, tax_id, created_at, modified_at, company_name)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$19,$20)`,
    [
      pm.id,
      pm.merchantId,
      pm.customerId,
      pm.typeId,
      pm.name,
      pm.dataKeyVersion,
      pm.secretSealed,
      pm.fingerprint,
      pm.mask,
      pm.cardTypeId,
      pm.creditDebitTypeId,
      pm.cardTokenTypeId,
      pm.expirationMonth,
      pm.expirationYear,
      pm.routingNumber,
      pm.accountTypeId,
      pm.accountHolderTypeId,
      pm.taxId,
      pm.createdAt,
      pm.companyName,
    ],
  );
}

/** Tenant-scoped: another merchant's method is simply not found. */
export async function findPaymentMethod(
  sql: Sql,
  merchantId: string,
  id: string,
): Promise<(PaymentMethod & { dataKeyVersion: number; secretSealed: Buffer }) | undefined> {
  const { rows } = await sql.query<PaymentMethodRow & { data_key_version: number; secret_sealed: Buffer }>({
    name: 'vault.find-payment-method',
    text: `SELECT ${COLUMNS}, data_key_version, secret_sealed FROM payment_methods
           WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
    values: [id, merchantId],
  });
  const row = rows[0];
  return row
    ? withFields(toModel(row), { dataKeyVersion: row.data_key_version, secretSealed: row.secret_sealed })
    : undefined;
}

export type SealedPaymentMethod = PaymentMethod & { dataKeyVersion: number; secretSealed: Buffer };

/** Payment methods by id, of any merchant: for a caller that then checks each one's tenant (a grouped lookup). */
export async function findPaymentMethodsById(sql: Sql, ids: readonly string[]): Promise<SealedPaymentMethod[]> {
  const { rows } = await sql.query<PaymentMethodRow & { data_key_version: number; secret_sealed: Buffer }>({
    name: 'vault.find-payment-methods-by-id',
    text: `SELECT /* across merchants: a grouped lookup for several requests */
       ${COLUMNS}, data_key_version, secret_sealed FROM payment_methods
           WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    values: [ids],
  });
  return rows.map((row) =>
    withFields(toModel(row), {
      dataKeyVersion: row.data_key_version,
      secretSealed: row.secret_sealed,
    }),
  );
}

export async function listCustomerPaymentMethods(
  sql: Sql,
  merchantId: string,
  customerIds: string[],
): Promise<PaymentMethod[]> {
  const { rows } = await sql.query<PaymentMethodRow>(
    `SELECT ${COLUMNS} FROM payment_methods
     WHERE merchant_id = $1 AND customer_id = ANY($2::uuid[]) AND deleted_at IS NULL ORDER BY created_at, id`,
    [merchantId, customerIds],
  );
  return rows.map(toModel);
}

export interface MethodFilter {
  merchantId: string;
  /** Only this customer's; none: every method of the merchant, orphans included. */
  customerId?: string;
  createdFrom?: Date;
  createdTo?: Date;
  /** Part of the name or of the masked number. */
  search?: string;
}

/** The merchant's payment methods (customers' and orphans), a page of them and their count. */
export async function listPaymentMethods(
  sql: Sql,
  filter: MethodFilter,
  page: { limit: number; offset: number; orderSql: string },
): Promise<{ items: PaymentMethod[]; total: number }> {
  const where = ['merchant_id = $1', 'deleted_at IS NULL'];
  const params: unknown[] = [filter.merchantId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.customerId) add((n) => `customer_id = ${n}`, filter.customerId);
  if (filter.createdFrom) add((n) => `created_at >= ${n}`, filter.createdFrom);
  if (filter.createdTo) add((n) => `created_at <= ${n}`, filter.createdTo);
  if (filter.search) add((n) => `(name ILIKE ${n} OR mask ILIKE ${n})`, likePattern(filter.search));
  const whereSql = where.join(' AND ');
  const [{ rows }, { rows: counted }] = await Promise.all([
    sql.query<PaymentMethodRow>(
      `SELECT ${COLUMNS} FROM payment_methods WHERE ${whereSql} ${page.orderSql}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_methods WHERE ${whereSql}`, params),
  ]);
  return { items: rows.map(toModel), total: counted[0]!.n };
}

export async function updatePaymentMethod(
  sql: Sql,
  merchantId: string,
  id: string,
  changes: { name: string | null | undefined; expirationMonth?: number; expirationYear?: number },
  now: Date,
): Promise<boolean> {
  const result = await sql.query(
    `UPDATE payment_methods SET
       name = CASE WHEN $3::boolean THEN $4 ELSE name END,
       expiration_month = coalesce($5, expiration_month),
       expiration_year = coalesce($6, expiration_year),
       modified_at = $7
     WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
    [
      id,
      merchantId,
      changes.name !== undefined,
      changes.name ?? null,
      changes.expirationMonth ?? null,
      changes.expirationYear ?? null,
      now,
    ],
  );
  return result.rowCount === 1;
}

/** Every payment method of a customer, deleted with it. */
export async function deleteCustomerPaymentMethods(sql: Sql, merchantId: string, customerId: string, now: Date) {
  await sql.query(
    'UPDATE payment_methods SET deleted_at = $3 WHERE customer_id = $1 AND merchant_id = $2 AND deleted_at IS NULL',
    [customerId, merchantId, now],
  );
}

export async function deletePaymentMethod(sql: Sql, merchantId: string, id: string, now: Date): Promise<boolean> {
  const result = await sql.query(
    'UPDATE payment_methods SET deleted_at = $3 WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL',
    [id, merchantId, now],
  );
  return result.rowCount === 1;
}
