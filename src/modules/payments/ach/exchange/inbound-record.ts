import type { Sql } from '../../../../platform/db/pool.js';
import type { AchContext } from '../ach-context.js';

export interface InboundRecord {
  id: string;
  connectionKey: string;
  processorId: string;
  remoteName: string;
  content: Buffer;
  sha256: string;
}

/** The inbound file's record (sealed): once per name and SHA-256; false when it was there already. */
export async function insertInbound(
  ctx: AchContext,
  r: InboundRecord,
  kind: 'acknowledgment' | 'rejection' | 'returns' | 'unknown',
  state: 'imported' | 'ignored',
  summary: Record<string, unknown>,
  sql: Sql = ctx.deps.pool,
  answersFileId: string | null = null,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO ach_bank_files (id, connection_key, processor_id, direction, state, kind, remote_name, size_bytes,
       sha256, content_sealed, created_at, import_summary, answers_file_id)
     VALUES ($1, $2, $3, 'inbound', $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
    [
      r.id,
      r.connectionKey,
      r.processorId,
      state,
      kind,
      r.remoteName,
      r.content.length,
      r.sha256,
      await ctx.bankFiles.seal(r.id, r.content),
      ctx.clock.now(),
      summary,
      answersFileId,
    ],
  );
  if (rowCount === 1) ctx.deps.alerts?.bankFile('inbound', kind);
  return rowCount === 1;
}
