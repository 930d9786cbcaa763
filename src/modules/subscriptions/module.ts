import { defineModule } from '../manifest.js';
import { subscriptionQueues, subscriptionSchedules } from './subscriptions.jobs.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import { SubscriptionsService } from './subscriptions.service.js';

declare module '../services.js' {
  interface Services {
    subscriptions: SubscriptionsService;
  }
}

export const subscriptionsModule = defineModule({
  folder: 'modules/subscriptions',
  summary: 'Subscriptions: schedules of installments billed on the business clock, with dunning retries.',
  tables: ['subscriptions', 'subscription_installments', 'subscription_attempts'],
  publishes: ['customer_subscriptions'],
  reads: ['customer_contacts', 'merchant_accounts'],
  needs: ['merchants', 'customers', 'vault', 'payments', 'transactions'],
  provides: ['subscriptions'],
  build: ({ pool, clock, logger, nodeId }, { merchants, customers, vault, payments, transactions }) => ({
    subscriptions: new SubscriptionsService({
      pool,
      clock,
      logger,
      merchants,
      customers,
      vault,
      payments,
      transactions,
      nodeId,
    }),
  }),
  routes: (app, { subscriptions }) => subscriptionsRoutes(app, { subscriptions }),
  queues: ({ subscriptions }) => subscriptionQueues(subscriptions.billing),
  schedules: subscriptionSchedules,
  events: ['subscription.created', 'subscription.paid', 'subscription.payment_failed', 'subscription.delinquent'],
});
