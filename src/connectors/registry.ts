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

/** Runs a connector call with a deadline; a call that does not answer in time has an unknown outcome. */
export async function withDeadline(call: Promise<CardOutcome>, timeoutMs = CONNECTOR_TIMEOUT_MS): Promise<CardOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CardOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'unknown', responseCode: '91', message: 'No answer from the processor in time' }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      call.catch(
        (error: Error): CardOutcome => ({
          kind: 'unknown',
          responseCode: '96',
          message: `Processor unreachable: ${error.message}`,
        }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
