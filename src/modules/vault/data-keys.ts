import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { TtlCache } from '../../platform/cache.js';
import type { KeyEncryptionKey } from '../../platform/crypto/kek.js';
import { pooledRandomBytes } from '../../platform/crypto/random-pool.js';
import type { Pool, Sql } from '../../platform/db/pool.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;
export const DATA_KEY_VERSION = 1;
const FINGERPRINT_SECRET = 'fingerprint-hmac';

export interface DataKey {
  merchantId: string;
  version: number;
  key: Buffer;
}

export function dataKeyAad(merchantId: string, version: number): string {
  return `data-key:${merchantId}:${version}`;
}

export function vaultSecretAad(name: string): string {
  return `vault-secret:${name}`;
}

/**
 * Per-merchant data keys. Each is 32 random bytes, stored only wrapped by the key-encryption key. Unwrapped keys are
 * cached per node for five minutes: a data key's material never changes (a KEK rotation only re-wraps it), so the
 * cache can never serve a wrong key, and it spares an unwrap per vaulted payment.
 */
export class DataKeys {
  private readonly cache = new TtlCache<DataKey>(5 * 60_000, 50_000);
  private fingerprintKey: Buffer | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly kek: KeyEncryptionKey,
  ) {}

  /** Loads (or creates, once per deployment) the HMAC key behind card and account fingerprints. */
  async start(): Promise<void> {
    this.fingerprintKey = await this.deploymentSecret(FINGERPRINT_SECRET);
  }

  /**
   * A 32-byte secret shared by every node of the deployment (created by whichever node asks first), stored only
   * wrapped by the key-encryption key: e.g. the key behind checkout CSRF tokens.
   */
  async deploymentSecret(name: string): Promise<Buffer> {
    await this.pool.query(
      `INSERT INTO vault_secrets (name, secret_sealed, kek_version) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [name, this.kek.seal(randomBytes(32), vaultSecretAad(name)), this.kek.version],
    );
    const { rows } = await this.pool.query<{ secret_sealed: Buffer; kek_version: number }>(
      'SELECT secret_sealed, kek_version FROM vault_secrets WHERE name = $1',
      [name],
    );
    return this.kek.open(rows[0]!.secret_sealed, vaultSecretAad(name), rows[0]!.kek_version);
  }

  /** A keyed hash of a card or account number: equal numbers match, and nothing about the number can be read back. */
  fingerprint(kind: 'card' | 'ach', number: string): Buffer {
    if (!this.fingerprintKey) throw new Error('DataKeys.start() was not called');
    return createHmac('sha256', this.fingerprintKey).update(`${kind}:${number}`).digest();
  }

  /**
   * The merchant's current data key, created on first use inside the caller's transaction. A key this transaction
   * created is not cached: until it commits nobody else may use it, and a rollback takes it back with everything
   * sealed under it. A concurrent first use waits on the insert (the unique key) and then reads the committed key.
   */
  async current(merchantId: string, sql: Sql = this.pool): Promise<DataKey> {
    const cached = await this.cache.get(`${merchantId}:${DATA_KEY_VERSION}`, async () => undefined);
    if (cached) return cached;
    const key = randomBytes(32);
    const inserted = await sql.query(
      `INSERT INTO data_keys (merchant_id, version, key_sealed, kek_version) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [merchantId, DATA_KEY_VERSION, this.kek.seal(key, dataKeyAad(merchantId, DATA_KEY_VERSION)), this.kek.version],
    );
    if (inserted.rowCount === 1) return { merchantId, version: DATA_KEY_VERSION, key };
    return this.get(merchantId, DATA_KEY_VERSION, sql);
  }

  async get(merchantId: string, version: number, sql: Sql = this.pool): Promise<DataKey> {
    // A key this very transaction created (not committed yet) is answered but not cached.
    let uncommitted: DataKey | undefined;
    const key = await this.cache.get(`${merchantId}:${version}`, async () => {
      const { rows } = await sql.query<{ key_sealed: Buffer; kek_version: number; own: boolean }>(
        `SELECT key_sealed, kek_version, coalesce(xmin = pg_current_xact_id_if_assigned()::xid, false) AS own
         FROM data_keys WHERE merchant_id = $1 AND version = $2`,
        [merchantId, version],
      );
      const row = rows[0];
      if (!row) return undefined;
      const found = {
        merchantId,
        version,
        key: this.kek.open(row.key_sealed, dataKeyAad(merchantId, version), row.kek_version),
      };
      if (!row.own) return found;
      uncommitted = found;
      return undefined;
    });
    const answer = key ?? uncommitted;
    if (!answer) throw new Error(`Data key ${version} of merchant ${merchantId} does not exist`);
    return answer;
  }
}

/** What a data key seals: a vaulted payment method, a processor's credentials, or a file exchanged with a bank. */
export type SealedRecordKind = 'payment-method' | 'processor-credentials' | 'ach-bank-file' | 'dashboard-totp';

/**
 * AES-256-GCM under a data key; the kind of record, its id and the key version are authenticated with the
 * ciphertext (a blob moved to another record, or another kind of record, does not open).
 */
export function encryptWith(
  dataKey: DataKey,
  plaintext: string,
  recordId: string,
  kind: SealedRecordKind = 'payment-method',
): Buffer {
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dataKey.key, iv);
  cipher.setAAD(Buffer.from(recordAad(dataKey, recordId, kind)));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

export function decryptWith(
  dataKey: DataKey,
  sealed: Buffer,
  recordId: string,
  kind: SealedRecordKind = 'payment-method',
): string {
  const decipher = createDecipheriv('aes-256-gcm', dataKey.key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(recordAad(dataKey, recordId, kind)));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

function recordAad(dataKey: DataKey, recordId: string, kind: SealedRecordKind): string {
  return `${kind}:${recordId}|merchant:${dataKey.merchantId}|data-key:${dataKey.version}`;
}
