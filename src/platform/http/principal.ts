import { ForbiddenError } from './errors.js';
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
/** `identity`: the partner portfolio API's identity tokens, checked by its own scope (modules/partner-api). */
export type AuthPolicy = 'public' | 'operator' | 'identity' | { tokens: readonly TokenKind[]; permission?: string };

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

/** The request as the tenant accessors see it: the authenticated principal and the route's declared policy. */
interface AuthenticatedRequest {
  principal?: Principal | undefined;
  routeOptions: { config: { auth?: AuthPolicy } };
}

function caller<K extends TokenKind>(request: AuthenticatedRequest, kinds: readonly K[]) {
  const policy = request.routeOptions.config.auth ?? MERCHANT_ONLY;
  const declared = typeof policy === 'object' ? policy.tokens : [];
  // A route reading a kind of caller its policy does not admit is a programming error, found by the first request.
  if (!kinds.some((kind) => declared.includes(kind))) {
    throw new Error(`This route reads a ${kinds.join(' or ')} caller but its policy admits ${declared.join(', ')}`);
  }
  const principal = request.principal;
  if (!principal || !kinds.includes(principal.kind as K)) {
    throw new ForbiddenError(`This endpoint requires a ${kinds.join(' or ')} token.`);
  }
  return principal as Extract<Principal, { kind: K }>;
}

/** The calling merchant, on a route whose policy admits merchant tokens (the auth hook has checked the token). */
export function merchantOf(request: AuthenticatedRequest): MerchantPrincipal {
  return caller(request, ['merchant']);
}

/** The calling partner, on a route whose policy admits partner tokens. */
export function partnerOf(request: AuthenticatedRequest): PartnerPrincipal {
  return caller(request, ['partner']);
}

/** The calling merchant or partner, on a route that admits both. */
export function tenantOf(request: AuthenticatedRequest): MerchantPrincipal | PartnerPrincipal {
  return caller(request, ['merchant', 'partner']);
}
