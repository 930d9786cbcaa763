import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import type { DevicesService } from '../devices/devices.service.js';
import { TERMINAL_LIST } from '../terminals/terminal-list.js';
import type { TerminalsService } from '../terminals/terminals.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { devicesMain } from './pages/devices.page.js';
import { page } from './pages/html.js';

export interface DeviceRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  devices: DevicesService;
  terminals: TerminalsService;
}

/** The merchant's devices (with who signed in on them, and Tap to Pay requests) and terminals (their status). */
export function deviceRoutes(scope: FastifyInstance, deps: DeviceRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  const show = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    message: { notice?: string; error?: string },
  ) => {
    const merchantId = who.user.merchantId!;
    const [devices, terminals, configuration] = await Promise.all([
      deps.devices.list(merchantId),
      deps.terminals.list({ merchantId }, pageRequest({ pageSize: 100 }, TERMINAL_LIST)),
      deps.merchants.getConfiguration(merchantId),
    ]);
    const present = await Promise.all(
      terminals.items.map(async (terminal) => ({ terminal, presence: await deps.terminals.presence(terminal) })),
    );
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Devices and terminals', '/dashboard/devices'),
        devicesMain({
          devices,
          terminals: present,
          timeZone: configuration.settings.timeZone,
          csrf: who.csrf,
          canManage: can(who.user.role, 'devices.manage'),
          ...message,
        }),
      ),
    );
  };

  scope.get('/dashboard/devices', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'devices.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return show(reply, who, 200, http.noticeOf(request));
  });

  /** A device's Tap to Pay request (the API's activate), in the audit log. */
  scope.post('/dashboard/devices/:deviceId/tap-to-pay', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'devices.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const deviceId = (request.params as { deviceId: string }).deviceId.slice(0, 200);
    try {
      await deps.devices.activate(who.user.merchantId!, deviceId);
      await http.audit(request, who, { action: 'device.tap-to-pay', target: deviceId, outcome: 'ok' });
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      return show(reply, who, 409, { error: refusalOf(error) });
    }
    return reply.redirect(`/dashboard/devices?done=${encodeURIComponent('Tap to Pay requested.')}`, 303);
  });
}
