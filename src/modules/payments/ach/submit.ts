import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import { TX_COLUMNS, toTransaction } from '../transactions.repo.js';
import { AchStatus } from './ach.model.js';
import type { AchContext } from './ach-context.js';

/** Sends a file to the bank (idempotent per file); entries the bank refuses fail. */
export async function submitFile(ctx: AchContext, fileId: string): Promise<void> {
  const file = await ctx.fileRow(fileId);
  // A bank connection's file goes out with its connection's (exchange/deliver.ts), not on its own.
  if (!file || file.submitted_at || file.bank_file_id) return;
  const configuration = await ctx.deps.merchants.getConfiguration(file.merchant_id);
  const processor = configuration.processors.find((p) => p.id === file.processor_id)!;
  const answer = await ctx.deps.connector(processor.connector).submit({
    processorId: file.processor_id,
    fileId,
    content: await ctx.files.text(file.merchant_id, fileId),
  });
  await withTransaction(ctx.deps.pool, async (tx) => {
    const updated = await tx.query(
      'UPDATE ach_files SET submitted_at = $2 WHERE merchant_id = $3 AND id = $1 AND submitted_at IS NULL',
      [fileId, ctx.clock.now(), file.merchant_id],
    );
    if (updated.rowCount === 0) return;
    const refusals = answer.fileRejected
      ? (
          await tx.query<{ trace_number: string }>(
            'SELECT trace_number FROM ach_entries WHERE merchant_id = $2 AND file_id = $1',
            [fileId, file.merchant_id],
          )
        ).rows.map((row) => ({ traceNumber: row.trace_number, reason: `File rejected: ${answer.fileRejected}` }))
      : answer.rejected;
    if (refusals.length === 0) return;
    await failEntries(ctx, tx, fileId, file.merchant_id, refusals);
  });
}

/** Entries the bank refused (by trace number) fail with its reason, if they are still In progress. */
export async function failEntries(
  ctx: AchContext,
  tx: Tx,
  fileId: string,
  merchantId: string,
  refusals: ReadonlyArray<{ traceNumber: string; reason: string }>,
): Promise<number> {
  const { rows } = await tx.query(
    `WITH refused AS (
         UPDATE ach_entries a SET failure_reason = v.reason
         FROM unnest($2::text[], $3::text[]) AS v(trace, reason)
         WHERE a.merchant_id = $5 AND a.file_id = $1 AND a.trace_number = v.trace RETURNING a.transaction_id, v.reason
       )
       UPDATE transactions t SET status_id = ${AchStatus.Failed}, modified_at = $4, details_message = r.reason,
         response_code = 'E01'
       FROM refused r WHERE t.merchant_id = $5 AND t.id = r.transaction_id AND t.status_id = ${AchStatus.InProgress}
       RETURNING ${TX_COLUMNS}`,
    [fileId, refusals.map((r) => r.traceNumber), refusals.map((r) => r.reason), ctx.clock.now(), merchantId],
  );
  for (const row of rows) ctx.event(tx, 'transaction.ach.failed', toTransaction(row));
  return rows.length;
}
