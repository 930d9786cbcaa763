import type { QueryConfig } from 'pg';
import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import { CARD_SALE_TYPES, TransactionStatus } from '../payments/transactions.model.js';
import { SubscriptionStatus } from '../subscriptions/subscriptions.model.js';
import type { Customer, CustomerFields, CustomerStats } from './customers.model.js';

interface CustomerRow {
  id: string;
  merchant_id: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  email: string | null;
  mobile_phone_number: string | null;
  sms_notifications_enabled: boolean | null;
  use_billing_as_shipping: boolean;
  billing_address: Customer['billingAddress'];
  shipping_address: Customer['shippingAddress'];
  default_payment_method_id: string | null;
  default_ach_payment_method_id: string | null;
  created_at: Date;
  modified_at: Date;
}

interface StatsRow {
  tx_count: number;
  tx_volume: number;
  last_at: Date | null;
  last_amount: number | null;
  pm_count: number;
  sub_count: number;
  sub_amount: number;
}

const COLUMNS =
  'c.id, c.merchant_id, c.first_name, c.last_name, c.company_name, c.email, c.mobile_phone_number, c.sms_notifications_enabled, c.use_billing_as_shipping, c.billing_address, c.shipping_address, c.default_payment_method_id, c.default_ach_payment_method_id, c.created_at, c.modified_at';

/** Successful payments: what counts toward a customer's statistics. */
const COUNTED = `t.merchant_id = c.merchant_id AND t.customer_id = c.id AND t.type_id IN (${sqlIds(...CARD_SALE_TYPES)})
  AND t.status_id IN (${sqlIds(
    TransactionStatus.Authorized,
    TransactionStatus.Captured,
    TransactionStatus.Refunded,
    TransactionStatus.Settled,
  )})`;
const STATS = `
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS tx_count, coalesce(sum(t.captured_cents), 0)::bigint AS tx_volume
    FROM transaction_amounts t WHERE ${COUNTED}) agg ON true
  LEFT JOIN LATERAL (
    SELECT t.created_at AS last_at, t.total_cents AS last_amount
    FROM transaction_amounts t WHERE ${COUNTED} ORDER BY t.created_at DESC LIMIT 1) s ON true
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS pm_count FROM customer_payment_methods pm
    WHERE pm.merchant_id = c.merchant_id AND pm.customer_id = c.id AND pm.deleted_at IS NULL) p ON true
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS sub_count, coalesce(sum(sb.total_cents), 0)::bigint AS sub_amount
    FROM customer_subscriptions sb
    WHERE sb.merchant_id = c.merchant_id AND sb.customer_id = c.id
      AND sb.status_id = ${SubscriptionStatus.Active}) sb ON true`;

function toModel(row: CustomerRow): Customer {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    firstName: row.first_name,
    lastName: row.last_name,
    companyName: row.company_name,
    email: row.email,
    mobilePhoneNumber: row.mobile_phone_number,
    smsNotificationsEnabled: row.sms_notifications_enabled,
    useBillingAsShipping: row.use_billing_as_shipping,
    billingAddress: row.billing_address,
    shippingAddress: row.shipping_address,
    defaultPaymentMethodId: row.default_payment_method_id,
    defaultAchPaymentMethodId: row.default_ach_payment_method_id,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  };
}

function toStats(row: StatsRow): CustomerStats {
  return {
    transactionsCount: row.tx_count,
    transactionsVolumeCents: row.tx_volume,
    lastTransactionAt: row.last_at,
    lastTransactionCents: row.last_amount,
    paymentMethodsCount: row.pm_count,
    activeSubscriptionsCount: row.sub_count,
    activeSubscriptionsCents: Number(row.sub_amount),
  };
}

/** The insert as a value, for a caller that pipelines it with its own statements (`Tx.batch`). */
export function insertCustomerQuery(customer: Customer): QueryConfig {
  return {
    name: 'customers.insert',
    text: `INSERT INTO customers (id, merchant_id, first_name, last_name, company_name, email, mobile_phone_number,
       sms_notifications_enabled, use_billing_as_shipping, billing_address, shipping_address, created_at, modified_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$12)`,
    values: [
      customer.id,
      customer.merchantId,
      customer.firstName,
      customer.lastName,
      customer.companyName,
      customer.email,
      customer.mobilePhoneNumber,
      customer.smsNotificationsEnabled,
      customer.useBillingAsShipping,
      customer.billingAddress,
      customer.shippingAddress,
      customer.createdAt,
    ],
  };
}

