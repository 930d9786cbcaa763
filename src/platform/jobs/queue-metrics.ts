import type { Clock } from '../clock/clock.js';
import type { Pool } from '../db/pool.js';
import { type Metrics, sharedRead } from '../observability/metrics.js';

interface QueueRow {
  queue: string;
  due: number;
  oldest: number | null;
  failed: number;
}

/**
 * The job queues as an operator watches them: jobs due and waiting, how long the oldest has waited (workers down or
 * too few show here), and jobs that failed for good. Read from the jobs table at each scrape, on the business clock.
 */
export function registerQueueGauges(metrics: Metrics, pool: Pool, clock: Clock): void {
  const read = sharedRead(() =>
    pool
      .query<QueueRow>(
        `SELECT queue, count(*) FILTER (WHERE failed_at IS NULL)::int AS due,
                extract(epoch FROM $1::timestamptz - min(run_at) FILTER (WHERE failed_at IS NULL))::float8 AS oldest,
                count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed
         FROM jobs WHERE (run_at <= $1 AND failed_at IS NULL) OR failed_at IS NOT NULL
         GROUP BY queue`,
        [clock.now()],
      )
      .then((result) => result.rows),
  );
  metrics.gauge('tessera_jobs_due', 'Background jobs due now and not yet done, by queue', ['queue'], async () =>
    (await read()).map((row) => ({ labels: { queue: row.queue }, value: row.due })),
  );
  metrics.gauge(
    'tessera_jobs_oldest_due_seconds',
    'How long the oldest due background job has waited, by queue',
    ['queue'],
    async () => (await read()).map((row) => ({ labels: { queue: row.queue }, value: Math.max(0, row.oldest ?? 0) })),
  );
  metrics.gauge(
    'tessera_jobs_failed',
    'Background jobs that failed for good (an operator looks), by queue',
    ['queue'],
    async () => (await read()).map((row) => ({ labels: { queue: row.queue }, value: row.failed })),
  );
}
