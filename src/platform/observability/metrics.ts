import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly jobsProcessed: Counter<'queue' | 'outcome'>;
  /** A bank connection's file that needs the operator (not delivered by its deadline, or maybe taken: docs/ach.md). */
  readonly achDeliveryAlerts: Counter<'connection'>;
  /** Files exchanged with banks, by direction and what became of them. */
  readonly achBankFiles: Counter<'direction' | 'state'>;
}

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
  };
}
