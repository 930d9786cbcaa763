import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import type { Environment } from '../../config.js';
import type { KeyEncryptionKey } from '../../platform/crypto/kek.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';

/** The associated data a signing key's private key is sealed with: it opens only as that key. */
export const signingKeyAad = (kid: string) => `signing-key:${kid}`;

export const ALGORITHM = 'EdDSA';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject | undefined;
  publicKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

/**
 * The access-token signing keys of this environment, shared by all nodes through PostgreSQL. The first node to start
 * generates one (under a transaction-level advisory lock so two nodes starting together agree on one key). Sandbox
 * and production never share a key: a token from one fails signature verification in the other.
 */
export class SigningKeyRing {
  private keys = new Map<string, SigningKey>();
  private current: SigningKey | undefined;
  private lastReload = 0;

  constructor(
    private readonly pool: Pool,
    private readonly kek: KeyEncryptionKey,
    /** The environment (`sandbox`, `production`), or another ring's name (the built-in identity provider's). */
    private readonly environment: Environment | `idp-${Environment}`,
  ) {}

  async load(): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('tessera:signing-keys'))");
      const { rowCount } = await tx.query('SELECT 1 FROM signing_keys WHERE environment = $1 AND retired_at IS NULL', [
        this.environment,
      ]);
      if (rowCount === 0) {
        const kid = randomUUID();
        const { publicKey, privateKey } = generateKeyPairSync('ed25519');
        const der = privateKey.export({ format: 'der', type: 'pkcs8' });
        await tx.query(
          `INSERT INTO signing_keys (kid, environment, algorithm, public_jwk, private_key_sealed, kek_version)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [
            kid,
            this.environment,
            ALGORITHM,
            { ...publicKey.export({ format: 'jwk' }), kid, alg: ALGORITHM, use: 'sig' },
            this.kek.seal(der, signingKeyAad(kid)),
            this.kek.version,
          ],
        );
      }
    });
    await this.reload();
  }

  /** Re-reads the key set (keys are rotated by inserting a new one and retiring the old one later). */
  async reload(): Promise<void> {
    const { rows } = await this.pool.query<{
      kid: string;
      public_jwk: Record<string, unknown>;
      private_key_sealed: Buffer;
      kek_version: number;
      retired_at: Date | null;
    }>(
      `SELECT kid, public_jwk, private_key_sealed, kek_version, retired_at FROM signing_keys
       WHERE environment = $1 ORDER BY created_at DESC`,
      [this.environment],
    );
    const keys = new Map<string, SigningKey>();
    let current: SigningKey | undefined;
    for (const row of rows) {
      const publicKey = createPublicKey({ key: row.public_jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
      let privateKey: KeyObject | undefined;
      if (!row.retired_at && this.kek.canOpen(row.kek_version)) {
        const der = this.kek.open(row.private_key_sealed, signingKeyAad(row.kid), row.kek_version);
        privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
      }
      const key: SigningKey = { kid: row.kid, privateKey, publicKey, publicJwk: row.public_jwk };
      keys.set(row.kid, key);
      if (!current && privateKey) current = key;
    }
    if (!current) throw new Error(`No usable signing key for the ${this.environment} environment`);
    this.keys = keys;
    this.current = current;
    this.lastReload = Date.now();
  }

  signingKey(): SigningKey {
    return this.current!;
  }

  /** The verification key for a token's kid; an unknown kid triggers at most one reload per 10 s. */
  async verificationKey(kid: string): Promise<KeyObject | undefined> {
    const known = this.keys.get(kid);
    if (known) return known.publicKey;
    if (Date.now() - this.lastReload > 10_000) {
      await this.reload().catch(() => {});
      return this.keys.get(kid)?.publicKey;
    }
    return undefined;
  }

  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }
}
