import type { FastifyInstance, FastifyReply } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import type { LinkSharing } from '../links/link-sharing.js';
import type { PaymentLink } from '../links/links.model.js';
import type { LinksService } from '../links/links.service.js';
import { V2_LINK_LIST } from '../links/payment-links.schemas.js';
import { QUICK_LIST } from '../links/quick-payments.schemas.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { cents } from './form-values.js';
import { page } from './pages/html.js';
import { linksMain, shareLinkMain } from './pages/links.page.js';

export interface LinkRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  links: LinksService;
  linkSharing: LinkSharing;
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
    const created = { from: undefined, to: undefined };
    const [v2, quick, configuration] = await Promise.all([
      deps.links.list({ merchantId, surface: 'v2', created }, pageRequest({ pageSize: 100 }, V2_LINK_LIST)),
      deps.links.list({ merchantId, surface: 'quick', created }, pageRequest({ pageSize: 100 }, QUICK_LIST)),
      deps.merchants.getConfiguration(merchantId),
    ]);
    // Both surfaces in one list, newest first: version 2 links (made here or by the API) and quick payments.
    const result = {
      items: [...v2.items, ...quick.items].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, 100),
      total: v2.total + quick.total,
    };
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
    return show(reply, who, 200, http.noticeOf(request));
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

  /** The link of either surface (version 2 first), or undefined when the merchant has none with this id. */
  const linkOf = async (merchantId: string, id: string) => {
    for (const surface of ['v2', 'quick'] as const) {
      try {
        return await deps.links.get(merchantId, id, surface);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return undefined;
  };

  /** Deactivate or activate again, as each surface moves (version 2: a patch of its status; quick: its own moves). */
  for (const verb of ['deactivate', 'activate'] as const) {
    scope.post(`/dashboard/links/:id/${verb}`, { config, schema }, async (request, reply) => {
      const who = await http.checkedPost(request, reply, 'billing.manage');
      if (!who) return reply;
      const id = (request.params as { id: string }).id;
      if (who.user.ownerKind !== 'merchant' || !isUuid(id)) return http.notFound(reply, who);
      const merchantId = who.user.merchantId!;
      const link = await linkOf(merchantId, id);
      if (!link) return http.notFound(reply, who);
      try {
        if (link.surface === 'v2') {
          await deps.links.patch(merchantId, id, { status: verb === 'deactivate' ? 'inactive' : 'active' }, {});
        } else if (verb === 'deactivate') await deps.links.deactivate(merchantId, id);
        else await deps.links.activate(merchantId, id);
        await http.audit(request, who, {
          action: `link.${verb}`,
          target: id,
          outcome: 'ok',
          detail: { surface: link.surface },
        });
      } catch (error) {
        const message = refusalOf(error);
        await http.audit(request, who, { action: `link.${verb}`, target: id, outcome: 'refused', detail: { message } });
        return show(reply, who, 409, { error: message });
      }
      const done = verb === 'deactivate' ? 'Deactivated.' : 'Activated.';
      return reply.redirect(`/dashboard/links?done=${encodeURIComponent(done)}`, 303);
    });
  }

  const sharePage = async (reply: FastifyReply, who: Signed, link: PaymentLink, status: number, error?: string) =>
    http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Share a link', '/dashboard/links'),
        shareLinkMain({ link, url: deps.links.pageUrl(link), csrf: who.csrf, error }),
      ),
    );

  scope.get('/dashboard/links/:id/share', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.manage');
    if (!who) return reply;
    const id = (request.params as { id: string }).id;
    if (who.user.ownerKind !== 'merchant' || !isUuid(id)) return http.notFound(reply, who);
    const link = await linkOf(who.user.merchantId!, id);
    return link ? sharePage(reply, who, link, 200) : http.notFound(reply, who);
  });

  /** The link by e-mail or SMS through the links module's sharing (the recipient's consent required). */
  scope.post('/dashboard/links/:id/share', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    const id = (request.params as { id: string }).id;
    if (who.user.ownerKind !== 'merchant' || !isUuid(id)) return http.notFound(reply, who);
    const link = await linkOf(who.user.merchantId!, id);
    if (!link) return http.notFound(reply, who);
    const form = request.body as Record<string, string>;
    const shareBy = form.shareBy === 'Sms' ? 'Sms' : 'Email';
    if (link.status !== 'active') return sharePage(reply, who, link, 409, 'Only an active link can be shared.');
    try {
      await deps.linkSharing.share(link, shareBy, (form.recipient ?? '').slice(0, 254), form.consent === 'yes');
      await http.audit(request, who, { action: 'link.share', target: id, outcome: 'ok', detail: { shareBy } });
    } catch (error) {
      return sharePage(reply, who, link, 400, refusalOf(error));
    }
    return reply.redirect(`/dashboard/links?done=${encodeURIComponent('Sent.')}`, 303);
  });
}
