import { remotePath } from '../../../../connectors/ach/bank-drop-box.js';
import { BANK_TIMEOUT_MS } from '../../../../connectors/registry.js';
import { type Tx, withTransaction } from '../../../../platform/db/tx.js';
import { crashPoint, isArmed } from '../../../../platform/faults/crash-points.js';
import { eventsInsert } from '../../../events/outbox.js';
import { type AchContext, achClearQueue, achCollectQueue, achReturnsQueue } from '../ach-context.js';
import { sha256 } from './bank-file-store.js';
import {
  type BankFileRow,
  type BankFileState,
  findBankFile,
  merchantFilesOf,
  moveBankFile,
} from './bank-files.repo.js';
import { rescheduleWindow, withdrawMerchantFile } from './reschedule.js';

const IN_FLIGHT = ['built', 'uploading', 'uploaded'] as const;

/**
 * Delivers a bank connection's file to the bank's drop box so that it can never arrive twice: it is written under
 * a hidden temporary name and only then renamed (atomically) to its final name, and each step is recorded before
 * the next. Whatever died in between, the next attempt looks at the server first:
 *
 * - recorded `uploaded` (the rename may have happened): the final name there → sent; only the temporary name →
 *   delete it and upload again; neither → the bank may have taken the file: an operator alert, never a resend;
 * - recorded `built` or `uploading` (no rename can have happened): any temporary file is deleted and the file is
 *   uploaded again.
 *
 * A failed attempt (connection refused, authentication, a full disk) is retried by the job with backoff until the
 * file's deadline (the window after its own); then, if no rename can have happened, its entries go back to
 * Scheduled for the next window and the operator is alerted.
 */
export async function deliverBankFile(ctx: AchContext, bankFileId: string): Promise<void> {
  const file = await findBankFile(ctx.deps.pool, bankFileId);
  if (!file || !IN_FLIGHT.includes(file.state as (typeof IN_FLIGHT)[number])) return;
  // Two workers never deliver one file at once (a job lease that lapsed under a live worker included): the file is
  // claimed for this node, until the exchange's deadline and a margin.
  const node = ctx.deps.nodeId?.() ?? 0;
  const claimSeconds = Math.ceil(BANK_TIMEOUT_MS / 1000) + 30;
  const claimed = await ctx.deps.pool.query(
    `UPDATE ach_bank_files SET delivering_node = $2, delivering_until = now() + make_interval(secs => $3)
     WHERE id = $1 AND (delivering_node IS NULL OR delivering_until < now() OR NOT tessera_node_alive(delivering_node))`,
    [bankFileId, node, claimSeconds],
  );
  if (claimed.rowCount === 0) throw new Error('Another worker is delivering this file');
  try {
    await deliverLocked(ctx, bankFileId);
  } finally {
    await ctx.deps.pool.query(
      'UPDATE ach_bank_files SET delivering_node = NULL, delivering_until = NULL WHERE id = $1 AND delivering_node = $2',
      [bankFileId, node],
    );
  }
}

async function deliverLocked(ctx: AchContext, bankFileId: string): Promise<void> {
  const file = await findBankFile(ctx.deps.pool, bankFileId);
  if (!file || !IN_FLIGHT.includes(file.state as (typeof IN_FLIGHT)[number])) return;
  const late = ctx.clock.now() >= file.deliver_until!;
  if (late && file.state !== 'uploaded') {
    // No rename was ever attempted: the bank cannot have the file. Its entries take the next window.
    await expire(ctx, file, `not delivered by its deadline (${file.last_error ?? 'no attempt succeeded'})`);
    return;
  }
  const processor = await ctx.deps.merchants.processorWithSettings(file.processor_id);
  try {
    await ctx.deps.withDropBox(processor!.connector, file.processor_id, async (session) => {
      const finalPath = remotePath(session.outboundDir, file.remote_name);
      const tempPath = remotePath(session.outboundDir, file.temp_name!);
      if (file.state === 'uploaded' || file.state === 'uploading') {
        if (await session.stat(finalPath)) return markSent(ctx, file);
        if (await session.stat(tempPath)) {
          // The rename did not happen. Recorded before the temporary file goes: a crash right after its removal
          // must not look like a rename the bank may have taken.
          await moveBankFile(ctx.deps.pool, file.id, ['uploaded'], 'uploading');
          await session.remove(tempPath);
        } else if (file.state === 'uploaded') {
          return alert(
            ctx,
            file,
            'Neither the final nor the temporary file is on the server after a rename that may have happened: ' +
              'the bank may have taken it. Not sent again: ask the bank, then resolve it ' +
              '(POST /admin/v1/ach/bank-files/{id}/resolve).',
          );
        }
      } else if (await session.stat(tempPath)) {
        await session.remove(tempPath);
      }
      if (late) {
        // Recorded `uploaded` but the temporary file was there: nothing reached the bank, and the deadline passed.
        return expire(ctx, { ...file, state: 'uploading' }, 'not delivered by its deadline');
      }
      const content = await ctx.bankFiles.open(file.id, file.content_sealed);
      if (sha256(content) !== file.sha256) throw new Error('The stored file does not match its SHA-256');
      await moveBankFile(ctx.deps.pool, file.id, IN_FLIGHT, 'uploading', {
        uploading_at: ctx.clock.now(),
        attempts: file.attempts + 1,
      });
      crashPoint('ach-deliver:before-upload');
      if (isArmed('ach-deliver:during-upload')) {
        await session.upload(tempPath, content.subarray(0, Math.floor(content.length / 2)));
        crashPoint('ach-deliver:during-upload');
      }
      await session.upload(tempPath, content);
      crashPoint('ach-deliver:after-upload');
      await moveBankFile(ctx.deps.pool, file.id, ['uploading'], 'uploaded', { uploaded_at: ctx.clock.now() });
      crashPoint('ach-deliver:before-rename');
      await session.rename(tempPath, finalPath);
      crashPoint('ach-deliver:after-rename');
      await markSent(ctx, file);
    });
  } catch (error) {
    const message = (error as Error).message;
    await ctx.deps.pool.query('UPDATE ach_bank_files SET last_error = $2 WHERE id = $1', [file.id, message]);
    ctx.deps.logger.warn({ bankFileId: file.id, error: message }, 'ACH: delivery to the bank failed; retrying');
    throw error;
  }
}

