import { NotFoundError } from '../../../platform/http/errors.js';
import type { PageRequest } from '../../../platform/http/paging.js';
import type { AchEntry } from './ach.model.js';
import type { AchContext } from './ach-context.js';

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
         total_credit_cents, submitted_at, settles_at, returns_due_at, import_summary
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
