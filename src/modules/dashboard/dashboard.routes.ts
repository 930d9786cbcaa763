import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxNetworkConditions } from '../../connectors/card/sandbox-conditions.js';
import type { Clock, SharedClock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import type { App } from '../../platform/http/server.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { HostedPages } from '../checkout/hosted-pages.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { DevicesService } from '../devices/devices.service.js';
import type { CatalogService } from '../invoices/catalog.service.js';
import type { InvoiceDelivery } from '../invoices/invoice-delivery.js';
import type { InvoiceSettingsService } from '../invoices/invoice-settings.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import type { Ledger } from '../ledger/ledger.js';
import type { LinkSharing } from '../links/link-sharing.js';
import type { LinksService } from '../links/links.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { Receipts } from '../messages/receipts.js';
import type { PartnersService } from '../partners/partners.service.js';
import type { AchPaymentsService } from '../payments/ach/ach.service.js';
import type { CardPaymentsService } from '../payments/card-payments.service.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { PosService } from '../pos/pos.service.js';
import type { ProcessorsService } from '../processors/processors.service.js';
import type { RequestLogWriter } from '../request-logs/request-log-writer.js';
import type { SettlementsService } from '../settlements/settlements.service.js';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import type { TerminalsService } from '../terminals/terminals.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import { accountRoutes } from './account.routes.js';
import { catalogRoutes } from './catalog.routes.js';
import { customerRoutes } from './customers.routes.js';
import type { DashboardService } from './dashboard.service.js';
import { dashboardHttp, SESSION_COOKIE } from './dashboard-http.js';
import { deviceRoutes } from './devices.routes.js';
import { invoiceRoutes } from './invoices.routes.js';
import { keyRoutes } from './keys.routes.js';
import { linkRoutes } from './links.routes.js';
import { logRoutes } from './logs.routes.js';
import { operatorRoutes } from './operator.routes.js';
import { operatorConsoleRoutes } from './operator-console.routes.js';
import { operatorSandboxRoutes } from './operator-sandbox.routes.js';
import { auditMain } from './pages/audit.page.js';
import { homeMain } from './pages/home.page.js';
import { homeFigures } from './pages/home.reads.js';
import { esc, page } from './pages/html.js';
import { localeOf, withLocale } from './pages/locale.js';
import { signInPage } from './pages/sign-in.page.js';
import { partnerRoutes } from './partner.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { settlementRoutes } from './settlements.routes.js';
import { subscriptionRoutes } from './subscriptions.routes.js';
import { terminalRoutes } from './terminal.routes.js';
import { savedChargeRoutes } from './terminal-saved.routes.js';
import { transactionRoutes } from './transactions.routes.js';
import { webhookRoutes } from './webhooks.routes.js';

export interface DashboardRouteDeps {
  dashboard: DashboardService;
  ach: AchPaymentsService;
  customers: CustomersService;
  settlements: SettlementsService;
  subscriptions: SubscriptionsService;
  invoices: InvoicesService;
  invoiceDelivery: InvoiceDelivery;
  invoiceSettings: InvoiceSettingsService;
  catalog: CatalogService;
  links: LinksService;
  linkSharing: LinkSharing;
  devices: DevicesService;
  requestLog: RequestLogWriter;
  partners: PartnersService;
  processors: ProcessorsService;
  pos: PosService;
  /** Present in the sandbox only (with the shared clock): the sandbox controls of the operator's console. */
  sandboxNetwork: SandboxNetworkConditions | undefined;
  sharedClock: SharedClock | undefined;
  terminals: TerminalsService;
  ledger: Ledger;
  receipts: Receipts;
  webhooks: WebhooksService;
  apiKeys: ApiKeysService;
  messages: MessagesService;
  publicBaseUrl: string;
  transactions: TransactionsService;
  cardPayments: CardPaymentsService;
  pages: HostedPages;
  merchants: MerchantsService;
  pool: Pool;
  /** Business time: what "today" is for the figures (the sandbox's clock may be moved). */
  clock: Clock;
  sessionHours: number;
  /** DASHBOARD_SIGN_IN_PER_MINUTE */
  signInPerMinute: number;
}

/** The dashboard under /dashboard: server-rendered pages, forms that post back, a session cookie. */
export function dashboardRoutes(app: App, deps: DashboardRouteDeps): void {
  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 64 * 1024 });
    // A form field sent twice is taken once (its first value): only the fields a form repeats on purpose (an
    // endpoint's event types) stay lists, so every handler reads text where it expects text.
    scope.addHook('preValidation', async (request) => {
      const body = request.body;
      if (!body || typeof body !== 'object') return;
      const fields = body as Record<string, unknown>;
      for (const [key, value] of Object.entries(fields)) {
        if (Array.isArray(value) && !REPEATED_FIELDS.has(key)) fields[key] = value[0];
        // A NUL cannot be stored in PostgreSQL text (the fuzz test's 500) and no browser types one: dropped.
        const taken = fields[key];
        if (typeof taken === 'string') fields[key] = withoutNul(taken);
        else if (Array.isArray(taken))
          fields[key] = taken.map((item) => (typeof item === 'string' ? withoutNul(item) : item));
      }
    });
    // Amounts and dates in the reader's locale: every page function formats within the request's locale.
    scope.addHook('preHandler', (request, _reply, done) =>
      withLocale(localeOf(request.headers['accept-language']), done),
    );
    const { dashboard, pages } = deps;
    const config = { auth: 'public' as const };
    const schema = { hide: true } as const;
    const http = dashboardHttp(dashboard, pages, deps.sandboxNetwork !== undefined);
    const { css, html, guard, checkedPost, frameOf, audit } = http;

    scope.get(`/dashboard/assets/:file`, { config, schema }, async (request, reply) => {
      if (`/dashboard/assets/${(request.params as { file: string }).file}` !== css) return reply.code(404).send();
      return reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', dashboard.css.etag)
        .send(dashboard.css.body);
    });

    scope.get('/dashboard/sign-in', { config, schema }, async (request, reply) => {
      const query = request.query as { next?: string; device?: string };
      const device = deviceOf(query.device);
      return html(reply, 200, signInPage(css, { next: safeNext(query.next), ...(device ? { device } : {}) }));
    });

    scope.post('/dashboard/sign-in', { config, schema }, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, string>;
      const next = safeNext(body.next);
      const device = deviceOf(body.device);
      const email = String(body.email ?? '').slice(0, 320);
      const wait = await pages.limit('dashboard-sign-in', request, deps.signInPerMinute);
      if (wait !== undefined) {
        reply.header('retry-after', String(wait));
        return html(reply, 429, signInPage(css, { email, next, error: `Too many attempts. Wait ${wait} seconds.` }));
      }
      // A sign-in form posted from another site is refused (login CSRF).
      if (!pages.sameOrigin(request)) return html(reply, 403, signInPage(css, { email, next, error: 'Refused.' }));
      const result = await dashboard.accounts.signIn({
        email,
        password: String(body.password ?? '').slice(0, 500),
        code: String(body.code ?? '').slice(0, 20),
        ip: request.ip,
        ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
      });
      if (!result.ok) {
        const error = result.locked
          ? 'This account is locked after too many failed attempts. Try again in 15 minutes.'
          : 'The email, password or code is not right.';
        return html(reply, 401, signInPage(css, { email, next, error, ...(device ? { device } : {}) }));
      }
      // Signed in on one of the merchant's devices: the device lists the user (another merchant's device: nothing).
      if (device && result.user.merchantId) {
        const [firstName = '', ...rest] = result.user.name.trim().split(/\s+/);
        const recorded = await deps.devices.recordUser(result.user.merchantId, device, {
          id: result.user.id,
          firstName,
          lastName: rest.join(' '),
          email: result.user.email,
        });
        if (recorded) {
          await dashboard.audit.record(
            {
              user: result.user,
              action: 'device.sign-in',
              target: device,
              outcome: 'ok',
              ip: request.ip,
              correlationId: String(request.id),
            },
            new Date(),
          );
        }
      }
      reply.header('set-cookie', sessionCookie(result.cookie, deps.sessionHours * 3600, pages.secureCookie));
      return reply.redirect(next, 303);
    });

    scope.post('/dashboard/sign-out', { config, schema }, async (request, reply) => {
      const who = await checkedPost(request, reply, 'account.manage');
      if (!who) return reply;
      await dashboard.sessions.end(who.idHash);
      await audit(request, who, { action: 'sign-out', outcome: 'ok' });
      reply.header('set-cookie', sessionCookie('', 0, pages.secureCookie));
      return reply.redirect('/dashboard/sign-in', 303);
    });

    scope.post('/dashboard/sign-out-everywhere', { config, schema }, async (request, reply) => {
      const who = await checkedPost(request, reply, 'account.manage');
      if (!who) return reply;
      await dashboard.sessions.endAll(who.user.id);
      await audit(request, who, { action: 'sign-out-everywhere', outcome: 'ok' });
      reply.header('set-cookie', sessionCookie('', 0, pages.secureCookie));
      return reply.redirect('/dashboard/sign-in', 303);
    });

    scope.get('/dashboard', { config, schema }, async (request, reply) => {
      const who = await guard(request, reply, 'home.view');
      if (!who) return reply;
      if (who.user.ownerKind === 'partner') return reply.redirect('/dashboard/partner', 303);
      if (who.user.ownerKind !== 'merchant') {
        const kind = 'Operator';
        return html(
          reply,
          200,
          page(
            frameOf(who, kind, '/dashboard'),
            `<h1>${esc(kind)} console</h1><p>Signed in as ${esc(who.user.email)}.</p>
<ul class="card"><li><a href="/dashboard/operator/merchants">Merchants</a>: their processors (credentials as set or unset), terminals and Tap to Pay requests</li>
<li><a href="/dashboard/operator/partners">Partners</a></li><li><a href="/dashboard/operator/bank-files">Bank files</a>: the ACH files exchanged with banks</li>
${deps.sandboxNetwork ? '<li><a href="/dashboard/operator/sandbox">Sandbox</a>: the clock, the card network, the outbox</li>' : ''}<li><a href="/dashboard/audit">Audit log</a></li></ul>`,
          ),
        );
      }
      const configuration = await deps.merchants.getConfiguration(who.user.merchantId!);
      const figures = await homeFigures(
        deps.pool,
        dashboard.volume,
        who.user.merchantId!,
        deps.clock.now(),
        configuration.settings.timeZone,
      );
      return html(reply, 200, page(frameOf(who, 'Home', '/dashboard'), homeMain(figures, configuration.companyName)));
    });

    scope.get('/dashboard/audit', { config, schema }, async (request, reply) => {
      const who = await guard(request, reply, 'audit.view');
      if (!who) return reply;
      const owner =
        who.user.ownerKind === 'merchant'
          ? { merchantId: who.user.merchantId! }
          : who.user.ownerKind === 'partner'
            ? { partnerId: who.user.partnerId! }
            : {};
      const timeZone = who.user.merchantId
        ? (await deps.merchants.getConfiguration(who.user.merchantId)).settings.timeZone
        : 'UTC';
      const rows = await dashboard.audit.list(owner, 100);
      return html(reply, 200, page(frameOf(who, 'Audit log', '/dashboard/audit'), auditMain(rows, timeZone)));
    });

    transactionRoutes(scope, { ...deps, http });
    terminalRoutes(scope, { ...deps, http });
    savedChargeRoutes(scope, { ...deps, http });
    accountRoutes(scope, { ...deps, http });
    keyRoutes(scope, { ...deps, http });
    webhookRoutes(scope, { ...deps, http });
    partnerRoutes(scope, { ...deps, http });
    settlementRoutes(scope, { ...deps, http });
    customerRoutes(scope, { ...deps, http });
    operatorRoutes(scope, { ...deps, http });
    subscriptionRoutes(scope, { ...deps, http });
    invoiceRoutes(scope, { ...deps, http });
    catalogRoutes(scope, { ...deps, http });
    linkRoutes(scope, { ...deps, http });
    deviceRoutes(scope, { ...deps, http });
    logRoutes(scope, { ...deps, http });
    settingsRoutes(scope, { ...deps, http });
    operatorConsoleRoutes(scope, { ...deps, http });
    operatorSandboxRoutes(scope, { ...deps, http });
  });
}

const withoutNul = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

/** Form fields that carry several values on purpose. */
const REPEATED_FIELDS: ReadonlySet<string> = new Set(['eventTypes']);

/** A device id as its app reports it (free text, bounded), or undefined. */
function deviceOf(text: string | undefined): string | undefined {
  const value = (text ?? '').trim();
  return value && value.length <= 200 ? value : undefined;
}

/** Where to go after signing in: only a dashboard path of ours (never another site). */
function safeNext(next: string | undefined): string {
  // No '..' (a browser would resolve /dashboard/../x out of the dashboard) and nothing that names another site.
  return next && /^\/dashboard(\/[\w\-/?=&.%]*)?$/.test(next) && !next.includes('..') ? next : '/dashboard';
}

function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/dashboard',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
