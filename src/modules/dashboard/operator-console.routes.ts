import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxNetworkConditions } from '../../connectors/card/sandbox-conditions.js';
import type { SharedClock } from '../../platform/clock/clock.js';
import { isUuid } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import type { DevicesService } from '../devices/devices.service.js';
import type { PartnersService } from '../partners/partners.service.js';
import type { PosService } from '../pos/pos.service.js';
import type { SandboxAction } from '../pos/sandbox-actions.js';
import { processorAdminView } from '../processors/processors.mapper.js';
import type { ProcessorsService } from '../processors/processors.service.js';
import { TERMINAL_LIST } from '../terminals/terminal-list.js';
import type { TerminalsService } from '../terminals/terminals.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { page } from './pages/html.js';
import {
  operatorMerchantMain,
  operatorMerchantsMain,
  operatorPartnersMain,
  operatorUsersMain,
} from './pages/operator-console.page.js';

export interface OperatorConsoleDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  partners: PartnersService;
  processors: ProcessorsService;
  terminals: TerminalsService;
  devices: DevicesService;
  pos: PosService;
  /** Present in the sandbox only. */
  sandboxNetwork: SandboxNetworkConditions | undefined;
  sharedClock: SharedClock | undefined;
}

/** The operator's hand on a sandbox terminal: the console's choices as the operator API's actions. */
const TERMINAL_ACTIONS: Record<string, SandboxAction> = {
  'present-card': {
    action: 'present-card',
    pan: '4111111111111111',
    expirationMonth: 12,
    expirationYear: 2035,
    readingMethod: 'chip',
  },
  decline: { action: 'decline' },
  'paper-out': { action: 'paper', paperOut: true },
  'paper-in': { action: 'paper', paperOut: false },
  offline: { action: 'connection', online: false },
  online: { action: 'connection', online: true },
  'battery-low': { action: 'battery', level: 5 },
};

/**
 * The operator's console (operator users only; any other answers 404): the deployment's merchants and partners, a
 * merchant's processors (credentials as set or unset), terminals (acted on in the sandbox) and Tap to Pay requests,
 * and the users of partners and of the operator (reset links). The sandbox's controls are operator-sandbox.routes.ts.
 * Each action goes through the same service as the operator API's and is in the audit log.
 */
