import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Sql } from '../db/pool.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key-encryption key (ENCRYPTION_KEY), plus the older keys this node can still read (ENCRYPTION_KEY_PREVIOUS)
 * while `tessera keys rotate` moves everything to the current one. It never encrypts bulk data itself: it wraps data
 * keys and other key material. Sealed blobs are `iv | tag | ciphertext` (AES-256-GCM); the caller's associated data
 * (record id, purpose) plus the KEK version are authenticated, so a blob copied to another row or opened under the
 * wrong version fails. Every sealed blob is stored next to the version that sealed it.
 */
export class KeyEncryptionKey {
  readonly fingerprint: string;
  private readonly keys = new Map<number, Buffer>();

  constructor(
    readonly version: number,
    key: Buffer,
    previous: ReadonlyMap<number, Buffer> = new Map(),
  ) {
    if (key.length !== 32) throw new Error('A key-encryption key must be 32 bytes');
    this.fingerprint = fingerprintOf(key);
    for (const [v, k] of previous) this.keys.set(v, k);
    this.keys.set(version, key);
  }

  /** Versions this node can open. */
  get versions(): number[] {
    return [...this.keys.keys()].sort((a, b) => a - b);
  }

  canOpen(version: number): boolean {
    return this.keys.has(version);
  }

  seal(plaintext: Buffer, associatedData: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.version)!, iv);
    cipher.setAAD(Buffer.from(`kek:${this.version}|${associatedData}`));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  open(sealed: Buffer, associatedData: string, version: number = this.version): Buffer {
    const key = this.keys.get(version);
    if (!key) {
      throw new Error(`Key-encryption key version ${version} is not configured on this node (ENCRYPTION_KEY_PREVIOUS)`);
    }
    const iv = sealed.subarray(0, IV_BYTES);
    const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(`kek:${version}|${associatedData}`));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  }
}

function fingerprintOf(key: Buffer): string {
  return createHmac('sha256', key).update('tessera:kek-fingerprint:v1').digest('hex').slice(0, 32);
}

/** ENCRYPTION_KEY from the environment, or (sandbox only) a key generated once into DATA_DIR. */
export function readKeyMaterial(config: Config): Buffer {
  if (config.encryptionKey) return Buffer.from(config.encryptionKey, 'base64');
  if (config.env === 'production') throw new Error('ENCRYPTION_KEY is required in production');
  const file = path.join(config.dataDir, 'encryption-key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
  return key;
}

/**
 * Binds the configured keys to the database. The first node registers its key as version 1; every later node must
 * present a registered key, or it refuses to start (two keys would silently split the card vault in two). A new
 * ENCRYPTION_KEY is accepted only together with the current one in ENCRYPTION_KEY_PREVIOUS, which proves continuity;
 * it is then registered as the next version and new data is sealed under it.
 */
export async function loadKeyEncryptionKey(config: Config, sql: Sql): Promise<KeyEncryptionKey> {
  const material = readKeyMaterial(config);
  const fingerprint = fingerprintOf(material);
  const previous = config.encryptionKeysPrevious.map((text) => Buffer.from(text, 'base64'));
  await sql.query(
    `INSERT INTO key_encryption_keys (version, fingerprint)
     SELECT 1, $1 WHERE NOT EXISTS (SELECT 1 FROM key_encryption_keys)
     ON CONFLICT DO NOTHING`,
    [fingerprint],
  );
  const registered = async () =>
    (
      await sql.query<{ version: number; fingerprint: string; retired_at: Date | null }>(
        'SELECT version, fingerprint, retired_at FROM key_encryption_keys ORDER BY version DESC',
      )
    ).rows;
  let rows = await registered();
  const previousVersions = new Map<number, Buffer>();
  for (const key of previous) {
    const row = rows.find((r) => r.fingerprint === fingerprintOf(key));
    if (!row) {
      throw new Error('ENCRYPTION_KEY_PREVIOUS holds a key this database has never used; remove it.');
    }
    previousVersions.set(row.version, key);
  }
  let match = rows.find((row) => row.fingerprint === fingerprint);
  if (!match) {
    const active = rows.filter((r) => !r.retired_at);
    if (!active.some((r) => previousVersions.has(r.version))) {
      throw new Error(
        `ENCRYPTION_KEY does not match the key-encryption key this database uses (expected fingerprint ${active[0]?.fingerprint ?? rows[0]?.fingerprint ?? 'unknown'}, got ${fingerprint}). ` +
          'Start every node with the same ENCRYPTION_KEY; to introduce a new key, put the current one in ENCRYPTION_KEY_PREVIOUS.',
      );
    }
    await sql.query(
      `INSERT INTO key_encryption_keys (version, fingerprint)
       SELECT coalesce(max(version), 0) + 1, $1 FROM key_encryption_keys
       ON CONFLICT (fingerprint) DO NOTHING`,
      [fingerprint],
    );
    rows = await registered();
    match = rows.find((row) => row.fingerprint === fingerprint)!;
  }
  if (match.retired_at) {
    throw new Error('ENCRYPTION_KEY was retired by a key rotation; start the node with the current key.');
  }
  previousVersions.delete(match.version);
  return new KeyEncryptionKey(match.version, material, previousVersions);
}

export { fingerprintOf };
