import { buildNachaFile, type ParsedBatch, parseNacha } from '../../../../connectors/ach/nacha.js';
import type { NachaSftpSettings } from '../../../../connectors/ach/sftp/nacha-sftp-settings.js';
import { exchangesFiles } from '../../../../connectors/catalog.js';
import { dictionary } from '../../../../platform/dictionary.js';
import type { AchContext } from '../ach-context.js';
import { importReturnFile } from '../returns.js';
import type { BankConnection } from './connection.js';
import { type InboundRecord, insertInbound } from './inbound-record.js';

/**
 * The bank a processor's entries went to: their trace numbers start with its routing number. Not the whole
 * connection: a processor whose server, port or user changed since still gets the returns of what it sent before.
 */
function bankOf(settings: NachaSftpSettings): string {
  return settings.immediateDestination.trim();
}

/**
 * A bank's returns and notifications of change for a connection: one file naming entries of many merchants. It is
 * split by the processor each entry went out with (found by its original trace number, among the file-exchange
 * processors sending to the same bank) and each part goes through
 * the one return import every ACH file takes (returns.ts), under an id made of the file's SHA-256 and the
 * processor: a crash part way, or the same file again, imports nothing twice. Entries no processor of the
 * connection sent are reported unmatched on the connection's lead processor.
 */
export async function importBankReturns(
  ctx: AchContext,
  connection: BankConnection,
  record: InboundRecord,
  text: string,
): Promise<void> {
  const parsed = parseNacha(text);
  const traces = parsed.batches.flatMap((b) =>
    b.entries.flatMap((e) =>
      e.addenda.flatMap((a) => (a.type === '99' || a.type === '98' ? [a.originalTraceNumber] : [])),
    ),
  );
  const { rows } = await ctx.deps.pool.query<{ trace_number: string; processor_id: string }>(
    `SELECT /* across merchants: a bank's return file names entries of many merchants */ trace_number, processor_id
     FROM ach_entries WHERE trace_number = ANY($1::text[])`,
    [traces],
  );
  const ofConnection = new Map<string, boolean>();
  for (const processorId of new Set(rows.map((r) => r.processor_id))) {
    const processor = await ctx.deps.merchants.processorWithSettings(processorId);
    ofConnection.set(
      processorId,
      Boolean(
        processor &&
          exchangesFiles(processor.connector) &&
          bankOf(processor.settings.connector as NachaSftpSettings) === bankOf(connection.settings),
      ),
    );
  }
  const processorOf = new Map(
    rows.filter((r) => ofConnection.get(r.processor_id)).map((r) => [r.trace_number, r.processor_id]),
  );
  const byProcessor = new Map<string, ParsedBatch[]>();
  for (const batch of parsed.batches) {
    const groups = new Map<string, typeof batch.entries>();
    for (const entry of batch.entries) {
      const original = entry.addenda.find((a) => a.type === '99' || a.type === '98');
      const processorId = (original && processorOf.get(original.originalTraceNumber)) ?? connection.lead.id;
      groups.set(processorId, [...(groups.get(processorId) ?? []), entry]);
    }
    for (const [processorId, entries] of groups) {
      byProcessor.set(processorId, [...(byProcessor.get(processorId) ?? []), { ...batch, entries }]);
    }
  }
  const imports: Record<string, unknown> = dictionary();
  for (const [processorId, batches] of byProcessor) {
    const part = buildNachaFile(parsed.header, batches).content;
    const result = await importReturnFile(ctx, processorId, part, `${record.sha256}:${processorId}`);
    imports[processorId] = {
      achFileId: result.fileId,
      returns: result.returns,
      notificationsOfChange: result.notificationsOfChange,
      unmatched: result.unmatched,
    };
  }
  await insertInbound(ctx, record, 'returns', 'imported', { imports });
}
