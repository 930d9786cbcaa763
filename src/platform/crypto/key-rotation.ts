import type { Pool } from '../db/pool.js';
import { dictionary } from '../dictionary.js';
import type { KeyEncryptionKey } from './kek.js';

/**
 * A column holding values sealed with the key-encryption key, declared by the module that owns its table (its
 * manifest's `sealed`; the platform's own in PLATFORM_SEALED): where it lives, how its rows are named, the associated
 * data each value is sealed with, and the column naming the key version. Rotation re-wraps every declared column and
 * retires a version only when no column holds anything sealed under it; test/schema/sealed-columns.test.ts fails when
 * the schema has a key-version column no module declares.
 */
export interface SealedColumn {
  /** What it holds, as the rotation reports it. */
  name: string;
  table: string;
  column: string;
  /** The key version the value is sealed under (default `kek_version`). */
  versionColumn?: string;
  key: string[];
  aad(row: Record<string, unknown>): string;
  /** Rows that hold nothing sealed (a NULL value) are none of its business. */
  where?: string;
}

const versionOf = (kind: SealedColumn) => kind.versionColumn ?? 'kek_version';

/** Rows of the kind sealed under another version than `$1`. */
const staleFilter = (kind: SealedColumn) => `${versionOf(kind)} <> $1${kind.where ? ` AND ${kind.where}` : ''}`;

export interface RotationReport {
  kekVersion: number;
  rewrapped: Record<string, number>;
  retiredVersions: number[];
}

/**
 * `tessera keys rotate`: re-wraps everything sealed under an older key-encryption key with the current one
 * (ENCRYPTION_KEY), in small batches, each row by compare-and-set on its version, so it runs safely beside live
 * servers. The plaintext underneath (data keys, secrets) does not change, so card data encrypted under the data keys
 * is untouched and stays readable throughout. When nothing refers to an old version any more, it is retired.
 */
export async function rotateKeys(
  pool: Pool,
  kek: KeyEncryptionKey,
  columns: readonly SealedColumn[],
  progress: (message: string) => void,
  batchSize = 200,
): Promise<RotationReport> {
  const rewrapped: Record<string, number> = dictionary();
  for (const kind of columns) {
    const filter = staleFilter(kind);
    const version = versionOf(kind);
    const { rows: counted } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${kind.table} WHERE ${filter}`,
      [kek.version],
    );
    const total = counted[0]!.n;
    let done = 0;
    rewrapped[kind.name] = 0;
    progress(`${kind.name}: ${total} to re-wrap`);
    let skipped = 0;
    for (;;) {
      const { rows } = await pool.query<Record<string, unknown> & { kek_version: number }>(
        `SELECT ${kind.key.join(', ')}, ${kind.column} AS sealed, ${version} AS kek_version FROM ${kind.table}
         WHERE ${filter} ORDER BY ${kind.key.join(', ')} LIMIT $2 OFFSET $3`,
        [kek.version, batchSize, skipped],
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        if (!kek.canOpen(row.kek_version)) {
          skipped++;
          progress(`${kind.name}: cannot open version ${row.kek_version} (add it to ENCRYPTION_KEY_PREVIOUS); skipped`);
          continue;
        }
        const aad = kind.aad(row);
        const plaintext = kek.open(row.sealed as Buffer, aad, row.kek_version);
        const keyValues = kind.key.map((column) => row[column]);
        const updated = await pool.query(
          `UPDATE ${kind.table} SET ${kind.column} = $1, ${version} = $2
           WHERE ${kind.key.map((column, i) => `${column} = $${i + 4}`).join(' AND ')} AND ${version} = $3`,
          [kek.seal(plaintext, aad), kek.version, row.kek_version, ...keyValues],
        );
        if (updated.rowCount === 1) rewrapped[kind.name]!++;
        done++;
      }
      progress(`${kind.name}: ${Math.min(done, total)}/${total}`);
    }
  }
  // A version is retired only when nothing of any column is still sealed under it (the same list as above).
  const stillUsed = columns
    .map(
      (kind) =>
        `AND NOT EXISTS (SELECT 1 FROM ${kind.table} WHERE ${versionOf(kind)} = k.version${kind.where ? ` AND ${kind.where}` : ''})`,
    )
    .join('\n       ');
  const retired = await pool.query<{ version: number }>(
    `UPDATE /* across merchants: key rotation */ key_encryption_keys k SET retired_at = now()
     WHERE k.version <> $1 AND k.retired_at IS NULL
       ${stillUsed}
     RETURNING k.version`,
    [kek.version],
  );
  const retiredVersions = retired.rows.map((r) => r.version);
  progress(retiredVersions.length ? `retired key version(s) ${retiredVersions.join(', ')}` : 'no key version retired');
  return { kekVersion: kek.version, rewrapped, retiredVersions };
}
