import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Stateless CSRF tokens for the payer's pages, valid on every node. The checkout form uses the double-submit
 * pattern: a random nonce in a SameSite=Strict, HttpOnly cookie and, in the form, an HMAC of the session id and that
 * nonce under a deployment secret. A cross-site post carries no cookie (SameSite) and cannot read the form, so it
 * cannot produce the pair. The elements frame, which lives in a third-party context where cookies are unreliable,
 * sends a frame token (an HMAC of the session id) in a custom header instead: a cross-origin page can neither read
 * the frame nor send that header without a CORS preflight we never grant.
 */
export class CsrfTokens {
  constructor(private readonly secret: Buffer) {}

  newNonce(): string {
    return randomBytes(18).toString('base64url');
  }

  formToken(sessionId: string, nonce: string): string {
    return this.mac(`form|${sessionId}|${nonce}`);
  }

  checkForm(sessionId: string, nonce: string | undefined, token: string | undefined): boolean {
    if (!nonce || !token) return false;
    return same(this.formToken(sessionId, nonce), token);
  }

  frameToken(sessionId: string): string {
    return this.mac(`frame|${sessionId}`);
  }

  checkFrame(sessionId: string, token: string | undefined): boolean {
    return Boolean(token) && same(this.frameToken(sessionId), token!);
  }

  private mac(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
}

function same(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
