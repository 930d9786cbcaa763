import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { ValidationError } from '../../platform/http/errors.js';
import { RateLimiter } from '../../platform/http/rate-limit.js';
import type { App } from '../../platform/http/server.js';
import { loadAssets } from '../checkout/assets.js';
import { type Assets, messagePage } from '../checkout/checkout.page.js';
import type { LinkCheckout, LinkOpening } from './link-checkout.js';
import type { PaymentLink } from './links.model.js';

export interface LinkPageRouteDeps {
  checkout: LinkCheckout;
  pool: Pool;
  clock: Clock;
  config: Pick<Config, 'checkoutRateLimitPerMinute'>;
}

/** A link code as links are made (12 random bytes, base64url): anything else is not looked up. */
const CODE = /^[A-Za-z0-9_-]{16}$/;

/** What a payer reads on a link that cannot be paid, by its status. */
function closedText(link: PaymentLink, now: Date): { title: string; text: string } {
  if (link.status === 'completed' || (link.singleUse && link.paymentCount > 0)) {
    return { title: 'Already paid', text: 'This payment link has been used. Thank you.' };
  }
  if (link.status === 'expired' || (link.expiresAt && link.expiresAt <= now)) {
    return { title: 'Link expired', text: 'This payment link has expired. Please ask the merchant for a new one.' };
  }
  if (link.status === 'created') {
    return { title: 'Not active yet', text: 'This payment link is not active yet. Please try again later.' };
  }
  return { title: 'Link not available', text: 'This payment link is no longer active. Please contact the merchant.' };
}

/**
 * The hosted link page, `/l/{code}` (a quick payment's `url`, a payment link's `shortUrl`): public, the code is the
 * only key. Each visit to an open link opens a short-lived payment session for it and continues in the hosted
 * checkout (303); a link that cannot be paid gets a page saying why. Not part of the API document.
 */
export function linkPageRoutes(app: App, deps: LinkPageRouteDeps): void {
  app.register(async (scope) => {
    const files = loadAssets('/checkout/assets');
    const assets: Assets = { css: files.get('checkout.css')!.url, js: files.get('checkout.js')!.url };
    const byClient = new RateLimiter(deps.pool, deps.clock, [
      { name: 'link-page', windowSeconds: 60, limit: deps.config.checkoutRateLimitPerMinute },
    ]);
    byClient.start();
    scope.addHook('onClose', () => byClient.stop());

    const html = (reply: FastifyReply, status: number, body: string) =>
      reply
        .code(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
        )
        .header('x-frame-options', 'DENY')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .header('cache-control', 'no-store')
        .send(body);

    scope.get<{ Params: { code: string } }>(
      '/l/:code',
      { config: { auth: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const hit = await byClient.hit(`link-page:${request.ip}`);
        if (!hit.allowed) {
          reply.header('retry-after', String(hit.retryAfterSeconds));
          return html(
            reply,
            429,
            messagePage('Too many requests', `Please wait ${hit.retryAfterSeconds} seconds.`, assets),
          );
        }
        const { code } = request.params;
        const link = CODE.test(code) ? await deps.checkout.byCode(code) : undefined;
        if (!link) return html(reply, 404, messagePage('Link not found', 'This payment link is not valid.', assets));
        let opened: LinkOpening;
        try {
          opened = await deps.checkout.open(link);
        } catch (error) {
          // The merchant cannot take the payment now (no active processor, above its maximum).
          if (!(error instanceof ValidationError)) throw error;
          return html(
            reply,
            200,
            messagePage('Link not available', 'This payment cannot be taken online now.', assets),
          );
        }
        if (opened.kind === 'session')
          return reply.code(303).header('location', `/checkout/${opened.sessionId}`).send();
        const { title, text } = closedText(opened.link, deps.clock.now());
        return html(reply, 200, messagePage(title, text, assets));
      },
    );
  });
}
