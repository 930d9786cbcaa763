import { createHash } from 'node:crypto';
import { type ParsedFile, parseNacha } from '../../../connectors/ach/nacha.js';
import { returnReason } from '../../../connectors/ach/return-codes.js';
import { newId } from '../../../platform/crypto/ids.js';
import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import { lines } from '../../ledger/ledger.js';
import { TX_COLUMNS, toTransaction } from '../transactions.repo.js';
import { AchStatus } from './ach.model.js';
import type { AchContext } from './ach-context.js';
import { clearFile, clearSettledFile } from './clear.js';
import { settleFileBatch } from './settle-file.js';

/**
 * Returns are due: the file's entries clear first if they have not yet, the bank's return files are imported,
 * and the file's batch is Settled once every entry is final.
 */
export async function collectReturns(ctx: AchContext, fileId: string): Promise<void> {
  const file = await ctx.fileRow(fileId);
  if (!file) return;
  await clearSettledFile(ctx, file);
  if (file.bank_file_id) {
    // A bank connection's returns arrive in its drop box and are imported as they come (exchange/collect.ts).
    await settleFileBatch(ctx, fileId);
    return;
  }
  const configuration = await ctx.deps.merchants.getConfiguration(file.merchant_id);
  const processor = configuration.processors.find((p) => p.id === file.processor_id)!;
  const connector = ctx.deps.connector(processor.connector);
  const files = await connector.returnFiles(file.processor_id);
  for (const returned of files) await importReturnFile(ctx, file.processor_id, returned.content, returned.id);
  if (files.length > 0)
    await connector.acknowledge(
      file.processor_id,
      files.map((f) => f.id),
    );
  await settleFileBatch(ctx, fileId);
}

/**
 * Imports a NACHA return file: return entries (addenda 99) charge their entries back and reverse their money;
 * notifications of change (addenda 98) correct the vaulted account. The path a bank's file takes, and an
 * operator's upload. Importing the same file twice changes nothing.
 */
