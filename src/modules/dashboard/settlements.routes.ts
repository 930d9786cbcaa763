import type { FastifyInstance } from 'fastify';
import { pageRequest } from '../../platform/http/paging.js';
import { BATCH_LIST, type SettlementsService } from '../settlements/settlements.service.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { page } from './pages/html.js';
import { settlementsMain } from './pages/settlements.page.js';

/** The merchant's settlement batches (card and ACH) through the settlements service, as the API lists them. */
export function settlementRoutes(
  scope: FastifyInstance,
  deps: DashboardRouteDeps & { http: DashboardHttp; settlements: SettlementsService },
): void {
  const { http } = deps;
  scope.get(
    '/dashboard/settlements',
    { config: { auth: 'public' as const }, schema: { hide: true } },
    async (request, reply) => {
      const who = await http.guard(request, reply, 'settlements.view');
      if (!who) return reply;
      if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
      const [result, configuration] = await Promise.all([
        deps.settlements.list({ merchantId: who.user.merchantId! }, pageRequest({ pageSize: 50 }, BATCH_LIST)),
        deps.merchants.getConfiguration(who.user.merchantId!),
      ]);
      return http.html(
        reply,
        200,
        page(
          http.frameOf(who, 'Settlements', '/dashboard/settlements'),
          settlementsMain({ batches: result.items, total: result.total, timeZone: configuration.settings.timeZone }),
        ),
      );
    },
  );
}
