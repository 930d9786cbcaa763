import { setTimeout as pause } from 'node:timers/promises';
import { parseAcknowledgment } from '../../../../connectors/ach/acknowledgment.js';
import { type DropBoxEntry, type DropBoxSession, remotePath } from '../../../../connectors/ach/bank-drop-box.js';
import { NachaFormatError, parseNacha } from '../../../../connectors/ach/nacha.js';
import { newId } from '../../../../platform/crypto/ids.js';
import type { AchContext } from '../ach-context.js';
import { applyAcknowledgment } from './acknowledge.js';
import { sha256 } from './bank-file-store.js';
import { type BankConnection, connectionByKey } from './connection.js';
import { importBankReturns } from './import-returns.js';
import { insertInbound } from './inbound-record.js';

/** How long a file must keep its size between two looks to count as written (the bank may still be writing). */
const SETTLE_MS = 2000;

/** Names a writer uses while a file is not whole yet, and hidden files: never taken. */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~') || /\.(part|tmp|temp|filepart|partial|lock)$/i.test(name);
}

/**
 * Collects what the bank left in a connection's inbound directory: each whole file (not hidden, not a temporary
 * name, the same size and time at two looks) is read, recognised (an acknowledgment, a rejection, returns and
 * notifications of change, or unknown), applied once (by name and SHA-256), kept sealed, and then deleted from the
 * server or left there as configured. Files seen again (kept on the server) are not applied twice.
 */
export async function collectBankFiles(ctx: AchContext, connectionKey: string): Promise<number> {
  const connection = await connectionByKey(ctx, connectionKey);
  if (!connection) return 0;
  await ctx.deps.pool.query(
    `INSERT INTO ach_bank_polls (connection_key, polled_at) VALUES ($1, $2)
     ON CONFLICT (connection_key) DO UPDATE SET polled_at = EXCLUDED.polled_at`,
    [connectionKey, ctx.clock.now()],
  );
  return ctx.deps.withDropBox(connection.connector, connection.lead.id, async (session) => {
    const first = await wholeCandidates(session);
    if (first.length === 0) return 0;
    await pause(ctx.deps.inboundSettleMs ?? SETTLE_MS);
    const second = await wholeCandidates(session);
    const whole = settledFiles(first, second);
    for (const entry of whole) await takeFile(ctx, connection, session, entry.name);
    return whole.length;
  });
}

/** The files of the first look still there at the second with the same size and time: no longer being written. */
export function settledFiles(first: readonly DropBoxEntry[], second: readonly DropBoxEntry[]): DropBoxEntry[] {
  const again = new Map(second.map((entry) => [entry.name, entry]));
  return first.filter((entry) => {
    const later = again.get(entry.name);
    return (
      later !== undefined && later.size === entry.size && later.modifiedAt.getTime() === entry.modifiedAt.getTime()
    );
  });
}

async function wholeCandidates(session: DropBoxSession): Promise<DropBoxEntry[]> {
  return (await session.list(session.inboundDir))
    .filter((entry) => !isTemporaryName(entry.name) && entry.size > 0)
    .sort((a, b) => a.modifiedAt.getTime() - b.modifiedAt.getTime() || a.name.localeCompare(b.name));
}

async function takeFile(
  ctx: AchContext,
  connection: BankConnection,
  session: DropBoxSession,
  name: string,
): Promise<void> {
  const path = remotePath(session.inboundDir, name);
  const content = await session.download(path);
  const digest = sha256(content);
  let state = await stateOf(ctx, connection.key, name, digest);
  if (state === undefined) {
    await applyInbound(ctx, connection, name, content, digest);
    state = await stateOf(ctx, connection.key, name, digest);
  }
  // Unknown files stay for the operator; what Tessera took is removed when configured.
  if (connection.settings.deleteCollectedFiles && state === 'imported') await session.remove(path);
}

async function stateOf(ctx: AchContext, key: string, name: string, digest: string): Promise<string | undefined> {
  const { rows } = await ctx.deps.pool.query<{ state: string }>(
    `SELECT state FROM ach_bank_files
     WHERE connection_key = $1 AND direction = 'inbound' AND remote_name = $2 AND sha256 = $3`,
    [key, name, digest],
  );
  return rows[0]?.state;
}

/** Recognises the file and applies it; the record of it is written with (or after) what it changed. */
async function applyInbound(
  ctx: AchContext,
  connection: BankConnection,
  name: string,
  content: Buffer,
  digest: string,
): Promise<void> {
  const id = newId();
  const text = content.toString('latin1');
  const record = {
    id,
    connectionKey: connection.key,
    processorId: connection.lead.id,
    remoteName: name,
    content,
    sha256: digest,
  };
  let nacha: ReturnType<typeof parseNacha> | undefined;
  try {
    nacha = parseNacha(text);
  } catch (error) {
    if (!(error instanceof NachaFormatError)) throw error;
  }
  if (
    nacha &&
    nacha.batches.some((b) => b.entries.some((e) => e.addenda.some((a) => a.type === '99' || a.type === '98')))
  ) {
    await importBankReturns(ctx, connection, record, text);
    return;
  }
  const ack = nacha ? undefined : parseAcknowledgment(text);
  if (ack) {
    await applyAcknowledgment(ctx, connection, record, ack);
    return;
  }
  await insertInbound(ctx, record, 'unknown', 'ignored', { reason: 'Not a file Tessera recognises' });
  ctx.deps.logger.warn({ connection: connection.key, file: name }, 'ACH: an inbound file Tessera does not recognise');
}
