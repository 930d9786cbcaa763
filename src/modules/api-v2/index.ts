import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import type { App } from '../../platform/http/server.js';
import type { Services } from '../services.js';
import { v2ApiKeysRoutes } from './v2-api-keys.routes.js';
import { v2AutofillRoutes } from './v2-autofill.routes.js';
import { v2CalculateRoutes } from './v2-calculate.routes.js';
import { v2CustomersRoutes } from './v2-customers.routes.js';
import { v2HoldsRoutes } from './v2-holds.routes.js';
import { v2PaymentMethodsRoutes } from './v2-payment-methods.routes.js';
import { v2PingRoutes } from './v2-ping.routes.js';
import { v2PosRoutes } from './v2-pos.routes.js';
import { v2ReceiptsRoutes } from './v2-receipts.routes.js';
import { v2ReversalsRoutes } from './v2-reversals.routes.js';
import { v2SettingsRoutes } from './v2-settings.routes.js';
import { v2SettlementsRoutes } from './v2-settlements.routes.js';
import { v2TerminalsRoutes } from './v2-terminals.routes.js';
import { v2TransactionsRoutes } from './v2-transactions.routes.js';

/**
 * The version 2 surface the vendor's official SDK speaks (docs/api-v2.md): a layer of wire names over the same
 * services as version 1, with no state of its own.
 */
export type V2Services = Pick<
  Services,
  | 'cardPayments'
  | 'ach'
  | 'merchants'
  | 'transactions'
  | 'vault'
  | 'messages'
  | 'receipts'
  | 'settlements'
  | 'terminals'
  | 'pos'
  | 'customers'
  | 'apiKeys'
>;

export function v2Routes(app: App, ctx: { services: V2Services; pool: Pool; clock: Clock; sandbox: boolean }): void {
  const { services: s, pool } = ctx;
  const payments = {
    cardPayments: s.cardPayments,
    ach: s.ach,
    merchants: s.merchants,
    transactions: s.transactions,
    vault: s.vault,
  };
  v2PingRoutes(app);
  v2TransactionsRoutes(app, payments);
  v2ReversalsRoutes(app, payments);
  v2HoldsRoutes(app, payments);
  v2CalculateRoutes(app, { merchants: s.merchants });
  v2ReceiptsRoutes(app, {
    receipts: s.receipts,
  });
  v2SettingsRoutes(app, { merchants: s.merchants });
  v2AutofillRoutes(app, { merchants: s.merchants });
  v2SettlementsRoutes(app, { settlements: s.settlements, merchants: s.merchants, transactions: s.transactions });
  v2TerminalsRoutes(app, {
    terminals: s.terminals,
    busy: (terminal) => s.terminals.busy(terminal),
    clock: ctx.clock,
    sandbox: ctx.sandbox,
  });
  v2PosRoutes(app, { pos: s.pos, ach: s.ach, merchants: s.merchants, transactions: s.transactions });
  v2CustomersRoutes(app, { customers: s.customers });
  v2PaymentMethodsRoutes(app, { customers: s.customers, vault: s.vault });
  v2ApiKeysRoutes(app, { apiKeys: s.apiKeys });
}
