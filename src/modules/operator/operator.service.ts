import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import { hashSecret, randomSecret } from '../../platform/crypto/secrets.js';
import type { Pool } from '../../platform/db/pool.js';
import type { OperatorAuthenticator } from '../../platform/http/principal.js';

/**
 * The operator credential. With ADMIN_TOKEN set, that is the token. A sandbox started without it generates one on
 * first start, stores only its hash in PostgreSQL (so every node accepts it) and hands the plaintext to the
 * bootstrap, which writes it to DATA_DIR/sandbox-credentials.json.
 */
export class OperatorService implements OperatorAuthenticator {
  private tokenHash: Buffer | undefined;
  private generated: string | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly config: Config,
  ) {
    if (config.adminToken) this.tokenHash = hashSecret(config.adminToken);
  }

  /** Loads (or, in a sandbox without ADMIN_TOKEN, creates) the token; returns the plaintext only when just created. */
  async initialise(): Promise<string | undefined> {
    if (this.config.adminToken) return undefined;
    if (this.config.env === 'production') throw new Error('ADMIN_TOKEN is required in production');
    const token = randomSecret(32);
    const inserted = await this.pool.query(
      'INSERT INTO operator_token (token_hash) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1',
      [hashSecret(token)],
    );
    const { rows } = await this.pool.query<{ token_hash: Buffer }>('SELECT token_hash FROM operator_token');
    this.tokenHash = rows[0]!.token_hash;
    this.generated = inserted.rowCount === 1 ? token : undefined;
    return this.generated;
  }

  /** The token this node generated at start (the first sandbox start without ADMIN_TOKEN), else undefined. */
  get generatedToken(): string | undefined {
    return this.generated;
  }

  async isOperatorToken(token: string): Promise<boolean> {
    if (!this.tokenHash) return false;
    return timingSafeEqual(hashSecret(token), this.tokenHash);
  }
}
