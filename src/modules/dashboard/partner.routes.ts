import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { PCI_STATUSES, PORTFOLIO_STATUSES } from '../merchants/portfolio/portfolio.model.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { page } from './pages/html.js';
import { portfolioMain } from './pages/partner.page.js';

/**
 * A partner's users: the portfolio of the partner's merchants, and each merchant's dashboard opened with the user's
 * own role (the session acts in that merchant until it goes back). Only the partner's merchants open; any other id
 * is as absent as it is in the partner API.
 */
export function partnerRoutes(scope: FastifyInstance, deps: DashboardRouteDeps & { http: DashboardHttp }): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  scope.get('/dashboard/partner', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'home.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'partner') return http.notFound(reply, who);
    const q = request.query as { search?: string; status?: string; pci?: string };
    const search = (q.search ?? '').trim().slice(0, 100) || undefined;
    const status = PORTFOLIO_STATUSES.find((s) => s === q.status);
    const pci = PCI_STATUSES.find((s) => s === q.pci);
    const result = await deps.merchants.portfolios.list(
      {
        partnerId: who.user.partnerId!,
        ...(search ? { search } : {}),
        ...(status ? { status } : {}),
        ...(pci ? { pciStatus: pci } : {}),
      },
      { sortBy: 'dba_name', descending: false, limit: 200, offset: 0 },
    );
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Portfolio', '/dashboard/partner'),
        portfolioMain({
          merchants: result.items,
          total: result.total,
          csrf: who.csrf,
          filter: { search, status, pci },
        }),
      ),
    );
  });

  scope.post('/dashboard/partner/open', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'home.view');
    if (!who) return reply;
    const merchantId = String((request.body as Record<string, string>).merchantId ?? '');
    if (who.user.ownerKind !== 'partner' || !isUuid(merchantId)) return http.notFound(reply, who);
    try {
      await deps.merchants.merchantInScope(
        { kind: 'partner', partnerId: who.user.partnerId!, clientId: `dashboard:${who.user.id}`, permissions: [] },
        merchantId,
      );
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      throw error;
    }
    await deps.dashboard.sessions.act(who.idHash, merchantId);
    await http.audit(request, who, { action: 'partner.open-merchant', target: merchantId, outcome: 'ok' });
    return reply.redirect('/dashboard', 303);
  });

  scope.post('/dashboard/partner/close', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'home.view');
    if (!who) return reply;
    if (who.actingForPartner) await deps.dashboard.sessions.act(who.idHash, null);
    return reply.redirect('/dashboard/partner', 303);
  });
}
