import { partitionSweepPurge } from '../../platform/db/time-partitions.js';
import { defineModule } from '../manifest.js';
import { webhookSecretAad } from './delivery-attempt.js';
import { deliveryMetrics, registerBacklogGauges } from './delivery-metrics.js';
import { WebhookDispatcher } from './dispatcher.js';
import { WebhookSender } from './sender.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { WebhooksService } from './webhooks.service.js';

declare module '../services.js' {
  interface Services {
    webhooks: WebhooksService;
    /** Delivers due webhook deliveries (signed, retried, SSRF-safe), on the nodes that run workers. */
    webhookDispatcher: WebhookDispatcher;
  }
}

export const webhooksModule = defineModule({
  folder: 'modules/webhooks',
  summary: 'Webhooks: endpoints, the fan-out of every event to its subscribers, signed deliveries with retries.',
  tables: ['webhook_endpoints', 'webhook_deliveries', 'webhook_delivery_logs'],
  reads: ['event_records', 'merchant_accounts'],
  needs: [],
  provides: ['webhooks', 'webhookDispatcher'],
  sealed: [
    {
      name: 'webhook signing secrets',
      table: 'webhook_endpoints',
      column: 'secret_sealed',
      key: ['id'],
      aad: (row) => webhookSecretAad(String(row.id)),
    },
  ],
  build({ pool, clock, kek, config, logger, onStop, metrics }) {
    const sender = new WebhookSender({ allowLoopback: config.webhookAllowPrivateTargets }, config.webhookTimeoutMs);
    onStop(() => sender.close());
    const webhooks = new WebhooksService(pool, clock, kek, config, sender);
    registerBacklogGauges(metrics, pool, clock);
    const webhookDispatcher = new WebhookDispatcher(
      pool,
      { clock, kek, sender, headerPrefix: config.webhookHeaderPrefix },
      logger,
      {
        concurrency: config.webhookConcurrency,
        perEndpoint: config.webhookConcurrencyPerEndpoint,
        // Outlives the attempt's own timeout with room for writing its outcome.
        leaseMs: config.webhookTimeoutMs * 2 + 5000,
        attemptTimeoutMs: config.webhookTimeoutMs,
        observer: deliveryMetrics(metrics),
      },
    );
    return { webhooks, webhookDispatcher };
  },
  routes: (app, { webhooks }) => webhooksRoutes(app, { webhooks }),
  worker: ({ webhookDispatcher }, { config, listener, sharedClock }) => ({
    start: () => {
      if (config.workers > 0) webhookDispatcher.start(listener, sharedClock);
    },
    drain: () => webhookDispatcher.drain(),
    stop: (timeoutMs) => webhookDispatcher.stop(timeoutMs),
  }),
  // Month partitions ahead, and those past their retention dropped: the deliveries with their events
  // (EVENT_RETENTION_DAYS; a delivery's month is its event's), the logs by WEBHOOK_DELIVERY_LOG_RETENTION_DAYS.
  purges: (_services, { pool, config }) => [
    partitionSweepPurge('webhookDeliveryPartitions', pool, {
      table: 'webhook_deliveries',
      column: 'created_at',
      retentionDays: config.retention.eventsDays,
      // Room on each page for the lease to be a heap-only update (migration 0072).
      storage: 'fillfactor = 60',
    }),
    partitionSweepPurge('webhookDeliveryLogPartitions', pool, {
      table: 'webhook_delivery_logs',
      column: 'created_at',
      retentionDays: config.retention.webhookDeliveryLogsDays,
    }),
  ],
});