/** At the bank under its final name: every merchant file in it is submitted, and their clocks run from now. */
export async function markSent(
  ctx: AchContext,
  file: BankFileRow,
  from: readonly BankFileState[] = IN_FLIGHT,
): Promise<boolean> {
  return withTransaction(ctx.deps.pool, async (tx) => {
    const now = ctx.clock.now();
    if (!(await moveBankFile(tx, file.id, from, 'sent', { sent_at: now, last_error: null }))) return false;
    tx.afterCommit(() => ctx.deps.alerts?.bankFile('outbound', 'sent'));
    for (const merchantFile of await merchantFilesOf(tx, file.id)) {
      if (merchantFile.withdrawn_at) continue;
      await tx.query('UPDATE ach_files SET submitted_at = $3 WHERE merchant_id = $2 AND id = $1', [
        merchantFile.id,
        merchantFile.merchant_id,
        now,
      ]);
      // Clearing and returns wait for the file to be at the bank: queued again now that it is.
      const fileId = merchantFile.id;
      await achClearQueue.enqueue(tx, ctx.clock, { fileId }, { runAt: merchantFile.settles_at, singletonKey: fileId });
      await achReturnsQueue.enqueue(
        tx,
        ctx.clock,
        { fileId },
        { runAt: merchantFile.returns_due_at, singletonKey: fileId },
      );
    }
    // The bank answers soon after a file arrives: look for its acknowledgment.
    await achCollectQueue.enqueue(
      tx,
      ctx.clock,
      { connectionKey: file.connection_key },
      { singletonKey: `collect:${file.connection_key}` },
    );
    return true;
  });
}

/** Past its deadline and never at the bank: the merchants' files are withdrawn and their entries wait again. */
export async function expire(
  ctx: AchContext,
  file: BankFileRow,
  reason: string,
  from: readonly BankFileState[] = ['built', 'uploading'],
  options: { announce: boolean } = { announce: true },
): Promise<boolean> {
  return withTransaction(ctx.deps.pool, async (tx) => {
    if (!(await moveBankFile(tx, file.id, from, 'expired', { alert: reason, alerted_at: ctx.clock.now() }))) {
      return false;
    }
    let entries = 0;
    for (const merchantFile of await merchantFilesOf(tx, file.id)) {
      entries += await withdrawMerchantFile(ctx, tx, { id: merchantFile.id, merchantId: merchantFile.merchant_id });
      await rescheduleWindow(
        ctx,
        tx,
        { id: merchantFile.processor_id, merchantId: merchantFile.merchant_id },
        merchantFile.window_at,
        ctx.clock.now(),
      );
    }
    const alertText = `${reason}; ${entries} entries moved to the next window`;
    await tx.query('UPDATE ach_bank_files SET alert = $2 WHERE id = $1', [file.id, alertText]);
    if (options.announce) await raise(ctx, tx, file, alertText);
    return true;
  });
}

/** The operator must look: the file stays as it is, nothing is sent again. */
async function alert(ctx: AchContext, file: BankFileRow, reason: string): Promise<void> {
  await withTransaction(ctx.deps.pool, async (tx) => {
    if (!(await moveBankFile(tx, file.id, IN_FLIGHT, 'alert', { alert: reason, alerted_at: ctx.clock.now() }))) return;
    await raise(ctx, tx, file, reason);
  });
}

async function raise(ctx: AchContext, tx: Tx, file: BankFileRow, reason: string): Promise<void> {
  tx.afterCommit(() => {
    ctx.deps.logger.error({ bankFileId: file.id, connection: file.connection_key, reason }, 'ACH: file delivery alert');
    ctx.deps.alerts?.deliveryFailed(file.connection_key, reason);
  });
  const files = await merchantFilesOf(tx, file.id);
  if (files.length === 0) return;
  tx.defer(
    eventsInsert(
      ctx.clock,
      files.map((f) => ({
        type: 'ach.file.delivery_failed' as const,
        merchantId: f.merchant_id,
        resourceType: 'ach_file',
        resourceId: f.id,
        data: { achFileId: f.id, bankFileId: file.id, window: f.window_at, entryCount: f.entry_count, reason },
      })),
    ).query,
  );
}
