import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { HostedPages } from '../checkout/hosted-pages.js';
import { parseCookie } from '../checkout/hosted-pages.js';
import { type Action, can } from './accounts/roles.js';
import type { AuditEntry } from './audit.js';
import type { DashboardService } from './dashboard.service.js';
import { type PageFrame, page } from './pages/html.js';
import type { SignedIn } from './sessions/sessions.js';

export const SESSION_COOKIE = 'tessera_dashboard';

/** The navigation: each link shown only to a role that may open it. */
const NAV: ReadonlyArray<{
  href: string;
  label: string;
  action: Action;
  merchantOnly?: boolean;
  partnerOnly?: boolean;
  operatorOnly?: boolean;
  sandboxOnly?: boolean;
}> = [
  { href: '/dashboard', label: 'Home', action: 'home.view' },
  { href: '/dashboard/partner', label: 'Portfolio', action: 'home.view', partnerOnly: true },
  { href: '/dashboard/transactions', label: 'Transactions', action: 'transactions.view', merchantOnly: true },
  { href: '/dashboard/terminal', label: 'Virtual terminal', action: 'terminal.charge', merchantOnly: true },
  { href: '/dashboard/customers', label: 'Customers', action: 'customers.view', merchantOnly: true },
  { href: '/dashboard/subscriptions', label: 'Subscriptions', action: 'billing.view', merchantOnly: true },
  { href: '/dashboard/invoices', label: 'Invoices', action: 'billing.view', merchantOnly: true },
  { href: '/dashboard/links', label: 'Payment links', action: 'billing.view', merchantOnly: true },
  { href: '/dashboard/settlements', label: 'Settlements', action: 'settlements.view', merchantOnly: true },
  { href: '/dashboard/devices', label: 'Devices', action: 'devices.view', merchantOnly: true },
  { href: '/dashboard/webhooks', label: 'Webhooks', action: 'webhooks.view', merchantOnly: true },
  { href: '/dashboard/keys', label: 'API keys', action: 'keys.manage', merchantOnly: true },
  { href: '/dashboard/logs', label: 'Request log', action: 'logs.view', merchantOnly: true },
  { href: '/dashboard/operator/merchants', label: 'Merchants', action: 'operator.view', operatorOnly: true },
  { href: '/dashboard/operator/partners', label: 'Partners', action: 'operator.view', operatorOnly: true },
  { href: '/dashboard/operator/users', label: 'Users', action: 'operator.view', operatorOnly: true },
  { href: '/dashboard/operator/bank-files', label: 'Bank files', action: 'operator.view', operatorOnly: true },
  {
    href: '/dashboard/operator/sandbox',
    label: 'Sandbox',
    action: 'operator.view',
    operatorOnly: true,
    sandboxOnly: true,
  },
  { href: '/dashboard/settings', label: 'Settings', action: 'settings.view', merchantOnly: true },
  { href: '/dashboard/team', label: 'Team', action: 'team.manage' },
  { href: '/dashboard/audit', label: 'Audit log', action: 'audit.view' },
];

/**
 * What every dashboard route does the same way: find the signed-in user, check the role for the action (on the
 * server, whatever the page showed), check a form's CSRF token and origin, and answer a page with the headers every
 * dashboard page carries.
 */
