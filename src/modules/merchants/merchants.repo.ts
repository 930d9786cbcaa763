import { prepared, type Sql } from '../../platform/db/pool.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import type { Address } from '../reference/address.js';
import type {
  Merchant,
  MerchantConfiguration,
  MerchantContact,
  MerchantSettings,
  PaymentProcessor,
  SettlementTimeSlot,
  TransactionAutofill,
} from './merchants.model.js';
import { ProcessorStatus } from './merchants.model.js';

interface MerchantRow {
  id: string;
  partner_id: string | null;
  company_name: string;
  legal_name: string | null;
  mcc_code: string | null;
  mcc_code_description: string | null;
  status_id: number;
  email: string | null;
  phone: string | null;
  website: string | null;
  is_tips_enabled: boolean;
  default_tips_options_mpct: number[] | null;
  zero_cost_processing_option_id: number;
  default_surcharge_rate_mpct: number | null;
  default_cash_discount_rate_mpct: number | null;
  default_dual_pricing_rate_mpct: number | null;
  max_transaction_amount_cents: number | null;
  avs_enabled: boolean;
  avs_profile_id: number;
  card_saving_by_terminal_enabled: boolean;
  time_zone: string;
  subscription_retry_days: number[];
  last_transaction_at: Date | null;
  created_at: Date;
  modified_at: Date;
}

type SettingsColumns = Pick<
  MerchantRow,
  | 'is_tips_enabled'
  | 'default_tips_options_mpct'
  | 'zero_cost_processing_option_id'
  | 'default_surcharge_rate_mpct'
  | 'default_cash_discount_rate_mpct'
  | 'default_dual_pricing_rate_mpct'
  | 'max_transaction_amount_cents'
  | 'avs_enabled'
  | 'avs_profile_id'
  | 'card_saving_by_terminal_enabled'
  | 'time_zone'
  | 'subscription_retry_days'
>;

function settingsOf(row: SettingsColumns): MerchantSettings {
  return {
    isTipsEnabled: row.is_tips_enabled,
    defaultTipsOptionsMpct: row.default_tips_options_mpct,
    zeroCostProcessingOptionId: row.zero_cost_processing_option_id,
    defaultSurchargeRateMpct: row.default_surcharge_rate_mpct,
    defaultCashDiscountRateMpct: row.default_cash_discount_rate_mpct,
    defaultDualPricingRateMpct: row.default_dual_pricing_rate_mpct,
    maxTransactionAmountCents: row.max_transaction_amount_cents,
    avs: { isEnabled: row.avs_enabled, profileId: row.avs_profile_id },
    isCustomerCardSavingByTerminalEnabled: row.card_saving_by_terminal_enabled,
    timeZone: row.time_zone,
    subscriptionRetryDays: row.subscription_retry_days,
  };
}

function toMerchant(row: MerchantRow): Merchant {
  return {
    id: row.id,
    partnerId: row.partner_id,
    companyName: row.company_name,
    legalName: row.legal_name,
    mccCode: row.mcc_code,
    mccCodeDescription: row.mcc_code_description,
    statusId: row.status_id,
    email: row.email,
    phone: row.phone,
    website: row.website,
    settings: settingsOf(row),
    lastTransactionAt: row.last_transaction_at,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  };
}

function merchantValues(m: Merchant): unknown[] {
  const s = m.settings;
  return [
    m.id,
    m.partnerId,
    m.companyName,
    m.legalName,
    m.mccCode,
    m.mccCodeDescription,
    m.statusId,
    m.email,
    m.phone,
    m.website,
    s.isTipsEnabled,
    s.defaultTipsOptionsMpct,
    s.zeroCostProcessingOptionId,
    s.defaultSurchargeRateMpct,
    s.defaultCashDiscountRateMpct,
    s.defaultDualPricingRateMpct,
    s.maxTransactionAmountCents,
    s.avs.isEnabled,
    s.avs.profileId,
    s.isCustomerCardSavingByTerminalEnabled,
    m.createdAt,
    m.modifiedAt,
    s.timeZone,
    s.subscriptionRetryDays,
  ];
}

export async function insertMerchant(sql: Sql, merchant: Merchant): Promise<void> {
  await sql.query(
    `INSERT INTO merchants (id, partner_id, company_name, legal_name, mcc_code, mcc_code_description, status_id, email,
       phone, website, is_tips_enabled, default_tips_options_mpct, zero_cost_processing_option_id,
       default_surcharge_rate_mpct, default_cash_discount_rate_mpct, default_dual_pricing_rate_mpct,
       max_transaction_amount_cents, avs_enabled, avs_profile_id, card_saving_by_terminal_enabled, created_at, modified_at,
       time_zone, subscription_retry_days)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24)`,
    merchantValues(merchant),
  );
}

