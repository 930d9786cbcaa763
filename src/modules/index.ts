import { connectorsModule } from '../connectors/module.js';
import type { SealedColumn } from '../platform/crypto/key-rotation.js';
import { IDEMPOTENCY_SEALED } from '../platform/http/idempotency.js';
import { apiKeysModule } from './api-keys/module.js';
import { apiV2Module } from './api-v2/module.js';
import { checkoutModule } from './checkout/module.js';
import { customersModule } from './customers/module.js';
import { dashboardModule } from './dashboard/module.js';
import { devicesModule } from './devices/module.js';
import { eventsModule } from './events/module.js';
import { invoicesModule } from './invoices/module.js';
import { ledgerModule } from './ledger/module.js';
import { linksModule } from './links/module.js';
import type { AnyModule, OperatorOperation } from './manifest.js';
import { merchantsModule } from './merchants/module.js';
import { messagesModule } from './messages/module.js';
import { oauthModule } from './oauth/module.js';
import { operatorModule } from './operator/module.js';
import { partnerApiModule } from './partner-api/module.js';
import { partnersModule } from './partners/module.js';
import { paymentsModule } from './payments/module.js';
import { posModule } from './pos/module.js';
import { processorNotificationsModule } from './processor-notifications/module.js';
import { processorsModule } from './processors/module.js';
import { referenceModule } from './reference/module.js';
import { requestLogsModule } from './request-logs/module.js';
import { sandboxModule } from './sandbox/module.js';
import { sessionsModule } from './sessions/module.js';
import { settlementsModule } from './settlements/module.js';
import { subscriptionsModule } from './subscriptions/module.js';
import { systemModule } from './system/module.js';
import { terminalsModule } from './terminals/module.js';
import { vaultModule } from './vault/module.js';
import { webhooksModule } from './webhooks/module.js';

/**
 * Every module of a node, in the order they are built: a module comes after the modules whose services it needs.
 * Adding a module is its folder and one line here (docs/architecture.md, "Adding a module").
 */
export const MODULES: readonly AnyModule[] = [
  systemModule,
  referenceModule,
  operatorModule,
  partnersModule,
  merchantsModule,
  apiKeysModule,
  oauthModule,
  vaultModule,
  processorsModule,
  eventsModule,
  requestLogsModule,
  customersModule,
  connectorsModule,
  ledgerModule,
  settlementsModule,
  terminalsModule,
  devicesModule,
  paymentsModule,
  processorNotificationsModule,
  webhooksModule,
  sessionsModule,
  subscriptionsModule,
  posModule,
  messagesModule,
  checkoutModule,
  invoicesModule,
  linksModule,
  dashboardModule,
  partnerApiModule,
  apiV2Module,
  sandboxModule,
];

/** The operator API: every module's operations, in module order (`/admin/v1` and `tessera admin`). */
export const OPERATIONS: readonly OperatorOperation[] = MODULES.flatMap((module) => module.operations ?? []);

/** Every column sealed with the key-encryption key: the platform's and each module's (key rotation reads this). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  IDEMPOTENCY_SEALED,
  ...MODULES.flatMap((module) => module.sealed ?? []),
];
