import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { SUBSCRIPTION_LIST } from '../subscriptions/subscriptions.schemas.js';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { page } from './pages/html.js';
import { subscriptionMain, subscriptionsMain } from './pages/subscriptions.page.js';

export interface SubscriptionRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  subscriptions: SubscriptionsService;
}

const MOVES = { suspend: 'Suspended.', resume: 'Resumed.', terminate: 'Terminated.' } as const;

/** The merchant's subscriptions: the list, one with its payment history, and suspend, resume, terminate. */
export function subscriptionRoutes(scope: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  scope.get('/dashboard/subscriptions', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const raw = (request.query as { statusId?: string; page?: string }).statusId;
    const statusId = raw && /^[1-6]$/.test(raw) ? Number(raw) : undefined;
    const [result, configuration] = await Promise.all([
      deps.subscriptions.list(
        { merchantId: who.user.merchantId!, ...(statusId ? { statusId } : {}) },
        pageRequest({ pageSize: 100 }, SUBSCRIPTION_LIST),
      ),
      deps.merchants.getConfiguration(who.user.merchantId!),
    ]);
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Subscriptions', '/dashboard/subscriptions'),
        subscriptionsMain({ ...result, statusId, timeZone: configuration.settings.timeZone }),
      ),
    );
  });

  const show = async (
    reply: FastifyReply,
    who: Signed,
    id: string,
    status = 200,
    message: { notice?: string; error?: string } = {},
  ) => {
    const merchantId = who.user.merchantId!;
    try {
      const [details, installments, configuration] = await Promise.all([
        deps.subscriptions.get(merchantId, id),
        deps.subscriptions.payments(merchantId, id, { limit: 100, offset: 0 }),
        deps.merchants.getConfiguration(merchantId),
      ]);
      return http.html(
        reply,
        status,
        page(
          http.frameOf(who, 'Subscription', '/dashboard/subscriptions'),
          subscriptionMain({
            details,
            installments: installments.items,
            timeZone: configuration.settings.timeZone,
            csrf: who.csrf,
            canManage: can(who.user.role, 'billing.manage'),
            ...message,
          }),
        ),
      );
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      throw error;
    }
  };
  const idOf = (request: FastifyRequest, who: Signed) => {
    const id = (request.params as { id: string }).id;
    return who.user.ownerKind === 'merchant' && isUuid(id) ? id : undefined;
  };

  scope.get('/dashboard/subscriptions/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    const done = (request.query as { done?: string }).done;
    return show(reply, who, id, 200, done ? { notice: done } : {});
  });

  for (const move of Object.keys(MOVES) as Array<keyof typeof MOVES>) {
    scope.post(`/dashboard/subscriptions/:id/${move}`, { config, schema }, async (request, reply) => {
      const who = await http.checkedPost(request, reply, 'billing.manage');
      if (!who) return reply;
      const id = idOf(request, who);
      if (!id) return http.notFound(reply, who);
      if ((request.body as Record<string, string>).confirm !== 'yes') {
        return show(reply, who, id, 400, { error: 'Please confirm first.' });
      }
      const audit = (outcome: 'ok' | 'refused', detail: Record<string, unknown>) =>
        http.audit(request, who, { action: `subscription.${move}`, target: id, outcome, detail });
      try {
        const { subscription } = await deps.subscriptions[move](who.user.merchantId!, id);
        await audit('ok', { statusId: subscription.statusId });
      } catch (error) {
        if (error instanceof NotFoundError) return http.notFound(reply, who);
        const message = refusalOf(error);
        await audit('refused', { message });
        return show(reply, who, id, 409, { error: message });
      }
      return reply.redirect(`/dashboard/subscriptions/${id}?done=${encodeURIComponent(MOVES[move])}`, 303);
    });
  }
}