export function operatorConsoleRoutes(scope: FastifyInstance, deps: OperatorConsoleDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;
  const sandbox = deps.sandboxNetwork !== undefined && deps.sharedClock !== undefined;
  const operatorOnly = (reply: FastifyReply, who: Signed) =>
    who.user.ownerKind === 'operator' ? undefined : http.notFound(reply, who);
  const searchOf = (request: FastifyRequest) =>
    String((request.query as { search?: string }).search ?? '')
      .trim()
      .slice(0, 100) || undefined;

  scope.get('/dashboard/operator/merchants', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'operator.view');
    if (!who) return reply;
    const refused = operatorOnly(reply, who);
    if (refused) return refused;
    const search = searchOf(request);
    const merchants = await deps.merchants.listAll(search);
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Merchants', '/dashboard/operator/merchants'),
        operatorMerchantsMain({ merchants, search }),
      ),
    );
  });

  scope.get('/dashboard/operator/partners', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'operator.view');
    if (!who) return reply;
    const refused = operatorOnly(reply, who);
    if (refused) return refused;
    const search = searchOf(request);
    const partners = await deps.partners.list(search);
    return http.html(
      reply,
      200,
      page(http.frameOf(who, 'Partners', '/dashboard/operator/partners'), operatorPartnersMain({ partners, search })),
    );
  });

  const merchantPage = async (
    reply: FastifyReply,
    who: Signed,
    id: string,
    status: number,
    message: { notice?: string; error?: string } = {},
  ) => {
    return http.orNotFound(reply, who, async () => {
      const details = await deps.merchants.getMerchant(id);
      const [processors, terminals, devices] = await Promise.all([
        deps.processors.list(id),
        deps.terminals.list({ merchantId: id }, pageRequest({ pageSize: 100 }, TERMINAL_LIST)),
        deps.devices.list(id),
      ]);
      return http.html(
        reply,
        status,
        page(
          http.frameOf(who, details.merchant.companyName, '/dashboard/operator/merchants'),
          operatorMerchantMain({
            merchant: details.merchant,
            processors: processors.map(processorAdminView),
            terminals: terminals.items,
            devices,
            csrf: who.csrf,
            canManage: can(who.user.role, 'operator.manage'),
            sandbox,
            ...message,
          }),
        ),
      );
    });
  };
  const merchantIdOf = (request: FastifyRequest) => {
    const id = (request.params as { id: string }).id;
    return isUuid(id) ? id : undefined;
  };

  scope.get('/dashboard/operator/merchants/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'operator.view');
    if (!who) return reply;
    const id = merchantIdOf(request);
    if (who.user.ownerKind !== 'operator' || !id) return http.notFound(reply, who);
    return merchantPage(reply, who, id, 200, http.noticeOf(request));
  });

  /** Approve or deny a device's Tap to Pay request (the operator API's decision). */
  for (const verb of ['approve', 'deny'] as const) {
    scope.post(
      `/dashboard/operator/merchants/:id/devices/:deviceId/${verb}`,
      { config, schema },
      async (request, reply) => {
        const who = await http.checkedPost(request, reply, 'operator.manage');
        if (!who) return reply;
        const id = merchantIdOf(request);
        if (who.user.ownerKind !== 'operator' || !id) return http.notFound(reply, who);
        const deviceId = (request.params as { deviceId: string }).deviceId.slice(0, 200);
        try {
          await deps.devices.decide(id, deviceId, verb === 'approve');
          await http.audit(request, who, {
            action: `operator.device-${verb}`,
            target: deviceId,
            outcome: 'ok',
            detail: { merchantId: id },
          });
        } catch (error) {
          if (error instanceof NotFoundError) return http.notFound(reply, who);
          return merchantPage(reply, who, id, 409, { error: refusalOf(error) });
        }
        const done = verb === 'approve' ? 'Tap to Pay approved.' : 'Tap to Pay denied.';
        return reply.redirect(`/dashboard/operator/merchants/${id}?done=${encodeURIComponent(done)}`, 303);
      },
    );
  }

  /** Sandbox: the operator's hand on a terminal of the merchant. */
  scope.post(
    '/dashboard/operator/merchants/:id/terminals/:terminalId/act',
    { config, schema },
    async (request, reply) => {
      const who = await http.checkedPost(request, reply, 'operator.manage');
      if (!who) return reply;
      const id = merchantIdOf(request);
      const terminalId = (request.params as { terminalId: string }).terminalId;
      if (!sandbox || who.user.ownerKind !== 'operator' || !id || !isUuid(terminalId)) return http.notFound(reply, who);
      const action = TERMINAL_ACTIONS[(request.body as Record<string, string>).action ?? ''];
      if (!action) return merchantPage(reply, who, id, 400, { error: 'Choose an action.' });
      try {
        await deps.terminals.get(id, terminalId);
        await deps.pos.sandboxAction(terminalId, action);
        await http.audit(request, who, {
          action: 'operator.terminal-act',
          target: terminalId,
          outcome: 'ok',
          detail: { action: action.action },
        });
      } catch (error) {
        if (error instanceof NotFoundError) return http.notFound(reply, who);
        return merchantPage(reply, who, id, 409, { error: refusalOf(error) });
      }
      return reply.redirect(`/dashboard/operator/merchants/${id}?done=${encodeURIComponent('Done.')}`, 303);
    },
  );

  const usersPage = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    o: { issued?: { email: string; url: string }; error?: string } = {},
  ) =>
    http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Users', '/dashboard/operator/users'),
        operatorUsersMain({
          users: await deps.dashboard.recovery.nonMerchantUsers(),
          csrf: who.csrf,
          canManage: can(who.user.role, 'operator.manage'),
          ...o,
        }),
      ),
    );

  scope.get('/dashboard/operator/users', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'operator.view');
    if (!who) return reply;
    const refused = operatorOnly(reply, who);
    if (refused) return refused;
    return usersPage(reply, who, 200);
  });

  /** A reset link for a partner's or the operator's user, shown once to the operator (and audited). */
  scope.post('/dashboard/operator/users/:id/reset', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'operator.manage');
    if (!who) return reply;
    const id = (request.params as { id: string }).id;
    if (who.user.ownerKind !== 'operator' || !isUuid(id)) return http.notFound(reply, who);
    const issued = await deps.dashboard.recovery.issueReset(who.user, id);
    if (!issued) return http.notFound(reply, who);
    const url = `${deps.publicBaseUrl}/dashboard/reset?token=${encodeURIComponent(issued.token)}`;
    return usersPage(reply, who, 200, { issued: { email: issued.user.email, url } });
  });
}
