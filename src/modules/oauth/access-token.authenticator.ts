import { errors as joseErrors, jwtVerify } from 'jose';
import { TtlCache } from '../../platform/cache.js';
import type { Clock } from '../../platform/clock/clock.js';
import type { Listener } from '../../platform/db/listener.js';
import type { Pool } from '../../platform/db/pool.js';
import { ForbiddenError, UnauthorizedError } from '../../platform/http/errors.js';
import type { MerchantPrincipal, PartnerPrincipal, TokenAuthenticator } from '../../platform/http/principal.js';
import type { CredentialRow } from '../api-keys/api-keys.repo.js';
import { type ApiKeysService, AUTH_CHANNEL } from '../api-keys/api-keys.service.js';
import { isFamilyRevoked } from './oauth.repo.js';
import type { AccessTokenClaims } from './oauth.service.js';
import { ALGORITHM, type SigningKeyRing } from './signing-keys.js';

/**
 * How long a node may trust what it read about a key or a token family. Deleting a key also NOTIFYs every node,
 * which drops the entry at once; this bound is the guarantee when a notification is lost (e.g. a reconnect).
 */
export const CREDENTIAL_CACHE_MS = 500;

/** Verified tokens remembered per node; the oldest are dropped beyond this many. */
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * Verifies bearer access tokens: signature (EdDSA only, keys of this environment), issuer, audience and expiry on
 * the business clock; then that the API key still exists and its owner is active, and that the token's refresh
 * family (if any) was not revoked.
 */
export class AccessTokenAuthenticator implements TokenAuthenticator {
  private readonly credentials = new TtlCache<CredentialRow>(CREDENTIAL_CACHE_MS);
  private readonly families = new TtlCache<boolean>(CREDENTIAL_CACHE_MS);
  /**
   * A token's signature never changes, so a token that verified once need not be verified again: its claims are
   * remembered and its expiry is still checked on every use (against the business clock), as are the key and
   * family checks below. Only verified tokens enter, so a forged one can never be served from here.
   */
  private readonly verified = new Map<string, AccessTokenClaims & { exp: number }>();

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly keyring: SigningKeyRing,
    private readonly apiKeys: ApiKeysService,
    private readonly issuer: string,
    private readonly audience: string,
  ) {}

  listen(listener: Listener): void {
    listener.on(
      AUTH_CHANNEL,
      (payload) => {
        if (payload.startsWith('key:')) this.credentials.delete(payload.slice(4));
        else if (payload.startsWith('family:')) this.families.delete(payload.slice(7));
      },
      () => {
        this.credentials.clear();
        this.families.clear();
      },
    );
  }

  async authenticate(accessToken: string): Promise<MerchantPrincipal | PartnerPrincipal> {
    const claims = this.verified.get(accessToken) ?? (await this.verify(accessToken));
    if (claims.exp * 1000 <= this.clock.nowMs()) {
      this.verified.delete(accessToken);
      throw new UnauthorizedError('The access token has expired.');
    }

    const credential = await this.credential(claims.sub);
    if (!credential || credential.deleted)
      throw new UnauthorizedError('The API key behind this access token was deleted.');
    if (claims.fid && (await this.familyRevoked(claims.fid))) {
      throw new UnauthorizedError('The access token was revoked.');
    }
    if (!credential.owner_active) throw new ForbiddenError('The account this API key belongs to is not active.');
    const permissions = credential.permissions;
    if (credential.merchant_id) {
      return {
        kind: 'merchant',
        clientId: credential.client_id,
        merchantId: credential.merchant_id,
        partnerId: credential.merchant_partner_id,
        permissions,
      };
    }
    return { kind: 'partner', clientId: credential.client_id, partnerId: credential.partner_id!, permissions };
  }

  private async verify(accessToken: string): Promise<AccessTokenClaims & { exp: number }> {
    let claims: AccessTokenClaims & { exp: number };
    try {
      const verified = await jwtVerify(
        accessToken,
        async (header) => {
          const key = header.kid ? await this.keyring.verificationKey(header.kid) : undefined;
          if (!key) throw new joseErrors.JWKSNoMatchingKey();
          return key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: this.issuer,
          audience: this.audience,
          typ: 'at+jwt',
          currentDate: this.clock.now(),
          requiredClaims: ['sub', 'exp', 'iat'],
        },
      );
      claims = verified.payload as unknown as AccessTokenClaims & { exp: number };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new UnauthorizedError('The access token has expired.');
      throw new UnauthorizedError('The access token is invalid.');
    }
    if (this.verified.size >= VERIFIED_TOKEN_CACHE_SIZE) {
      this.verified.delete(this.verified.keys().next().value!);
    }
    this.verified.set(accessToken, claims);
    return claims;
  }

  private credential(clientId: string): Promise<CredentialRow | undefined> {
    return this.credentials.get(clientId, () => this.apiKeys.getCredential(clientId));
  }

  private async familyRevoked(familyId: string): Promise<boolean> {
    // An unknown family counts as revoked (isFamilyRevoked answers true).
    return (await this.families.get(familyId, () => isFamilyRevoked(this.pool, familyId)))!;
  }
}
