import { randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import { hashSecret, randomSecret } from '../../platform/crypto/secrets.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import type { CredentialRow } from '../api-keys/api-keys.repo.js';
import { type ApiKeysService, AUTH_CHANNEL } from '../api-keys/api-keys.service.js';
import { OAuthError } from './oauth.errors.js';
import {
  insertFamily,
  insertRefreshToken,
  lockRefreshToken,
  markRefreshTokenUsed,
  purgeExpiredRefreshTokens,
  revokeFamily,
} from './oauth.repo.js';
import { ALGORITHM, type SigningKeyRing } from './signing-keys.js';

export const SUPPORTED_SCOPES = ['offline_access'] as const;

export interface TokenRequest {
  grantType: string | undefined;
  scope: string | undefined;
  refreshToken: string | undefined;
  /** Credentials from the body (client_secret_post). */
  bodyClientId: string | undefined;
  bodyClientSecret: string | undefined;
  /** Credentials from HTTP Basic (client_secret_basic), already form-urldecoded; 'malformed' if unreadable. */
  basic: { clientId: string; clientSecret: string } | 'malformed' | undefined;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

export interface AccessTokenClaims {
  sub: string;
  client_id: string;
  tkind: 'merchant' | 'partner';
  mid?: string;
  pid?: string;
  fid?: string;
  scope?: string;
}

// Compared against when the client id is unknown, so both paths cost one hash and one comparison.
const DUMMY_HASH = hashSecret('tessera:no-such-client');

/**
 * The OAuth 2.0 token endpoint: client credentials (Basic or body) and refresh-token grants. Access tokens are
 * Ed25519-signed JWTs whose issuer is this deployment's token URL and whose audience names the environment and the
 * deployment. Refresh tokens are opaque, stored hashed, single use and rotated within a family.
 */
export class OAuthService {
  readonly issuer: string;
  readonly audience: string;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly keyring: SigningKeyRing,
    private readonly apiKeys: ApiKeysService,
    deploymentId: string,
  ) {
    this.issuer = config.authBaseUrl;
    this.audience = `tessera:${config.env}:${deploymentId}`;
  }

  /** Refresh tokens a week past their expiry (the maintenance sweep). */
  purgeExpiredRefreshTokens(now: Date): Promise<number> {
    return purgeExpiredRefreshTokens(this.pool, now);
  }

  async token(request: TokenRequest): Promise<TokenResponse> {
    if (request.grantType === undefined) {
      throw new OAuthError('invalid_request', "The mandatory 'grant_type' parameter is missing.");
    }
    if (request.grantType !== 'client_credentials' && request.grantType !== 'refresh_token') {
      throw new OAuthError(
        'unsupported_grant_type',
        `The specified 'grant_type' is not supported; use client_credentials or refresh_token.`,
      );
    }
    const credential = await this.authenticateClient(request);
    if (request.grantType === 'client_credentials') return this.clientCredentials(credential, request.scope);
    return this.refresh(credential, request.refreshToken, request.scope);
  }

  jwks() {
    return this.keyring.jwks();
  }

  private async authenticateClient(request: TokenRequest): Promise<CredentialRow> {
    const usedBasic = request.basic !== undefined;
    const challenge = usedBasic ? { 'www-authenticate': 'Basic realm="tessera", charset="UTF-8"' } : undefined;
    const invalidClient = (description: string) => new OAuthError('invalid_client', description, 401, challenge);

    if (request.basic === 'malformed') throw invalidClient('The HTTP Basic credentials could not be decoded.');
    if (request.basic && (request.bodyClientId !== undefined || request.bodyClientSecret !== undefined)) {
      throw new OAuthError(
        'invalid_request',
        'Client credentials must be sent either as HTTP Basic or in the body, not both.',
      );
    }
    const clientId = request.basic?.clientId ?? request.bodyClientId;
    const clientSecret = request.basic?.clientSecret ?? request.bodyClientSecret;
    if (!clientId) throw new OAuthError('invalid_request', "The mandatory 'client_id' parameter is missing.");
    if (!clientSecret) throw invalidClient("The 'client_secret' parameter required for this client is missing.");

    const credential = clientId.length <= 100 ? await this.apiKeys.getCredential(clientId) : undefined;
    const presented = hashSecret(clientSecret);
    const expected = credential && !credential.deleted ? credential.secret_hash : DUMMY_HASH;
    const matches = timingSafeEqual(presented, expected) && expected !== DUMMY_HASH;
    if (!credential || credential.deleted || !matches)
      throw invalidClient('The specified client credentials are invalid.');
    if (!credential.owner_active) {
      throw new OAuthError('unauthorized_client', 'The account this API key belongs to is not active.');
    }
    return credential;
  }

  private parseScope(scope: string | undefined): string[] {
    const requested = (scope ?? '').split(' ').filter((s) => s !== '');
    const unknown = requested.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new OAuthError('invalid_scope', `The scope '${unknown[0]}' is not supported.`);
    return [...new Set(requested)];
  }

  private async clientCredentials(credential: CredentialRow, scope: string | undefined): Promise<TokenResponse> {
    const scopes = this.parseScope(scope);
    if (!scopes.includes('offline_access')) return this.response(credential, scopes, undefined);
    return withTransaction(this.pool, async (tx) => {
      const familyId = randomUUID();
      const now = this.clock.now();
      await insertFamily(tx, { id: familyId, clientId: credential.client_id, scope: scopes.join(' '), now });
      const refreshToken = await this.newRefreshToken(tx, familyId, credential.client_id, now);
      return this.response(credential, scopes, { familyId, refreshToken });
    });
  }

  private async refresh(
    credential: CredentialRow,
    refreshToken: string | undefined,
    scope: string | undefined,
  ): Promise<TokenResponse> {
    if (!refreshToken) throw new OAuthError('invalid_request', "The mandatory 'refresh_token' parameter is missing.");
    const hash = hashSecret(refreshToken);
    const outcome = await withTransaction(this.pool, async (tx) => {
      const now = this.clock.now();
      const row = await lockRefreshToken(tx, hash);
      if (!row || row.client_id !== credential.client_id)
        return { kind: 'invalid_grant', message: 'The refresh token is invalid.' } as const;
      if (row.family_revoked) return { kind: 'invalid_grant', message: 'The refresh token has been revoked.' } as const;
      if (row.used_at) {
        // A spent token presented again means it leaked (or a client misbehaves): revoke everything descended from
        // the original grant. Committed even though the caller gets an error.
        await revokeFamily(tx, row.family_id, 'refresh token reused', now);
        await tx.query(`SELECT pg_notify('${AUTH_CHANNEL}', $1)`, [`family:${row.family_id}`]);
        return {
          kind: 'invalid_grant',
          message: 'The refresh token was already used; its token family has been revoked.',
        } as const;
      }
      if (row.expires_at <= now) return { kind: 'invalid_grant', message: 'The refresh token has expired.' } as const;
      const granted = row.scope.split(' ').filter((s) => s !== '');
      const scopes = scope === undefined ? granted : this.parseScope(scope);
      if (scopes.some((s) => !granted.includes(s))) {
        return { kind: 'invalid_scope', message: 'The requested scope exceeds the scope originally granted.' } as const;
      }
      await markRefreshTokenUsed(tx, hash, now);
      const next = await this.newRefreshToken(tx, row.family_id, credential.client_id, now);
      return { kind: 'ok', scopes, familyId: row.family_id, refreshToken: next } as const;
    });
    if (outcome.kind !== 'ok') throw new OAuthError(outcome.kind, outcome.message);
    return this.response(credential, outcome.scopes, {
      familyId: outcome.familyId,
      refreshToken: outcome.refreshToken,
    });
  }

  private async newRefreshToken(
    tx: import('../../platform/db/tx.js').Tx,
    familyId: string,
    clientId: string,
    now: Date,
  ) {
    const token = randomSecret(32);
    await insertRefreshToken(tx, {
      hash: hashSecret(token),
      familyId,
      clientId,
      now,
      expiresAt: new Date(now.getTime() + this.config.refreshTokenTtlSeconds * 1000),
    });
    return token;
  }

  private async response(
    credential: CredentialRow,
    scopes: string[],
    refresh: { familyId: string; refreshToken: string } | undefined,
  ): Promise<TokenResponse> {
    const key = this.keyring.signingKey();
    const nowSeconds = Math.floor(this.clock.nowMs() / 1000);
    const ttl = this.config.accessTokenTtlSeconds;
    const claims: AccessTokenClaims = {
      sub: credential.client_id,
      client_id: credential.client_id,
      tkind: credential.merchant_id ? 'merchant' : 'partner',
      ...(credential.merchant_id ? { mid: credential.merchant_id } : {}),
      ...(credential.partner_id ? { pid: credential.partner_id } : {}),
      ...(refresh ? { fid: refresh.familyId } : {}),
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
    const accessToken = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + ttl)
      .setJti(randomUUID())
      .sign(key.privateKey!);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ttl,
      ...(refresh ? { refresh_token: refresh.refreshToken } : {}),
      // Omitted rather than null when nothing was granted: real clients reject a null scope.
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }
}
