import { returnsAvailableAt } from '../../../connectors/ach/ach-connector.js';
import { yymmdd } from '../../../connectors/ach/nacha.js';
import { isoDate } from '../../../platform/clock/business-days.js';
import { localParts } from '../../../platform/clock/zoned.js';
import { newId } from '../../../platform/crypto/ids.js';
import type { Sql } from '../../../platform/db/pool.js';
import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import type { ProcessorWithSettings } from '../../merchants/merchant-processors.js';
import { type AchContext, achClearQueue, achReturnsQueue, achSubmitQueue } from './ach-context.js';
import { claimWindow, writeCutoffFile } from './ach-cutoff.js';
import { DEFAULT_RECORDS_PER_PART } from './ach-file-store.js';
import { companyIdentification } from './ach-response.js';
import { settlementOf } from './ach-schedule.js';

/**
 * A processor's cutoff window: its Scheduled entries into one NACHA file (the file id, or null for none), which its
 * connector takes as one call. (A bank connection's processors cut together: exchange/connection-cutoff.ts.)
 */
export async function cutoff(ctx: AchContext, processor: ProcessorWithSettings, window: Date): Promise<string | null> {
  const processorId = processor.id;
  return withTransaction(ctx.deps.pool, async (tx) => {
    const settings = await ctx.processorSettings(processorId, tx);
    const modifier = await fileIdModifier(
      ctx,
      tx,
      { merchantId: processor.merchantId, id: processorId },
      window,
      settings.timeZone,
    );
    return cutMerchantFile(ctx, tx, processor, window, { modifier });
  });
}

/** How a merchant's file is headed when it goes out inside a bank connection's file. */
export interface ConnectionHeading {
  modifier: string;
  immediateOrigin?: string;
  originName?: string;
  immediateDestination?: string;
  destinationName?: string;
  companyId?: string;
  companyName?: string;
  /** The connection's file, which the merchant's file goes out in (no submit job of its own). */
  bankFileId?: string;
}

/** Cuts one processor's window inside the caller's transaction: the merchant's file and its settlement batch. */
export async function cutMerchantFile(
  ctx: AchContext,
  tx: Tx,
  processor: ProcessorWithSettings,
  window: Date,
  heading: ConnectionHeading,
): Promise<string | null> {
  const processorId = processor.id;
  const merchantId = processor.merchantId;
  const configuration = await ctx.deps.merchants.getConfiguration(merchantId);
  const settings = await ctx.processorSettings(processorId, tx);
  const { effectiveDate, settlesAt } = settlementOf(window, settings);
  const returnsAt = returnsAvailableAt(effectiveDate);
  const now = ctx.clock.now();
  const fileId = newId();
  const batchId = newId();
  const odfiId = (heading.immediateDestination ?? settings.odfiRoutingNumber).trim().slice(0, 8);
  const companyId = heading.companyId ?? companyIdentification(processorId);
  const companyName = heading.companyName ?? configuration.companyName;
  const local = localParts(window, settings.timeZone);
  const modifier = heading.modifier;
  // The file and its batch exist first (the entries point at them); their totals follow once it is written.
  await tx.query(
    `INSERT INTO ach_files (id, merchant_id, processor_id, direction, window_at, created_at, entry_count,
       total_debit_cents, total_credit_cents, file_id_modifier, settles_at, returns_due_at, bank_file_id)
     VALUES ($1, $2, $3, 'origination', $4, $5, 0, 0, 0, $6, $7, $8, $9)`,
    [fileId, merchantId, processorId, window, now, modifier, settlesAt, returnsAt, heading.bankFileId ?? null],
  );
  await ctx.deps.settlements.openFileBatch(tx, {
    id: batchId,
    merchantId,
    processorId,
    openedAt: now,
    closesAt: returnsAt,
    achFileId: fileId,
    externalBatchId: `${yymmdd(local)}${modifier}`,
  });
  const entryCount = await claimWindow(tx, {
    merchantId,
    processorId,
    window,
    now,
    fileId,
    batchId,
    odfiId,
    effective: isoDate(effectiveDate),
  });
  if (entryCount === 0) {
    // A window with no entries makes no file (voids or holds may have taken them all since the job was queued).
    await ctx.deps.settlements.discard(tx, { merchantId, id: batchId });
    await tx.query('DELETE FROM ach_files WHERE merchant_id = $2 AND id = $1', [fileId, merchantId]);
    return null;
  }
  const fileKey = await ctx.deps.vault.dataKeys.current(merchantId, tx);
  const totals = await writeCutoffFile(tx, {
    fileId,
    merchantId,
    header: {
      immediateDestination: heading.immediateDestination ?? settings.odfiRoutingNumber,
      immediateOrigin: heading.immediateOrigin ?? companyId,
      destinationName: heading.destinationName ?? settings.odfiName,
      originName: heading.originName ?? configuration.companyName,
      creationDate: yymmdd(local),
      creationTime: `${String(local.hour).padStart(2, '0')}${String(local.minute).padStart(2, '0')}`,
      fileIdModifier: modifier,
      referenceCode: fileId.slice(0, 8),
    },
    batchHeader: (secCode, entryDescription) => ({
      companyName,
      companyId,
      secCode,
      entryDescription,
      descriptiveDate: yymmdd(effectiveDate),
      effectiveEntryDate: yymmdd(effectiveDate),
      odfiId,
    }),
    settings,
    dataKey: (version) => ctx.deps.vault.dataKeys.get(merchantId, version, tx),
    append: ctx.files.writer(tx, fileId, fileKey).append,
    clock: ctx.clock,
    recordsPerPart: ctx.deps.filePartRecords ?? DEFAULT_RECORDS_PER_PART,
  });
  await tx.query(
    `UPDATE ach_files SET entry_count = $2, total_debit_cents = $3, total_credit_cents = $4
     WHERE merchant_id = $5 AND id = $1`,
    [fileId, entryCount, totals.totalDebitCents.toString(), totals.totalCreditCents.toString(), merchantId],
  );
  if (!heading.bankFileId) await achSubmitQueue.enqueue(tx, ctx.clock, { fileId }, { singletonKey: fileId });
  await achClearQueue.enqueue(tx, ctx.clock, { fileId }, { runAt: settlesAt, singletonKey: fileId });
  await achReturnsQueue.enqueue(tx, ctx.clock, { fileId }, { runAt: returnsAt, singletonKey: fileId });
  return fileId;
}

/** A-Z then 0-9: one letter per file of the processor on the window's local day. */
export async function fileIdModifier(
  _ctx: AchContext,
  tx: Sql,
  processor: { merchantId: string; id: string },
  window: Date,
  timeZone: string,
): Promise<string> {
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ach_files
     WHERE merchant_id = $4 AND processor_id = $1 AND direction = 'origination'
       AND (window_at AT TIME ZONE $3)::date = ($2::timestamptz AT TIME ZONE $3)::date`,
    [processor.id, window, timeZone, processor.merchantId],
  );
  return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[rows[0]!.n % 36]!;
}