export async function importReturnFile(ctx: AchContext, processorId: string, content: string, externalId?: string) {
  let parsed: ParsedFile;
  try {
    parsed = parseNacha(content);
  } catch (error) {
    throw ValidationError.field('file', `Not a valid NACHA file: ${(error as Error).message}`);
  }
  const processor = await ctx.deps.merchants.processorWithSettings(processorId);
  if (processor?.method !== 'ach') throw new NotFoundError('PaymentProcessor', processorId);
  const merchantId = processor.merchantId;
  const external = externalId ?? createHash('sha256').update(content).digest('hex');
  const summary = { returns: 0, notificationsOfChange: 0, unmatched: [] as string[], alreadyApplied: 0 };
  const importId = newId();
  const now = ctx.clock.now();
  const applied = await withTransaction(ctx.deps.pool, async (tx) => {
    const fileKey = await ctx.deps.vault.dataKeys.current(merchantId, tx);
    // The parser has checked the file control's totals against the entries: they are the file's totals.
    const { totalDebitCents, totalCreditCents } = parsed.control;
    const count = parsed.batches.reduce((sum, batch) => sum + batch.entries.length, 0);
    const inserted = await tx.query(
      `INSERT INTO ach_files (id, merchant_id, processor_id, direction, window_at, created_at, entry_count,
         total_debit_cents, total_credit_cents, external_id)
       VALUES ($1, $2, $3, 'return', $4, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [
        importId,
        merchantId,
        processorId,
        now,
        count,
        totalDebitCents.toString(),
        totalCreditCents.toString(),
        external,
      ],
    );
    if (inserted.rowCount === 0) return false;
    await ctx.files.writer(tx, importId, fileKey).append(content);
    for (const batch of parsed.batches) {
      for (const entry of batch.entries) {
        for (const addenda of entry.addenda) {
          if (addenda.type === '99') {
            const result = await applyReturn(
              ctx,
              tx,
              merchantId,
              processorId,
              addenda.originalTraceNumber,
              addenda.returnReasonCode,
              returnReason(addenda.returnReasonCode, addenda.information),
            );
            if (result === 'applied') summary.returns++;
            else if (result === 'already') summary.alreadyApplied++;
            else summary.unmatched.push(addenda.originalTraceNumber);
          } else if (addenda.type === '98') {
            const ok = await applyChange(
              ctx,
              tx,
              merchantId,
              processorId,
              addenda.originalTraceNumber,
              addenda.changeCode,
              addenda.correctedData,
            );
            if (ok) summary.notificationsOfChange++;
            else summary.unmatched.push(addenda.originalTraceNumber);
          }
        }
      }
    }
    await tx.query('UPDATE ach_files SET import_summary = $2 WHERE merchant_id = $3 AND id = $1', [
      importId,
      summary,
      merchantId,
    ]);
    return true;
  });
  if (!applied) {
    const { rows } = await ctx.deps.pool.query<{ id: string; import_summary: typeof summary }>(
      'SELECT id, import_summary FROM ach_files WHERE merchant_id = $3 AND processor_id = $1 AND external_id = $2',
      [processorId, external, merchantId],
    );
    return { fileId: rows[0]!.id, duplicate: true, ...rows[0]!.import_summary };
  }
  return { fileId: importId, duplicate: false, ...summary };
}

/**
 * The transaction a returned trace number names, locked ($1 processor, $2 trace, $3 merchant): the entry behind a
 * fence, then its transaction by primary key (ach-cutoff.ts says why).
 */
export const RETURN_ENTRY_SQL = `WITH a AS MATERIALIZED (
       SELECT transaction_id, merchant_id, file_id FROM ach_entries
       WHERE merchant_id = $3 AND processor_id = $1 AND trace_number = $2)
     SELECT t.id, t.status_id, a.file_id
     FROM a JOIN transactions t ON t.id = a.transaction_id AND t.merchant_id = a.merchant_id
     ORDER BY t.created_at DESC LIMIT 1 FOR UPDATE OF t`;

export async function applyReturn(
  ctx: AchContext,
  tx: Tx,
  merchantId: string,
  processorId: string,
  trace: string,
  code: string,
  reason: string,
): Promise<'applied' | 'already' | 'unmatched'> {
  const { rows } = await tx.query(RETURN_ENTRY_SQL, [processorId, trace, merchantId]);
  const found = rows[0];
  if (!found) return 'unmatched';
  if (found.status_id === AchStatus.ChargedBack) return 'already';
  // A return can overtake the clearing job after a jump of the clock: the entry clears first, then returns.
  if (found.status_id === AchStatus.InProgress) await clearFile(ctx, found.file_id, tx, merchantId);
  const now = ctx.clock.now();
  const updated = await tx.query(
    // Returned before its batch settled, the entry moved nothing; returned later (a late return, imported by hand),
    // the settled batch keeps what it paid out and the reversal is the merchant's debt (merchant_payable).
    `UPDATE transactions t SET status_id = ${AchStatus.ChargedBack},
       captured_cents = CASE WHEN t.settled_at IS NULL THEN 0 ELSE t.captured_cents END,
       -- A refunded debit can still come back (the return window outlives clearing): its refund was its own entry
       -- and stays paid; the original, having collected nothing, has nothing left to refund against.
       refunded_cents = CASE WHEN t.settled_at IS NULL THEN 0 ELSE t.refunded_cents END, modified_at = $2,
       response_code = $3, details_message = $4
     FROM (SELECT o.id, o.captured_cents, a.is_debit
           FROM transactions o JOIN ach_entries a ON a.merchant_id = o.merchant_id AND a.transaction_id = o.id
           WHERE o.merchant_id = $5 AND o.id = $1) old
     WHERE t.merchant_id = $5 AND t.id = old.id AND t.status_id IN (${AchStatus.Cleared}, ${AchStatus.Refunded})
     RETURNING ${TX_COLUMNS}, old.is_debit, old.captured_cents AS was_captured`,
    [found.id, now, code, `Returned: ${code} ${reason}`.trim(), merchantId],
  );
  if (!updated.rows[0]) return 'unmatched';
  const row = updated.rows[0];
  const t = toTransaction(row);
  await tx.query(
    `UPDATE ach_entries SET return_code = $2, return_reason = $3, returned_at = $4
     WHERE merchant_id = $5 AND transaction_id = $1`,
    [found.id, code, reason || null, now, merchantId],
  );
  const amount = Number(row.was_captured);
  await ctx.deps.ledger.post(tx, {
    merchantId: t.merchantId,
    kind: 'ach_return',
    transactionId: t.id,
    batchId: t.batchId,
    lines: row.is_debit ? lines.reverseCapture(amount) : lines.capture(amount),
  });
  ctx.event(tx, 'transaction.ach.charged_back', t, { returnCode: code, returnReason: reason || null });
  await ctx.deps.sources.achReturned(tx, t);
  return 'applied';
}

export async function applyChange(
  ctx: AchContext,
  tx: Tx,
  merchantId: string,
  processorId: string,
  trace: string,
  code: string,
  corrected: string,
): Promise<boolean> {
  const { rows } = await tx.query<{ transaction_id: string; payment_method_id: string | null }>(
    `UPDATE ach_entries a SET change_code = $3, corrected_data = $4
     FROM transactions t
     WHERE a.merchant_id = $5 AND t.merchant_id = $5 AND t.id = a.transaction_id AND a.processor_id = $1
       AND a.trace_number = $2
     RETURNING a.transaction_id, t.payment_method_id`,
    [processorId, trace, code, corrected, merchantId],
  );
  const row = rows[0];
  if (!row) return false;
  if (row.payment_method_id) {
    const value = corrected.trim();
    // C01 account number, C02 routing number, C03 both ("routing account"), C05 transaction code (account type).
    const change =
      code === 'C01'
        ? { accountNumber: value }
        : code === 'C02'
          ? { routingNumber: value.slice(0, 9) }
          : code === 'C03'
            ? { routingNumber: value.slice(0, 9), accountNumber: value.slice(9).trim() }
            : code === 'C05'
              ? { accountTypeId: Number(value.slice(0, 2)) >= 30 ? 2 : 1 }
              : null;
    if (change) await ctx.deps.vault.correctBankAccount(merchantId, row.payment_method_id, change, tx);
  }
  return true;
}
