import { defineModule } from '../manifest.js';
import { catalogRoutes } from './catalog.routes.js';
import { CatalogService } from './catalog.service.js';
import { InvoiceCheckout } from './invoice-checkout.js';
import { InvoiceDelivery } from './invoice-delivery.js';
import { invoicePageRoutes } from './invoice-page.routes.js';
import { InvoicePayments } from './invoice-payments.js';
import { InvoiceSettingsService } from './invoice-settings.js';
import { invoiceSettingsRoutes } from './invoice-settings.routes.js';
import { invoiceQueues, invoiceSchedules } from './invoices.jobs.js';
import { invoicesRoutes } from './invoices.routes.js';
import { InvoicesService } from './invoices.service.js';
import { PdfRenderer } from './pdf/pdf-renderer.js';

declare module '../services.js' {
  interface Services {
    catalog: CatalogService;
    invoiceSettings: InvoiceSettingsService;
    invoices: InvoicesService;
    invoicePayments: InvoicePayments;
    invoiceDelivery: InvoiceDelivery;
    invoiceCheckout: InvoiceCheckout;
  }
}

export const invoicesModule = defineModule({
  folder: 'modules/invoices',
  summary: 'Invoices: the catalog, settings, invoices with PDFs, their hosted page, delivery and payment.',
  tables: [
    'invoice_categories',
    'invoice_line_items',
    'invoice_settings',
    'invoices',
    'invoice_number_counters',
    'invoice_counts',
  ],
  reads: ['customer_contacts'],
  needs: [
    'merchants',
    'customers',
    'messages',
    'payments',
    'transactions',
    'sessions',
    'sessionPayments',
    'sessionSources',
    'hostedPages',
  ],
  provides: ['catalog', 'invoiceSettings', 'invoices', 'invoicePayments', 'invoiceDelivery', 'invoiceCheckout'],
  build(platform, services) {
    const { pool, clock, config, logger, nodeId, onStop } = platform;
    const { merchants, customers, messages, payments, transactions, sessions, sessionPayments } = services;
    const catalog = new CatalogService(pool, clock);
    const invoiceSettings = new InvoiceSettingsService(pool, clock, merchants);
    const renderer = new PdfRenderer(config.pdfRenderThreads);
    onStop(() => renderer.close());
    const invoiceDelivery = new InvoiceDelivery({
      pool,
      clock,
      customers,
      merchants,
      messages,
      settings: invoiceSettings,
      renderer,
      publicBaseUrl: config.publicBaseUrl,
    });
    const invoices = new InvoicesService({
      pool,
      clock,
      catalog,
      customers,
      settings: invoiceSettings,
      expiryDays: config.invoiceExpiryDays,
      delivery: invoiceDelivery,
    });
    const invoicePayments = new InvoicePayments({
      pool,
      clock,
      logger,
      nodeId,
      payments,
      settings: invoiceSettings,
      delivery: invoiceDelivery,
    });
    const invoiceCheckout = new InvoiceCheckout({
      pool,
      clock,
      payments: invoicePayments,
      settings: invoiceSettings,
      transactions,
      sessions,
      sessionPayments,
      sources: services.sessionSources,
    });
    return { catalog, invoiceSettings, invoices, invoicePayments, invoiceDelivery, invoiceCheckout };
  },
  routes(app, s, { pool, config }) {
    catalogRoutes(app, { catalog: s.catalog });
    invoiceSettingsRoutes(app, { settings: s.invoiceSettings, merchants: s.merchants });
    invoicesRoutes(app, {
      invoices: s.invoices,
      invoicePayments: s.invoicePayments,
      delivery: s.invoiceDelivery,
      merchants: s.merchants,
    });
    invoicePageRoutes(app, {
      checkout: s.invoiceCheckout,
      delivery: s.invoiceDelivery,
      merchants: s.merchants,
      customers: s.customers,
      pages: s.hostedPages,
      pool,
      config,
    });
  },
  queues: ({ invoices, invoicePayments }) => invoiceQueues(invoices, invoicePayments),
  schedules: invoiceSchedules,
  events: ['invoice.created', 'invoice.paid'],
});
