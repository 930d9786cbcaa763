import { defineModule } from '../manifest.js';
import { RequestLogWriter } from './request-log-writer.js';
import { requestLogsRoutes } from './request-logs.routes.js';

declare module '../services.js' {
  interface Services {
    /** Where each merchant request's line goes for `tessera logs tail` (the HTTP kernel's request-log sink). */
    requestLog: RequestLogWriter;
  }
}

export const requestLogsModule = defineModule({
  folder: 'modules/request-logs',
  summary: "The request log: each merchant request's line, kept briefly for `tessera logs tail`.",
  tables: ['request_logs'],
  needs: ['cursors'],
  provides: ['requestLog'],
  build({ pool, logger, onStop }) {
    const requestLog = new RequestLogWriter(pool, logger);
    requestLog.start();
    onStop(() => requestLog.stop());
    return { requestLog };
  },
  routes: (app, { cursors }, { pool }) => requestLogsRoutes(app, { pool, cursors }),
});
