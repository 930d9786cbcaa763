import { hostname } from 'node:os';
import type { Span } from '@opentelemetry/api';
import type { Clock, SharedClock } from '../clock/clock.js';
import { newId } from '../crypto/ids.js';
import type { Listener } from '../db/listener.js';
import type { Pool } from '../db/pool.js';
import { withTransaction } from '../db/tx.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { failSpan, inSpan } from '../observability/tracing.js';
import { serialized } from '../serialized.js';
import { enqueue, JOBS_CHANNEL } from './queue.js';

export interface Job {
  id: number;
  queue: string;
  payload: Record<string, unknown>;
  runAt: Date;
  attempts: number;
  maxAttempts: number;
}

export interface QueueDefinition {
  name: string;
  /** Must be idempotent: a job can run more than once (a worker may die after the work but before the delete). */
  handle(job: Job): Promise<void>;
  /** Seconds to wait before retry number `attempt` (1-based). Default: exponential from 5 s, capped at 1 h. */
  retryDelaySeconds?(attempt: number): number;
}

export interface ScheduleDefinition {
  name: string;
  queue: string;
  /** The next due time strictly after `after` (business time). */
  next(after: Date): Date;
}

/**
 * Claims due jobs with FOR UPDATE SKIP LOCKED, so any number of worker processes share one queue without ever
 * running the same job at the same time. Due-ness reads the business clock; the claim lease reads real database
 * time, and a claim whose node has died (node liveness) lapses at once. Wakes on NOTIFY (a job was enqueued), on a clock advance, and on a 1-second poll.
 */
