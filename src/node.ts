import { type BuildAppOptions, buildApp } from './app.js';
import type { Config } from './config.js';
import { SandboxAchBank } from './connectors/ach/sandbox-bank.js';
import { isSandboxTestCard, SandboxCardNetwork } from './connectors/card/sandbox-card-network.js';
import { SandboxNetworkConditions } from './connectors/card/sandbox-conditions.js';
import { Connectors } from './connectors/registry.js';
import type { AppContext } from './context.js';
import { ApiKeysService } from './modules/api-keys/api-keys.service.js';
import { CustomersService } from './modules/customers/customers.service.js';
import { sandboxDeviceQueues, sandboxDeviceSchedules } from './modules/devices/devices.jobs.js';
import { DevicesService } from './modules/devices/devices.service.js';
import { EventFeed } from './modules/events/event-feed.js';
import { EventStreams } from './modules/events/event-streams.js';
import { CatalogService } from './modules/invoices/catalog.service.js';
import { InvoiceCheckout } from './modules/invoices/invoice-checkout.js';
import { InvoiceDelivery } from './modules/invoices/invoice-delivery.js';
import { InvoicePayments } from './modules/invoices/invoice-payments.js';
import { InvoiceSettingsService } from './modules/invoices/invoice-settings.js';
import { invoiceQueues, invoiceSchedules } from './modules/invoices/invoices.jobs.js';
import { InvoicesService } from './modules/invoices/invoices.service.js';
import { PdfRenderer } from './modules/invoices/pdf/pdf-renderer.js';
import { Ledger } from './modules/ledger/ledger.js';
import { LinkCheckout } from './modules/links/link-checkout.js';
import { LinkSharing } from './modules/links/link-sharing.js';
import { linkQueues, linkSchedules } from './modules/links/links.jobs.js';
import { LinksService } from './modules/links/links.service.js';
import { ConfigurationCache } from './modules/merchants/configuration-cache.js';
import { MerchantsService } from './modules/merchants/merchants.service.js';
import { MerchantPortfolios } from './modules/merchants/portfolio/portfolio.service.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { AccessTokenAuthenticator } from './modules/oauth/access-token.authenticator.js';
import { OAuthService } from './modules/oauth/oauth.service.js';
import { SigningKeyRing } from './modules/oauth/signing-keys.js';
import { OperatorService } from './modules/operator/operator.service.js';
import { BuiltinIdentityProvider } from './modules/partner-api/identity-provider.js';
import { IdentityTokenVerifier } from './modules/partner-api/identity-verifier.js';
import { PartnerPrincipals } from './modules/partner-api/principals.js';
import { PartnersService } from './modules/partners/partners.service.js';
import { achQueues } from './modules/payments/ach/ach.jobs.js';
import { AchPaymentsService } from './modules/payments/ach/ach.service.js';
import { CardPaymentsService } from './modules/payments/card-payments.service.js';
import { PaymentsService } from './modules/payments/payments.service.js';
import { closeBatchHandler } from './modules/payments/settle-batch.js';
import { PaymentSourceListeners } from './modules/payments/source-listeners.js';
import { cardQueues, cardSchedules } from './modules/payments/transactions.jobs.js';
import { TransactionsService } from './modules/payments/transactions.service.js';
import { posQueues, posSchedules } from './modules/pos/pos.jobs.js';
import { PosService } from './modules/pos/pos.service.js';
import { PosTerminalSide } from './modules/pos/pos-terminal-side.js';
import { PosWaiters } from './modules/pos/pos-waiters.js';
import { RequestLogWriter } from './modules/request-logs/request-log-writer.js';
import { SessionPayments } from './modules/sessions/session-payments.js';
import { SessionSources } from './modules/sessions/session-sources.js';
import { sessionQueues, sessionSchedules } from './modules/sessions/sessions.jobs.js';
import { PaymentSessionsService } from './modules/sessions/sessions.service.js';
import { SettlementsService } from './modules/settlements/settlements.service.js';
import { subscriptionQueues, subscriptionSchedules } from './modules/subscriptions/subscriptions.jobs.js';
import { SubscriptionsService } from './modules/subscriptions/subscriptions.service.js';
import { maintenanceHandler, maintenanceQueue } from './modules/system/maintenance.js';
import { TerminalChannel } from './modules/terminals/channel/terminal-channel.js';
import { TerminalsService } from './modules/terminals/terminals.service.js';
import { DataKeys } from './modules/vault/data-keys.js';
import { VaultService } from './modules/vault/vault.service.js';
import { WebhookDispatcher } from './modules/webhooks/dispatcher.js';
import { WebhookSender } from './modules/webhooks/sender.js';
import { WebhooksService } from './modules/webhooks/webhooks.service.js';
import { SharedClock, systemClock } from './platform/clock/clock.js';
import { NodeLiveness } from './platform/cluster/node-liveness.js';
import { loadKeyEncryptionKey } from './platform/crypto/kek.js';
import { OpaqueCursors } from './platform/crypto/opaque-cursors.js';
import { Listener } from './platform/db/listener.js';
import { createPool } from './platform/db/pool.js';
import { IdempotencyStore } from './platform/http/idempotency.js';
import { RateLimiter } from './platform/http/rate-limit.js';
import { type App, closeGracefully } from './platform/http/server.js';
import { every, JobRunner } from './platform/jobs/runner.js';
import { outboxEmail, SmtpTransport } from './platform/mail/email-transport.js';
import type { Logger } from './platform/observability/logger.js';
import { createMetrics } from './platform/observability/metrics.js';
import { outboxSms, TwilioSms } from './platform/sms/sms-transport.js';

