import { defineModule } from '../manifest.js';
import { LinkCheckout } from './link-checkout.js';
import { linkPageRoutes } from './link-page.routes.js';
import { LinkSharing } from './link-sharing.js';
import { linkQueues, linkSchedules } from './links.jobs.js';
import { LinksService } from './links.service.js';
import { paymentLinksRoutes } from './payment-links.routes.js';
import { quickPaymentsRoutes } from './quick-payments.routes.js';

declare module '../services.js' {
  interface Services {
    links: LinksService;
    /** Opens a link's page: a payment session made for it. */
    linkCheckout: LinkCheckout;
    /** Shares a link by email and SMS. */
    linkSharing: LinkSharing;
  }
}

export const linksModule = defineModule({
  folder: 'modules/links',
  summary: 'Quick payments and payment links: shareable links whose page pays through a payment session.',
  tables: ['payment_links', 'payment_link_payments'],
  reads: ['customer_contacts'],
  needs: [
    'merchants',
    'customers',
    'messages',
    'sessions',
    'transactions',
    'sessionSources',
    'sessionPayments',
    'hostedPages',
    'checkoutForms',
  ],
  provides: ['links', 'linkCheckout', 'linkSharing'],
  build({ pool, clock, config }, { merchants, customers, messages, sessions, transactions, sessionSources }) {
    const links = new LinksService({ pool, clock, merchants, customers, publicBaseUrl: config.publicBaseUrl });
    const linkCheckout = new LinkCheckout({ pool, clock, links, sessions, transactions, sources: sessionSources });
    const linkSharing = new LinkSharing({ pool, links, customers, merchants, messages });
    return { links, linkCheckout, linkSharing };
  },
  routes(app, { links, linkSharing, linkCheckout, hostedPages, checkoutForms, sessionPayments }) {
    quickPaymentsRoutes(app, { links, sharing: linkSharing });
    paymentLinksRoutes(app, { links, sharing: linkSharing });
    linkPageRoutes(app, { pages: hostedPages, forms: checkoutForms, sessionPayments, links: linkCheckout });
  },
  queues: ({ links }) => linkQueues(links),
  schedules: linkSchedules,
  events: ['quick_payment.created', 'quick_payment.paid', 'payment_link.created', 'payment_link.updated'],
});
