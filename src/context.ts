import type { Config } from './config.js';
import type { SandboxNetworkConditions } from './connectors/card/sandbox-conditions.js';
import type { ApiKeysService } from './modules/api-keys/api-keys.service.js';
import type { CustomersService } from './modules/customers/customers.service.js';
import type { DevicesService } from './modules/devices/devices.service.js';
import type { EventStreams } from './modules/events/event-streams.js';
import type { CatalogService } from './modules/invoices/catalog.service.js';
import type { InvoiceCheckout } from './modules/invoices/invoice-checkout.js';
import type { InvoiceDelivery } from './modules/invoices/invoice-delivery.js';
import type { InvoicePayments } from './modules/invoices/invoice-payments.js';
import type { InvoiceSettingsService } from './modules/invoices/invoice-settings.js';
import type { InvoicesService } from './modules/invoices/invoices.service.js';
import type { LinkCheckout } from './modules/links/link-checkout.js';
import type { LinkSharing } from './modules/links/link-sharing.js';
import type { LinksService } from './modules/links/links.service.js';
import type { MerchantsService } from './modules/merchants/merchants.service.js';
import type { MessagesService } from './modules/messages/messages.service.js';
import type { OAuthService } from './modules/oauth/oauth.service.js';
import type { OperatorService } from './modules/operator/operator.service.js';
import type { BuiltinIdentityProvider } from './modules/partner-api/identity-provider.js';
import type { IdentityTokenVerifier } from './modules/partner-api/identity-verifier.js';
import type { PartnerPrincipals } from './modules/partner-api/principals.js';
import type { PartnersService } from './modules/partners/partners.service.js';
import type { AchPaymentsService } from './modules/payments/ach/ach.service.js';
import type { CardPaymentsService } from './modules/payments/card-payments.service.js';
import type { PaymentsService } from './modules/payments/payments.service.js';
import type { TransactionsService } from './modules/payments/transactions.service.js';
import type { PosService } from './modules/pos/pos.service.js';
import type { SessionPayments } from './modules/sessions/session-payments.js';
import type { PaymentSessionsService } from './modules/sessions/sessions.service.js';
import type { SettlementsService } from './modules/settlements/settlements.service.js';
import type { SubscriptionsService } from './modules/subscriptions/subscriptions.service.js';
import type { TerminalChannel } from './modules/terminals/channel/terminal-channel.js';
import type { TerminalsService } from './modules/terminals/terminals.service.js';
import type { VaultService } from './modules/vault/vault.service.js';
import type { WebhooksService } from './modules/webhooks/webhooks.service.js';
import type { Clock, SharedClock } from './platform/clock/clock.js';
import type { KeyEncryptionKey } from './platform/crypto/kek.js';
import type { OpaqueCursors } from './platform/crypto/opaque-cursors.js';
import type { Pool } from './platform/db/pool.js';
import type { JobRunner } from './platform/jobs/runner.js';
import type { Logger } from './platform/observability/logger.js';
import type { Metrics } from './platform/observability/metrics.js';

export interface Services {
  eventStreams: EventStreams;
  /** Seals the positions handed to clients (event streams, the request log) so they reveal nothing. */
  cursors: OpaqueCursors;
  partners: PartnersService;
  merchants: MerchantsService;
  apiKeys: ApiKeysService;
  oauth: OAuthService;
  operator: OperatorService;
  vault: VaultService;
  customers: CustomersService;
  settlements: SettlementsService;
  cardPayments: CardPaymentsService;
  ach: AchPaymentsService;
  /** The internal API every payment source (sessions, subscriptions, and later terminals, invoices, links) uses. */
  payments: PaymentsService;
  transactions: TransactionsService;
  webhooks: WebhooksService;
  sessions: PaymentSessionsService;
  sessionPayments: SessionPayments;
  subscriptions: SubscriptionsService;
  terminals: TerminalsService;
  /** The terminal channel: this node's terminal sockets, and commands to terminals on any node. */
  terminalChannel: TerminalChannel;
  pos: PosService;
  devices: DevicesService;
  catalog: CatalogService;
  invoiceSettings: InvoiceSettingsService;
  invoices: InvoicesService;
  invoicePayments: InvoicePayments;
  invoiceDelivery: InvoiceDelivery;
  invoiceCheckout: InvoiceCheckout;
  messages: MessagesService;
  links: LinksService;
  linkCheckout: LinkCheckout;
  linkSharing: LinkSharing;
  partnerPrincipals: PartnerPrincipals;
  /** Undefined when the built-in identity provider is off (production without PARTNER_BUILTIN_IDP). */
  identityProvider: BuiltinIdentityProvider | undefined;
  identityVerifier: IdentityTokenVerifier;
  /** The sandbox operator's conditions on the simulated card network (undefined in production). */
  sandboxNetwork: SandboxNetworkConditions | undefined;
}

/** Everything a running node holds. Built once by the runtime (or the test harness) and passed down explicitly. */
export interface AppContext {
  config: Config;
  pool: Pool;
  databaseUrl: string;
  clock: Clock;
  /** Present in sandbox: the clock the operator can move. */
  sharedClock: SharedClock | undefined;
  logger: Logger;
  metrics: Metrics;
  kek: KeyEncryptionKey;
  jobs: JobRunner;
  services: Services;
}
