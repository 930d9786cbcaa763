import { defineModule } from '../manifest.js';
import { v2Routes } from './index.js';

export const apiV2Module = defineModule({
  folder: 'modules/api-v2',
  summary: "The version 2 surface the vendor's SDK speaks: its wire names over the same services, no state of its own.",
  tables: [],
  needs: [
    'cardPayments',
    'ach',
    'merchants',
    'transactions',
    'vault',
    'messages',
    'receipts',
    'settlements',
    'terminals',
    'pos',
    'customers',
    'apiKeys',
  ],
  provides: [],
  routes: (app, services, { pool, clock, sandbox }) => v2Routes(app, { services, pool, clock, sandbox }),
});
