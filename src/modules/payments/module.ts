import { eventNamesOf } from '../events/event-catalog.js';
import { defineModule } from '../manifest.js';
import { achQueues, achSchedules } from './ach/ach.jobs.js';
import { achRoutes } from './ach/ach.routes.js';
import { AchPaymentsService } from './ach/ach.service.js';
import { bankFilesByState } from './ach/exchange/bank-files.repo.js';
import { CardPaymentsService } from './card-payments.service.js';
import { PaymentsService } from './payments.service.js';
import { closeBatchHandler } from './settle-batch.js';
import { PaymentSourceListeners } from './source-listeners.js';
import { cardQueues, cardSchedules } from './transactions.jobs.js';
import { transactionsRoutes } from './transactions.routes.js';
import { TransactionsService } from './transactions.service.js';

declare module '../services.js' {
  interface Services {
    cardPayments: CardPaymentsService;
    ach: AchPaymentsService;
    /** The internal API every payment source (sessions, subscriptions, POS, invoices, links) pays through. */
    payments: PaymentsService;
    transactions: TransactionsService;
  }
}

export const paymentsModule = defineModule({
  folder: 'modules/payments',
  summary:
    'The payments core: card and ACH transactions, their state machines and processor calls, ACH files, ' +
    'batch settlement. Money moves only through it.',
  tables: [
    'transactions',
    'ach_files',
    'ach_entries',
    'ach_file_parts',
    'ach_bank_files',
    'ach_bank_polls',
    'card_avs_reversals',
  ],
  publishes: ['transaction_amounts'],
  reads: ['batch_states', 'customer_contacts'],
  needs: ['merchants', 'customers', 'vault', 'connectors', 'ledger', 'settlements', 'devices'],
  provides: ['cardPayments', 'ach', 'payments', 'transactions'],
  build(
    { pool, clock, config, logger, nodeId, metrics },
    { merchants, customers, vault, connectors, ledger, settlements },
  ) {
    const sources = new PaymentSourceListeners();
    const cardPayments = new CardPaymentsService({
      pool,
      clock,
      config,
      logger,
      merchants,
      customers,
      vault,
      connectors,
      ledger,
      settlements,
      sources,
      nodeId,
    });
    const ach = new AchPaymentsService({
      pool,
      clock,
      logger,
      merchants,
      customers,
      vault,
      ledger,
      settlements,
      connector: (name) => connectors.ach(name),
      withDropBox: (connector, processorId, work) => connectors.withDropBox(connector, processorId, work),
      alerts: {
        deliveryFailed: (connection) => metrics.achDeliveryAlerts.inc({ connection }),
        bankFile: (direction, state) => metrics.achBankFiles.inc({ direction, state }),
      },
      sources,
      filePartRecords: config.achFilePartRecords,
      inboundSettleMs: config.achInboundSettleMs,
      nodeId,
    });
    metrics.gauge(
      'tessera_ach_files_by_state',
      'ACH files exchanged with banks over SFTP, by direction and state (alert: an operator must look)',
      ['direction', 'state'],
      async () =>
        (await bankFilesByState(pool)).map((row) => ({
          labels: { direction: row.direction, state: row.state },
          value: row.files,
        })),
    );
    const transactions = new TransactionsService(pool, { pool, clock, connectors, ledger, settlements, merchants });
    const payments = new PaymentsService(cardPayments, ach, transactions, sources);
    return { cardPayments, ach, transactions, payments };
  },
  routes(app, { cardPayments, merchants, transactions, ach, devices }) {
    transactionsRoutes(app, { cardPayments, merchants, transactions, ach, devices });
    achRoutes(app, { ach });
  },
  queues: ({ cardPayments, ach, connectors, ledger, settlements, merchants }, { pool, clock, config }) => [
    closeBatchHandler({ pool, clock, connectors, ledger, settlements, merchants }),
    ...cardQueues(pool, clock, cardPayments, config.connectorTimeoutMs),
    ...achQueues(ach),
  ],
  schedules: [...cardSchedules, ...achSchedules],
  events: [...eventNamesOf('Card Transactions', 'ACH Transactions'), 'settlement.batch.completed'],
});
