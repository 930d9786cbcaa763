import { type Metrics, UNKNOWN_OUTCOMES } from '../platform/observability/metrics.js';
import type { CardCallObserver } from './registry.js';

/** Card connector calls as metrics: payments by outcome, latency, and outcomes left unknown. */
export function cardCallMetrics(metrics: Metrics): CardCallObserver {
  return {
    cardCall(connector, operation, outcome, seconds) {
      metrics.payments.inc({ connector, operation, outcome });
      metrics.connectorDuration.observe({ connector, operation }, seconds);
      if (UNKNOWN_OUTCOMES.has(outcome)) metrics.unknownOutcomes.inc({ connector, operation });
    },
  };
}
