import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { dictionary } from '../../platform/dictionary.js';
import { RateLimiter } from '../../platform/http/rate-limit.js';
import { type Asset, loadAssets } from './assets.js';
import { type Assets, messagePage } from './checkout.page.js';
import { CsrfTokens } from './csrf.js';

/** Where a hosted page may post its form and who may frame it (its content security policy). */
export interface PagePolicy {
  /** Origins the page's form may post to besides its own (a session's return URL). */
  formTargets?: string;
  /** `'none'`, or the one origin that embeds the elements frame. */
  frameAncestors?: string;
  /** Whether the page runs its script (the checkout does; the invoice page has none). */
  scripts?: boolean;
}

export interface HostedPagesDeps {
  pool: Pool;
  clock: Clock;
  config: Pick<Config, 'publicBaseUrl' | 'checkoutRateLimitPerMinute'>;
  /** The deployment secret the CSRF tokens are made with (the same on every node). */
  csrfSecret: Buffer;
  /** Limiters stop with the node. */
  onStop(close: () => Promise<void> | void): void;
}

/**
 * What every page a payer opens shares (the hosted checkout, the elements frame, the invoice page, a payment link's
 * page): their styles and scripts, the security headers every answer carries, one request budget per client address
 * (per kind of page), and the CSRF tokens of their forms. Built once per node by the checkout module; the modules
 * that serve such pages take it from there.
 */
export class HostedPages {
  readonly files: Map<string, Asset>;
  /** The page's styles and script. */
  readonly assets: Assets;
  /** The elements frame's: the same styles, its own script. */
  readonly frameAssets: Assets;
  readonly csrf: CsrfTokens;
  readonly ownOrigin: string;
  readonly secureCookie: boolean;
  private readonly limiters = new Map<string, RateLimiter>();

  constructor(private readonly deps: HostedPagesDeps) {
    this.files = loadAssets('/checkout/assets');
    this.assets = { css: this.files.get('checkout.css')!.url, js: this.files.get('checkout.js')!.url };
    this.frameAssets = { css: this.assets.css, js: this.files.get('frame.js')!.url };
    this.csrf = new CsrfTokens(deps.csrfSecret);
    this.ownOrigin = new URL(deps.config.publicBaseUrl).origin;
    this.secureCookie = deps.config.publicBaseUrl.startsWith('https://');
  }

  /** The content security policy of a page: nothing but its own files, posting and framing only as allowed. */
  csp(policy: PagePolicy = {}): string {
    const scripts = policy.scripts ?? true;
    return [
      "default-src 'none'",
      ...(scripts ? ["script-src 'self'"] : []),
      "style-src 'self'",
      "img-src 'self' data:",
      ...(scripts ? ["connect-src 'self'"] : []),
      `form-action 'self'${policy.formTargets ?? ''}`,
      `frame-ancestors ${policy.frameAncestors ?? "'none'"}`,
      "base-uri 'none'",
    ].join('; ');
  }

  /** An HTML answer with the headers every hosted page carries. */
  html(reply: FastifyReply, status: number, body: string, policy = this.csp()): FastifyReply {
    // Older browsers without frame-ancestors get the same answer. Only when framing is refused: Fastify sends an
    // undefined header value as an empty header, which the elements frame must not carry.
    if (policy.includes("frame-ancestors 'none'")) reply.header('x-frame-options', 'DENY');
    return reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', policy)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(body);
  }

  message(reply: FastifyReply, status: number, title: string, text: string, policy?: string): FastifyReply {
    return this.html(reply, status, messagePage(title, text, this.assets), policy);
  }

  /**
   * A request budget per client address for one kind of page (`bucket`): undefined while within it, else the
   * seconds to wait. Counted in PostgreSQL, so it holds across nodes.
   */
  async limit(bucket: string, request: FastifyRequest, limit = this.deps.config.checkoutRateLimitPerMinute) {
    const hit = await this.limiter(bucket, limit).hit(`${bucket}:${request.ip}`);
    return hit.allowed ? undefined : hit.retryAfterSeconds;
  }

  /** The answer when the budget is spent: a page asking to wait. */
  tooMany(reply: FastifyReply, retryAfter: number, text = `Please wait ${retryAfter} seconds and try again.`) {
    return this.message(reply.header('retry-after', String(retryAfter)), 429, 'Too many requests', text);
  }

  /** One limiter per bucket and limit, started when first used and stopped with the node. */
  limiter(bucket: string, limit: number): RateLimiter {
    const name = `${bucket}/${limit}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiter(this.deps.pool, this.deps.clock, [{ name: bucket, windowSeconds: 60, limit }]);
      limiter.start();
      this.deps.onStop(() => limiter!.stop());
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Whether a form post comes from our own pages: no Origin header (old browsers), ours, or the request's own. */
  sameOrigin(request: FastifyRequest, required = false): boolean {
    const origin = request.headers.origin;
    if (!origin) return !required;
    return origin === this.ownOrigin || origin === `${request.protocol}://${request.host}`;
  }
}

export function parseCookie(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = dictionary();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}
