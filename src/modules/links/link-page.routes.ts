import type { App } from '../../platform/http/server.js';
import type { CheckoutForms } from '../checkout/checkout-form.js';
import type { HostedPages } from '../checkout/hosted-pages.js';
import type { SessionPayments } from '../sessions/session-payments.js';
import type { LinkCheckout } from './link-checkout.js';

export interface LinkPageRouteDeps {
  pages: HostedPages;
  forms: CheckoutForms;
  sessionPayments: SessionPayments;
  links: LinkCheckout;
}

/**
 * A payment link's page, `/l/{code}`: each visit to an open link creates a short-lived session for it and renders
 * its checkout form at once (which posts to /checkout/{id}); a link that cannot be paid says why. Public, counted
 * in the checkout's budget per client address. Not part of the API document (HTML).
 */
export function linkPageRoutes(app: App, deps: LinkPageRouteDeps): void {
  const { pages, forms, sessionPayments, links } = deps;
  app.get<{ Params: { code: string } }>(
    '/l/:code',
    { config: { auth: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const wait = await pages.limit('checkout', request);
      if (wait !== undefined) return pages.tooMany(reply, wait);
      const opened = await links.openByCode(request.params.code);
      if ('status' in opened) return pages.message(reply, opened.status, opened.title, opened.text);
      return forms.render(request, reply, await sessionPayments.viewOf(opened.session), 200, {});
    },
  );
}