export async function updateMerchant(sql: Sql, merchant: Merchant): Promise<void> {
  await sql.query(
    `UPDATE merchants SET partner_id = $2, company_name = $3, legal_name = $4, mcc_code = $5, mcc_code_description = $6,
       status_id = $7, email = $8, phone = $9, website = $10, is_tips_enabled = $11, default_tips_options_mpct = $12,
       zero_cost_processing_option_id = $13, default_surcharge_rate_mpct = $14, default_cash_discount_rate_mpct = $15,
       default_dual_pricing_rate_mpct = $16, max_transaction_amount_cents = $17, avs_enabled = $18, avs_profile_id = $19,
       card_saving_by_terminal_enabled = $20, created_at = $21, modified_at = $22, time_zone = $23,
       subscription_retry_days = $24
     WHERE id = $1`,
    merchantValues(merchant),
  );
}

type ConfigurationRow = Pick<
  MerchantRow,
  'company_name' | 'email' | 'phone' | 'mcc_code' | 'mcc_code_description' | 'status_id'
> &
  SettingsColumns & {
    transaction_autofill: TransactionAutofill | null;
    // The processor's columns; all null for a merchant without processors.
    p_id: string | null;
    p_method: 'card' | 'ach' | null;
    p_name: string | null;
    p_type_id: number | null;
    p_type_name: string | null;
    p_connector: string | null;
    p_is_default: boolean | null;
    p_status_id: number | null;
    p_settlement_time_slots: SettlementTimeSlot[] | null;
    p_created_at: Date | null;
  };

// Only the columns the configuration needs, as a flat join sorted in code: faster than aggregating processors to JSON
// in SQL, and than selecting whole rows (docs/performance.md). Several merchants at once: concurrent requests' reads
// go together (configurationReader).
const configurationsById = prepared(
  'merchant-configurations',
  `SELECT /* across merchants: a grouped lookup for several requests, each its own merchant's */
     m.id AS merchant_id, m.company_name, m.email, m.phone, m.mcc_code, m.mcc_code_description, m.status_id, m.is_tips_enabled,
     m.default_tips_options_mpct, m.zero_cost_processing_option_id, m.default_surcharge_rate_mpct,
     m.default_cash_discount_rate_mpct, m.default_dual_pricing_rate_mpct, m.max_transaction_amount_cents,
     m.avs_enabled, m.avs_profile_id, m.card_saving_by_terminal_enabled, m.time_zone, m.subscription_retry_days,
     m.transaction_autofill, p.id AS p_id, p.method AS p_method, p.name AS p_name, p.type_id AS p_type_id, p.type_name AS p_type_name,
     p.connector AS p_connector, p.is_default AS p_is_default, p.status_id AS p_status_id,
     p.settlement_time_slots AS p_settlement_time_slots, p.created_at AS p_created_at
   FROM merchants m LEFT JOIN payment_processors p ON p.merchant_id = m.id
   WHERE m.id = ANY($1::uuid[])`,
);

/** Merchants' configurations (settings, identity, processors) in one prepared round trip; absent ids are left out. */
export async function findConfigurations(
  sql: Sql,
  merchantIds: readonly string[],
): Promise<Map<string, MerchantConfiguration>> {
  const { rows } = await sql.query<ConfigurationRow & { merchant_id: string }>(configurationsById([merchantIds]));
  const byMerchant = new Map<string, Array<ConfigurationRow & { merchant_id: string }>>();
  for (const row of rows) {
    const list = byMerchant.get(row.merchant_id);
    if (list) list.push(row);
    else byMerchant.set(row.merchant_id, [row]);
  }
  const found = new Map<string, MerchantConfiguration>();
  for (const [merchantId, merchantRows] of byMerchant) found.set(merchantId, configurationOf(merchantId, merchantRows));
  return found;
}

function configurationOf(merchantId: string, rows: readonly ConfigurationRow[]): MerchantConfiguration {
  const first = rows[0]!;
  const processors = rows
    .filter((row) => row.p_id !== null)
    .map(
      (row): ProcessorRow => ({
        id: row.p_id!,
        merchant_id: merchantId,
        method: row.p_method!,
        name: row.p_name!,
        type_id: row.p_type_id!,
        type_name: row.p_type_name!,
        connector: row.p_connector!,
        is_default: row.p_is_default!,
        status_id: row.p_status_id!,
        settlement_time_slots: row.p_settlement_time_slots!,
        created_at: row.p_created_at!,
      }),
    )
    .sort(byDisplayOrder)
    .map(toProcessor);
  return {
    merchantId,
    companyName: first.company_name,
    email: first.email,
    phone: first.phone,
    mccCode: first.mcc_code,
    mccCodeDescription: first.mcc_code_description,
    statusId: first.status_id,
    settings: settingsOf(first),
    processors,
    transactionAutofill: first.transaction_autofill,
  };
}

