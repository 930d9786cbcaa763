import type { FastifyInstance } from 'fastify';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { MerchantPrincipal } from '../../platform/http/principal.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { page } from './pages/html.js';
import { keysMain } from './pages/keys.page.js';

export interface KeyRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  apiKeys: ApiKeysService;
}

/**
 * The merchant's API keys through the API keys service under the same rules as the API: a merchant of a partner does
 * not manage its own keys (its partner does), a key's secret is shown once, revoking is confirmed.
 */
export function keyRoutes(scope: FastifyInstance, deps: KeyRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  /** The merchant as an API caller: what the service checks a key's management against. */
  const callerOf = async (merchantId: string, userId: string): Promise<MerchantPrincipal> => {
    const merchant = await deps.merchants.getMerchantIn(deps.pool, merchantId);
    return {
      kind: 'merchant',
      clientId: `dashboard:${userId}`,
      merchantId,
      partnerId: merchant.partnerId,
      permissions: [],
    };
  };

  const show = async (
    reply: Parameters<DashboardHttp['html']>[0],
    who: NonNullable<Awaited<ReturnType<DashboardHttp['guard']>>>,
    status: number,
    extra: { issued?: Awaited<ReturnType<ApiKeysService['createMerchantKey']>>; notice?: string } = {},
  ) => {
    const caller = await callerOf(who.user.merchantId!, who.user.id);
    const { timeZone } = (await deps.merchants.getConfiguration(who.user.merchantId!)).settings;
    let body: string;
    try {
      const keys = await deps.apiKeys.listMerchantKeys(caller, undefined);
      body = keysMain({ keys, csrf: who.csrf, timeZone, ...extra });
    } catch (error) {
      if (!(error instanceof ForbiddenError)) throw error;
      body = keysMain({ keys: [], csrf: who.csrf, timeZone, refusal: error.message });
    }
    return http.html(reply, status, page(http.frameOf(who, 'API keys', '/dashboard/keys'), body));
  };

  scope.get('/dashboard/keys', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'keys.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return show(reply, who, 200);
  });

  scope.post('/dashboard/keys', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'keys.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const name = String((request.body as Record<string, string>).name ?? '')
      .trim()
      .slice(0, 100);
    try {
      if (!name) throw ValidationError.field('name', 'Give the key a name.');
      const issued = await deps.apiKeys.createMerchantKey(
        await callerOf(who.user.merchantId!, who.user.id),
        undefined,
        name,
      );
      await http.audit(request, who, { action: 'keys.create', target: issued.clientId, outcome: 'ok' });
      // The secret is in this answer only (no redirect: a reload must not show it again, and it is never stored).
      return show(reply.header('cache-control', 'no-store'), who, 200, { issued });
    } catch (error) {
      if (!(error instanceof ValidationError || error instanceof ForbiddenError)) throw error;
      return show(reply, who, 400, { notice: error.message });
    }
  });

  scope.post('/dashboard/keys/revoke', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'keys.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const fields = request.body as Record<string, string>;
    if (fields.confirm !== 'yes') return show(reply, who, 400, { notice: 'Please confirm first.' });
    const clientId = String(fields.clientId ?? '').slice(0, 100);
    try {
      await deps.apiKeys.deleteMerchantKey(
        await callerOf(who.user.merchantId!, who.user.id),
        clientId,
        who.user.merchantId!,
      );
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      if (!(error instanceof ForbiddenError)) throw error;
      return show(reply, who, 403, { notice: error.message });
    }
    await http.audit(request, who, { action: 'keys.revoke', target: clientId, outcome: 'ok' });
    return reply.redirect(`/dashboard/keys`, 303);
  });
}
