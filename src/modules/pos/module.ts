import { defineModule } from '../manifest.js';
import { posSchedules } from './pos.jobs.js';
import { POS_OPERATIONS } from './pos.operations.js';
import { posRoutes } from './pos.routes.js';
import { PosService } from './pos.service.js';
import { PosTerminalSide } from './pos-terminal-side.js';
import { PosWaiters } from './pos-waiters.js';

declare module '../services.js' {
  interface Services {
    pos: PosService;
  }
}

export const posModule = defineModule({
  folder: 'modules/pos',
  summary: 'POS transactions: sales, refunds and follow-ups run on a terminal, with long-polls for their outcome.',
  tables: ['pos_transactions'],
  needs: ['merchants', 'customers', 'payments', 'transactions', 'terminals', 'terminalChannel'],
  provides: ['pos'],
  build({ pool, clock, logger, kek, listener, nodeId, config, metrics }, services) {
    const { merchants, customers, payments, transactions, terminals, terminalChannel } = services;
    const deps = {
      pool,
      clock,
      logger,
      kek,
      merchants,
      customers,
      payments,
      transactions,
      terminals,
      channel: terminalChannel,
      waiters: new PosWaiters(listener),
      nodeId,
    };
    const side = new PosTerminalSide(deps);
    terminalChannel.handle(side);
    const pos = new PosService(deps, side, config.posLongPollMs);
    terminals.onBusyCheck((terminal) => pos.busy(terminal));
    metrics.gauge(
      'tessera_pos_long_polls_held',
      'Requests this node holds waiting for a POS transaction (long-polls, creates waiting for the terminal)',
      [],
      () => [{ labels: {}, value: pos.waiting }],
    );
    return { pos };
  },
  routes: (app, { pos, merchants, transactions }) => posRoutes(app, { pos, merchants, transactions }),
  queues: ({ pos }) => pos.queues(),
  schedules: posSchedules,
  operations: POS_OPERATIONS,
});
