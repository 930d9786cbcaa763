import type { Listener } from '../db/listener.js';
import type { Pool } from '../db/pool.js';

/** Business time. Every expiry, retry, schedule and token lifetime reads this, never `Date.now()` directly. */
export interface Clock {
  now(): Date;
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now(),
};

/** A clock that only moves when told to; for unit tests. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 0, 1)) {}
  now(): Date {
    return new Date(this.ms);
  }
  nowMs(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export const CLOCK_CHANNEL = 'tessera_clock';

/**
 * The sandbox clock: wall time plus an offset stored in PostgreSQL, so every node agrees on "now". Nodes learn of an
 * advance through NOTIFY within milliseconds, and re-read the offset every second in case a notification was missed.
 * The offset only grows: business time never runs backwards.
 */
export class SharedClock implements Clock {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly pool: Pool) {}

  async start(listener: Listener, pollMs = 1000): Promise<void> {
    await this.refresh();
    listener.on(
      CLOCK_CHANNEL,
      () => void this.refresh(),
      () => void this.refresh(),
    );
    this.timer = setInterval(() => void this.refresh(), pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** Called after the clock moved (here or on another node) so due work can run at once. */
  onAdvance(listener: () => void): void {
    this.listeners.add(listener);
  }

  async advance(seconds: number): Promise<Date> {
    const { rows } = await this.pool.query<{ offset_ms: number }>(
      `WITH moved AS (
         UPDATE clock_state SET offset_ms = offset_ms + $1, updated_at = now() RETURNING offset_ms
       )
       SELECT offset_ms, pg_notify('${CLOCK_CHANNEL}', offset_ms::text) FROM moved`,
      [Math.round(seconds * 1000)],
    );
    this.apply(rows[0]!.offset_ms);
    return this.now();
  }

  async refresh(): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ offset_ms: number }>('SELECT offset_ms FROM clock_state');
      if (rows[0]) this.apply(rows[0].offset_ms);
    } catch {
      // Keep the last known offset; the next poll tries again.
    }
  }

  private apply(offsetMs: number): void {
    if (offsetMs <= this.offsetMs) return;
    this.offsetMs = offsetMs;
    for (const listener of this.listeners) listener();
  }
}
