import type { QueryConfig } from 'pg';
import type { Sql } from '../../platform/db/pool.js';
import { BatchStatus } from '../settlements/settlements.model.js';
import { type Transaction, TransactionStatus } from './transactions.model.js';

/** Model field ↔ column, in one place: the insert, the update and the reads are all generated from it. */
const FIELDS: ReadonlyArray<readonly [keyof Transaction, string]> = [
  ['id', 'id'],
  ['merchantId', 'merchant_id'],
  ['processorId', 'processor_id'],
  ['method', 'method'],
  ['typeId', 'type_id'],
  ['statusId', 'status_id'],
  ['originalTransactionId', 'original_transaction_id'],
  ['customerId', 'customer_id'],
  ['paymentMethodId', 'payment_method_id'],
  ['createMethodId', 'create_method_id'],
  ['sourceId', 'source_id'],
  ['idempotencyId', 'idempotency_id'],
  ['cardDataSourceId', 'card_data_source_id'],
  ['referenceId', 'reference_id'],
  ['customerInitiated', 'customer_initiated'],
  ['currencyId', 'currency_id'],
  ['baseCents', 'base_cents'],
  ['percentageOffCents', 'percentage_off_cents'],
  ['percentageOffRateMpct', 'percentage_off_rate_mpct'],
  ['cashDiscountCents', 'cash_discount_cents'],
  ['cashDiscountRateMpct', 'cash_discount_rate_mpct'],
  ['surchargeCents', 'surcharge_cents'],
  ['surchargeRateMpct', 'surcharge_rate_mpct'],
  ['tipCents', 'tip_cents'],
  ['tipRateMpct', 'tip_rate_mpct'],
  ['taxCents', 'tax_cents'],
  ['taxRateMpct', 'tax_rate_mpct'],
  ['totalCents', 'total_cents'],
  ['authorizedCents', 'authorized_cents'],
  ['capturedCents', 'captured_cents'],
  ['refundedCents', 'refunded_cents'],
  ['panMask', 'pan_mask'],
  ['cardTypeId', 'card_type_id'],
  ['creditDebitTypeId', 'credit_debit_type_id'],
  ['cardTokenTypeId', 'card_token_type_id'],
  ['cardFingerprint', 'card_fingerprint'],
  ['duplicateKey', 'duplicate_key'],
  ['expirationMonth', 'expiration_month'],
  ['expirationYear', 'expiration_year'],
  ['billingAddress', 'billing_address'],
  ['shippingAddress', 'shipping_address'],
  ['contactInfo', 'contact_info'],
  ['avsResponse', 'avs_response'],
  ['resultCode', 'result_code'],
  ['responseCode', 'response_code'],
  ['responseMessage', 'response_message'],
  ['authCode', 'auth_code'],
  ['networkReference', 'network_reference'],
  ['pendingOperation', 'pending_operation'],
  ['batchId', 'batch_id'],
  ['detailsMessage', 'details_message'],
  ['enhancedData', 'enhanced_data'],
  ['createdAt', 'created_at'],
  ['modifiedAt', 'modified_at'],
  ['capturedAt', 'captured_at'],
  ['voidedAt', 'voided_at'],
  ['settledAt', 'settled_at'],
];
const JSON_FIELDS = new Set([
  'billingAddress',
  'shippingAddress',
  'contactInfo',
  'avsResponse',
  'pendingOperation',
  'enhancedData',
]);
/** Fields that never change after the insert. */
const IMMUTABLE = new Set([
  'id',
  'merchantId',
  'processorId',
  'method',
  'typeId',
  'originalTransactionId',
  'sourceId',
  'idempotencyId',
  'enhancedData',
  'createdAt',
]);

export const TX_COLUMNS = FIELDS.map(([, column]) => `t.${column}`).join(', ');
const COLUMNS = FIELDS.map(([, c]) => c).join(', ');
const INSERT_SQL = `INSERT INTO transactions (${COLUMNS})
  VALUES (${FIELDS.map((_, i) => `$${i + 1}`).join(', ')})`;
