import type { Acknowledgment } from '../../../../connectors/ach/acknowledgment.js';
import { withTransaction } from '../../../../platform/db/tx.js';
import type { AchContext } from '../ach-context.js';
import { failEntries } from '../submit.js';
import { merchantFilesOf, moveBankFile } from './bank-files.repo.js';
import type { BankConnection } from './connection.js';
import { type InboundRecord, insertInbound } from './inbound-record.js';

/**
 * The bank's answer to one of our files. Accepted: the file is recorded as accepted. Rejected: the bank took none
 * of it, so every entry still In progress fails with the bank's reason (the merchant sees it on each transaction and
 * its `transaction.ach.failed` event, and may pay again). Failing rather than re-sending: a file the bank rejected
 * is wrong in a way only a person can tell, and a resend could repeat it (docs/ach.md).
 */
export async function applyAcknowledgment(
  ctx: AchContext,
  connection: BankConnection,
  record: InboundRecord,
  ack: Acknowledgment,
): Promise<void> {
  await withTransaction(ctx.deps.pool, async (tx) => {
    const { rows } = await tx.query<{ id: string; state: string }>(
      `SELECT id, state FROM ach_bank_files
       WHERE immediate_destination = $1 AND immediate_origin = $6 AND direction = 'outbound'
         AND (remote_name = $2 OR (creation_date = $3 AND creation_time = $4 AND file_id_modifier = $5))
       ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [
        // This originator's files to this bank, whichever connection settings sent them (a server or port changed
        // since included).
        connection.settings.immediateDestination.trim(),
        ack.fileName ?? null,
        ack.creationDate ?? null,
        ack.creationTime ?? null,
        ack.fileIdModifier ?? null,
        connection.settings.immediateOrigin.trim(),
      ],
    );
    const target = rows[0];
    const kind = ack.status === 'accepted' ? 'acknowledgment' : 'rejection';
    const summary = { status: ack.status, reason: ack.reason ?? null, answers: target?.id ?? null };
    if (!(await insertInbound(ctx, record, kind, 'imported', summary, tx, target?.id ?? null))) return;
    if (!target) {
      ctx.deps.logger.warn({ file: record.remoteName, ack }, 'ACH: an acknowledgment for a file Tessera did not send');
      return;
    }
    const now = ctx.clock.now();
    if (ack.status === 'accepted') {
      await moveBankFile(tx, target.id, ['sent'], 'accepted', { answered_at: now, answer: 'ACCEPTED' });
      return;
    }
    const reason = `File rejected by the bank: ${ack.reason ?? 'no reason given'}`;
    if (!(await moveBankFile(tx, target.id, ['sent', 'accepted'], 'rejected', { answered_at: now, answer: reason }))) {
      return;
    }
    for (const file of await merchantFilesOf(tx, target.id)) {
      if (file.withdrawn_at) continue;
      const { rows: traces } = await tx.query<{ trace_number: string }>(
        'SELECT trace_number FROM ach_entries WHERE merchant_id = $2 AND file_id = $1',
        [file.id, file.merchant_id],
      );
      await failEntries(
        ctx,
        tx,
        file.id,
        file.merchant_id,
        traces.map((t) => ({ traceNumber: t.trace_number, reason })),
      );
    }
  });
}