export async function findMerchant(
  sql: Sql,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Merchant | undefined> {
  const { rows } = await sql.query<MerchantRow>(
    `SELECT * FROM merchants WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] && toMerchant(rows[0]);
}

/** A merchant only if it belongs to the partner: the tenant boundary lives in the WHERE clause. */
export async function findPartnerMerchant(sql: Sql, partnerId: string, id: string): Promise<Merchant | undefined> {
  const { rows } = await sql.query<MerchantRow>('SELECT * FROM merchants WHERE id = $1 AND partner_id = $2', [
    id,
    partnerId,
  ]);
  return rows[0] && toMerchant(rows[0]);
}

export async function countMerchants(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM merchants');
  return rows[0]!.n;
}

export interface PartnerMerchantFilter {
  partnerId: string;
  mccCode?: string;
  statusId?: number;
  createdFrom?: Date;
  createdTo?: Date;
  modifiedFrom?: Date;
  modifiedTo?: Date;
  lastTransactionFrom?: Date;
  lastTransactionTo?: Date;
}

export async function listPartnerMerchants(
  sql: Sql,
  filter: PartnerMerchantFilter,
  page: PageRequest,
): Promise<{ items: Merchant[]; total: number }> {
  const where = ['partner_id = $1'];
  const values: unknown[] = [filter.partnerId];
  const add = (clause: string, value: unknown) => {
    values.push(value);
    where.push(clause.replace('?', `$${values.length}`));
  };
  if (filter.mccCode !== undefined) add('mcc_code = ?', filter.mccCode);
  if (filter.statusId !== undefined) add('status_id = ?', filter.statusId);
  if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
  if (filter.createdTo) add('created_at <= ?', filter.createdTo);
  if (filter.modifiedFrom) add('modified_at >= ?', filter.modifiedFrom);
  if (filter.modifiedTo) add('modified_at <= ?', filter.modifiedTo);
  if (filter.lastTransactionFrom) add('last_transaction_at >= ?', filter.lastTransactionFrom);
  if (filter.lastTransactionTo) add('last_transaction_at <= ?', filter.lastTransactionTo);
  if (page.search) {
    values.push(likePattern(page.search));
    const p = `$${values.length}`;
    where.push(
      `(company_name ILIKE ${p} OR legal_name ILIKE ${p} OR email ILIKE ${p} OR mcc_code ILIKE ${p} OR id::text ILIKE ${p})`,
    );
  }
  const whereSql = where.join(' AND ');
  const [count, list] = await Promise.all([
    sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchants WHERE ${whereSql}`, values),
    sql.query<MerchantRow>(
      `SELECT * FROM merchants WHERE ${whereSql} ${page.orderSql} LIMIT ${page.limit} OFFSET ${page.offset}`,
      values,
    ),
  ]);
  return { items: list.rows.map(toMerchant), total: count.rows[0]!.n };
}

/** The newest merchants of the deployment (the operator's console); `search` as the partner list's. */
export async function listAllMerchants(sql: Sql, search: string | undefined, limit: number): Promise<Merchant[]> {
  const values: unknown[] = [limit];
  let where = 'true';
  if (search) {
    values.push(likePattern(search));
    where = '(company_name ILIKE $2 OR legal_name ILIKE $2 OR email ILIKE $2 OR id::text ILIKE $2)';
  }
  const { rows } = await sql.query<MerchantRow>(
    `SELECT * FROM merchants WHERE ${where} ORDER BY created_at DESC, id LIMIT $1`,
    values,
  );
  return rows.map(toMerchant);
}

interface ProcessorRow {
  id: string;
  merchant_id: string;
  method: 'card' | 'ach';
  name: string;
  type_id: number;
  type_name: string;
  connector: string;
  is_default: boolean;
  status_id: number;
  settlement_time_slots: SettlementTimeSlot[];
  created_at: Date;
}

