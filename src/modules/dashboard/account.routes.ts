import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../platform/http/errors.js';
import type { MessagesService } from '../messages/messages.service.js';
import { ROLES, type Role } from './accounts/roles.js';
import { totpUri } from './accounts/totp.js';
import { listTeam } from './accounts/users.repo.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { acceptPage, forgotPage, messagePage, resetPage, teamMain } from './pages/account.page.js';
import { page } from './pages/html.js';

export interface AccountRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  messages: MessagesService;
  publicBaseUrl: string;
}

const RESETS_PER_MINUTE = 5;

/** Invitations, the team page, and password resets: the e-mails go through the messages module (its outbox). */
export function accountRoutes(scope: FastifyInstance, deps: AccountRouteDeps): void {
  const { http, dashboard, pages } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;
  const css = http.css;
  const body = (request: { body: unknown }) => (request.body ?? {}) as Record<string, string | undefined>;
  const link = (path: string, token: string) => `${deps.publicBaseUrl}${path}?token=${encodeURIComponent(token)}`;

  scope.get('/dashboard/forgot', { config, schema }, async (_request, reply) =>
    http.html(reply, 200, forgotPage(css, {})),
  );

  scope.post('/dashboard/forgot', { config, schema }, async (request, reply) => {
    const wait = await pages.limit('dashboard-reset', request, RESETS_PER_MINUTE);
    if (wait !== undefined)
      return http.html(
        reply.header('retry-after', String(wait)),
        429,
        forgotPage(css, { error: `Too many requests. Wait ${wait} seconds.` }),
      );
    if (!pages.sameOrigin(request)) return http.html(reply, 403, forgotPage(css, { error: 'Refused.' }));
    const started = await dashboard.recovery.startReset(String(body(request).email ?? '').slice(0, 320));
    if (started?.user.merchantId) {
      await deps.messages.queue(deps.pool, {
        merchantId: started.user.merchantId,
        channel: 'email',
        to: started.user.email,
        subject: 'Choose a new Tessera password',
        text: `Someone asked to choose a new password for your Tessera dashboard account.\n\nChoose one here (the link works for one hour, once):\n${link('/dashboard/reset', started.token)}\n\nIf it was not you, ignore this email: your password stays as it is.\n`,
        attachments: [],
        relatedType: 'dashboard_user',
        relatedId: started.user.id,
      });
    }
    return http.html(reply, 200, forgotPage(css, { sent: true }));
  });

  scope.get('/dashboard/reset', { config, schema }, async (request, reply) => {
    const token = String((request.query as { token?: string }).token ?? '');
    if (!(await dashboard.recovery.resetValid(token))) {
      return http.html(
        reply,
        404,
        messagePage(css, 'Link not valid', 'This link has been used or has expired. Ask for a new one.'),
      );
    }
    return http.html(reply, 200, resetPage(css, { token }));
  });

  scope.post('/dashboard/reset', { config, schema }, async (request, reply) => {
    const token = String(body(request).token ?? '');
    if (!pages.sameOrigin(request)) return http.html(reply, 403, resetPage(css, { token, error: 'Refused.' }));
    try {
      await dashboard.recovery.finishReset(token, String(body(request).password ?? '').slice(0, 500));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return http.html(reply, 400, resetPage(css, { token, error: error.message }));
    }
    return http.html(reply, 200, messagePage(css, 'Password changed', 'Sign in with your new password.'));
  });

  scope.get('/dashboard/accept', { config, schema }, async (request, reply) => {
    const token = String((request.query as { token?: string }).token ?? '');
    const found = await dashboard.recovery.invitation(token);
    if (!found)
      return http.html(
        reply,
        404,
        messagePage(css, 'Invitation not valid', 'This invitation has been used or has expired.'),
      );
    return http.html(
      reply,
      200,
      acceptPage(css, { token, ...found, totpUri: totpUri(found.totpSecret, found.user.email) }),
    );
  });

  scope.post('/dashboard/accept', { config, schema }, async (request, reply) => {
    const token = String(body(request).token ?? '');
    if (!pages.sameOrigin(request)) return http.html(reply, 403, messagePage(css, 'Refused', 'Refused.'));
    try {
      await dashboard.recovery.accept(
        token,
        String(body(request).password ?? '').slice(0, 500),
        String(body(request).code ?? ''),
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const found = await dashboard.recovery.invitation(token);
      if (!found) return http.html(reply, 404, messagePage(css, 'Invitation not valid', error.message));
      return http.html(
        reply,
        400,
        acceptPage(css, {
          token,
          ...found,
          totpUri: totpUri(found.totpSecret, found.user.email),
          error: error.message,
        }),
      );
    }
    return http.html(
      reply,
      200,
      messagePage(css, 'Welcome aboard', 'Your account is ready: sign in with your email, password and a code.'),
    );
  });

  const team = async (who: NonNullable<Awaited<ReturnType<DashboardHttp['guard']>>>) =>
    listTeam(
      deps.pool,
      who.user.merchantId
        ? { merchantId: who.user.merchantId }
        : who.user.partnerId
          ? { partnerId: who.user.partnerId }
          : {},
    );

  scope.get('/dashboard/team', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'team.manage');
    if (!who) return reply;
    const notice = (request.query as { done?: string }).done;
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Team', '/dashboard/team'),
        teamMain({ users: await team(who), csrf: who.csrf, ...(notice ? { notice } : {}) }),
      ),
    );
  });

  scope.post('/dashboard/team/invite', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'team.manage');
    if (!who) return reply;
    const fields = body(request);
    const role = String(fields.role ?? '') as Role;
    // Only an owner makes another owner.
    const allowed = (ROLES as readonly string[]).includes(role) && (role !== 'owner' || who.user.role === 'owner');
    try {
      if (!allowed) throw ValidationError.field('role', 'Choose a role you may give.');
      const { user, token } = await dashboard.recovery.invite(who.user, {
        email: String(fields.email ?? '').slice(0, 320),
        name: String(fields.name ?? '').slice(0, 100),
        role,
      });
      if (user.merchantId) {
        await deps.messages.queue(deps.pool, {
          merchantId: user.merchantId,
          channel: 'email',
          to: user.email,
          subject: 'You are invited to a Tessera dashboard',
          text: `${who.user.name} invited you to their Tessera dashboard as ${role}.\n\nAccept here (the link works for seven days, once):\n${link('/dashboard/accept', token)}\n`,
          attachments: [],
          relatedType: 'dashboard_user',
          relatedId: user.id,
        });
      }
      return reply.redirect(`/dashboard/team?done=${encodeURIComponent(`Invitation sent to ${user.email}.`)}`, 303);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return http.html(
        reply,
        400,
        page(
          http.frameOf(who, 'Team', '/dashboard/team'),
          teamMain({ users: await team(who), csrf: who.csrf, error: error.message }),
        ),
      );
    }
  });
}
