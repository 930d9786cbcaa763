// What a trigger recipe works with: the merchant's typed client, the operator's clock when one is given, the
// scripted choices (card, amount, outcome), a progress line, and the few steps recipes share.
import { randomBytes } from 'node:crypto';
import type { TesseraClient } from '@tessera/client';

/** The test cards of the sandbox card network (docs/sandbox.md) by outcome. */
export const TEST_CARDS = {
  approved: '4111111111111111',
  declined: '4000000010050005',
  failed: '4000000020190007',
  /** A hard decline (04 pick up): a subscription is not retried, it goes Delinquent at once. */
  hardDecline: '4000000010040006',
} as const;

/** The sandbox bank's receiver accounts (docs/sandbox.md) by outcome. */
export const TEST_ACCOUNTS = { clears: '200000001', returns: '100000001', fails: '100000900' } as const;

export type Outcome = 'approved' | 'declined' | 'failed';

export interface TriggerOptions {
  card?: string;
  /** Dollars, as the API takes them. */
  amount?: number;
  outcome?: Outcome;
}

/** One object a recipe made, as printed. */
export interface Made {
  kind: string;
  id: string;
  detail?: string;
}

/** A failed call, with what the API said. */
export class TriggerError extends Error {}

export class TriggerContext {
  readonly made: Made[] = [];

  constructor(
    readonly client: TesseraClient,
    readonly options: TriggerOptions,
    private readonly admin: { baseUrl: string; token: string } | null,
    private readonly progress: (line: string) => void,
  ) {}

  /** A reference unique to this trigger run, so the duplicate check never takes two runs for one payment. */
  readonly reference = `trigger-${randomBytes(4).toString('hex')}`;

  amount(fallback: number): number {
    return this.options.amount ?? fallback;
  }

  /** The card to pay with: `--card`, else the one for `--outcome`, else the recipe's own. */
  card(fallback: string): string {
    if (this.options.card) return this.options.card;
    if (this.options.outcome) return TEST_CARDS[this.options.outcome];
    return fallback;
  }

  record(made: Made): void {
    this.made.push(made);
    this.progress(`  made ${made.kind} ${made.id}${made.detail ? ` (${made.detail})` : ''}`);
  }

  step(line: string): void {
    this.progress(`  ${line}`);
  }

  /** The data of a typed call, or a TriggerError with the API's answer. */
  async ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, what: string): Promise<T> {
    const { data, error, response } = await call;
    if (data === undefined || !response.ok) {
      throw new TriggerError(`${what}: the API answered ${response.status} ${JSON.stringify(error ?? '')}`);
    }
    return data;
  }

  /** A call to the operator API (sandbox controls, terminals), which needs the operator's token. */
  async operator<T>(what: string, method: string, path: string, body?: unknown): Promise<T> {
    if (!this.admin) throw new TriggerError(`${what} needs the operator: pass --admin-token (or TESSERA_ADMIN_TOKEN)`);
    const res = await fetch(`${this.admin.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.admin.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) throw new TriggerError(`${what}: the operator API answered ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The merchant the credentials act for (their access token says). */
  async merchantId(): Promise<string> {
    const { mid } = await this.client.tokens.claims();
    if (!mid) throw new TriggerError("the credentials are not a merchant's API key");
    return mid;
  }

  get hasClock(): boolean {
    return this.admin !== null;
  }

  /**
   * Moves the sandbox clock a step at a time (each step lets the server's workers run what fell due) until `done`
   * answers true; the operator's token is needed for it.
   */
  async advanceUntil(what: string, done: () => Promise<boolean>, stepSeconds = 86_400, maxSteps = 10): Promise<void> {
    if (!this.admin)
      throw new TriggerError(`${what} needs the sandbox clock: pass --admin-token (or TESSERA_ADMIN_TOKEN)`);
    for (let step = 0; step <= maxSteps; step++) {
      if (step > 0) {
        const body = { seconds: stepSeconds };
        const { now } = await this.operator<{ now: string }>(
          'moving the clock',
          'POST',
          '/admin/v1/clock/advance',
          body,
        );
        this.step(`clock moved ${stepSeconds} s to ${now}; waiting for ${what}`);
      }
      // Before the first step, one look; after each, a few seconds for the workers to run what fell due.
      if (await this.settles(done, step === 0 ? 0 : 5_000)) return;
    }
    throw new TriggerError(`${what} did not happen after ${maxSteps} clock steps of ${stepSeconds} s`);
  }

  /** Waits (at most `ms`) for the server's workers to make `done` true. */
  async waitFor(what: string, done: () => Promise<boolean>, ms = 90_000): Promise<void> {
    this.step(`waiting for ${what}`);
    if (!(await this.settles(done, ms))) throw new TriggerError(`${what} did not happen within ${ms / 1000} s`);
  }

  private async settles(done: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
    const until = Date.now() + ms;
    for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
      if (await done()) return true;
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