export function dashboardHttp(dashboard: DashboardService, pages: HostedPages, sandbox = false) {
  const css = dashboard.css.url;
  const html = (reply: FastifyReply, status: number, body: string) =>
    pages.html(reply.header('cache-control', 'no-store'), status, body, pages.csp({ scripts: false }));

  const signedIn = (request: FastifyRequest): Promise<SignedIn | undefined> =>
    dashboard.sessions.resolve(parseCookie(request.headers.cookie)[SESSION_COOKIE]);

  const frameOf = (who: SignedIn, title: string, current?: string): PageFrame => ({
    title,
    css,
    nav: {
      links: NAV.filter(
        (l) =>
          can(who.user.role, l.action) &&
          (!l.merchantOnly || who.user.ownerKind === 'merchant') &&
          (!l.partnerOnly || who.user.ownerKind === 'partner') &&
          (!l.operatorOnly || who.user.ownerKind === 'operator') &&
          (!l.sandboxOnly || sandbox),
      ).map((l) => ({ href: l.href, label: l.label, current: l.href === current })),
      who: `${who.user.name} (${who.user.role})`,
      csrf: who.csrf,
      ...(who.actingForPartner ? { acting: 'a merchant of your portfolio' } : {}),
    },
  });

  /** What the signed-in user did, in the audit log: with who, from which address, under which request. */
  const audit = (request: FastifyRequest, who: SignedIn, entry: Omit<AuditEntry, 'user' | 'ip' | 'correlationId'>) =>
    dashboard.audit.record({ ...entry, user: who.user, ip: request.ip, correlationId: String(request.id) }, new Date());

  const refuse = (request: FastifyRequest, who: SignedIn, action: string, reason: string) =>
    audit(request, who, { action, outcome: 'refused', detail: { reason } });

  /** The signed-in user allowed `action`; otherwise the answer is sent (the sign-in page, or 403) and undefined. */
  const guard = async (request: FastifyRequest, reply: FastifyReply, action: Action) => {
    const who = await signedIn(request);
    if (!who) {
      reply.redirect(`/dashboard/sign-in?next=${encodeURIComponent(request.url)}`, 303);
      return undefined;
    }
    // The merchant's request log (`tessera logs tail`) and every log line name the dashboard user, as they name an
    // API key for the API's requests.
    if (who.user.merchantId) {
      request.principal = {
        kind: 'merchant',
        clientId: `dashboard:${who.user.id}`,
        merchantId: who.user.merchantId,
        partnerId: who.user.partnerId,
        permissions: [],
      };
    }
    if (!can(who.user.role, action)) {
      await refuse(request, who, action, 'role');
      html(reply, 403, page(frameOf(who, 'Not allowed'), '<h1>Not allowed</h1><p>Your role cannot do this.</p>'));
      return undefined;
    }
    return who;
  };

  /** A form post from a signed-in page: its CSRF token must be the session's, and it must come from our origin. */
  const checkedPost = async (request: FastifyRequest, reply: FastifyReply, action: Action) => {
    const who = await guard(request, reply, action);
    if (!who) return undefined;
    const token = (request.body as Record<string, string> | undefined)?.csrf;
    if (!pages.sameOrigin(request) || !token || token !== who.csrf) {
      await refuse(request, who, action, 'csrf');
      html(
        reply,
        403,
        page(frameOf(who, 'Refused'), '<h1>Refused</h1><p>This form had expired. Please try again.</p>'),
      );
      return undefined;
    }
    return who;
  };

  const notFound = (reply: FastifyReply, who: SignedIn) =>
    html(reply, 404, page(frameOf(who, 'Not found'), '<h1>Not found</h1><p>There is nothing here.</p>'));

  /** The path's id when the user is a merchant's and it is an id at all; otherwise undefined (the caller answers 404). */
  const merchantParam = (request: FastifyRequest, who: SignedIn, name = 'id') => {
    const id = (request.params as Record<string, string>)[name] ?? '';
    return who.user.ownerKind === 'merchant' && isUuid(id) ? id : undefined;
  };

  /** What the redirect after an action said was done (`?done=`), for the page's status line. */
  const noticeOf = (request: FastifyRequest): { notice?: string } => {
    const done = (request.query as { done?: unknown }).done;
    return typeof done === 'string' && done ? { notice: done.slice(0, 300) } : {};
  };

  /** A page built from the merchant's object: 404 when the service does not find it (another tenant's, or none). */
  const orNotFound = async (reply: FastifyReply, who: SignedIn, work: () => Promise<unknown>) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof NotFoundError) return notFound(reply, who);
      throw error;
    }
  };

  return { css, html, signedIn, frameOf, guard, checkedPost, notFound, audit, merchantParam, noticeOf, orNotFound };
}

export type DashboardHttp = ReturnType<typeof dashboardHttp>;
export type Signed = NonNullable<Awaited<ReturnType<DashboardHttp['guard']>>>;

/** Why a service refused what the user asked (the message its page shows); anything else is thrown on. */
export function refusalOf(error: unknown): string {
  if (error instanceof ValidationError) {
    // The fields' own messages say why; the error's message alone is the API's generic line.
    const messages = Object.values(error.errors ?? {}).flat();
    return messages.length > 0 ? messages.join(' ') : error.message;
  }
  if (error instanceof ConflictError) return error.message;
  throw error;
}
