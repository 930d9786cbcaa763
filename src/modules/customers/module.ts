import { defineModule } from '../manifest.js';
import { customersRoutes } from './customers.routes.js';
import { CustomersService } from './customers.service.js';

declare module '../services.js' {
  interface Services {
    customers: CustomersService;
  }
}

export const customersModule = defineModule({
  folder: 'modules/customers',
  summary: "Customers: a merchant's payers, with their saved payment methods (kept in the vault).",
  tables: ['customers'],
  publishes: ['customer_contacts'],
  reads: ['transaction_amounts', 'customer_payment_methods', 'customer_subscriptions'],
  needs: ['vault'],
  provides: ['customers'],
  build: ({ pool, clock }, { vault }) => ({ customers: new CustomersService(pool, clock, vault) }),
  routes: (app, { customers, vault }) => customersRoutes(app, { customers, vault }),
});
