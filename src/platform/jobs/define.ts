import type { QueryConfig } from 'pg';
import type { Clock } from '../clock/clock.js';
import type { Sql } from '../db/pool.js';
import { enqueue, enqueueManyQuery, enqueueQuery } from './queue.js';
import type { Job, QueueDefinition } from './runner.js';

/** What a job carries: plain JSON values (it is stored as jsonb). */
export type JobPayload = Record<string, string | number | boolean | null>;

export interface EnqueueOptions {
  /** Business time at which the job becomes due; default now. */
  runAt?: Date;
  /** At most one pending job per (queue, singletonKey); asked for while it runs, it runs once more after (JobSpec). */
  singletonKey?: string;
  maxAttempts?: number;
}

/**
 * A queue with its payload type: the name, every enqueue and the handler agree on one shape at compile time.
 * `define.handler(...)` is the registration the job runner takes.
 */
export interface Queue<P extends JobPayload> {
  readonly name: string;
  /** Enqueues inside the caller's transaction: the job exists if and only if that transaction commits. */
  enqueue(tx: Sql, clock: Clock, payload: P, options?: EnqueueOptions): Promise<void>;
  /** The enqueue as a statement, for a transaction that sends it later (`Tx.defer`: with COMMIT). */
  enqueueQuery(clock: Clock, payload: P, options?: EnqueueOptions): QueryConfig;
  /** Several enqueues as one statement (`enqueueManyQuery`): a grouped write's jobs. */
  enqueueManyQuery(clock: Clock, jobs: ReadonlyArray<{ payload: P; options?: EnqueueOptions }>): QueryConfig;
  /** The handler (idempotent: a job may run more than once) and its retry schedule. */
  handler(
    handle: (payload: P, job: Job) => Promise<void>,
    options?: { retryDelaySeconds?: (attempt: number) => number },
  ): QueueDefinition;
}

export function defineQueue<P extends JobPayload>(name: string): Queue<P> {
  const spec = (payload: P, options: EnqueueOptions = {}) => ({ queue: name, payload, ...options });
  return {
    name,
    enqueue: (tx, clock, payload, options) => enqueue(tx, clock, spec(payload, options)),
    enqueueQuery: (clock, payload, options) => enqueueQuery(clock, spec(payload, options)),
    enqueueManyQuery: (clock, jobs) =>
      enqueueManyQuery(
        clock,
        jobs.map((job) => spec(job.payload, job.options)),
      ),
    handler: (handle, options = {}) => ({
      name,
      handle: (job) => handle(job.payload as P, job),
      ...(options.retryDelaySeconds ? { retryDelaySeconds: options.retryDelaySeconds } : {}),
    }),
  };
}
