import { defineModule } from '../manifest.js';
import { checkoutRoutes } from './checkout.routes.js';

export const checkoutModule = defineModule({
  folder: 'modules/checkout',
  summary: 'The hosted checkout page and the card elements frame: where payers pay sessions.',
  tables: [],
  needs: ['linkCheckout', 'sessionPayments', 'transactions', 'vault'],
  provides: [],
  routes: (app, { linkCheckout, sessionPayments, transactions, vault }, { pool, clock, config }) =>
    checkoutRoutes(app, { links: linkCheckout, sessionPayments, transactions, vault, pool, clock, config }),
});
