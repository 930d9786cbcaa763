import { defineModule } from '../manifest.js';
import { checkoutRoutes } from './checkout.routes.js';
import { CheckoutForms } from './checkout-form.js';
import { HostedPages } from './hosted-pages.js';

declare module '../services.js' {
  interface Services {
    /** What every page a payer opens shares: assets, security headers, per-address budgets, CSRF tokens. */
    hostedPages: HostedPages;
    /** The checkout form for a session (the checkout page, the elements frame, a payment link's page). */
    checkoutForms: CheckoutForms;
  }
}

/** The deployment secret the payer pages' CSRF tokens are made with. */
const CSRF_SECRET = 'checkout-csrf';

export const checkoutModule = defineModule({
  folder: 'modules/checkout',
  summary: 'The payer pages: hosted checkout and card elements frame, and what every hosted page shares.',
  tables: [],
  needs: ['dataKeys', 'sessionPayments', 'transactions'],
  provides: ['hostedPages', 'checkoutForms'],
  async build({ pool, clock, config, onStop }, { dataKeys, sessionPayments }) {
    const csrfSecret = await dataKeys.deploymentSecret(CSRF_SECRET);
    const hostedPages = new HostedPages({ pool, clock, config, csrfSecret, onStop });
    return { hostedPages, checkoutForms: new CheckoutForms(hostedPages, sessionPayments) };
  },
  routes: (app, { hostedPages, checkoutForms, sessionPayments, transactions }, { clock, config }) =>
    checkoutRoutes(app, { pages: hostedPages, forms: checkoutForms, sessionPayments, transactions, clock, config }),
});
