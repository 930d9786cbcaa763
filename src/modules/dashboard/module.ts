import { systemClock } from '../../platform/clock/clock.js';
import { defineModule } from '../manifest.js';
import { dashboardQueues, dashboardSchedules } from './dashboard.jobs.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { DashboardService } from './dashboard.service.js';

declare module '../services.js' {
  interface Services {
    /** The dashboard's accounts, sessions and audit log (docs/dashboard.md). */
    dashboard: DashboardService;
  }
}

export const dashboardModule = defineModule({
  folder: 'modules/dashboard',
  summary:
    'The dashboard: a web application under /dashboard for merchants, partners and the operator, with its users, ' +
    'roles, second factor, sessions and audit log.',
  tables: [
    'dashboard_users',
    'dashboard_sessions',
    'dashboard_tokens',
    'dashboard_audit',
    'dashboard_volume',
    'dashboard_volume_marks',
  ],
  reads: ['transaction_amounts', 'event_records', 'merchant_accounts'],
  needs: [
    'merchants',
    'vault',
    'hostedPages',
    'transactions',
    'cardPayments',
    'messages',
    'apiKeys',
    'webhooks',
    'settlements',
    'customers',
    'ach',
    'subscriptions',
    'invoices',
    'invoiceDelivery',
    'invoiceSettings',
    'catalog',
    'links',
    'linkSharing',
    'ledger',
    'receipts',
    'devices',
    'terminals',
    'requestLog',
    'partners',
    'processors',
    'pos',
    'sandboxNetwork',
  ],
  provides: ['dashboard'],
  queues: ({ dashboard }) => dashboardQueues(dashboard),
  schedules: dashboardSchedules,
  build({ pool, config, clock }, { vault }) {
    const dashboard = new DashboardService({
      pool,
      wallClock: systemClock,
      businessClock: clock,
      dataKeys: vault.dataKeys,
      policy: { idleMinutes: config.dashboardSessionIdleMinutes, maxHours: config.dashboardSessionHours },
    });
    return { dashboard };
  },
  routes(app, services, { pool, clock, config, sharedClock }) {
    // Every service the manifest needs, as the pages' dependencies (the manifest's list is what they may use).
    dashboardRoutes(app, {
      ...services,
      pages: services.hostedPages,
      sharedClock,
      publicBaseUrl: config.publicBaseUrl,
      pool,
      clock,
      sessionHours: config.dashboardSessionHours,
      signInPerMinute: config.dashboardSignInPerMinute,
    });
  },
});
