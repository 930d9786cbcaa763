import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import { isUuid } from '../../platform/crypto/ids.js';
import { dictionary } from '../../platform/dictionary.js';
import type { App } from '../../platform/http/server.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { PayerView, PayOutcome, SessionPayments } from '../sessions/session-payments.js';
import { SESSION_MODE_NAMES, SessionStatus } from '../sessions/sessions.model.js';
import { loadElementsScript } from './assets.js';
import { busyPage, endedPage } from './checkout.page.js';
import { type CheckoutForms, CSRF_COOKIE } from './checkout-form.js';
import { type HostedPages, parseCookie } from './hosted-pages.js';
import { echoed, formErrors, readPaymentForm } from './payment-form.js';

export const FORM_LIMIT = 16 * 1024;

/** What these routes use. */
export interface CheckoutRouteDeps {
  pages: HostedPages;
  forms: CheckoutForms;
  sessionPayments: SessionPayments;
  transactions: TransactionsService;
  clock: Clock;
  config: Pick<Config, 'checkoutSubmissionsPerSessionPerMinute'>;
}

/**
 * The payer's side: the hosted checkout page (server-rendered, works without JavaScript), the hosted elements
 * (a script for the merchant's page and the iframe it mounts) and their static files. No token: the session id in
 * the URL is the payer's only identifier. Not part of the API document (HTML, not JSON).
 */
export function checkoutRoutes(app: App, deps: CheckoutRouteDeps): void {
  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: FORM_LIMIT });
    const { pages, forms, sessionPayments, transactions } = deps;
    const bySession = pages.limiter('checkout-session', deps.config.checkoutSubmissionsPerSessionPerMinute);
    const assets = pages.assets;
    const elementsScript = loadElementsScript();
    const hidden = { hide: true } as const;
    const config = { auth: 'public' as const };
    const html = pages.html.bind(pages);
    const renderForm = forms.render.bind(forms);

    /** One budget per client address for every payer request; a second one per session for payments. */
    const limited = async (request: FastifyRequest, sessionId?: string): Promise<number | undefined> => {
      const wait = await pages.limit('checkout', request);
      if (wait !== undefined) return wait;
      if (sessionId) {
        const session = await bySession.hit(`session:${sessionId}`);
        if (!session.allowed) return session.retryAfterSeconds;
      }
      return undefined;
    };
    const tooMany = (reply: FastifyReply, retryAfter: number) => pages.tooMany(reply, retryAfter);

    const paidSummary = async (view: PayerView) => {
      const s = view.session;
      const t = s.transactionId ? await transactions.get(s.merchantId, s.transactionId) : undefined;
      return { totalCents: t?.totalCents ?? 0, transactionId: t?.id ?? null, mask: t?.panMask ?? null };
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
      pages.message(reply, 404, 'Payment not found', 'This payment link is not valid.');

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
        const nonce = parseCookie(request.headers.cookie)[CSRF_COOKIE];
        if (!pages.sameOrigin(request) || !pages.csrf.checkForm(id, nonce, form.csrf)) {
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
        const asset = [...pages.files.values()].find((a) => a.url === `/checkout/assets/${request.params.file}`);
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
          return pages.message(reply, 400, 'Cannot show the payment form', 'The embedding page is not valid.');
        }
        const view = isUuid(id) ? await sessionPayments.view(id) : undefined;
        const policy = pages.csp({ frameAncestors: parent });
        if (!view) return pages.message(reply, 404, 'Payment not found', 'This payment is not valid.', policy);
        if (!view.open || inFlight(view)) return notPayable(reply, view, policy);
        return renderForm(request, reply, view, 200, {
          frame: { parent, token: pages.csrf.frameToken(id), payUrl: `/elements/v1/frame/${id}/pay` },
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
        const json = (status: number, body: Record<string, unknown>) =>
          reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
        if (!isUuid(id)) return json(404, { status: 'missing', message: 'This payment is not valid.' });
        if (
          !pages.sameOrigin(request, true) ||
          !pages.csrf.checkFrame(id, headerValue(request.headers['x-tessera-frame']))
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

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
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