export interface Node {
  ctx: AppContext;
  app: App;
  /**
   * This process's node liveness id (what it records on the work it holds; `tessera_node_alive(id)` in SQL). Logged
   * at start, so an operator can tell which process held what.
   */
  nodeId(): number;
  /** The operator token, only when this node just generated it (first sandbox start without ADMIN_TOKEN). */
  generatedAdminToken: string | undefined;
  /** Start background workers (no-op when WORKERS=0). */
  startWorkers(): Promise<void>;
  /**
   * Runs every due job and every due webhook delivery in this process until neither has anything left (a job may
   * record events, whose deliveries then come due). For tests and tools; workers keep running meanwhile.
   */
  drain(): Promise<void>;
  listen(): Promise<string>;
  /** Graceful: stop accepting, finish in-flight requests, stop workers, flush counters, close the pool. */
  stop(): Promise<void>;
}

export interface NodeOptions {
  logger: Logger;
  databaseUrl: string;
  /** The session-capable URL for LISTEN and the liveness lock (default `databaseUrl`). */
  directDatabaseUrl?: string;
  processMetrics?: boolean;
  app?: BuildAppOptions;
}

/** Wires one node: every service, the HTTP app and the job runner, against one database. */
export async function createNode(config: Config, options: NodeOptions): Promise<Node> {
  const { logger, databaseUrl } = options;
  const pool = createPool(databaseUrl, config.dbPoolSize, 'tessera', {
    preparedStatements: config.databasePreparedStatements,
  });
  const closers: Array<() => Promise<void> | void> = [() => pool.end()];
  try {
    const listener = new Listener(options.directDatabaseUrl ?? databaseUrl, (error) =>
      logger.warn({ err: error }, 'notification listener error'),
    );
    const liveness = new NodeLiveness();
    liveness.attach(listener);
    await listener.start();
    const nodeId = () => liveness.id;
    closers.unshift(() => listener.stop());

    const kek = await loadKeyEncryptionKey(config, pool);
    const sharedClock = config.env === 'sandbox' ? new SharedClock(pool) : undefined;
    if (sharedClock) {
      await sharedClock.start(listener);
      closers.unshift(() => sharedClock.stop());
    }
    const clock = sharedClock ?? systemClock;
    const { rows } = await pool.query<{ deployment_id: string }>('SELECT deployment_id FROM deployment');
    const deploymentId = rows[0]!.deployment_id;

    const metrics = createMetrics({ processMetrics: options.processMetrics ?? false });
    const partners = new PartnersService(pool, clock);
    const configurations = new ConfigurationCache(config.configCacheTtlMs);
    configurations.listen(listener);
    const merchants = new MerchantsService(pool, clock, partners, configurations, new MerchantPortfolios(pool, clock));
    const apiKeys = new ApiKeysService(pool, clock, merchants, partners);
    const keyring = new SigningKeyRing(pool, kek, config.env);
    await keyring.load();
    const keyReload = setInterval(() => void keyring.reload().catch(() => {}), 60_000);
    keyReload.unref();
    closers.unshift(() => clearInterval(keyReload));
    const oauth = new OAuthService(pool, clock, config, keyring, apiKeys, deploymentId);
    const operator = new OperatorService(pool, config);
    const generatedAdminToken = await operator.initialise();

    const authenticator = new AccessTokenAuthenticator(pool, clock, keyring, apiKeys, oauth.issuer, oauth.audience);
    authenticator.listen(listener);
    const rateLimiter = new RateLimiter(pool, clock, [
      { name: 'minute', windowSeconds: 60, limit: config.rateLimitPerMinute },
      { name: 'burst', windowSeconds: 10, limit: config.rateLimitBurstPer10s },
    ]);
    rateLimiter.start();
    closers.unshift(() => rateLimiter.stop());
    const idempotency = new IdempotencyStore(pool, clock, kek, config.idempotencyRetentionMinutes, nodeId);
    const requestLog = new RequestLogWriter(pool, logger);
    requestLog.start();
    closers.unshift(() => requestLog.stop());

    const dataKeys = new DataKeys(pool, kek);
    await dataKeys.start();
    // The positions handed to clients (event streams, the request log) are sealed under a deployment secret.
    const cursors = new OpaqueCursors(await dataKeys.deploymentSecret('opaque-cursors'));
    const eventFeed = new EventFeed(pool, logger, { pollMs: 250, batch: 200 });
    closers.unshift(() => eventFeed.stop());
    const eventStreams = new EventStreams({
      pool,
      feed: eventFeed,
      cursors,
      nodeId,
      cap: config.eventStreamsPerMerchant,
      batch: 200,
    });
    const vault = new VaultService(pool, clock, dataKeys, config.env === 'sandbox' ? isSandboxTestCard : undefined);
    const customers = new CustomersService(pool, clock, vault);
    const sandboxNetwork = config.env === 'sandbox' ? new SandboxNetworkConditions(pool) : undefined;
    const connectors = new Connectors(
      new Map([['sandbox-card', new SandboxCardNetwork(pool, clock, config.sandboxCardLatencyMs, sandboxNetwork)]]),
      new Map([['sandbox-ach', new SandboxAchBank(pool, clock)]]),
    );
    const ledger = new Ledger(pool, clock);
    const settlements = new SettlementsService(pool, clock);
    const settling = { pool, clock, connectors, ledger, settlements, merchants };
    const paymentSources = new PaymentSourceListeners();
    const cardPayments = new CardPaymentsService({
      pool,
      clock,
      config,
      logger,
      merchants,
      customers,
      vault,
      connectors,
      ledger,
      settlements,
      sources: paymentSources,
      nodeId,
    });
    const ach = new AchPaymentsService({
      pool,
      clock,
      logger,
      merchants,
      customers,
      vault,
      ledger,
      settlements,
      connector: (name) => connectors.ach(name),
      sources: paymentSources,
      filePartRecords: config.achFilePartRecords,
    });
    const transactions = new TransactionsService(pool, settling);
    const sessions = new PaymentSessionsService({ pool, clock, config, logger, merchants, customers, transactions });
    const payments = new PaymentsService(cardPayments, ach, transactions, paymentSources);
    const sessionSources = new SessionSources();
    const sessionPayments = new SessionPayments({
      pool,
      clock,
      logger,
      merchants,
      customers,
      vault,
      payments,
      transactions,
      sources: sessionSources,
      nodeId,
    });
    const subscriptions = new SubscriptionsService({
      pool,
      clock,
      logger,
      merchants,
      customers,
      vault,
      payments,
      transactions,
      nodeId,
    });
    const sandbox = config.env === 'sandbox';
    const terminals = new TerminalsService({ pool, clock, merchants, sandbox });
    const devices = new DevicesService({ pool, clock, keyring, issuer: oauth.issuer });
    const terminalChannel = new TerminalChannel({ pool, logger, listener, terminals, nodeId });
    const posDeps = {
      pool,
      clock,
      logger,
      kek,
      merchants,
      customers,
      payments,
      transactions,
      terminals,
      channel: terminalChannel,
      waiters: new PosWaiters(listener),
      nodeId,
    };
    const posSide = new PosTerminalSide(posDeps);
    terminalChannel.handle(posSide);
    const pos = new PosService(posDeps, posSide, config.posLongPollMs);
    // Without a configured transport the sandbox keeps messages in its outbox; production sends none (docs/messages.md).
    const email = config.smtpUrl ? new SmtpTransport(config.smtpUrl) : sandbox ? outboxEmail : null;
    closers.unshift(() => email?.close());
    const sms = config.twilio ? new TwilioSms(config.twilio) : sandbox ? outboxSms : null;
    const messages = new MessagesService({ pool, clock, logger, email, sms, mailFrom: config.mailFrom });
    const catalog = new CatalogService(pool, clock);
    const invoiceSettings = new InvoiceSettingsService(pool, clock, merchants);
    const pdfRenderer = new PdfRenderer(config.pdfRenderThreads);
    closers.unshift(() => pdfRenderer.close());
    const invoiceDelivery = new InvoiceDelivery({
      pool,
      clock,
      customers,
      merchants,
      messages,
      settings: invoiceSettings,
      renderer: pdfRenderer,
      publicBaseUrl: config.publicBaseUrl,
    });
    const invoices = new InvoicesService({
      pool,
      clock,
      catalog,
      customers,
      settings: invoiceSettings,
      expiryDays: config.invoiceExpiryDays,
      delivery: invoiceDelivery,
    });
    const invoicePayments = new InvoicePayments({
      pool,
      clock,
      logger,
      nodeId,
      payments,
      settings: invoiceSettings,
      delivery: invoiceDelivery,
    });
    const invoiceCheckout = new InvoiceCheckout({
      pool,
      clock,
      payments: invoicePayments,
      settings: invoiceSettings,
      transactions,
      sessions,
      sessionPayments,
      sources: sessionSources,
    });
    const links = new LinksService({ pool, clock, merchants, customers, publicBaseUrl: config.publicBaseUrl });
    const linkCheckout = new LinkCheckout({ pool, clock, links, sessions, transactions, sources: sessionSources });
    const linkSharing = new LinkSharing({ pool, links, customers, merchants, messages });
    // The partner portfolio API: the built-in identity provider (sandbox, or PARTNER_BUILTIN_IDP=true) and the
    // verifier of every trusted issuer's identity tokens.
    let identityProvider: BuiltinIdentityProvider | undefined;
    if (config.partnerBuiltinIdp) {
      const idpKeys = new SigningKeyRing(pool, kek, `idp-${config.env}`);
      await idpKeys.load();
      identityProvider = new BuiltinIdentityProvider(idpKeys, clock, config.publicBaseUrl, config.partnerBaseUrl);
    }
    const partnerPrincipals = new PartnerPrincipals(
      pool,
      clock,
      partners,
      identityProvider?.issuer ?? `${config.publicBaseUrl}/idp`,
    );
    const identityVerifier = new IdentityTokenVerifier(
      clock,
      config.partnerBaseUrl,
      config.partnerIdentityIssuers,
      identityProvider,
    );
    const webhookSender = new WebhookSender(
      { allowLoopback: config.webhookAllowPrivateTargets },
      config.webhookTimeoutMs,
    );
    closers.unshift(() => webhookSender.close());
    const webhooks = new WebhooksService(pool, clock, kek, config, webhookSender);
    const webhookDispatcher = new WebhookDispatcher(
      pool,
      { clock, kek, sender: webhookSender, headerPrefix: config.webhookHeaderPrefix },
      logger,
      {
        concurrency: config.webhookConcurrency,
        perEndpoint: config.webhookConcurrencyPerEndpoint,
        // Outlives the attempt's own timeout with room for writing its outcome.
        leaseMs: config.webhookTimeoutMs * 2 + 5000,
      },
    );

    const jobs = new JobRunner(pool, clock, logger, metrics, config.workers, nodeId, config.jobLeaseSeconds);
    jobs.register(maintenanceHandler(pool, clock, logger));
    jobs.schedule({ name: 'maintenance', queue: maintenanceQueue.name, next: every(600) });
    jobs.register(closeBatchHandler(settling));
    for (const queue of cardQueues(pool, clock, cardPayments)) jobs.register(queue);
    for (const schedule of cardSchedules) jobs.schedule(schedule);
    for (const queue of achQueues(ach)) jobs.register(queue);
    for (const queue of sessionQueues(sessions, sessionPayments)) jobs.register(queue);
    for (const schedule of sessionSchedules) jobs.schedule(schedule);
    for (const queue of subscriptionQueues(subscriptions.billing)) jobs.register(queue);
    for (const schedule of subscriptionSchedules) jobs.schedule(schedule);
    for (const queue of posQueues(posDeps, posSide)) jobs.register(queue);
    for (const queue of invoiceQueues(invoices, invoicePayments)) jobs.register(queue);
    for (const queue of messages.queues()) jobs.register(queue);
    for (const queue of linkQueues(links)) jobs.register(queue);
    for (const schedule of linkSchedules) jobs.schedule(schedule);
    for (const schedule of invoiceSchedules) jobs.schedule(schedule);
    for (const schedule of posSchedules) jobs.schedule(schedule);
    if (sandbox) {
      for (const queue of sandboxDeviceQueues(devices)) jobs.register(queue);
      for (const schedule of sandboxDeviceSchedules) jobs.schedule(schedule);
    }

    const ctx: AppContext = {
      config,
      pool,
      databaseUrl,
      clock,
      sharedClock,
      logger,
      metrics,
      kek,
      jobs,
      services: {
        eventStreams,
        cursors,
        sandboxNetwork,
        partners,
        merchants,
        apiKeys,
        oauth,
        operator,
        vault,
        customers,
        settlements,
        cardPayments,
        ach,
        payments,
        transactions,
        webhooks,
        sessions,
        sessionPayments,
        subscriptions,
        terminals,
        terminalChannel,
        pos,
        devices,
        catalog,
        invoiceSettings,
        invoices,
        invoicePayments,
        invoiceDelivery,
        invoiceCheckout,
        messages,
        links,
        linkCheckout,
        linkSharing,
        partnerPrincipals,
        identityProvider,
        identityVerifier,
      },
    };
    const app = await buildApp(
      ctx,
      {
        logger,
        metrics,
        documentationUrl: `${config.publicBaseUrl}/docs`,
        trustProxy: config.trustProxy,
        tokens: authenticator,
        operator,
        rateLimiter,
        idempotency,
        requestLog,
      },
      options.app,
    );

    let stopped = false;
    return {
      ctx,
      app,
      nodeId,
      generatedAdminToken,
      async startWorkers() {
        await jobs.start(listener, sharedClock);
        if (config.workers > 0) webhookDispatcher.start(listener, sharedClock);
      },
      async listen() {
        return app.listen({ host: config.host, port: config.port });
      },
      async drain() {
        for (let round = 0; round < 100; round++) {
          const ran = (await jobs.drain()) + (await webhookDispatcher.drain());
          if (ran === 0) return;
        }
        throw new Error('drain: jobs and deliveries keep coming due');
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await closeGracefully(app);
        await Promise.all([jobs.stop(config.shutdownTimeoutMs), webhookDispatcher.stop(config.shutdownTimeoutMs)]);
        for (const close of closers) await close();
      },
    };
  } catch (error) {
    for (const close of closers) await Promise.resolve(close()).catch(() => {});
    throw error;
  }
}