const MUTABLE = FIELDS.filter(([field]) => !IMMUTABLE.has(field));
const UPDATE_SQL = `UPDATE transactions SET ${MUTABLE.map(([, c], i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`;
const SAVE_IF_PENDING_SQL = `WITH input AS (
    SELECT r.*, x.reference
      FROM json_populate_recordset(NULL::transactions, $1::json) WITH ORDINALITY AS r
      JOIN unnest($2::text[]) WITH ORDINALITY AS x(reference, n) ON x.n = r.ordinality
  ), updated AS (
    UPDATE transactions t SET (${MUTABLE.map(([, c]) => c).join(', ')}) = (${MUTABLE.map(([, c]) => `i.${c}`).join(', ')})
      FROM input i
     WHERE t.id = i.id AND t.status_id = ${TransactionStatus.Pending} AND t.pending_operation->>'reference' = i.reference
       -- A processor's notification noted on the row meanwhile: applied the slow way, under the lock, keeping it.
       AND NOT (t.pending_operation ?| array['authorisation', 'resolving'])
       AND (i.batch_id IS NULL OR EXISTS (
         SELECT 1 FROM batch_states b WHERE b.id = i.batch_id AND b.status_id = ${BatchStatus.Open}
           FOR KEY SHARE))
    RETURNING 1)
  SELECT expect((SELECT count(*) FROM updated) = $3, 'a transaction or its batch changed meanwhile')`;
/** New payments' inserts as one statement; a row whose duplicate key is taken is skipped (and not returned). */
const INSERT_UNLESS_DUPLICATE_SQL = `INSERT INTO transactions (${COLUMNS})
  SELECT ${COLUMNS} FROM json_populate_recordset(NULL::transactions, $1::json)
  ON CONFLICT (duplicate_key) WHERE duplicate_key IS NOT NULL DO NOTHING
  RETURNING id`;

function values(tx: Transaction, fields: ReadonlyArray<readonly [keyof Transaction, string]>): unknown[] {
  return fields.map(([field]) => {
    const value = tx[field];
    return JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value;
  });
}

const JSON_KEYS = FIELDS.map(([, column]) => `${JSON.stringify(column)}:`);

/**
 * Transactions as a json array of objects keyed by column, for json_populate_recordset (bytea as PostgreSQL's hex
 * text). Written as text: building a 60-key object per row first (Object.fromEntries makes a dictionary-mode object)
 * and stringifying it took two to three times as long per row, twice per sale.
 */
export function jsonRows(txns: readonly Transaction[]): string {
  let text = '[';
  for (let r = 0; r < txns.length; r++) {
    const tx = txns[r]!;
    text += r === 0 ? '{' : ',{';
    for (let i = 0; i < FIELDS.length; i++) {
      const json = jsonValue(tx[FIELDS[i]![0]]);
      text += i === 0 ? `${JSON_KEYS[i]}${json}` : `,${JSON_KEYS[i]}${json}`;
    }
    text += '}';
  }
  return `${text}]`;
}

/** A field as JSON: what JSON.stringify writes, without its general walk for the nulls and numbers most fields hold. */
function jsonValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'null' : `"${value.toISOString()}"`;
  if (Buffer.isBuffer(value)) return `"\\\\x${value.toString('hex')}"`;
  return JSON.stringify(value);
}

export function toTransaction(row: Record<string, unknown>): Transaction {
  return Object.fromEntries(FIELDS.map(([field, column]) => [field, row[column]])) as unknown as Transaction;
}

