import { defineModule } from '../manifest.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { ApiKeysService } from './api-keys.service.js';

declare module '../services.js' {
  interface Services {
    apiKeys: ApiKeysService;
  }
}

export const apiKeysModule = defineModule({
  folder: 'modules/api-keys',
  summary: "API keys: merchants' and partners' client credentials (secrets stored hashed, shown once).",
  tables: ['api_keys'],
  reads: ['merchant_accounts', 'partner_accounts'],
  needs: ['merchants', 'partners'],
  provides: ['apiKeys'],
  build: ({ pool, clock }, { merchants, partners }) => ({
    apiKeys: new ApiKeysService(pool, clock, merchants, partners),
  }),
  routes: (app, { apiKeys }) => apiKeysRoutes(app, { apiKeys }),
  events: ['api_key.created', 'api_key.deleted'],
});
