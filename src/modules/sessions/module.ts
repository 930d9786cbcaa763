import { defineModule } from '../manifest.js';
import { SessionPayments } from './session-payments.js';
import { SessionSources } from './session-sources.js';
import { sessionQueues, sessionSchedules } from './sessions.jobs.js';
import { sessionsRoutes } from './sessions.routes.js';
import { PaymentSessionsService } from './sessions.service.js';

declare module '../services.js' {
  interface Services {
    sessions: PaymentSessionsService;
    /** Pays a session from the hosted checkout (and the pages that pay through sessions: links, invoices). */
    sessionPayments: SessionPayments;
    /** What a session was made for (a link, an invoice): told when it is paid. */
    sessionSources: SessionSources;
  }
}

export const sessionsModule = defineModule({
  folder: 'modules/sessions',
  summary: 'Payment sessions: a payment prepared by the API and completed by the payer on the hosted checkout.',
  tables: ['payment_sessions'],
  needs: ['merchants', 'customers', 'vault', 'payments', 'transactions'],
  provides: ['sessions', 'sessionPayments', 'sessionSources'],
  build({ pool, clock, config, logger, nodeId }, { merchants, customers, vault, payments, transactions }) {
    const sessions = new PaymentSessionsService({ pool, clock, config, logger, merchants, customers, transactions });
    const sessionSources = new SessionSources();
    const sessionPayments = new SessionPayments({
      pool,
      clock,
      logger,
      merchants,
      customers,
      vault,
      payments,
      transactions,
      sources: sessionSources,
      nodeId,
    });
    return { sessions, sessionPayments, sessionSources };
  },
  routes: (app, { sessions }, { config }) => sessionsRoutes(app, { sessions, config }),
  queues: ({ sessions, sessionPayments }) => sessionQueues(sessions, sessionPayments),
  schedules: sessionSchedules,
  events: ['payment_session.created', 'payment_session.completed'],
});