/** How processors are listed everywhere: card before ACH, the default first, then oldest first. */
function byDisplayOrder(a: ProcessorRow, b: ProcessorRow): number {
  return (
    Number(a.method !== 'card') - Number(b.method !== 'card') ||
    Number(b.is_default) - Number(a.is_default) ||
    a.created_at.getTime() - b.created_at.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function toProcessor(row: ProcessorRow): PaymentProcessor {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    method: row.method,
    name: row.name,
    typeId: row.type_id,
    typeName: row.type_name,
    connector: row.connector,
    isDefault: row.is_default,
    statusId: row.status_id,
    settlementTimeSlots: row.settlement_time_slots,
  };
}

export async function insertProcessor(
  sql: Sql,
  processor: PaymentProcessor,
  now: Date,
  settings: Record<string, unknown> = {},
): Promise<void> {
  await sql.query(
    `INSERT INTO payment_processors (id, merchant_id, method, name, type_id, type_name, connector, is_default, status_id,
       settlement_time_slots, settings, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      processor.id,
      processor.merchantId,
      processor.method,
      processor.name,
      processor.typeId,
      processor.typeName,
      processor.connector,
      processor.isDefault,
      processor.statusId,
      JSON.stringify(processor.settlementTimeSlots),
      JSON.stringify(settings),
      now,
    ],
  );
}

/** One processor of the merchant with its settings, locked for a change; undefined when the merchant has no such one. */
export async function lockProcessor(
  sql: Sql,
  merchantId: string,
  processorId: string,
): Promise<(PaymentProcessor & { settings: Record<string, unknown> }) | undefined> {
  const { rows } = await sql.query<ProcessorRow & { settings: Record<string, unknown> }>(
    'SELECT * FROM payment_processors WHERE id = $1 AND merchant_id = $2 FOR UPDATE',
    [processorId, merchantId],
  );
  return rows[0] ? { ...toProcessor(rows[0]), settings: rows[0].settings ?? {} } : undefined;
}

/** Saves what the operator may change of a processor: name, default, status, time slots, settings. */
export async function saveProcessor(
  sql: Sql,
  processor: PaymentProcessor,
  settings: Record<string, unknown>,
): Promise<void> {
  await sql.query(
    `UPDATE payment_processors SET name = $3, is_default = $4, status_id = $5, settlement_time_slots = $6, settings = $7
     WHERE id = $1 AND merchant_id = $2`,
    [
      processor.id,
      processor.merchantId,
      processor.name,
      processor.isDefault,
      processor.statusId,
      JSON.stringify(processor.settlementTimeSlots),
      JSON.stringify(settings),
    ],
  );
}

/** Makes none of the merchant's processors of `method` the default (before another one becomes it). */
export async function clearDefaultProcessor(
  sql: Sql,
  merchantId: string,
  method: PaymentProcessor['method'],
): Promise<void> {
  await sql.query(
    'UPDATE payment_processors SET is_default = false WHERE merchant_id = $1 AND method = $2 AND is_default',
    [merchantId, method],
  );
}

/** The merchant's processors with their settings, in display order. */
export async function listProcessorsWithSettings(
  sql: Sql,
  merchantId: string,
): Promise<Array<PaymentProcessor & { settings: Record<string, unknown> }>> {
  const { rows } = await sql.query<ProcessorRow & { settings: Record<string, unknown> }>(
    'SELECT * FROM payment_processors WHERE merchant_id = $1',
    [merchantId],
  );
  return rows.sort(byDisplayOrder).map((row) => ({ ...toProcessor(row), settings: row.settings ?? {} }));
}

/** One processor with its method-specific settings (an ACH processor's cutoff windows and bank details). */
export async function findProcessorWithSettings(
  sql: Sql,
  processorId: string,
): Promise<(PaymentProcessor & { settings: Record<string, unknown> }) | undefined> {
  const { rows } = await sql.query<ProcessorRow & { settings: Record<string, unknown> }>(
    // Jobs and batches name only the processor (which belongs to one merchant).
    'SELECT /* across merchants: found by processor id */ * FROM payment_processors WHERE id = $1',
    [processorId],
  );
  return rows[0] ? { ...toProcessor(rows[0]), settings: rows[0].settings ?? {} } : undefined;
}

/** Every processor of a connector, of any merchant (a bank connection's members): active ones first, then by id. */
export async function findProcessorsWithConnector(
  sql: Sql,
  connector: string,
): Promise<Array<PaymentProcessor & { settings: Record<string, unknown> }>> {
  const { rows } = await sql.query<ProcessorRow & { settings: Record<string, unknown> }>(
    `SELECT /* across merchants: a bank connection's processors */ * FROM payment_processors
     WHERE connector = $1 ORDER BY status_id <> ${ProcessorStatus.Active}, id`,
    [connector],
  );
  return rows.map((row) => ({ ...toProcessor(row), settings: row.settings ?? {} }));
}

/** The merchant's L2/L3 autofill settings, its row locked until the transaction ends; undefined: no such merchant. */
export async function lockTransactionAutofill(
  sql: Sql,
  merchantId: string,
): Promise<TransactionAutofill | null | undefined> {
  const { rows } = await sql.query<{ transaction_autofill: TransactionAutofill | null }>(
    'SELECT transaction_autofill FROM merchants WHERE id = $1 FOR UPDATE',
    [merchantId],
  );
  return rows[0]?.transaction_autofill;
}

/** Replaces the merchant's L2/L3 autofill settings; false when there is no such merchant. */
export async function saveTransactionAutofill(
  sql: Sql,
  merchantId: string,
  autofill: TransactionAutofill | null,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    'UPDATE merchants SET transaction_autofill = $2, modified_at = $3 WHERE id = $1',
    [merchantId, autofill === null ? null : JSON.stringify(autofill), now],
  );
  return rowCount === 1;
}

/** Replaces one method's settings of a processor (and its time slots); answers the merchant it belongs to. */
export async function saveProcessorSettings(
  sql: Sql,
  processorId: string,
  method: PaymentProcessor['method'],
  settings: unknown,
  timeSlots: PaymentProcessor['settlementTimeSlots'],
): Promise<string | undefined> {
  const { rows } = await sql.query<{ merchant_id: string }>(
    `UPDATE /* across merchants: the operator names the processor */ payment_processors
     SET settings = jsonb_set(settings, ARRAY[$2::text], $3::jsonb), settlement_time_slots = $4
     WHERE id = $1 AND method = $2 RETURNING merchant_id`,
    [processorId, method, JSON.stringify(settings), JSON.stringify(timeSlots)],
  );
  return rows[0]?.merchant_id;
}

export async function listProcessors(sql: Sql, merchantId: string): Promise<PaymentProcessor[]> {
  const { rows } = await sql.query<ProcessorRow>('SELECT * FROM payment_processors WHERE merchant_id = $1', [
    merchantId,
  ]);
  return rows.sort(byDisplayOrder).map(toProcessor);
}

interface ContactRow {
  id: string;
  address_name: string;
  is_main: boolean;
  is_default: boolean;
  line1: string | null;
  line2: string | null;
  city: string | null;
  state_id: number | null;
  postal_code: string | null;
  country_id: number;
  email: string | null;
  phone: string | null;
}

export async function listContacts(sql: Sql, merchantId: string): Promise<MerchantContact[]> {
  // Prepared (every POS sale's receipt reads it), so its columns are named: a prepared `*` breaks on a new column.
  const { rows } = await sql.query<ContactRow>({
    name: 'merchants.contacts',
    text: `SELECT id, address_name, is_main, is_default, line1, line2, city, state_id, postal_code, country_id, email,
             phone
           FROM merchant_addresses WHERE merchant_id = $1 ORDER BY is_main DESC, created_at, id`,
    values: [merchantId],
  });
  return rows.map((row) => ({
    id: row.id,
    addressName: row.address_name,
    isMain: row.is_main,
    isDefault: row.is_default,
    address: {
      line1: row.line1,
      line2: row.line2,
      city: row.city,
      postalCode: row.postal_code,
      stateId: row.state_id,
      countryId: row.country_id,
    },
    email: row.email,
    phone: row.phone,
  }));
}

/** Creates or replaces the merchant's main contact (its business address, email and phone). */
export async function upsertMainContact(
  sql: Sql,
  contact: {
    id: string;
    merchantId: string;
    address: Address | null;
    email: string | null;
    phone: string | null;
    now: Date;
  },
): Promise<void> {
  const a = contact.address;
  await sql.query(
    `INSERT INTO merchant_addresses (id, merchant_id, address_name, is_main, is_default, line1, line2, city, state_id,
       postal_code, country_id, email, phone, created_at)
     VALUES ($1, $2, 'Main', true, true, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (merchant_id) WHERE is_main DO UPDATE SET line1 = EXCLUDED.line1, line2 = EXCLUDED.line2,
       city = EXCLUDED.city, state_id = EXCLUDED.state_id, postal_code = EXCLUDED.postal_code,
       country_id = EXCLUDED.country_id, email = EXCLUDED.email, phone = EXCLUDED.phone`,
    [
      contact.id,
      contact.merchantId,
      a?.line1 ?? null,
      a?.line2 ?? null,
      a?.city ?? null,
      a?.stateId ?? null,
      a?.postalCode ?? null,
      a?.countryId ?? 1,
      contact.email,
      contact.phone,
      contact.now,
    ],
  );
}
