import { defineModule } from '../manifest.js';
import { ConfigurationCache } from './configuration-cache.js';
import { merchantsRoutes } from './merchants.routes.js';
import { MerchantsService } from './merchants.service.js';
import { PORTFOLIO_OPERATIONS } from './portfolio/portfolio.operations.js';
import { MerchantPortfolios } from './portfolio/portfolio.service.js';

declare module '../services.js' {
  interface Services {
    merchants: MerchantsService;
  }
}

export const merchantsModule = defineModule({
  folder: 'modules/merchants',
  summary: 'Merchants: accounts, addresses, payment processors, settings and the partner portfolio records.',
  tables: [
    'merchants',
    'merchant_addresses',
    'payment_processors',
    'merchant_portfolios',
    'merchant_compliance_snapshots',
    'merchant_portfolio_counts',
  ],
  publishes: ['merchant_accounts', 'merchant_processors'],
  needs: ['partners'],
  provides: ['merchants'],
  build({ pool, clock, config, listener, sandbox }, { partners }) {
    const configurations = new ConfigurationCache(config.configCacheTtlMs);
    configurations.listen(listener);
    const portfolios = new MerchantPortfolios(pool, clock);
    return { merchants: new MerchantsService(pool, clock, partners, configurations, portfolios, sandbox) };
  },
  routes: (app, { merchants }) => merchantsRoutes(app, { merchants }),
  operations: PORTFOLIO_OPERATIONS,
  events: ['merchant.created'],
});
