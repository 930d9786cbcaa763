import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { page } from './pages/html.js';
import { webhooksMain } from './pages/webhooks.page.js';

export interface WebhookRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  webhooks: WebhooksService;
}

const ENDPOINTS = { orderBy: { createdAt: 'created_at' }, defaultOrderBy: 'createdAt', tieBreaker: 'id' };
const LOGS = { orderBy: { createdAt: 'created_at' }, defaultOrderBy: 'createdAt', tieBreaker: 'seq' };

/** The merchant's webhook endpoints and delivery logs through the webhooks service; a failed delivery retried. */
export function webhookRoutes(scope: FastifyInstance, deps: WebhookRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  const show = async (
    reply: Parameters<DashboardHttp['html']>[0],
    who: NonNullable<Awaited<ReturnType<DashboardHttp['guard']>>>,
    status: number,
    message: { notice?: string; error?: string } = {},
  ) => {
    const owner = { merchantId: who.user.merchantId! };
    const [endpoints, logs, configuration] = await Promise.all([
      deps.webhooks.list(owner, {}, pageRequest({ pageSize: 100 }, ENDPOINTS)),
      deps.webhooks.listLogs(owner, {}, pageRequest({ pageSize: 20 }, LOGS)),
      deps.merchants.getConfiguration(who.user.merchantId!),
    ]);
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Webhooks', '/dashboard/webhooks'),
        webhooksMain({
          endpoints: endpoints.rows.map((e) => ({
            id: e.id,
            name: e.name,
            url: e.url,
            eventTypes: e.event_types,
            status: e.status,
          })),
          logs: logs.rows.map((l) => ({
            id: l.id,
            endpointName: l.endpoint_name,
            eventType: l.event_type,
            attempt: l.attempt_number,
            status: l.status,
            httpStatus: l.response_status_code,
            error: l.error_message,
            at: l.created_at,
            retryable: l.status === 'Failure' && !l.is_ping && l.delivery_id !== null,
          })),
          csrf: who.csrf,
          canManage: can(who.user.role, 'webhooks.manage'),
          timeZone: configuration.settings.timeZone,
          ...message,
        }),
      ),
    );
  };

  scope.get('/dashboard/webhooks', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'webhooks.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return show(
      reply,
      who,
      200,
      (request.query as { done?: string }).done ? { notice: (request.query as { done: string }).done } : {},
    );
  });

  scope.post('/dashboard/webhooks/logs/:id/retry', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'webhooks.manage');
    if (!who) return reply;
    const id = (request.params as { id: string }).id;
    if (who.user.ownerKind !== 'merchant' || !isUuid(id)) return http.notFound(reply, who);
    try {
      const attempt = await deps.webhooks.retry({ merchantId: who.user.merchantId! }, id);
      await http.audit(request, who, {
        action: 'webhooks.retry',
        target: id,
        outcome: 'ok',
        detail: { status: attempt.status },
      });
      const done = `Retried: ${attempt.status}${attempt.response_status_code ? ` (${attempt.response_status_code})` : ''}.`;
      return reply.redirect(`/dashboard/webhooks?done=${encodeURIComponent(done)}`, 303);
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      if (!(error instanceof ValidationError || error instanceof ConflictError)) throw error;
      return show(reply, who, 400, { error: error.message });
    }
  });
}
