import { defineModule } from '../manifest.js';
import { SANDBOX_NETWORK_OPERATIONS } from './sandbox.operations.js';

export const sandboxModule = defineModule({
  folder: 'modules/sandbox',
  summary: "The sandbox's own parts: first-start demo data and credentials, the card network's operator controls.",
  tables: [],
  needs: ['sandboxNetwork', 'merchants', 'partners', 'apiKeys'],
  provides: [],
  operations: SANDBOX_NETWORK_OPERATIONS,
});
