import { isBusinessDay } from '../../../../platform/clock/business-days.js';
import { type AchContext, achCollectQueue, achDeliverQueue } from '../ach-context.js';
import { localDate } from '../ach-schedule.js';
import { bankConnections } from './connection.js';

/**
 * Once a minute (business clock): each bank connection's inbound directory is looked at when its poll interval has
 * passed on a banking day, and every file still on its way to a bank has its delivery job (one that ran out of
 * attempts, or was lost, is queued again; a waiting one is left alone).
 */
export async function sweepBankConnections(ctx: AchContext): Promise<void> {
  const now = ctx.clock.now();
  const connections = await bankConnections(ctx);
  if (connections.length > 0) {
    const { rows } = await ctx.deps.pool.query<{ connection_key: string; polled_at: Date }>(
      'SELECT connection_key, polled_at FROM ach_bank_polls WHERE connection_key = ANY($1::text[])',
      [connections.map((c) => c.key)],
    );
    const polled = new Map(rows.map((r) => [r.connection_key, r.polled_at]));
    for (const connection of connections) {
      const timeZone = (await ctx.processorSettings(connection.lead.id)).timeZone;
      if (!isBusinessDay(localDate(now, timeZone))) continue;
      const last = polled.get(connection.key);
      if (last && now.getTime() - last.getTime() < connection.settings.pollIntervalSeconds * 1000) continue;
      await achCollectQueue.enqueue(
        ctx.deps.pool,
        ctx.clock,
        { connectionKey: connection.key },
        { singletonKey: `collect:${connection.key}` },
      );
    }
  }
  const { rows: inFlight } = await ctx.deps.pool.query<{ id: string }>(
    `SELECT id FROM ach_bank_files WHERE direction = 'outbound' AND state IN ('built', 'uploading', 'uploaded')`,
  );
  for (const { id } of inFlight) {
    await achDeliverQueue.enqueue(
      ctx.deps.pool,
      ctx.clock,
      { bankFileId: id },
      { singletonKey: id, maxAttempts: 10_000 },
    );
  }
}
