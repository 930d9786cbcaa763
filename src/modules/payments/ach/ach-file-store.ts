import type { Pool, Sql } from '../../../platform/db/pool.js';
import { type DataKey, type DataKeys, decryptWith, encryptWith } from '../../vault/data-keys.js';

/** Records per stored part by default: about 470 KB of text, small next to any file worth streaming. */
export const DEFAULT_RECORDS_PER_PART = 5000;

/** Part 0 keeps the file id as its associated data: files stored whole before parts existed are their own part 0. */
function partAad(fileId: string, part: number): string {
  return part === 0 ? fileId : `${fileId}/${part}`;
}

/**
 * Where NACHA files live: in parts, each sealed under the merchant's data key (the files carry account numbers).
 * Writing appends one part at a time, reading yields one part at a time, so neither holds a whole file.
 */
export class AchFileStore {
  constructor(
    private readonly pool: Pool,
    private readonly dataKeys: DataKeys,
  ) {}

  /** A writer for one file: `append` text in order; each call stores one part under `key`. */
  writer(sql: Sql, fileId: string, key: DataKey) {
    let part = 0;
    return {
      append: async (text: string): Promise<void> => {
        if (text.length === 0) return;
        await sql.query(
          `INSERT INTO ach_file_parts (merchant_id, file_id, part, content_sealed, data_key_version)
           VALUES ($1, $2, $3, $4, $5)`,
          [key.merchantId, fileId, part, encryptWith(key, text, partAad(fileId, part)), key.version],
        );
        part++;
      },
    };
  }

  /** The file's text, part by part. */
  async *read(merchantId: string, fileId: string, sql: Sql = this.pool): AsyncGenerator<string> {
    for (let part = 0; ; part++) {
      const { rows } = await sql.query<{ content_sealed: Buffer; data_key_version: number }>(
        'SELECT content_sealed, data_key_version FROM ach_file_parts WHERE merchant_id = $1 AND file_id = $2 AND part = $3',
        [merchantId, fileId, part],
      );
      const row = rows[0];
      if (!row) return;
      const key = await this.dataKeys.get(merchantId, row.data_key_version, sql);
      yield decryptWith(key, row.content_sealed, partAad(fileId, part));
    }
  }

  /** The whole file as one string, for the consumers that need it whole (a bank upload, a parser). */
  async text(merchantId: string, fileId: string, sql: Sql = this.pool): Promise<string> {
    const parts: string[] = [];
    for await (const part of this.read(merchantId, fileId, sql)) parts.push(part);
    return parts.join('');
  }
}
