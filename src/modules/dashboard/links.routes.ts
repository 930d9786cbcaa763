import type { FastifyInstance, FastifyReply } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import type { LinksService } from '../links/links.service.js';
import { V2_LINK_LIST } from '../links/payment-links.schemas.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { cents } from './form-values.js';
import { page } from './pages/html.js';
import { linksMain } from './pages/links.page.js';

export interface LinkRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  links: LinksService;
}

/** The merchant's payment links (the version 2 surface's): created, listed with the page to share, deactivated. */
export function linkRoutes(scope: FastifyInstance, deps: LinkRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  const show = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    message: { notice?: string; error?: string; values?: Record<string, string> } = {},
  ) => {
    const merchantId = who.user.merchantId!;
    const [result, configuration] = await Promise.all([
      deps.links.list(
        { merchantId, surface: 'v2', created: { from: undefined, to: undefined } },
        pageRequest({ pageSize: 100 }, V2_LINK_LIST),
      ),
      deps.merchants.getConfiguration(merchantId),
    ]);
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Payment links', '/dashboard/links'),
        linksMain({
          ...result,
          urlOf: (link) => deps.links.pageUrl(link),
          timeZone: configuration.settings.timeZone,
          csrf: who.csrf,
          canManage: can(who.user.role, 'billing.manage'),
          ...message,
        }),
      ),
    );
  };

  scope.get('/dashboard/links', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const done = (request.query as { done?: string }).done;
    return show(reply, who, 200, done ? { notice: done } : {});
  });

  scope.post('/dashboard/links', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const amountText = (form.amount ?? '').trim();
    const amountCents = amountText ? cents(amountText) : null;
    const name = (form.name ?? '').trim().slice(0, 100);
    if (amountCents === undefined || amountCents === 0) {
      return show(reply, who, 400, { error: 'The amount is not an amount.', values: form });
    }
    if (!name) return show(reply, who, 400, { error: 'A link needs a name.', values: form });
    try {
      const link = await deps.links.create(who.user.merchantId!, {
        surface: 'v2',
        singleUse: form.singleUse === 'yes',
        amountCents,
        currencyCode: 'USD',
        referenceId: null,
        name,
        description: (form.description ?? '').trim().slice(0, 500) || null,
        customerId: null,
        card: { enabled: null, processorId: null },
        ach: { enabled: null, processorId: null },
        expiresAt: null,
        fields: { amount: 'amount', expiresAt: 'expiresAt', paymentMethods: 'paymentMethods' },
      });
      await http.audit(request, who, {
        action: 'link.create',
        target: link.id,
        outcome: 'ok',
        detail: { amountCents, singleUse: link.singleUse },
      });
      return reply.redirect(`/dashboard/links?done=${encodeURIComponent(`Created: ${deps.links.pageUrl(link)}`)}`, 303);
    } catch (error) {
      return show(reply, who, 400, { error: refusalOf(error), values: form });
    }
  });

  scope.post('/dashboard/links/:id/deactivate', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    const id = (request.params as { id: string }).id;
    if (who.user.ownerKind !== 'merchant' || !isUuid(id)) return http.notFound(reply, who);
    try {
      await deps.links.patch(who.user.merchantId!, id, { status: 'inactive' }, {});
      await http.audit(request, who, { action: 'link.deactivate', target: id, outcome: 'ok', detail: {} });
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      const message = refusalOf(error);
      await http.audit(request, who, {
        action: 'link.deactivate',
        target: id,
        outcome: 'refused',
        detail: { message },
      });
      return show(reply, who, 409, { error: message });
    }
    return reply.redirect(`/dashboard/links?done=${encodeURIComponent('Deactivated.')}`, 303);
  });
}