export class JobRunner {
  private readonly queues = new Map<string, QueueDefinition>();
  private readonly schedules: ScheduleDefinition[] = [];
  private readonly workerId = `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  private running = 0;
  private stopping = false;
  private started = false;
  /** Schedules are checked on the poll and when the clock moves, not on every wake-up (e.g. after each job). */
  private schedulesDue = true;
  private schedulesKnown = false;
  private poller: NodeJS.Timeout | undefined;
  private idle: Array<() => void> = [];
  /** Waiting for the jobs running now to finish (drain). */
  private quiet: Array<() => void> = [];

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly concurrency: number,
    /** This process's node liveness id: a job it holds is retaken at once if it dies. */
    private readonly nodeId?: () => number,
    /**
     * How long a claim holds a job while its node lives (JOB_LEASE_SECONDS): a node that stops answering without
     * dying (a paused process) loses its jobs to another worker after this, so handlers must be idempotent.
     */
    private readonly leaseSeconds = 300,
  ) {}

  register(queue: QueueDefinition): void {
    this.queues.set(queue.name, queue);
  }

  schedule(schedule: ScheduleDefinition): void {
    this.schedules.push(schedule);
  }

  async start(listener: Listener, sharedClock?: SharedClock): Promise<void> {
    if (this.concurrency <= 0 || this.started) return;
    this.started = true;
    await this.ensureSchedules();
    const checkSchedules = () => {
      this.schedulesDue = true;
      this.wake();
    };
    listener.on(JOBS_CHANNEL, () => this.wake(), checkSchedules);
    sharedClock?.onAdvance(checkSchedules);
    this.poller = setInterval(checkSchedules, 1000);
    this.poller.unref();
    this.wake();
  }

  /** Stops claiming and waits (up to `timeoutMs`) for running jobs to finish. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.poller);
    if (this.running === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => this.idle.push(resolve)),
      new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  }

  /**
   * Runs every job that is due now, and the due jobs those enqueue, until none is left (and the ones this process
   * was already running have finished); answers how many it ran. Schedules that are due fire first. For tests and
   * one-off tools: a test advances the clock, drains, then asserts, with no waiting on timers. Other workers may
   * take part of the work meanwhile (SKIP LOCKED); a failing job goes back to its retry time and is not run again.
   */
  async drain(maxJobs = 10_000): Promise<number> {
    let ran = 0;
    await this.ensureSchedules();
    for (;;) {
      if (this.schedules.length > 0) await this.fireSchedules();
      const jobs = await this.claim(Math.max(this.concurrency, 4));
      if (jobs.length === 0) {
        if (this.running === 0) return ran;
        await new Promise<void>((resolve) => this.quiet.push(resolve));
        continue;
      }
      await Promise.all(jobs.map((job) => this.execute(job)));
      ran += jobs.length;
      if (ran > maxJobs) throw new Error(`drain ran more than ${maxJobs} jobs: does a job keep enqueueing itself?`);
    }
  }

  /** Each schedule's row, created by the first node that runs it (its first slot: the next one from now). */
  private async ensureSchedules(): Promise<void> {
    if (this.schedulesKnown) return;
    for (const schedule of this.schedules) {
      await this.pool.query('INSERT INTO schedules (name, next_run_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        schedule.name,
        schedule.next(this.clock.now()),
      ]);
    }
    this.schedulesKnown = true;
  }

  wake(): void {
    if (this.stopping || !this.started) return;
    this.pumpOnce();
  }

  private readonly pumpOnce = serialized(() => this.pump());

  private async pump(): Promise<void> {
    if (this.stopping) return;
    try {
      if (this.schedulesDue && this.schedules.length > 0) {
        this.schedulesDue = false;
        await this.fireSchedules();
      }
      while (!this.stopping && this.running < this.concurrency) {
        const jobs = await this.claim(this.concurrency - this.running);
        if (jobs.length === 0) return;
        for (const job of jobs) void this.execute(job);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'job runner: claim failed');
    }
  }

  private async fireSchedules(): Promise<void> {
    const now = this.clock.now();
    const { rows: due } = await this.pool.query<{ name: string }>(
      'SELECT name FROM schedules WHERE name = ANY($1) AND next_run_at <= $2',
      [this.schedules.map((s) => s.name), now],
    );
    const dueNames = new Set(due.map((row) => row.name));
    for (const schedule of this.schedules.filter((s) => dueNames.has(s.name))) {
      await withTransaction(this.pool, async (tx) => {
        const { rows } = await tx.query<{ next_run_at: Date }>(
          'SELECT next_run_at FROM schedules WHERE name = $1 AND next_run_at <= $2 FOR UPDATE SKIP LOCKED',
          [schedule.name, now],
        );
        const due = rows[0];
        if (!due) return;
        // Missed slots (a long outage, a big clock jump) collapse into one run: schedules are for sweeps, and work
        // that must happen once per period is modelled as its own rows, not as schedule slots.
        await tx.query('UPDATE schedules SET next_run_at = $2 WHERE name = $1', [schedule.name, schedule.next(now)]);
        await enqueue(tx, this.clock, {
          queue: schedule.queue,
          payload: { slot: due.next_run_at.toISOString() },
          singletonKey: `schedule:${schedule.name}`,
        });
      });
    }
  }

  private async claim(limit: number): Promise<Job[]> {
    const names = [...this.queues.keys()];
    if (names.length === 0) return [];
    const { rows } = await this.pool.query<{
      id: number;
      queue: string;
      payload: Record<string, unknown>;
      run_at: Date;
      attempts: number;
      max_attempts: number;
    }>(
      `UPDATE jobs SET locked_by = $1, locked_until = clock_timestamp() + $6 * interval '1 second', attempts = attempts + 1,
         locked_node = $5
       WHERE id IN (
         SELECT id FROM jobs
         WHERE queue = ANY($2) AND run_at <= $3 AND failed_at IS NULL
           AND (locked_until IS NULL OR locked_until < clock_timestamp()
             OR (locked_node IS NOT NULL AND NOT tessera_node_alive(locked_node)))
         ORDER BY run_at, id
         LIMIT $4
         FOR UPDATE SKIP LOCKED
       )
       RETURNING id, queue, payload, run_at, attempts, max_attempts`,
      [this.workerId, names, this.clock.now(), limit, this.nodeId?.() ?? null, this.leaseSeconds],
    );
    this.running += rows.length;
    return rows.map((row) => ({
      id: row.id,
      queue: row.queue,
      payload: row.payload,
      runAt: row.run_at,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
    }));
  }

  private finish(job: Job): Promise<void> {
    return finishJob(this.pool, this.clock, job, this.workerId);
  }

  private execute(job: Job): Promise<void> {
    return inSpan(
      `job ${job.queue}`,
      { 'tessera.job.queue': job.queue, 'tessera.job.id': String(job.id), 'tessera.job.attempt': job.attempts },
      (span) => this.executeTraced(job, span),
    );
  }

  private async executeTraced(job: Job, span: Span | undefined): Promise<void> {
    const definition = this.queues.get(job.queue)!;
    try {
      await definition.handle(job);
      await this.finish(job);
      this.metrics.jobsProcessed.inc({ queue: job.queue, outcome: 'success' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.maxAttempts;
      this.logger.warn({ queue: job.queue, jobId: job.id, attempt: job.attempts, final, err: error }, 'job failed');
      const delay = (definition.retryDelaySeconds ?? defaultRetryDelay)(job.attempts);
      await this.pool
        .query(
          `UPDATE jobs SET locked_by = NULL, locked_until = NULL, locked_node = NULL, last_error = $3, again = false,
             failed_at = CASE WHEN $4 THEN now() END, run_at = CASE WHEN $4 THEN run_at ELSE $5 END
           WHERE id = $1 AND locked_by = $2`,
          [job.id, this.workerId, message.slice(0, 2000), final, new Date(this.clock.nowMs() + delay * 1000)],
        )
        .catch((updateError) => this.logger.error({ err: updateError }, 'job runner: could not record failure'));
      this.metrics.jobsProcessed.inc({ queue: job.queue, outcome: final ? 'failed' : 'retry' });
      if (span) failSpan(span, error);
    } finally {
      this.running--;
      if (this.running === 0) for (const resolve of this.quiet.splice(0)) resolve();
      if (this.running === 0 && this.stopping) for (const resolve of this.idle.splice(0)) resolve();
      this.wake();
    }
  }
}

/**
 * A finished job is deleted, unless it was asked for again while it ran (a singleton: see JobSpec), in which case it
 * is due again at once, as a fresh job. Two statements: the second sees an `again` that the first waited on.
 */
async function finishJob(pool: Pool, clock: Clock, job: Job, workerId: string): Promise<void> {
  const deleted = await pool.query('DELETE FROM jobs WHERE id = $1 AND locked_by = $2 AND NOT again', [
    job.id,
    workerId,
  ]);
  if (deleted.rowCount) return;
  await pool.query(
    `UPDATE jobs SET again = false, locked_by = NULL, locked_until = NULL, locked_node = NULL, attempts = 0,
       last_error = NULL, run_at = $3
     WHERE id = $1 AND locked_by = $2 AND again`,
    [job.id, workerId, clock.now()],
  );
}

function defaultRetryDelay(attempt: number): number {
  return Math.min(3600, 5 * 2 ** (attempt - 1));
}

/** A schedule that fires every `seconds` seconds of business time, aligned to multiples of the period. */
export function every(seconds: number): (after: Date) => Date {
  const period = seconds * 1000;
  return (after) => new Date((Math.floor(after.getTime() / period) + 1) * period);
}
