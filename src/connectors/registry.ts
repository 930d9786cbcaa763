import type { AchConnector } from './ach/ach-connector.js';
import type { CardConnector, CardOutcome } from './card/card-connector.js';

/** How long Tessera waits for a processor before treating the outcome as unknown (and reconciling later). */
export const CONNECTOR_TIMEOUT_MS = 30_000;

/**
 * Connector implementations by the name a payment processor record carries (`payment_processors.connector`).
 * Adding a real processor means registering one more implementation here; the domain code does not change.
 */
export class Connectors {
  constructor(
    private readonly cards: ReadonlyMap<string, CardConnector>,
    private readonly banks: ReadonlyMap<string, AchConnector> = new Map(),
  ) {}

  ach(name: string): AchConnector {
    const connector = this.banks.get(name);
    if (!connector) throw new Error(`No ACH connector named "${name}" is installed`);
    return connector;
  }

  card(name: string): CardConnector {
    const connector = this.cards.get(name);
    if (!connector) throw new Error(`No card connector named "${name}" is installed`);
    return connector;
  }
}

/**
 * Runs a connector call with a deadline. At the deadline the call's signal aborts (the connector drops the request)
 * and the outcome is unknown; a call that fails is unknown too. Either way the reconciler asks the processor later.
 */
export async function callWithDeadline(
  call: (signal: AbortSignal) => Promise<CardOutcome>,
  timeoutMs = CONNECTOR_TIMEOUT_MS,
): Promise<CardOutcome> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineError(timeoutMs)), timeoutMs);
  const timedOut = new Promise<CardOutcome>((resolve) =>
    deadline.signal.addEventListener(
      'abort',
      () => resolve({ kind: 'unknown', responseCode: '91', message: 'No answer from the processor in time' }),
      { once: true },
    ),
  );
  try {
    return await Promise.race([
      call(deadline.signal).catch(
        (error: Error): CardOutcome => ({
          kind: 'unknown',
          responseCode: deadline.signal.aborted ? '91' : '96',
          message: deadline.signal.aborted
            ? 'No answer from the processor in time'
            : `Processor unreachable: ${error.message}`,
        }),
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class DeadlineError extends Error {
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'DeadlineError';
  }
}
