import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import type { QueueDefinition } from '../../platform/jobs/runner.js';
import type { Logger } from '../../platform/observability/logger.js';
import { purgeExpiredRefreshTokens } from '../oauth/oauth.repo.js';

/** Periodic sweep of rows whose time has passed (on the business clock). Idempotent by nature. */
export function maintenanceQueue(pool: Pool, clock: Clock, logger: Logger): QueueDefinition {
  return {
    name: 'platform.maintenance',
    async handle() {
      const now = clock.now();
      const idempotency = await pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
      const counters = await pool.query('DELETE FROM rate_limit_counters WHERE expires_at <= $1', [now]);
      const refresh = await purgeExpiredRefreshTokens(pool, now);
      logger.info(
        { idempotencyKeys: idempotency.rowCount, rateLimitCounters: counters.rowCount, refreshTokens: refresh },
        'maintenance sweep',
      );
    },
  };
}
