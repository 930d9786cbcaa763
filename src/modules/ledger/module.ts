import { defineModule } from '../manifest.js';
import { Ledger } from './ledger.js';

declare module '../services.js' {
  interface Services {
    /** Double-entry bookkeeping of every money movement (written only by the payments core). */
    ledger: Ledger;
  }
}

export const ledgerModule = defineModule({
  folder: 'modules/ledger',
  summary: 'The ledger: double-entry accounts, entries and balances of every money movement.',
  tables: ['ledger_accounts', 'ledger_entries', 'ledger_balances'],
  reads: ['transaction_amounts', 'batch_states'],
  needs: [],
  provides: ['ledger'],
  build: ({ pool, clock }) => ({ ledger: new Ledger(pool, clock) }),
});
