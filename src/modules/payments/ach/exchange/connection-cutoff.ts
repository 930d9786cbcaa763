import { NachaWriter, parseNacha, yymmdd } from '../../../../connectors/ach/nacha.js';
import { renderFileName } from '../../../../connectors/ach/sftp/nacha-sftp-settings.js';
import { isoDate, nextCalendarDay } from '../../../../platform/clock/business-days.js';
import { localParts, zonedInstant } from '../../../../platform/clock/zoned.js';
import { newId } from '../../../../platform/crypto/ids.js';
import { withTransaction } from '../../../../platform/db/tx.js';
import { type AchContext, achDeliverQueue } from '../ach-context.js';
import { localDate, nextCutoff } from '../ach-schedule.js';
import { cutMerchantFile } from '../cutoff.js';
import { sha256 } from './bank-file-store.js';
import { connectionOf } from './connection.js';
import { rescheduleWindow } from './reschedule.js';

/** NACHA's file ID modifiers: one file per origin, destination and banking day each. */
const MODIFIERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A bank connection's cutoff window, in one transaction: every member processor's window is cut into its merchant's
 * file (as for any ACH processor), and those files are merged into the one file the bank gets for the window,
 * stored sealed with its SHA-256, its final and temporary names and its delivery deadline; then its delivery is
 * queued. Whichever member's cutoff job comes first does it; the others find the file made. The bank file id, or
 * null when the window has no entries.
 */
export async function connectionCutoff(ctx: AchContext, processorId: string, window: Date): Promise<string | null> {
  const connection = await connectionOf(ctx, processorId);
  if (!connection) return null;
  const { settings, lead } = connection;
  const leadSettings = await ctx.processorSettings(lead.id);
  return withTransaction(ctx.deps.pool, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ach-bank-file:${connection.key}`]);
    const made = await tx.query<{ id: string }>(
      `SELECT id FROM ach_bank_files WHERE connection_key = $1 AND window_at = $2 AND direction = 'outbound'`,
      [connection.key, window],
    );
    if (made.rows[0]) return made.rows[0].id;

    const bankingDay = localDate(window, leadSettings.timeZone);
    const origin = settings.immediateOrigin.trim();
    const destination = settings.immediateDestination.trim();
    const { rows: used } = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ach_bank_files
       WHERE direction = 'outbound' AND immediate_origin = $1 AND immediate_destination = $2 AND banking_day = $3`,
      [origin, destination, isoDate(bankingDay)],
    );
    if (used[0]!.n >= MODIFIERS.length) {
      // The 37th file of a banking day has no name the bank would take: its entries wait for the next day.
      const nextDay = nextCalendarDay(bankingDay);
      const dayAfter = zonedInstant(nextDay.year, nextDay.month, nextDay.day, 0, 0, leadSettings.timeZone);
      let moved = 0;
      for (const member of connection.members) moved += await rescheduleWindow(ctx, tx, member, window, dayAfter);
      ctx.deps.logger.warn(
        { connection: connection.key, window: window.toISOString(), entries: moved },
        'ACH: the banking day has had 36 files for this origin and destination; the window waits for the next day',
      );
      return null;
    }
    const modifier = MODIFIERS[used[0]!.n]!;
    const bankFileId = newId();
    const local = localParts(window, leadSettings.timeZone);
    const creationDate = yymmdd(local);
    const creationTime = `${String(local.hour).padStart(2, '0')}${String(local.minute).padStart(2, '0')}`;
    // The row exists first: each merchant's file names it.
    await tx.query(
      `INSERT INTO ach_bank_files (id, connection_key, processor_id, direction, state, kind, window_at, remote_name,
         size_bytes, sha256, immediate_origin, immediate_destination, creation_date, creation_time, file_id_modifier,
         banking_day, content_sealed, created_at)
       VALUES ($1, $2, $3, 'outbound', 'built', 'origination', $4, '', 0, '', $5, $6, $7, $8, $9, $10, '\\x', $11)`,
      [
        bankFileId,
        connection.key,
        lead.id,
        window,
        origin,
        destination,
        creationDate,
        creationTime,
        modifier,
        isoDate(bankingDay),
        ctx.clock.now(),
      ],
    );
    const heading = {
      modifier,
      immediateOrigin: settings.immediateOrigin,
      originName: settings.immediateOriginName,
      immediateDestination: destination,
      destinationName: settings.immediateDestinationName,
      bankFileId,
    };
    const files: Array<{ id: string; merchantId: string }> = [];
    for (const member of connection.members) {
      const memberSettings = member.settings.connector as { companyIdentification: string; companyName: string };
      const fileId = await cutMerchantFile(ctx, tx, member, window, {
        ...heading,
        companyId: memberSettings.companyIdentification,
        companyName: memberSettings.companyName,
      });
      if (fileId) files.push({ id: fileId, merchantId: member.merchantId });
    }
    if (files.length === 0) {
      await tx.query('DELETE FROM ach_bank_files WHERE id = $1', [bankFileId]);
      return null;
    }

    // One file: the connection's header, then every merchant file's batches as they are (renumbered), then the
    // file control over all of them.
    const records: string[] = [];
    const writer = new NachaWriter((record) => records.push(record));
    writer.fileHeader({
      immediateDestination: destination,
      immediateOrigin: settings.immediateOrigin,
      destinationName: settings.immediateDestinationName,
      originName: settings.immediateOriginName,
      creationDate,
      creationTime,
      fileIdModifier: modifier,
      referenceCode: bankFileId.slice(0, 8),
    });
    for (const file of files) {
      const parsed = parseNacha(await ctx.files.text(file.merchantId, file.id, tx));
      for (const batch of parsed.batches) {
        writer.startBatch(batch.header);
        for (const entry of batch.entries) writer.entry(entry);
        writer.endBatch();
      }
    }
    const totals = writer.finish();
    const content = Buffer.from(records.join(''), 'ascii');
    const remoteName = renderFileName(settings.fileNameTemplate, {
      date: `20${creationDate}`,
      time: creationTime,
      modifier,
      origin,
      destination,
      fileId: bankFileId.slice(0, 8),
    });
    const deliverUntil = [false, true]
      .map((faster) => nextCutoff(window, leadSettings, faster))
      .reduce((a, b) => (a < b ? a : b));
    await tx.query(
      `UPDATE ach_bank_files SET remote_name = $2, temp_name = $3, size_bytes = $4, sha256 = $5, entry_count = $6,
         total_debit_cents = $7, total_credit_cents = $8, content_sealed = $9, deliver_until = $10
       WHERE id = $1`,
      [
        bankFileId,
        remoteName,
        `.${remoteName}.${bankFileId.slice(0, 8)}.part`,
        content.length,
        sha256(content),
        totals.entryAndAddendaCount,
        totals.totalDebitCents.toString(),
        totals.totalCreditCents.toString(),
        await ctx.bankFiles.seal(bankFileId, content),
        deliverUntil,
      ],
    );
    await achDeliverQueue.enqueue(tx, ctx.clock, { bankFileId }, { singletonKey: bankFileId, maxAttempts: 10_000 });
    return bankFileId;
  });
}
