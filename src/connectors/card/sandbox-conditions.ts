import type { Sql } from '../../platform/db/pool.js';

export interface NetworkConditions {
  extraLatencyMs: number;
  /** When the spike ends (real time); null: no spike. */
  until: Date | null;
}

/**
 * Conditions the sandbox operator sets on the simulated card network (`POST /admin/v1/sandbox/card-network`): extra
 * latency on every call for a while. Kept in PostgreSQL so every node sees them; each node reads them at most once a
 * second, in the background, so a call never waits for the read and a change reaches every node within about a
 * second.
 */
export class SandboxNetworkConditions {
  private current: NetworkConditions = { extraLatencyMs: 0, until: null };
  private readAt = 0;
  private reading = false;

  constructor(private readonly sql: Sql) {}

  /** The extra latency a call starting now gets (0 outside a spike). */
  extraLatencyMs(): number {
    if (Date.now() - this.readAt > 1000 && !this.reading) {
      this.reading = true;
      this.read()
        .catch(() => {}) // the database away: the last known conditions stay
        .finally(() => {
          this.reading = false;
        });
    }
    const { extraLatencyMs, until } = this.current;
    return until && until.getTime() > Date.now() ? extraLatencyMs : 0;
  }

  async read(): Promise<NetworkConditions> {
    const { rows } = await this.sql.query<{ extra_latency_ms: number; until: Date | null }>(
      'SELECT extra_latency_ms, until FROM sandbox_card_network_conditions',
    );
    this.current = { extraLatencyMs: rows[0]?.extra_latency_ms ?? 0, until: rows[0]?.until ?? null };
    this.readAt = Date.now();
    return this.current;
  }

  /** Extra latency for the next `seconds` (0 ends a spike at once). */
  async set(extraLatencyMs: number, seconds: number): Promise<NetworkConditions> {
    await this.sql.query(
      `UPDATE sandbox_card_network_conditions
       SET extra_latency_ms = $1, until = clock_timestamp() + $2 * interval '1 second'`,
      [extraLatencyMs, seconds],
    );
    return this.read();
  }
}
