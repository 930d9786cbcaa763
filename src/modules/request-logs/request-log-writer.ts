// Writes what `tessera logs tail` shows: each merchant request's line, gathered in memory and written a few times a
// second in one statement, so the requests themselves never wait for it. What a crash of the process loses is the
// last quarter second of a development aid; what is written is read by any node.
import type { Pool } from '../../platform/db/pool.js';
import { sweepPartitions, type TimePartitioned } from '../../platform/db/time-partitions.js';
import type { Logger } from '../../platform/observability/logger.js';
import {
  insertRequestLogs,
  listRequestLogs,
  type RequestLogEntry,
  type RequestLogFilter,
  type RequestLogRow,
} from './request-logs.repo.js';

const FLUSH_MS = 250;
const MAX_BUFFER = 5000;
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * The lines are partitioned by day of `at` (real time, as they are written) and kept 24 hours: a day's partition goes
 * whole once its last line is a day old (docs/operations.md, "Retention").
 */
export const REQUEST_LOG_PARTITIONS: TimePartitioned = {
  table: 'request_logs',
  column: 'at',
  period: 'day',
  retentionDays: 1,
  unlogged: true,
};

export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private lastPurge = 0;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
  ) {}

  record(entry: RequestLogEntry): void {
    // Under a flood (or a database away) the oldest lines go first; requests are never held up by their log.
    if (this.buffer.length >= MAX_BUFFER) this.buffer.shift();
    this.buffer.push(entry);
  }

  /** The merchant's lines as written (the dashboard's request log page): the latest, or after a position. */
  list(filter: RequestLogFilter): Promise<RequestLogRow[]> {
    return listRequestLogs(this.pool, filter);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what is gathered (one statement); the days ahead and the retention every ten minutes. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const entries = this.buffer;
      if (entries.length > 0) {
        this.buffer = [];
        try {
          await insertRequestLogs(this.pool, entries);
        } catch (error) {
          this.logger.warn({ err: error, lost: entries.length }, 'request log lines not written');
        }
      }
      if (Date.now() - this.lastPurge >= PURGE_EVERY_MS) {
        this.lastPurge = Date.now();
        await sweepPartitions(this.pool, REQUEST_LOG_PARTITIONS, new Date()).catch((error) =>
          this.logger.warn({ err: error }, 'request log partitions not swept'),
        );
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
