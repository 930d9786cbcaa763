/** Who is calling. Resolved once per request by the auth hook, then passed explicitly into every service call. */
export type Principal = MerchantPrincipal | PartnerPrincipal | OperatorPrincipal;

export interface MerchantPrincipal {
  kind: 'merchant';
  clientId: string;
  merchantId: string;
  /** The partner the merchant belongs to, or null for a standalone merchant. */
  partnerId: string | null;
  permissions: readonly string[];
}

export interface PartnerPrincipal {
  kind: 'partner';
  clientId: string;
  partnerId: string;
  permissions: readonly string[];
}

export interface OperatorPrincipal {
  kind: 'operator';
}

export type TokenKind = 'merchant' | 'partner';

/**
 * What a route accepts. `public` needs nothing; `operator` needs ADMIN_TOKEN; otherwise a bearer access token of one
 * of the listed kinds (default: merchant only), optionally carrying a permission.
 */
export type AuthPolicy = 'public' | 'operator' | { tokens: readonly TokenKind[]; permission?: string };

export const MERCHANT_ONLY: AuthPolicy = { tokens: ['merchant'] };
export const PARTNER_ONLY: AuthPolicy = { tokens: ['partner'] };
export const MERCHANT_OR_PARTNER: AuthPolicy = { tokens: ['merchant', 'partner'] };

/** The stable key under which rate limits and idempotency keys are counted. */
export function principalKey(principal: Principal): string {
  switch (principal.kind) {
    case 'merchant':
      return `merchant:${principal.merchantId}`;
    case 'partner':
      return `partner:${principal.partnerId}`;
    case 'operator':
      return 'operator';
  }
}

export interface TokenAuthenticator {
  /** Resolves a bearer access token, or throws UnauthorizedError / ForbiddenError. */
  authenticate(accessToken: string): Promise<MerchantPrincipal | PartnerPrincipal>;
}

export interface OperatorAuthenticator {
  isOperatorToken(token: string): Promise<boolean>;
}