/** The statements as values, for a caller that pipelines them (`Tx.batch`, `Tx.defer`). */
export const transactionQueries = {
  insert: (tx: Transaction): QueryConfig => ({ name: 'tx.insert', text: INSERT_SQL, values: values(tx, FIELDS) }),
  save: (tx: Transaction): QueryConfig => ({
    name: 'tx.update',
    text: UPDATE_SQL,
    values: [tx.id, ...values(tx, MUTABLE)],
  }),
  /**
   * The updates of transactions not read under lock, as one compare-and-set statement: each applies only while its
   * row is still Pending with `reference` in flight and (when it joins a batch) that batch is still Open, whose row it
   * then holds KEY SHARE like joinOpenBatch. Unless every row applies, the statement fails with SQLSTATE TS409 (the
   * caller's transaction rolls back). The rows travel as one json parameter: per row, no statement, no parameters.
   */
  saveIfPending: (saves: ReadonlyArray<{ transaction: Transaction; reference: string }>): QueryConfig => ({
    name: 'tx.update-if-pending',
    text: SAVE_IF_PENDING_SQL,
    values: [jsonRows(saves.map((save) => save.transaction)), saves.map((save) => save.reference), saves.length],
  }),
  lockById: (id: string): QueryConfig => ({ name: 'tx.lock-by-id', text: `${BY_ID_SQL} FOR UPDATE`, values: [id] }),
};

const INSERT_UNLESS_CLAIMED_SQL = `${INSERT_SQL}
  ON CONFLICT (idempotency_id) WHERE idempotency_id IS NOT NULL DO NOTHING RETURNING id`;

/** Inserts `tx` unless a transaction holds its idempotency id already (false then: that one came first). */
export async function insertUnlessClaimed(sql: Sql, tx: Transaction): Promise<boolean> {
  const { rows } = await sql.query({
    name: 'tx.insert-unless-claimed',
    text: INSERT_UNLESS_CLAIMED_SQL,
    values: values(tx, FIELDS),
  });
  return rows.length === 1;
}

export async function insertTransaction(sql: Sql, tx: Transaction): Promise<void> {
  await sql.query(transactionQueries.insert(tx));
}

export async function saveTransaction(sql: Sql, tx: Transaction): Promise<void> {
  await sql.query(transactionQueries.save(tx));
}

const BY_ID_SQL = `SELECT /* across merchants: workers acting for the system, by an id from their own jobs */
   ${TX_COLUMNS} FROM transactions t WHERE t.id = $1`;
const FIND_SQL = `SELECT ${TX_COLUMNS} FROM transactions t WHERE t.id = $1 AND t.merchant_id = $2`;

