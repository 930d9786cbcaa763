import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { purgeExpiredIdempotencyKeys } from '../../platform/http/idempotency.js';
import { purgeExpiredRateLimitCounters } from '../../platform/http/rate-limit.js';
import type { QueueDefinition } from '../../platform/jobs/runner.js';
import type { Logger } from '../../platform/observability/logger.js';
import { purgeExpiredRefreshTokens } from '../oauth/oauth.repo.js';

/** Periodic sweep of rows whose time has passed (on the business clock). Idempotent by nature. */
export function maintenanceQueue(pool: Pool, clock: Clock, logger: Logger): QueueDefinition {
  return {
    name: 'platform.maintenance',
    async handle() {
      const now = clock.now();
      const idempotencyKeys = await purgeExpiredIdempotencyKeys(pool, now);
      const rateLimitCounters = await purgeExpiredRateLimitCounters(pool, now);
      const refreshTokens = await purgeExpiredRefreshTokens(pool, now);
      logger.info({ idempotencyKeys, rateLimitCounters, refreshTokens }, 'maintenance sweep');
    },
  };
}
