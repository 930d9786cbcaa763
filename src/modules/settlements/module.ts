import { defineModule } from '../manifest.js';
import { settlementsRoutes } from './settlements.routes.js';
import { SettlementsService } from './settlements.service.js';

declare module '../services.js' {
  interface Services {
    settlements: SettlementsService;
  }
}

export const settlementsModule = defineModule({
  folder: 'modules/settlements',
  summary: 'Settlement batches: the open batch per processor, its totals, and the settled history.',
  tables: ['settlement_batches'],
  publishes: ['batch_states'],
  reads: ['merchant_processors', 'transaction_amounts'],
  needs: [],
  provides: ['settlements'],
  build: ({ pool, clock }) => ({ settlements: new SettlementsService(pool, clock) }),
  routes: (app, { settlements }) => settlementsRoutes(app, { settlements }),
});