/** Tenant-scoped read; `forUpdate` takes the row lock that guards every state transition. */
export async function findTransaction(
  sql: Sql,
  merchantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Transaction | undefined> {
  const { rows } = await sql.query(
    options.forUpdate
      ? { name: 'tx.find-for-update', text: `${FIND_SQL} FOR UPDATE`, values: [id, merchantId] }
      : { name: 'tx.find', text: FIND_SQL, values: [id, merchantId] },
  );
  return rows[0] ? toTransaction(rows[0]) : undefined;
}

/** Every transaction a hosted flow (a payment session) created, oldest first. */
export async function findBySource(sql: Sql, merchantId: string, sourceId: string): Promise<Transaction[]> {
  const { rows } = await sql.query({
    name: 'tx.find-by-source',
    text: `SELECT ${TX_COLUMNS} FROM transactions t WHERE t.merchant_id = $1 AND t.source_id = $2 ORDER BY t.created_at, t.id`,
    values: [merchantId, sourceId],
  });
  return rows.map(toTransaction);
}

/** The refunds made of these transactions (their own rows, pointing at the original), oldest first. */
export async function findRefundsOf(sql: Sql, merchantId: string, ids: readonly string[]): Promise<Transaction[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query({
    name: 'tx.find-refunds-of',
    text: `SELECT ${TX_COLUMNS} FROM transactions t
           WHERE t.merchant_id = $1 AND t.original_transaction_id = ANY($2::uuid[]) ORDER BY t.created_at, t.id`,
    values: [merchantId, ids],
  });
  return rows.map(toTransaction);
}

/** For workers acting on the system's behalf (reconciler, expiry): no tenant in scope, the id is from our own jobs. */
export async function findTransactionById(sql: Sql, id: string): Promise<Transaction | undefined> {
  const { rows } = await sql.query({ name: 'tx.find-by-id', text: BY_ID_SQL, values: [id] });
  return rows[0] ? toTransaction(rows[0]) : undefined;
}

/** Like findTransactionById, with the row lock that guards state transitions. */
export async function lockTransactionById(sql: Sql, id: string): Promise<Transaction | undefined> {
  const { rows } = await sql.query(transactionQueries.lockById(id));
  return rows[0] ? toTransaction(rows[0]) : undefined;
}

/**
 * The inserts of new sales and authorizations with their duplicate check, in one statement: the ids inserted; a
 * payment missing from them collided with another holding the same duplicate key (the unique index makes identical
 * requests racing each other, in one statement or in several, queue on the key, so at most one gets in). Rows go in
 * the order given: callers that may write the same keys concurrently sort them alike, so they cannot deadlock.
 */
export async function insertUnlessDuplicate(sql: Sql, txns: readonly Transaction[]): Promise<Set<string>> {
  const { rows } = await sql.query<{ id: string }>({
    name: 'tx.insert-unless-duplicate',
    text: INSERT_UNLESS_DUPLICATE_SQL,
    values: [jsonRows(txns)],
  });
  return new Set(rows.map((row) => row.id));
}

export interface DuplicateKeyHolder {
  id: string;
  statusId: number;
  createdAt: Date;
  idempotencyId: string | null;
}

export async function findDuplicateKeyHolder(
  sql: Sql,
  merchantId: string,
  key: Buffer,
): Promise<DuplicateKeyHolder | undefined> {
  const { rows } = await sql.query<{ id: string; status_id: number; created_at: Date; idempotency_id: string | null }>(
    'SELECT id, status_id, created_at, idempotency_id FROM transactions WHERE merchant_id = $2 AND duplicate_key = $1',
    [key, merchantId],
  );
  const row = rows[0];
  return row && { id: row.id, statusId: row.status_id, createdAt: row.created_at, idempotencyId: row.idempotency_id };
}

/** The transaction the request holding idempotency claim `claimId` created, if it got that far. */
export async function findByIdempotencyId(
  sql: Sql,
  merchantId: string,
  claimId: string,
): Promise<Transaction | undefined> {
  const { rows } = await sql.query({
    name: 'tx.find-by-idempotency-id',
    text: `SELECT ${TX_COLUMNS} FROM transactions t WHERE t.idempotency_id = $1 AND t.merchant_id = $2`,
    values: [claimId, merchantId],
  });
  return rows[0] ? toTransaction(rows[0]) : undefined;
}

/** The transactions made under any of these idempotency ids (a session's submissions for another source). */
export async function findByIdempotencyIds(sql: Sql, merchantId: string, ids: string[]): Promise<Transaction[]> {
  const { rows } = await sql.query({
    name: 'tx.find-by-idempotency-ids',
    text: `SELECT ${TX_COLUMNS} FROM transactions t WHERE t.idempotency_id = ANY($1::uuid[]) AND t.merchant_id = $2
           ORDER BY t.created_at, t.id`,
    values: [ids, merchantId],
  });
  return rows.map(toTransaction);
}

/** Whether `error` is the insert of a second transaction for one idempotency claim (a race with a dead node's). */
export function isIdempotencyIdTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'transactions_idempotency';
}

/** A holder past the window gives its key up; only if it still holds it (compare-and-set). */
export async function releaseDuplicateKey(sql: Sql, merchantId: string, id: string, key: Buffer): Promise<void> {
  await sql.query(
    'UPDATE transactions SET duplicate_key = NULL WHERE merchant_id = $3 AND id = $1 AND duplicate_key = $2',
    [id, key, merchantId],
  );
}
