import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { EVENT_TYPES } from '../events/event-catalog.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { page } from './pages/html.js';
import { deliveryMain, endpointForm, endpointMain } from './pages/webhook-endpoint.page.js';
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
    message: {
      notice?: string;
      error?: string;
      values?: { name: string; endpointUrl: string; eventTypes: string[] };
    } = {},
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
          ...(message.notice ? { notice: message.notice } : {}),
          ...(message.error ? { error: message.error } : {}),
          addForm: can(who.user.role, 'webhooks.manage')
            ? endpointForm({
                action: '/dashboard/webhooks/endpoints',
                title: 'Add an endpoint',
                csrf: who.csrf,
                types: EVENT_TYPES.filter((t) => !t.partnerOnly),
                values: message.values
                  ? {
                      name: message.values.name,
                      url: message.values.endpointUrl,
                      eventTypes: message.values.eventTypes,
                    }
                  : {},
                button: 'Add endpoint',
              })
            : '',
        }),
      ),
    );
  };

  scope.get('/dashboard/webhooks', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'webhooks.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return show(reply, who, 200, http.noticeOf(request));
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

  const types = EVENT_TYPES.filter((t) => !t.partnerOnly);
  const owner = (who: Signed) => ({ merchantId: who.user.merchantId! });
  const idOf = (request: FastifyRequest, who: Signed) => http.merchantParam(request, who);
  const inputOf = (form: Record<string, string | string[]>) => ({
    name: String(form.name ?? '')
      .trim()
      .slice(0, 100),
    endpointUrl: String(form.url ?? '')
      .trim()
      .slice(0, 2000),
    eventTypes: ([] as string[])
      .concat(form.eventTypes ?? [])
      .map(String)
      .slice(0, 200),
    ...(form.status === 'Inactive' ? { status: 'Inactive' as const } : { status: 'Active' as const }),
  });

  /** An endpoint's page: its form, a ping, deletion; with the new signing secret once, right after creation. */
  const endpointPage = async (
    reply: FastifyReply,
    who: Signed,
    id: string,
    status: number,
    message: { notice?: string; error?: string; secret?: string; values?: ReturnType<typeof inputOf> } = {},
  ) => {
    const row = await deps.webhooks.get(owner(who), id);
    const values = message.values
      ? {
          name: message.values.name,
          url: message.values.endpointUrl,
          eventTypes: message.values.eventTypes,
          status: message.values.status,
        }
      : { name: row.name, url: row.url, eventTypes: row.event_types, status: row.status };
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, row.name, '/dashboard/webhooks'),
        endpointMain({
          id,
          name: row.name,
          csrf: who.csrf,
          form: endpointForm({
            action: `/dashboard/webhooks/endpoints/${id}`,
            title: 'Change',
            csrf: who.csrf,
            types,
            values,
            button: 'Save',
            withStatus: true,
          }),
          ...message,
        }),
      ),
    );
  };

  scope.post('/dashboard/webhooks/endpoints', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'webhooks.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const input = inputOf(request.body as Record<string, string | string[]>);
    try {
      const created = await deps.webhooks.create(owner(who), input);
      await http.audit(request, who, {
        action: 'webhooks.create',
        target: created.id,
        outcome: 'ok',
        detail: { url: created.url },
      });
      return endpointPage(reply, who, created.id, 200, { notice: 'Endpoint added.', secret: created.hmacSecret });
    } catch (error) {
      return show(reply, who, 400, { error: refusalOf(error), values: input });
    }
  });

  scope.get('/dashboard/webhooks/endpoints/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'webhooks.view');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return http.orNotFound(reply, who, async () => {
      return await endpointPage(reply, who, id, 200, http.noticeOf(request));
    });
  });

  scope.post('/dashboard/webhooks/endpoints/:id', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'webhooks.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    const input = inputOf(request.body as Record<string, string | string[]>);
    try {
      await deps.webhooks.update(owner(who), id, input, 'replace');
      await http.audit(request, who, { action: 'webhooks.update', target: id, outcome: 'ok', detail: { ...input } });
      return reply.redirect(`/dashboard/webhooks/endpoints/${id}?done=${encodeURIComponent('Saved.')}`, 303);
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      return endpointPage(reply, who, id, 400, { error: refusalOf(error), values: input });
    }
  });

  scope.post('/dashboard/webhooks/endpoints/:id/ping', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'webhooks.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    try {
      const ping = await deps.webhooks.ping(owner(who), id);
      await http.audit(request, who, {
        action: 'webhooks.ping',
        target: id,
        outcome: 'ok',
        detail: { success: ping.success },
      });
      const said = ping.success
        ? `The ping was answered ${ping.statusCode} in ${ping.roundTripDurationMs} ms.`
        : `The ping failed: ${ping.errorMessage ?? `answered ${ping.statusCode}`}.`;
      return reply.redirect(`/dashboard/webhooks/endpoints/${id}?done=${encodeURIComponent(said)}`, 303);
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      return endpointPage(reply, who, id, 400, { error: refusalOf(error) });
    }
  });

  scope.post('/dashboard/webhooks/endpoints/:id/delete', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'webhooks.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    if ((request.body as Record<string, string>).confirm !== 'yes') {
      return endpointPage(reply, who, id, 400, { error: 'Please confirm first.' });
    }
    return http.orNotFound(reply, who, async () => {
      await deps.webhooks.remove(owner(who), id);
      await http.audit(request, who, { action: 'webhooks.delete', target: id, outcome: 'ok' });
      return reply.redirect(`/dashboard/webhooks?done=${encodeURIComponent('Endpoint deleted.')}`, 303);
    });
  });

  /** One delivery attempt with the request sent and the answer received. */
  scope.get('/dashboard/webhooks/logs/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'webhooks.view');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return http.orNotFound(reply, who, async () => {
      const [log, configuration] = await Promise.all([
        deps.webhooks.getLog(owner(who), id),
        deps.merchants.getConfiguration(who.user.merchantId!),
      ]);
      return http.html(
        reply,
        200,
        page(
          http.frameOf(who, 'Delivery', '/dashboard/webhooks'),
          deliveryMain({ log, timeZone: configuration.settings.timeZone }),
        ),
      );
    });
  });
}
