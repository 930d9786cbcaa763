import type { KeyEncryptionKey } from '../../platform/crypto/kek.js';
import type { Pool } from '../../platform/db/pool.js';
import { dictionary } from '../../platform/dictionary.js';
import { idempotencyAad } from '../../platform/http/idempotency.js';
import { sealedCardContext } from '../terminals/sandbox-terminal.repo.js';
import { webhookSecretAad } from '../webhooks/delivery-attempt.js';
import { dataKeyAad, vaultSecretAad } from './data-keys.js';

/**
 * Everything the key-encryption key seals: where it lives, how its row is named, its associated data, and the column
 * naming the key version it is sealed under. One list drives both the re-wrapping and the retirement of old versions,
 * and test/unit/sealed-columns.test.ts fails when the schema holds a key-encryption-key version column it lacks.
 */
export interface SealedKind {
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

export const SEALED_KINDS: readonly SealedKind[] = [
  {
    name: 'data keys',
    table: 'data_keys',
    column: 'key_sealed',
    key: ['merchant_id', 'version'],
    aad: (row) => dataKeyAad(String(row.merchant_id), Number(row.version)),
  },
  {
    name: 'vault secrets',
    table: 'vault_secrets',
    column: 'secret_sealed',
    key: ['name'],
    aad: (row) => vaultSecretAad(String(row.name)),
  },
  {
    name: 'signing keys',
    table: 'signing_keys',
    column: 'private_key_sealed',
    key: ['kid'],
    aad: (row) => `signing-key:${row.kid}`,
  },
  {
    name: 'webhook signing secrets',
    table: 'webhook_endpoints',
    column: 'secret_sealed',
    key: ['id'],
    aad: (row) => webhookSecretAad(String(row.id)),
  },
  {
    name: 'stored idempotent responses',
    table: 'idempotency_keys',
    column: 'response_body',
    key: ['principal', 'key'],
    aad: (row) => idempotencyAad(String(row.principal), String(row.key)),
    where: 'response_body IS NOT NULL',
  },
  {
    name: 'cards presented to sandbox terminals',
    table: 'sandbox_terminals',
    column: 'presented_card',
    versionColumn: 'presented_card_kek',
    key: ['terminal_id'],
    aad: (row) => sealedCardContext(String(row.terminal_id)),
    where: 'presented_card IS NOT NULL',
  },
];

const versionOf = (kind: SealedKind) => kind.versionColumn ?? 'kek_version';

/** Rows of the kind sealed under another version than `$1`. */
const staleFilter = (kind: SealedKind) => `${versionOf(kind)} <> $1${kind.where ? ` AND ${kind.where}` : ''}`;

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
  progress: (message: string) => void,
  batchSize = 200,
): Promise<RotationReport> {
  const rewrapped: Record<string, number> = dictionary();
  for (const kind of SEALED_KINDS) {
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
  // A version is retired only when nothing of any kind is still sealed under it (the same list as above).
  const stillUsed = SEALED_KINDS.map(
    (kind) =>
      `AND NOT EXISTS (SELECT 1 FROM ${kind.table} WHERE ${versionOf(kind)} = k.version${kind.where ? ` AND ${kind.where}` : ''})`,
  ).join('\n       ');
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