export async function replaceCustomer(
  sql: Sql,
  merchantId: string,
  id: string,
  fields: CustomerFields,
  now: Date,
): Promise<boolean> {
  const result = await sql.query(
    `UPDATE customers SET first_name = $3, last_name = $4, company_name = $5, email = $6, mobile_phone_number = $7,
       sms_notifications_enabled = $8, use_billing_as_shipping = $9, billing_address = $10, shipping_address = $11,
       modified_at = $12
     WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
    [
      id,
      merchantId,
      fields.firstName,
      fields.lastName,
      fields.companyName,
      fields.email,
      fields.mobilePhoneNumber,
      fields.smsNotificationsEnabled,
      fields.useBillingAsShipping,
      fields.billingAddress,
      fields.shippingAddress,
      now,
    ],
  );
  return result.rowCount === 1;
}

export async function findCustomer(
  sql: Sql,
  merchantId: string,
  id: string,
  options: { forUpdate?: boolean; forShare?: boolean } = {},
): Promise<Customer | undefined> {
  const { rows } = await sql.query<CustomerRow>(
    `SELECT ${COLUMNS} FROM customers c WHERE c.id = $1 AND c.merchant_id = $2 AND c.deleted_at IS NULL
     ${options.forUpdate ? 'FOR UPDATE' : options.forShare ? 'FOR SHARE' : ''}`,
    [id, merchantId],
  );
  return rows[0] ? toModel(rows[0]) : undefined;
}

/** Customers by id, of any merchant: for a caller that then checks each one's tenant (a grouped lookup). */
export async function findCustomersById(sql: Sql, ids: readonly string[]): Promise<Customer[]> {
  const { rows } = await sql.query<CustomerRow>({
    name: 'customers.find-by-id',
    text: `SELECT /* across merchants: a grouped lookup for several requests */ ${COLUMNS} FROM customers c
      WHERE c.id = ANY($1::uuid[]) AND c.deleted_at IS NULL`,
    values: [ids],
  });
  return rows.map(toModel);
}

export async function findCustomerWithStats(
  sql: Sql,
  merchantId: string,
  id: string,
): Promise<{ customer: Customer; stats: CustomerStats } | undefined> {
  const { rows } = await sql.query<CustomerRow & StatsRow>(
    `SELECT ${COLUMNS}, agg.tx_count, agg.tx_volume, s.last_at, s.last_amount, p.pm_count, sb.sub_count, sb.sub_amount
     FROM customers c ${STATS}
     WHERE c.id = $1 AND c.merchant_id = $2 AND c.deleted_at IS NULL`,
    [id, merchantId],
  );
  return rows[0] ? { customer: toModel(rows[0]), stats: toStats(rows[0]) } : undefined;
}

export interface CustomerFilter {
  merchantId: string;
  customerIds: string[] | undefined;
  createdFrom: Date | undefined;
  createdTo: Date | undefined;
  /** Partial, case-insensitive matches on one field each (version 2's filters). */
  fullName?: string;
  email?: string;
  companyName?: string;
  mobileNumber?: string;
}

export async function listCustomers(
  sql: Sql,
  filter: CustomerFilter,
  page: PageRequest,
): Promise<{ items: Array<{ customer: Customer; stats: CustomerStats }>; total: number }> {
  const where = ['c.deleted_at IS NULL'];
  const values: unknown[] = [filter.merchantId];
  const add = (clause: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(clause(`$${values.length}`));
  };
  if (filter.customerIds) add((n) => `c.id = ANY(${n}::uuid[])`, filter.customerIds);
  if (filter.createdFrom) add((n) => `c.created_at >= ${n}`, filter.createdFrom);
  if (filter.createdTo) add((n) => `c.created_at <= ${n}`, filter.createdTo);
  if (filter.fullName) add((n) => `concat_ws(' ', c.first_name, c.last_name) ILIKE ${n}`, likePattern(filter.fullName));
  if (filter.email) add((n) => `c.email ILIKE ${n}`, likePattern(filter.email));
  if (filter.companyName) add((n) => `c.company_name ILIKE ${n}`, likePattern(filter.companyName));
  if (filter.mobileNumber) add((n) => `c.mobile_phone_number ILIKE ${n}`, likePattern(filter.mobileNumber));
  if (page.search) {
    add(
      (n) =>
        `(c.first_name ILIKE ${n} OR c.last_name ILIKE ${n} OR c.company_name ILIKE ${n} OR c.email ILIKE ${n}
          OR c.mobile_phone_number ILIKE ${n} OR c.id::text ILIKE ${n}
          OR concat_ws(' ', c.first_name, c.last_name) ILIKE ${n})`,
      likePattern(page.search),
    );
  }
  values.push(page.limit, page.offset);
  const { rows } = await sql.query<CustomerRow & StatsRow & { total: number }>(
    `SELECT ${COLUMNS}, agg.tx_count, agg.tx_volume, s.last_at, s.last_amount, p.pm_count, sb.sub_count, sb.sub_amount,
            count(*) OVER ()::int AS total
     FROM customers c ${STATS}
     WHERE c.merchant_id = $1 AND ${where.join(' AND ')}
     ${page.orderSql}
     LIMIT $${values.length - 1} OFFSET $${values.length}`,
    values,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    const counted = await sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM customers c WHERE c.merchant_id = $1 AND ${where.join(' AND ')}`,
      values.slice(0, -2),
    );
    total = counted.rows[0]!.total;
  }
  return { items: rows.map((row) => ({ customer: toModel(row), stats: toStats(row) })), total };
}

export async function softDeleteCustomer(sql: Sql, merchantId: string, id: string, now: Date): Promise<boolean> {
  const result = await sql.query(
    'UPDATE customers SET deleted_at = $3 WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL',
    [id, merchantId, now],
  );
  return result.rowCount === 1;
}

export async function setDefaults(
  sql: Sql,
  merchantId: string,
  id: string,
  defaults: { card?: string | null; ach?: string | null },
  now: Date,
): Promise<void> {
  await sql.query(
    `UPDATE customers SET
       default_payment_method_id = CASE WHEN $3::boolean THEN $4::uuid ELSE default_payment_method_id END,
       default_ach_payment_method_id = CASE WHEN $5::boolean THEN $6::uuid ELSE default_ach_payment_method_id END,
       modified_at = $7
     WHERE id = $1 AND merchant_id = $2`,
    [
      id,
      merchantId,
      defaults.card !== undefined,
      defaults.card ?? null,
      defaults.ach !== undefined,
      defaults.ach ?? null,
      now,
    ],
  );
}
