import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import { isUuid } from '../../platform/crypto/ids.js';
import type { Pool } from '../../platform/db/pool.js';
import { dictionary } from '../../platform/dictionary.js';
import type { FieldErrors } from '../../platform/http/errors.js';
import { RateLimiter } from '../../platform/http/rate-limit.js';
import type { App } from '../../platform/http/server.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { PayerView, PayOutcome, SessionPayments } from '../sessions/session-payments.js';
import type { PaymentSession } from '../sessions/sessions.model.js';
import { SESSION_MODE_NAMES, SessionMode, SessionStatus } from '../sessions/sessions.model.js';
import type { VaultService } from '../vault/vault.service.js';
import { loadAssets, loadElementsScript } from './assets.js';
import { type Assets, busyPage, checkoutPage, endedPage, type FrameOptions, messagePage } from './checkout.page.js';
import { CsrfTokens } from './csrf.js';
import { echoed, formErrors, readPaymentForm } from './payment-form.js';

const CSRF_COOKIE = 'tessera_checkout';
const CSRF_SECRET = 'checkout-csrf';
const FORM_LIMIT = 16 * 1024;

/**
 * The payer's side: the hosted checkout page (server-rendered, works without JavaScript), the hosted elements
 * (a script for the merchant's page and the iframe it mounts) and their static files. No token: the session id in
 * the URL is the payer's only identifier. Not part of the API document (HTML, not JSON).
 */
/**
 * Opens a payment link's page (links/link-checkout.ts): a payment session just created for it, or why it cannot be
 * paid (a page to show).
 */
export interface LinkOpener {
  openByCode(code: string): Promise<{ session: PaymentSession } | { status: number; title: string; text: string }>;
}

/** What these routes use. */
export interface CheckoutRouteDeps {
  sessionPayments: SessionPayments;
  transactions: TransactionsService;
  vault: VaultService;
  pool: Pool;
  clock: Clock;
  config: Pick<Config, 'publicBaseUrl' | 'checkoutRateLimitPerMinute' | 'checkoutSubmissionsPerSessionPerMinute'>;
  /** Payment links' pages (`/l/{code}`), served here so a visit renders the checkout at once. */
  links?: LinkOpener;
}

