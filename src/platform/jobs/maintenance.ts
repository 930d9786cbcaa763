import type { Clock } from '../clock/clock.js';
import type { Pool } from '../db/pool.js';
import { purgeExpiredIdempotencyKeys } from '../http/idempotency.js';
import { purgeExpiredRateLimitCounters } from '../http/rate-limit.js';
import type { Logger } from '../observability/logger.js';
import { defineQueue } from './define.js';
import { every, type QueueDefinition, type ScheduleDefinition } from './runner.js';

/** Rows of a module whose time has passed, dropped by the maintenance sweep; how many went. */
export interface Purge {
  /** Its field in the sweep's log line. */
  name: string;
  purge(now: Date): Promise<number>;
}

/** Every ten minutes (business clock): rows whose time has passed are dropped. */
const maintenanceQueue = defineQueue<{ slot: string }>('platform.maintenance');

export const maintenanceSchedule: ScheduleDefinition = {
  name: 'maintenance',
  queue: maintenanceQueue.name,
  next: every(600),
};

/**
 * Periodic sweep of rows whose time has passed (on the business clock): the platform's own (idempotency keys,
 * rate-limit counters) and what the modules hand it (their manifests' `purges`). Idempotent by nature.
 */
export function maintenanceHandler(
  pool: Pool,
  clock: Clock,
  logger: Logger,
  purges: readonly Purge[],
): QueueDefinition {
  return maintenanceQueue.handler(async () => {
    const now = clock.now();
    const swept: Record<string, number> = {
      idempotencyKeys: await purgeExpiredIdempotencyKeys(pool, now),
      rateLimitCounters: await purgeExpiredRateLimitCounters(pool, now),
    };
    // One purge failing does not hold back the others; the job still fails (and is retried) when any did.
    const failed: string[] = [];
    for (const purge of purges) {
      try {
        swept[purge.name] = await purge.purge(now);
      } catch (error) {
        failed.push(purge.name);
        logger.error({ err: error, purge: purge.name }, 'maintenance purge failed');
      }
    }
    logger.info(swept, 'maintenance sweep');
    if (failed.length > 0) throw new Error(`maintenance purges failed: ${failed.join(', ')}`);
  });
}
