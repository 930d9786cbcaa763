import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../platform/http/errors.js';
import type { PayerView, SessionPayments } from '../sessions/session-payments.js';
import { SessionMode } from '../sessions/sessions.model.js';
import { checkoutPage, type FrameOptions } from './checkout.page.js';
import { type HostedPages, parseCookie } from './hosted-pages.js';

/** The checkout form's CSRF cookie (its nonce; the form carries the matching token). */
export const CSRF_COOKIE = 'tessera_checkout';

export interface FormExtras {
  errors?: FieldErrors;
  values?: Record<string, string>;
  alert?: string | null;
  frame?: FrameOptions;
}

/**
 * The hosted checkout's form for a session: on the checkout page, in the elements frame, and on a payment link's
 * page (which renders the session made for the visit at once). It posts to /checkout/{id}, where the CSRF cookie's
 * path is.
 */
export class CheckoutForms {
  constructor(
    private readonly pages: HostedPages,
    private readonly sessionPayments: SessionPayments,
  ) {}

  /** The form, with a fresh CSRF pair (the cookie's nonce is kept when the payer already has one). */
  render(request: FastifyRequest, reply: FastifyReply, view: PayerView, status: number, extra: FormExtras) {
    const { pages, sessionPayments } = this;
    const { session, configuration } = view;
    const existing = parseCookie(request.headers.cookie)[CSRF_COOKIE];
    const nonce = existing && /^[A-Za-z0-9_-]{24}$/.test(existing) ? existing : pages.csrf.newNonce();
    if (!extra.frame && nonce !== existing) {
      reply.header(
        'set-cookie',
        `${CSRF_COOKIE}=${nonce}; Path=/checkout; HttpOnly; SameSite=Strict${pages.secureCookie ? '; Secure' : ''}`,
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
      csrf: extra.frame ? '' : pages.csrf.formToken(session.id, nonce),
      action: `/checkout/${session.id}`,
      errors: extra.errors ?? {},
      values: extra.values ?? {},
      alert: extra.alert ?? null,
    };
    const page = checkoutPage(model, extra.frame ? pages.frameAssets : pages.assets, extra.frame);
    const policy = extra.frame
      ? pages.csp({ frameAncestors: extra.frame.parent })
      : pages.csp({ formTargets: returnTarget(view) });
    return pages.html(reply, status, page, policy);
  }
}

/** The session's return URL's origin, which the form may post on to (the redirect after payment). */
function returnTarget(view: PayerView): string {
  const url = view.session.returnUrl;
  if (!url) return '';
  try {
    return ` ${new URL(url).origin}`;
  } catch {
    return '';
  }
}