export function checkoutRoutes(app: App, deps: CheckoutRouteDeps): void {
  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: FORM_LIMIT });
    const { sessionPayments, transactions } = deps;
    const csrf = new CsrfTokens(await deps.vault.dataKeys.deploymentSecret(CSRF_SECRET));
    const byClient = new RateLimiter(deps.pool, deps.clock, [
      { name: 'checkout', windowSeconds: 60, limit: deps.config.checkoutRateLimitPerMinute },
    ]);
    const bySession = new RateLimiter(deps.pool, deps.clock, [
      { name: 'checkout-session', windowSeconds: 60, limit: deps.config.checkoutSubmissionsPerSessionPerMinute },
    ]);
    byClient.start();
    bySession.start();
    scope.addHook('onClose', async () => {
      await Promise.all([byClient.stop(), bySession.stop()]);
    });

    const ownOrigin = new URL(deps.config.publicBaseUrl).origin;
    const secureCookie = deps.config.publicBaseUrl.startsWith('https://');
    const files = loadAssets('/checkout/assets');
    const assets: Assets = { css: files.get('checkout.css')!.url, js: files.get('checkout.js')!.url };
    const frameAssets: Assets = { css: assets.css, js: files.get('frame.js')!.url };
    const elementsScript = loadElementsScript();
    const hidden = { hide: true } as const;
    const config = { auth: 'public' as const };

    const csp = (formTargets: string, frameAncestors: string) =>
      [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        `form-action 'self'${formTargets}`,
        `frame-ancestors ${frameAncestors}`,
        "base-uri 'none'",
      ].join('; ');

    const html = (reply: FastifyReply, status: number, body: string, policy = csp('', "'none'")) => {
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
    };

    /** One budget per client address for every payer request; a second one per session for payments. */
    const limited = async (request: FastifyRequest, sessionId?: string): Promise<number | undefined> => {
      const client = await byClient.hit(`checkout:${request.ip}`);
      if (!client.allowed) return client.retryAfterSeconds;
      if (sessionId) {
        const session = await bySession.hit(`session:${sessionId}`);
        if (!session.allowed) return session.retryAfterSeconds;
      }
      return undefined;
    };
    const tooMany = (reply: FastifyReply, retryAfter: number) =>
      html(
        reply.header('retry-after', String(retryAfter)),
        429,
        messagePage('Too many requests', `Please wait ${retryAfter} seconds and try again.`, assets),
      );

    const returnTarget = (view: PayerView) => {
      const url = view.session.returnUrl;
      if (!url) return '';
      try {
        return ` ${new URL(url).origin}`;
      } catch {
        return '';
      }
    };

    const paidSummary = async (view: PayerView) => {
      const s = view.session;
      const t = s.transactionId ? await transactions.get(s.merchantId, s.transactionId) : undefined;
      return { totalCents: t?.totalCents ?? 0, transactionId: t?.id ?? null, mask: t?.panMask ?? null };
    };

    /** The form, with a fresh CSRF pair (the cookie's nonce is kept when the payer already has one). */
    const renderForm = (
      request: FastifyRequest,
      reply: FastifyReply,
      view: PayerView,
      status: number,
      extra: { errors?: FieldErrors; values?: Record<string, string>; alert?: string | null; frame?: FrameOptions },
    ) => {
      const { session, configuration } = view;
      const existing = parseCookie(request.headers.cookie)[CSRF_COOKIE];
      const nonce = existing && /^[A-Za-z0-9_-]{24}$/.test(existing) ? existing : csrf.newNonce();
      if (!extra.frame && nonce !== existing) {
        reply.header(
          'set-cookie',
          `${CSRF_COOKIE}=${nonce}; Path=/checkout; HttpOnly; SameSite=Strict${secureCookie ? '; Secure' : ''}`,
        );
      }
      const paying = session.mode !== SessionMode.SaveMethod && session.amountCents !== null;
      const model = {
        session,
        configuration,
        card:
          paying && session.card.enabled
            ? sessionPayments.quote(session, configuration, 'credit', session.amountCents!)
            : null,
        ach:
          paying && session.ach.enabled
            ? sessionPayments.quote(session, configuration, 'ach', session.amountCents!)
            : null,
        csrf: extra.frame ? '' : csrf.formToken(session.id, nonce),
        action: `/checkout/${session.id}`,
        errors: extra.errors ?? {},
        values: extra.values ?? {},
        alert: extra.alert ?? null,
      };
      const page = checkoutPage(model, extra.frame ? frameAssets : assets, extra.frame);
      const policy = extra.frame ? csp('', extra.frame.parent) : csp(returnTarget(view), "'none'");
      return html(reply, status, page, policy);
    };

    /** What the payer sees when the session cannot take a payment now: ended, or a payment in flight. */
    const notPayable = async (reply: FastifyReply, view: PayerView, policy?: string) => {
      const s = view.session;
      if (s.status === SessionStatus.Created) return html(reply, 200, busyPage(assets, `/checkout/${s.id}`), policy);
      return html(reply, 200, endedPage(s, view.configuration, assets, await paidSummary(view)), policy);
    };
    const inFlight = (view: PayerView) =>
      view.session.awaitingOutcome ||
      (view.session.processingUntil !== null && view.session.processingUntil > deps.clock.now());

    const missing = (reply: FastifyReply) =>
      html(reply, 404, messagePage('Payment not found', 'This payment link is not valid.', assets));

    // A payment link's page: each visit to an open link creates a short-lived session for it and renders its
    // checkout right here (the form posts to /checkout/{id}, where the CSRF cookie's path is).
    const links = deps.links;
    if (links) {
      scope.get<{ Params: { code: string } }>('/l/:code', { config, schema: hidden }, async (request, reply) => {
        const wait = await limited(request);
        if (wait) return tooMany(reply, wait);
        const opened = await links.openByCode(request.params.code);
        if ('status' in opened) return html(reply, opened.status, messagePage(opened.title, opened.text, assets));
        return renderForm(request, reply, await sessionPayments.viewOf(opened.session), 200, {});
      });
    }

    scope.get<{ Params: { id: string } }>('/checkout/:id', { config, schema: hidden }, async (request, reply) => {
      const { id } = request.params;
      const wait = await limited(request);
      if (wait) return tooMany(reply, wait);
      const view = isUuid(id) ? await sessionPayments.view(id) : undefined;
      if (!view) return missing(reply);
      if (!view.open || inFlight(view)) return notPayable(reply, view);
      return renderForm(request, reply, view, 200, {});
    });

    scope.post<{ Params: { id: string }; Body: Record<string, string> }>(
      '/checkout/:id',
      { config, schema: hidden },
      async (request, reply) => {
        const { id } = request.params;
        if (!isUuid(id)) return missing(reply);
        const wait = await limited(request, id);
        if (wait) return tooMany(reply, wait);
        const view = await sessionPayments.view(id);
        if (!view) return missing(reply);
        if (!view.open) return notPayable(reply, view);
        const form = formFields(request.body);
        const values = echoed(form);
        const origin = request.headers.origin;
        const nonce = parseCookie(request.headers.cookie)[CSRF_COOKIE];
        if (
          (origin && origin !== ownOrigin && origin !== requestOrigin(request)) ||
          !csrf.checkForm(id, nonce, form.csrf)
        ) {
          return renderForm(request, reply, view, 403, {
            values,
            alert: 'This page had expired. Please check the details and submit again.',
          });
        }
        const read = readPaymentForm(view.session, form, request.ip);
        if ('errors' in read) return renderForm(request, reply, view, 400, { values, errors: read.errors });
        const outcome = await sessionPayments.pay(id, read.payment);
        return answerForm(request, reply, view, outcome, values, read.payment.method);
      },
    );

    const answerForm = async (
      request: FastifyRequest,
      reply: FastifyReply,
      view: PayerView,
      outcome: PayOutcome,
      values: Record<string, string>,
      method: 'card' | 'ach',
    ) => {
      switch (outcome.kind) {
        case 'completed': {
          const done = { ...view, session: outcome.session, open: false };
          if (outcome.session.returnUrl) return reply.code(303).header('location', outcome.session.returnUrl).send();
          return notPayable(reply, done);
        }
        case 'declined':
          return renderForm(request, reply, { ...view, session: outcome.session }, 200, {
            values,
            alert: `${method === 'card' ? 'Your card was declined' : 'The payment was not accepted'}: ${outcome.message} Please try ${
              method === 'card' ? 'another card' : 'another account'
            }.`,
          });
        case 'invalid': {
          const { fields, other } = formErrors(method, outcome.errors);
          return renderForm(request, reply, view, 400, { values, errors: fields, alert: other.join(' ') || null });
        }
        case 'busy':
          return html(reply, 200, busyPage(assets, `/checkout/${view.session.id}`));
        case 'ended':
          return notPayable(reply, { ...view, session: outcome.session, open: false });
        case 'missing':
          return missing(reply);
      }
    };

    scope.get<{ Params: { file: string } }>(
      '/checkout/assets/:file',
      { config, schema: hidden },
      async (request, reply) => {
        const asset = [...files.values()].find((a) => a.url === `/checkout/assets/${request.params.file}`);
        if (!asset) return reply.code(404).header('content-type', 'text/plain').send('Not found');
        reply
          .header('content-type', asset.contentType)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('etag', asset.etag)
          .header('x-content-type-options', 'nosniff');
        if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.send(asset.body);
      },
    );

    scope.get('/elements/v1/elements.js', { config, schema: hidden }, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff')
        .send(elementsScript),
    );

    scope.get<{ Params: { id: string }; Querystring: { parent?: string } }>(
      '/elements/v1/frame/:id',
      { config, schema: hidden },
      async (request, reply) => {
        const { id } = request.params;
        const wait = await limited(request);
        if (wait) return tooMany(reply, wait);
        const parent = parentOrigin(request.query.parent);
        if (!parent) {
          return html(
            reply,
            400,
            messagePage('Cannot show the payment form', 'The embedding page is not valid.', assets),
          );
        }
        const view = isUuid(id) ? await sessionPayments.view(id) : undefined;
        const policy = csp('', parent);
        if (!view)
          return html(reply, 404, messagePage('Payment not found', 'This payment is not valid.', assets), policy);
        if (!view.open || inFlight(view)) return notPayable(reply, view, policy);
        return renderForm(request, reply, view, 200, {
          frame: { parent, token: csrf.frameToken(id), payUrl: `/elements/v1/frame/${id}/pay` },
        });
      },
    );

    scope.post<{ Params: { id: string }; Body: Record<string, string> }>(
      '/elements/v1/frame/:id/pay',
      {
        config,
        bodyLimit: FORM_LIMIT,
        schema: {
          hide: true,
          body: Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 200 }), { maxProperties: 40 }),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const origin = request.headers.origin;
        const json = (status: number, body: Record<string, unknown>) =>
          reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
        if (!isUuid(id)) return json(404, { status: 'missing', message: 'This payment is not valid.' });
        if (
          (origin !== ownOrigin && origin !== requestOrigin(request)) ||
          !csrf.checkFrame(id, headerValue(request.headers['x-tessera-frame']))
        ) {
          return json(403, { status: 'forbidden', message: 'This payment form is not valid; reload the page.' });
        }
        const wait = await limited(request, id);
        if (wait) {
          reply.header('retry-after', String(wait));
          return json(429, { status: 'rate_limited', message: `Too many attempts; wait ${wait} seconds.` });
        }
        const view = await sessionPayments.view(id);
        if (!view) return json(404, { status: 'missing', message: 'This payment is not valid.' });
        if (!view.open) return json(200, { status: 'ended', message: 'This payment is no longer available.' });
        const read = readPaymentForm(view.session, formFields(request.body), request.ip);
        if ('errors' in read) return json(400, { status: 'invalid', errors: read.errors });
        const outcome = await sessionPayments.pay(id, read.payment);
        switch (outcome.kind) {
          case 'completed':
            return json(200, {
              status: 'completed',
              paymentSessionId: id,
              mode: SESSION_MODE_NAMES[outcome.session.mode],
              transactionId: outcome.session.transactionId,
              vaultedPaymentMethodId: outcome.session.vaultedPaymentMethodId,
            });
          case 'declined':
            return json(200, { status: 'declined', message: `Declined: ${outcome.message}` });
          case 'invalid': {
            const { fields, other } = formErrors(read.payment.method, outcome.errors);
            return json(400, { status: 'invalid', errors: fields, message: other.join(' ') || null });
          }
          case 'busy':
            return json(202, { status: 'busy', message: 'The payment is being processed.' });
          case 'ended':
            return json(200, { status: 'ended', message: 'This payment is no longer available.' });
          case 'missing':
            return json(404, { status: 'missing', message: 'This payment is not valid.' });
        }
      },
    );
  });
}

function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = dictionary();
  if (!body || typeof body !== 'object') return out;
  for (const [key, value] of Object.entries(body)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first.slice(0, 200);
  }
  return out;
}

function parseCookie(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = dictionary();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

// A host name (labels of letters, digits and hyphens), an IPv4 address, or a bracketed IPv6 one: never a wildcard
// (`https://*` would become `frame-ancestors https://*`, any site at all) nor anything else a CSP source list reads.
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const IPV6 = /^\[[0-9a-f:.]+\]$/i;

/** The embedding page's origin as the frame was asked to report to: an http(s) origin of one host, nothing more. */
function parentOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (url.origin !== value || !(HOST_NAME.test(url.hostname) || IPV6.test(url.hostname))) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}
