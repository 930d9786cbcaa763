import { SignJWT } from 'jose';
import type { Clock } from '../../platform/clock/clock.js';
import { ValidationError } from '../../platform/http/errors.js';
import type { SigningKeyRing } from '../oauth/signing-keys.js';
import { ALGORITHM } from '../oauth/signing-keys.js';
import type { PartnerPrincipal } from './principals.js';

/** The longest identity token the partner API takes (the issue: about an hour); minted tokens last at most this. */
export const MAX_TOKEN_SECONDS = 3600;

/**
 * The built-in identity provider, so the sandbox needs no outside one: an OpenID discovery document and a JWKS at
 * `/idp`, and short-lived identity tokens the operator mints for a registered principal. Its key ring is its own
 * (`idp-<environment>` in `signing_keys`, sealed under the KEK like the access-token keys, re-wrapped by key
 * rotation): an identity token is never an access token, nor the reverse.
 */
export class BuiltinIdentityProvider {
  readonly issuer: string;

  constructor(
    private readonly keyring: SigningKeyRing,
    private readonly clock: Clock,
    publicBaseUrl: string,
    private readonly defaultAudience: string,
  ) {
    this.issuer = `${publicBaseUrl}/idp`;
  }

  openidConfiguration() {
    return {
      issuer: this.issuer,
      jwks_uri: `${this.issuer}/jwks.json`,
      id_token_signing_alg_values_supported: [ALGORITHM],
      subject_types_supported: ['public'],
      response_types_supported: ['id_token'],
    };
  }

  jwks() {
    return this.keyring.jwks();
  }

  verificationKey(kid: string) {
    return this.keyring.verificationKey(kid);
  }

  /** A token for the principal (which must be this provider's), for `audience` (default: this partner address). */
  async mint(
    principal: PartnerPrincipal,
    options: { audience?: string | null; ttlSeconds?: number | null },
  ): Promise<{ token: string; expiresAt: string }> {
    if (principal.issuer !== this.issuer) {
      throw ValidationError.field(
        'principalId',
        `The principal's issuer is ${principal.issuer}, not the built-in one.`,
      );
    }
    const ttl = options.ttlSeconds ?? MAX_TOKEN_SECONDS;
    const now = Math.floor(this.clock.nowMs() / 1000);
    const key = this.keyring.signingKey();
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(principal.subject)
      .setAudience(options.audience ?? this.defaultAudience)
      .setIssuedAt(now)
      .setExpirationTime(now + ttl)
      .sign(key.privateKey!);
    return { token, expiresAt: new Date((now + ttl) * 1000).toISOString() };
  }
}
