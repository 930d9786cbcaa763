import { connectionKeyOf, type NachaSftpSettings } from '../../../../connectors/ach/sftp/nacha-sftp-settings.js';
import { exchangesFiles } from '../../../../connectors/catalog.js';
import type { Sql } from '../../../../platform/db/pool.js';
import type { ProcessorWithSettings } from '../../../merchants/merchant-processors.js';
import type { AchContext } from '../ach-context.js';

/**
 * A bank connection: the file-exchange processors (of any merchants) that reach the same server as the same
 * originator to the same bank. A disabled processor stays a member: entries it accepted before still go out and its
 * returns still come in. The first active one by id leads: its settings and credentials make the exchange.
 */
export interface BankConnection {
  key: string;
  connector: string;
  lead: ProcessorWithSettings;
  settings: NachaSftpSettings;
  members: ProcessorWithSettings[];
}

const FILE_CONNECTORS = ['nacha-sftp'] as const;

export function sftpSettingsOf(processor: ProcessorWithSettings): NachaSftpSettings {
  return processor.settings.connector as NachaSftpSettings;
}

export async function bankConnections(ctx: AchContext, sql: Sql = ctx.deps.pool): Promise<BankConnection[]> {
  const byKey = new Map<string, BankConnection>();
  for (const connector of FILE_CONNECTORS) {
    for (const processor of await ctx.deps.merchants.processorsWithConnector(connector, sql)) {
      if (processor.method !== 'ach' || !exchangesFiles(processor.connector)) continue;
      const settings = sftpSettingsOf(processor);
      const key = connectionKeyOf(settings);
      const found = byKey.get(key);
      if (found) found.members.push(processor);
      else byKey.set(key, { key, connector, lead: processor, settings, members: [processor] });
    }
  }
  return [...byKey.values()];
}

/** The connection a processor belongs to (undefined: not a file-exchange processor). */
export async function connectionOf(
  ctx: AchContext,
  processorId: string,
  sql: Sql = ctx.deps.pool,
): Promise<BankConnection | undefined> {
  return (await bankConnections(ctx, sql)).find((c) => c.members.some((m) => m.id === processorId));
}

export async function connectionByKey(ctx: AchContext, key: string): Promise<BankConnection | undefined> {
  return (await bankConnections(ctx)).find((c) => c.key === key);
}
