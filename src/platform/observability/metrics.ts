import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly jobsProcessed: Counter<'queue' | 'outcome'>;
  /** A bank connection's file that needs the operator (not delivered by its deadline, or maybe taken: docs/ach.md). */
  readonly achDeliveryAlerts: Counter<'connection'>;
  /** Files exchanged with banks, by direction and what became of them. */
  readonly achBankFiles: Counter<'direction' | 'state'>;
  /** Card operations carried out by a connector, by what came back (docs/operations.md, "Metrics"). */
  readonly payments: Counter<'connector' | 'operation' | 'outcome'>;
  readonly connectorDuration: Histogram<'connector' | 'operation'>;
  /** Calls whose outcome nobody knows yet (no answer in time, or an error): the reconciler asks again. */
  readonly unknownOutcomes: Counter<'connector' | 'operation'>;
  readonly webhookAttempts: Counter<'outcome'>;
  /** Deliveries that failed their last automatic attempt: the receiver never got the message. */
  readonly webhookDeliveriesFailed: Counter;
  /** How late an automatic attempt started against when it was due (a backlog shows here first). */
  readonly webhookLag: Histogram;
  /**
   * A gauge read at each scrape (a count in the database, a size in memory). Every node reports database-wide values
   * alike: dashboards and alerts take their max.
   */
  gauge(
    name: string,
    help: string,
    labelNames: string[],
    read: () =>
      | Promise<Array<{ labels: Record<string, string>; value: number }>>
      | Array<{ labels: Record<string, string>; value: number }>,
  ): void;
}

/**
 * One read shared by the gauges a scrape collects together (the registry collects them at once): callers while a
 * read is in flight get that read; the next scrape reads again.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined;
  return () => {
    reading ??= read().finally(() => {
      reading = undefined;
    });
    return reading;
  };
}

/** Outcomes of a card call that leave the payment's outcome unknown until reconciled. */
export const UNKNOWN_OUTCOMES = new Set(['unknown', 'error', 'timeout']);

/** A registry per app instance (tests build many apps in one process); process metrics only when asked. */
export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'tessera_' });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'HTTP request duration by route template and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobsProcessed: new Counter({
      name: 'tessera_jobs_processed_total',
      help: 'Background jobs processed by queue and outcome',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    }),
    achDeliveryAlerts: new Counter({
      name: 'tessera_ach_file_delivery_alerts_total',
      help: "ACH files to a bank that need the operator: not delivered by the bank's deadline, or possibly taken",
      labelNames: ['connection'],
      registers: [registry],
    }),
    achBankFiles: new Counter({
      name: 'tessera_ach_bank_files_total',
      help: 'ACH files exchanged with banks over SFTP, by direction and outcome',
      labelNames: ['direction', 'state'],
      registers: [registry],
    }),
    payments: new Counter({
      name: 'tessera_payments_total',
      help: 'Card operations carried out by a connector (sandbox-card, adyen), by operation and outcome (approved, declined, failed, unknown, received, error, timeout)',
      labelNames: ['connector', 'operation', 'outcome'],
      registers: [registry],
    }),
    connectorDuration: new Histogram({
      name: 'tessera_connector_call_duration_seconds',
      help: 'How long a card connector took to answer a payment operation (until its deadline at most)',
      labelNames: ['connector', 'operation'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
    unknownOutcomes: new Counter({
      name: 'tessera_connector_unknown_outcomes_total',
      help: 'Card operations whose outcome is unknown (no answer in time, or an error): reconciled later',
      labelNames: ['connector', 'operation'],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'tessera_webhook_attempts_total',
      help: 'Automatic webhook delivery attempts by outcome (delivered, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookDeliveriesFailed: new Counter({
      name: 'tessera_webhook_deliveries_failed_total',
      help: 'Webhook deliveries that failed their last automatic attempt',
      registers: [registry],
    }),
    webhookLag: new Histogram({
      name: 'tessera_webhook_delivery_lag_seconds',
      help: 'How late an automatic webhook attempt started against when it was due',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers: [registry],
    }),
    gauge(name, help, labelNames, read) {
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          for (const { labels, value } of await read()) this.set(labels, value);
        },
      });
    },
  };
}
