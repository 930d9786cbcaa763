import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import type { Clock } from '../../platform/clock/clock.js';
import type { BuiltinIdentityProvider } from './identity-provider.js';
import { MAX_TOKEN_SECONDS } from './identity-provider.js';

/** Asymmetric algorithms only: a token signed with a shared secret (HS256 with a public key as secret) is refused. */
const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];
const CLOCK_SKEW_SECONDS = 60;

export class IdentityTokenError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  expiresAt: Date;
}

/**
 * Verifies service-account identity tokens with jose: the issuer must be one this deployment trusts
 * (PARTNER_IDENTITY_ISSUERS, and the built-in provider when enabled), the signature checks against that issuer's
 * JWKS (fetched, cached and refetched for an unknown kid: rotation is followed), `exp` is required and near,
 * the lifetime at most an hour, the audience this environment's partner address. The caller is the `sub`, never an
 * email claim.
 */
export class IdentityTokenVerifier {
  private readonly remote = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    private readonly clock: Clock,
    private readonly audience: string,
    issuers: ReadonlyArray<{ issuer: string; jwksUri: string }>,
    private readonly builtin: BuiltinIdentityProvider | undefined,
  ) {
    for (const { issuer, jwksUri } of issuers) {
      this.remote.set(
        issuer,
        createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 5000, cooldownDuration: 10_000, cacheMaxAge: 600_000 }),
      );
    }
  }

  async verify(token: string): Promise<VerifiedIdentity> {
    let issuer: string | undefined;
    try {
      decodeProtectedHeader(token);
      issuer = decodeJwt(token).iss;
    } catch {
      throw new IdentityTokenError('The bearer token is not a JWT.', 'invalid_token');
    }
    const options = {
      algorithms: ALGORITHMS,
      issuer,
      audience: this.audience,
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: this.clock.now(),
      requiredClaims: ['exp', 'iat', 'sub'],
    };
    let payload: JWTPayload;
    try {
      if (issuer && this.builtin && issuer === this.builtin.issuer) {
        const builtin = this.builtin;
        ({ payload } = await jwtVerify(
          token,
          async (header: { kid?: string }) => {
            const key = header.kid ? await builtin.verificationKey(header.kid) : undefined;
            if (!key) throw new IdentityTokenError('The token was signed with an unknown key.', 'invalid_token');
            return key;
          },
          options,
        ));
      } else {
        const keys = issuer ? this.remote.get(issuer) : undefined;
        if (!keys)
          throw new IdentityTokenError('The token comes from an issuer this API does not trust.', 'invalid_token');
        ({ payload } = await jwtVerify(token, keys, options));
      }
    } catch (error) {
      if (error instanceof IdentityTokenError) throw error;
      const code = (error as { code?: string }).code;
      if (code === 'ERR_JWT_EXPIRED') throw new IdentityTokenError('The identity token has expired.', 'token_expired');
      if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && (error as { claim?: string }).claim === 'aud') {
        throw new IdentityTokenError('The identity token is for another audience.', 'invalid_audience');
      }
      throw new IdentityTokenError('The identity token is not valid.', 'invalid_token');
    }
    if (payload.exp! - payload.iat! > MAX_TOKEN_SECONDS + CLOCK_SKEW_SECONDS) {
      throw new IdentityTokenError('The identity token lives longer than an hour.', 'invalid_token');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw new IdentityTokenError('The identity token has no subject.', 'invalid_token');
    }
    return { issuer: payload.iss!, subject: payload.sub, expiresAt: new Date(payload.exp! * 1000) };
  }
}
