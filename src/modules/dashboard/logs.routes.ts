import type { FastifyInstance } from 'fastify';
import type { RequestLogWriter } from '../request-logs/request-log-writer.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { page } from './pages/html.js';
import { logsMain } from './pages/logs.page.js';

export interface LogRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  requestLog: RequestLogWriter;
}

const RANGES: Record<string, [number, number]> = {
  '2xx': [200, 299],
  '3xx': [300, 399],
  '4xx': [400, 499],
  '5xx': [500, 599],
};

/** The merchant's request log, as `tessera logs tail` shows it (developers, admins, owners). */
export function logRoutes(scope: FastifyInstance, deps: LogRouteDeps): void {
  const { http } = deps;
  scope.get('/dashboard/logs', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const who = await http.guard(request, reply, 'logs.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const q = request.query as { status?: string; path?: string };
    const range = q.status ? RANGES[q.status] : undefined;
    const path = (q.path ?? '').trim().slice(0, 200);
    const [rows, configuration] = await Promise.all([
      deps.requestLog.list({
        merchantId: who.user.merchantId!,
        ...(range ? { statusFrom: range[0], statusTo: range[1] } : {}),
        ...(path ? { pathPrefix: path } : {}),
        limit: 100,
      }),
      deps.merchants.getConfiguration(who.user.merchantId!),
    ]);
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Request log', '/dashboard/logs'),
        logsMain({
          rows,
          ...(range ? { status: q.status } : {}),
          ...(path ? { path } : {}),
          timeZone: configuration.settings.timeZone,
        }),
      ),
    );
  });
}
