import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Sql } from '../db/pool.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key-encryption key (ENCRYPTION_KEY). It never encrypts bulk data itself: it wraps data keys and other key
 * material. Sealed blobs are `iv | tag | ciphertext` (AES-256-GCM); the caller's associated data (record id, purpose)
 * plus the KEK version are authenticated, so a blob copied to another row or decrypted under the wrong version fails.
 */
export class KeyEncryptionKey {
  readonly fingerprint: string;

  constructor(
    readonly version: number,
    private readonly key: Buffer,
  ) {
    if (key.length !== 32) throw new Error('A key-encryption key must be 32 bytes');
    this.fingerprint = fingerprintOf(key);
  }

  seal(plaintext: Buffer, associatedData: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(`kek:${this.version}|${associatedData}`));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  open(sealed: Buffer, associatedData: string): Buffer {
    const iv = sealed.subarray(0, IV_BYTES);
    const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(`kek:${this.version}|${associatedData}`));
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
 * Binds the configured key to the database: the first node registers its fingerprint; every later node must present
 * the same key, or it refuses to start (two keys would silently split the card vault in two).
 */
export async function loadKeyEncryptionKey(config: Config, sql: Sql): Promise<KeyEncryptionKey> {
  const material = readKeyMaterial(config);
  const fingerprint = fingerprintOf(material);
  await sql.query(
    `INSERT INTO key_encryption_keys (version, fingerprint)
     SELECT 1, $1 WHERE NOT EXISTS (SELECT 1 FROM key_encryption_keys)
     ON CONFLICT DO NOTHING`,
    [fingerprint],
  );
  const { rows } = await sql.query<{ version: number; fingerprint: string }>(
    'SELECT version, fingerprint FROM key_encryption_keys WHERE retired_at IS NULL ORDER BY version DESC',
  );
  const match = rows.find((row) => row.fingerprint === fingerprint);
  if (!match) {
    throw new Error(
      `ENCRYPTION_KEY does not match the key-encryption key this database uses (expected fingerprint ${rows[0]?.fingerprint ?? 'unknown'}, got ${fingerprint}). ` +
        'Start every node with the same ENCRYPTION_KEY.',
    );
  }
  return new KeyEncryptionKey(match.version, material);
}
