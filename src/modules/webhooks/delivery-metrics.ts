import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { type Metrics, sharedRead } from '../../platform/observability/metrics.js';
import type { DispatcherOptions } from './dispatcher.js';
import { deliveryBacklog } from './webhooks.repo.js';

/** Automatic attempts as metrics: outcome, deliveries given up, and how late each started. */
export function deliveryMetrics(metrics: Metrics): NonNullable<DispatcherOptions['observer']> {
  return {
    attempt(record, lateSeconds) {
      metrics.webhookAttempts.inc({ outcome: record.logStatus === 'Success' ? 'delivered' : 'failed' });
      if (record.deliveryStatus === 'Failed') metrics.webhookDeliveriesFailed.inc();
      metrics.webhookLag.observe(lateSeconds);
    },
  };
}

/** The deliveries due now and not yet sent, and how long the oldest of them has waited (every node reports both). */
export function registerBacklogGauges(metrics: Metrics, pool: Pool, clock: Clock): void {
  // One query per scrape for both gauges.
  const read = sharedRead(() => deliveryBacklog(pool, clock.now()));
  metrics.gauge('tessera_webhook_deliveries_due', 'Webhook deliveries due now and not yet sent', [], async () => [
    { labels: {}, value: (await read()).due },
  ]);
  metrics.gauge(
    'tessera_webhook_oldest_due_seconds',
    'How long the oldest due webhook delivery has waited',
    [],
    async () => [{ labels: {}, value: (await read()).oldestSeconds }],
  );
}
