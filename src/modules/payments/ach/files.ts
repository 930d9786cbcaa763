import { NotFoundError } from '../../../platform/http/errors.js';
import type { PageRequest } from '../../../platform/http/paging.js';
import type { AchEntry } from './ach.model.js';
import type { AchContext } from './ach-context.js';
import { sha256 } from './exchange/bank-file-store.js';

/** AchEntry fields and their ach_entries columns: one list drives the SELECT and the mapping. */
const ENTRY_FIELDS: ReadonlyArray<readonly [keyof AchEntry, string]> = [
  ['transactionId', 'transaction_id'],
  ['merchantId', 'merchant_id'],
  ['processorId', 'processor_id'],
  ['secCode', 'sec_code'],
  ['isDebit', 'is_debit'],
  ['routingNumber', 'routing_number'],
  ['accountMask', 'account_mask'],
  ['accountTypeId', 'account_type_id'],
  ['accountHolderTypeId', 'account_holder_type_id'],
  ['receiverName', 'receiver_name'],
  ['companyName', 'company_name'],
  ['taxId', 'tax_id'],
  ['requesterIp', 'requester_ip'],
  ['isFasterProcessing', 'is_faster_processing'],
  ['windowAt', 'window_at'],
  ['fileId', 'file_id'],
  ['traceNumber', 'trace_number'],
  ['effectiveDate', 'effective_date'],
  ['returnCode', 'return_code'],
  ['returnReason', 'return_reason'],
  ['returnedAt', 'returned_at'],
  ['changeCode', 'change_code'],
  ['correctedData', 'corrected_data'],
  ['failureReason', 'failure_reason'],
];
const ENTRY_COLUMNS = ENTRY_FIELDS.map(([, column]) =>
  column === 'effective_date' ? 'a.effective_date::text' : `a.${column}`,
).join(', ');

function toEntry(row: Record<string, unknown>): AchEntry {
  return Object.fromEntries(ENTRY_FIELDS.map(([field, column]) => [field, row[column]])) as unknown as AchEntry;
}

export async function entries(
  ctx: AchContext,
  merchantId: string,
  ids: readonly string[],
): Promise<Map<string, AchEntry>> {
  if (ids.length === 0) return new Map();
  const { rows } = await ctx.deps.pool.query(
    `SELECT ${ENTRY_COLUMNS} FROM ach_entries a WHERE a.merchant_id = $1 AND a.transaction_id = ANY($2::uuid[])`,
    [merchantId, ids],
  );
  return new Map(rows.map((row) => [row.transaction_id as string, toEntry(row)]));
}

export async function listFiles(
  ctx: AchContext,
  filter: { merchantId?: string; processorId?: string },
  page: PageRequest,
) {
  const where: string[] = [];
  const values: unknown[] = [];
  if (filter.merchantId) {
    values.push(filter.merchantId);
    where.push(`merchant_id = $${values.length}`);
  }
  if (filter.processorId) {
    values.push(filter.processorId);
    where.push(`processor_id = $${values.length}`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const [{ rows }, count] = await Promise.all([
    ctx.deps.pool.query(
      `SELECT /* across merchants: the operator's list */ id, merchant_id, processor_id, direction, window_at,
         created_at, entry_count, total_debit_cents,
         total_credit_cents, submitted_at, settles_at, returns_due_at, import_summary, bank_file_id, withdrawn_at,
         (SELECT b.remote_name FROM ach_bank_files b WHERE b.id = ach_files.bank_file_id) AS remote_name
       FROM ach_files ${clause} ${page.orderSql} LIMIT ${page.limit} OFFSET ${page.offset}`,
      values,
    ),
    ctx.deps.pool.query<{ n: number }>(
      `SELECT /* across merchants: the operator's list */ count(*)::int AS n FROM ach_files ${clause}`,
      values,
    ),
  ]);
  return { items: rows, total: count.rows[0]!.n };
}

/** An operator's download: the file part by part. */
export async function fileParts(ctx: AchContext, id: string): Promise<AsyncIterable<string>> {
  const file = await ctx.fileRow(id);
  if (!file) throw new NotFoundError('AchFile', id);
  return ctx.files.read(file.merchant_id, id);
}

export const BANK_FILE_COLUMNS = `id, connection_key, processor_id, direction, state, kind, window_at, remote_name,
  size_bytes, sha256, file_id_modifier, entry_count, total_debit_cents, total_credit_cents, created_at, sent_at,
  answered_at, answer, attempts, last_error, alert, alerted_at, answers_file_id, import_summary`;

/** The files exchanged with banks over SFTP, newest first: the audit trail. */
export async function listBankFiles(
  ctx: AchContext,
  filter: { direction?: 'outbound' | 'inbound'; state?: string },
  page: PageRequest,
) {
  const where: string[] = [];
  const values: unknown[] = [];
  if (filter.direction) {
    values.push(filter.direction);
    where.push(`direction = $${values.length}`);
  }
  if (filter.state) {
    values.push(filter.state);
    where.push(`state = $${values.length}`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const [{ rows }, count] = await Promise.all([
    ctx.deps.pool.query(
      `SELECT ${BANK_FILE_COLUMNS} FROM ach_bank_files ${clause} ${page.orderSql} LIMIT ${page.limit} OFFSET ${page.offset}`,
      values,
    ),
    ctx.deps.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ach_bank_files ${clause}`, values),
  ]);
  return { items: rows, total: count.rows[0]!.n };
}

/** A bank file exactly as sent or received (opened from its seal; checked against its SHA-256). */
export async function bankFileContent(ctx: AchContext, id: string): Promise<{ name: string; content: Buffer }> {
  const { rows } = await ctx.deps.pool.query<{ remote_name: string; content_sealed: Buffer; sha256: string }>(
    'SELECT remote_name, content_sealed, sha256 FROM ach_bank_files WHERE id = $1',
    [id],
  );
  if (!rows[0]) throw new NotFoundError('AchBankFile', id);
  const content = await ctx.bankFiles.open(id, rows[0].content_sealed);
  if (sha256(content) !== rows[0].sha256) throw new Error(`The stored bank file ${id} does not match its SHA-256`);
  return { name: rows[0].remote_name, content };
}
