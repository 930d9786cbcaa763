import type { FastifyInstance } from 'fastify';
import { pageRequest } from '../../platform/http/paging.js';
import { ACH_BANK_FILE_LIST } from '../payments/ach/ach.schemas.js';
import type { AchPaymentsService } from '../payments/ach/ach.service.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { page } from './pages/html.js';
import { bankFilesMain } from './pages/operator.page.js';

/** The operator's console: what only the deployment's operator sees (so far: the ACH files exchanged with banks). */
export function operatorRoutes(
  scope: FastifyInstance,
  deps: DashboardRouteDeps & { http: DashboardHttp; ach: AchPaymentsService },
): void {
  const { http } = deps;
  scope.get(
    '/dashboard/operator/bank-files',
    { config: { auth: 'public' as const }, schema: { hide: true } },
    async (request, reply) => {
      const who = await http.guard(request, reply, 'operator.view');
      if (!who) return reply;
      if (who.user.ownerKind !== 'operator') return http.notFound(reply, who);
      const result = await deps.ach.listBankFiles({}, pageRequest({ pageSize: 100 }, ACH_BANK_FILE_LIST));
      const files = result.items.map((row: Record<string, any>) => ({
        id: row.id,
        direction: row.direction === 'outbound' ? 'Outbound' : 'Inbound',
        kind: row.kind,
        state: row.state,
        remoteName: row.remote_name,
        sizeBytes: Number(row.size_bytes),
        sha256: row.sha256,
        createdAt: row.created_at,
        alert: row.alert,
      }));
      return http.html(
        reply,
        200,
        page(http.frameOf(who, 'Bank files', '/dashboard/operator/bank-files'), bankFilesMain(files, result.total)),
      );
    },
  );
}
