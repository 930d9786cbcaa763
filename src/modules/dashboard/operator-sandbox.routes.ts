import type { FastifyInstance, FastifyReply } from 'fastify';
import { can } from './accounts/roles.js';
import type { Signed } from './dashboard-http.js';
import type { OperatorConsoleDeps } from './operator-console.routes.js';
import { page } from './pages/html.js';
import { sandboxMain } from './pages/operator-console.page.js';

const UNIT_SECONDS: Record<string, number> = { minutes: 60, hours: 3600, days: 86_400 };

/**
 * The sandbox's controls in the operator's console (sandbox only; operator users only, any other answers 404): the
 * business clock moved forward, the card network slowed for a while, and the outbox of e-mails and SMS. Each action
 * through the same parts the operator API uses, audited.
 */
export function operatorSandboxRoutes(scope: FastifyInstance, deps: OperatorConsoleDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;
  const sandbox = deps.sandboxNetwork !== undefined && deps.sharedClock !== undefined;

  const sandboxPage = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    message: { notice?: string; error?: string },
  ) => {
    const [network, outbox] = await Promise.all([
      deps.sandboxNetwork!.read(),
      deps.messages.list({}, { limit: 50, offset: 0 }),
    ]);
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Sandbox', '/dashboard/operator/sandbox'),
        sandboxMain({
          now: deps.clock.now(),
          network,
          outbox: outbox.items,
          csrf: who.csrf,
          canManage: can(who.user.role, 'operator.manage'),
          ...message,
        }),
      ),
    );
  };

  scope.get('/dashboard/operator/sandbox', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'operator.view');
    if (!who) return reply;
    if (!sandbox || who.user.ownerKind !== 'operator') return http.notFound(reply, who);
    return sandboxPage(reply, who, 200, http.noticeOf(request));
  });

  scope.post('/dashboard/operator/sandbox/clock', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'operator.manage');
    if (!who) return reply;
    if (!sandbox || who.user.ownerKind !== 'operator') return http.notFound(reply, who);
    const form = request.body as Record<string, string>;
    const amount = /^\d{1,4}$/.test(form.amount ?? '') ? Number(form.amount) : 0;
    const seconds = amount * (UNIT_SECONDS[form.unit ?? ''] ?? 0);
    if (seconds <= 0 || seconds > 366 * 86_400) {
      return sandboxPage(reply, who, 400, { error: 'Move it forward by 1 minute to 366 days.' });
    }
    const now = await deps.sharedClock!.advance(seconds);
    await http.audit(request, who, { action: 'operator.clock-advance', outcome: 'ok', detail: { seconds } });
    return reply.redirect(
      `/dashboard/operator/sandbox?done=${encodeURIComponent(`The clock reads ${now.toISOString()}.`)}`,
      303,
    );
  });

  scope.post('/dashboard/operator/sandbox/card-network', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'operator.manage');
    if (!who) return reply;
    if (!sandbox || who.user.ownerKind !== 'operator') return http.notFound(reply, who);
    const form = request.body as Record<string, string>;
    const latency = /^\d{1,6}$/.test(form.extraLatencyMs ?? '') ? Number(form.extraLatencyMs) : -1;
    const seconds = /^\d{1,4}$/.test(form.seconds ?? '') ? Number(form.seconds) : -1;
    if (latency < 0 || latency > 120_000 || seconds < 0 || seconds > 3600) {
      return sandboxPage(reply, who, 400, { error: 'Latency 0 to 120,000 ms, for 0 to 3,600 seconds.' });
    }
    await deps.sandboxNetwork!.set(latency, seconds);
    await http.audit(request, who, { action: 'operator.card-network', outcome: 'ok', detail: { latency, seconds } });
    return reply.redirect(
      `/dashboard/operator/sandbox?done=${encodeURIComponent('Card network conditions set.')}`,
      303,
    );
  });
}
