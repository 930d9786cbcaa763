import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { purgeExpiredIdempotencyKeys } from '../../platform/http/idempotency.js';
import { purgeExpiredRateLimitCounters } from '../../platform/http/rate-limit.js';
import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition } from '../../platform/jobs/runner.js';
import type { Logger } from '../../platform/observability/logger.js';
import { purgeExpiredRefreshTokens } from '../oauth/oauth.repo.js';

/** Every ten minutes (business clock): rows whose time has passed are dropped. */
export const maintenanceQueue = defineQueue<{ slot: string }>('platform.maintenance');

/** Periodic sweep of rows whose time has passed (on the business clock). Idempotent by nature. */
export function maintenanceHandler(pool: Pool, clock: Clock, logger: Logger): QueueDefinition {
  return maintenanceQueue.handler(async () => {
    const now = clock.now();
    const idempotencyKeys = await purgeExpiredIdempotencyKeys(pool, now);
    const rateLimitCounters = await purgeExpiredRateLimitCounters(pool, now);
    const refreshTokens = await purgeExpiredRefreshTokens(pool, now);
    logger.info({ idempotencyKeys, rateLimitCounters, refreshTokens }, 'maintenance sweep');
  });
}
