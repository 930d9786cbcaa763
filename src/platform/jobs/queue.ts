import type { QueryConfig } from 'pg';
import type { Clock } from '../clock/clock.js';
import type { Sql } from '../db/pool.js';

export const JOBS_CHANNEL = 'tessera_jobs';

export interface JobSpec {
  queue: string;
  payload?: Record<string, unknown>;
  /** Business time at which the job becomes due; default now. */
  runAt?: Date;
  maxAttempts?: number;
  /**
   * At most one pending job per (queue, singletonKey): enqueueing a duplicate of a job that waits is a no-op, and of
   * a job that runs marks it to run once more when it finishes (what it looks at may have changed since it looked).
   */
  singletonKey?: string;
}

/**
 * Enqueues inside the caller's transaction: the job exists if and only if the state change that needs it commits.
 * The NOTIFY is transactional too, so workers wake exactly when the job becomes visible.
 */
export async function enqueue(tx: Sql, clock: Clock, spec: JobSpec): Promise<void> {
  await tx.query(enqueueQuery(clock, spec));
}

/** The enqueue as a statement, for a transaction that sends it later (`Tx.defer`: with COMMIT). */
export function enqueueQuery(clock: Clock, spec: JobSpec): QueryConfig {
  return {
    // Named: every payment, session and invoice enqueues; planning it each time cost more than running it.
    name: 'jobs.enqueue',
    text: `WITH written AS (
       INSERT INTO jobs AS j (queue, payload, run_at, max_attempts, singleton_key)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (queue, singleton_key) WHERE singleton_key IS NOT NULL AND failed_at IS NULL
         DO UPDATE SET again = true WHERE j.locked_by IS NOT NULL
       RETURNING queue, xmax = 0 AS inserted
     )
     SELECT pg_notify('${JOBS_CHANNEL}', queue) FROM written WHERE inserted`,
    values: [
      spec.queue,
      spec.payload ?? {},
      spec.runAt ?? clock.now(),
      spec.maxAttempts ?? 10,
      spec.singletonKey ?? null,
    ],
  };
}

/**
 * Several enqueues as one statement (a grouped write's jobs: one statement per group, not one per item), with the
 * same meaning as each alone. Specs naming the same (queue, singletonKey) count once: one statement may not touch a
 * row twice. Workers are woken once per queue.
 */
export function enqueueManyQuery(clock: Clock, specs: readonly JobSpec[]): QueryConfig {
  const now = clock.now();
  const seen = new Set<string>();
  const rows: Array<[string, Record<string, unknown>, Date, number, string | null]> = [];
  for (const spec of specs) {
    if (spec.singletonKey !== undefined) {
      const key = `${spec.queue}\u0000${spec.singletonKey}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    rows.push([spec.queue, spec.payload ?? {}, spec.runAt ?? now, spec.maxAttempts ?? 10, spec.singletonKey ?? null]);
  }
  return {
    name: 'jobs.enqueue-many',
    text: `WITH written AS (
       INSERT INTO jobs AS j (queue, payload, run_at, max_attempts, singleton_key)
       SELECT r->>0, r->1, (r->>2)::timestamptz, (r->>3)::int, r->>4 FROM jsonb_array_elements($1::jsonb) AS r
       ON CONFLICT (queue, singleton_key) WHERE singleton_key IS NOT NULL AND failed_at IS NULL
         DO UPDATE SET again = true WHERE j.locked_by IS NOT NULL
       RETURNING queue, xmax = 0 AS inserted
     )
     SELECT pg_notify('${JOBS_CHANNEL}', queue) FROM (SELECT DISTINCT queue FROM written WHERE inserted) AS woken`,
    values: [JSON.stringify(rows)],
  };
}
