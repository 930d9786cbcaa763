import type { Config } from './config.js';
import type { ApiKeysService } from './modules/api-keys/api-keys.service.js';
import type { MerchantsService } from './modules/merchants/merchants.service.js';
import type { OAuthService } from './modules/oauth/oauth.service.js';
import type { OperatorService } from './modules/operator/operator.service.js';
import type { PartnersService } from './modules/partners/partners.service.js';
import type { Clock, SharedClock } from './platform/clock/clock.js';
import type { KeyEncryptionKey } from './platform/crypto/kek.js';
import type { Pool } from './platform/db/pool.js';
import type { JobRunner } from './platform/jobs/runner.js';
import type { Logger } from './platform/observability/logger.js';
import type { Metrics } from './platform/observability/metrics.js';

export interface Services {
  partners: PartnersService;
  merchants: MerchantsService;
  apiKeys: ApiKeysService;
  oauth: OAuthService;
  operator: OperatorService;
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
