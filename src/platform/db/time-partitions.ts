import { type Metrics, sharedRead } from '../observability/metrics.js';
import type { Pool, PoolClient } from './pool.js';

/**
 * A table partitioned by month (or by day) of one timestamp column (docs/operations.md, "Retention"), as its
 * conversion left it: `<table>_legacy` (the rows from before, up to a boundary), one partition per period from there
 * (`<table>_yYYYYmMM`, by day `<table>_yYYYYmMMdDD`), and `<table>_default` for rows no period holds yet.
 */
export interface TimePartitioned {
  table: string;
  column: string;
  /** Default month. */
  period?: 'month' | 'day';
  /** Partitions wholly older than this many days are dropped; 0 keeps everything. */
  retentionDays: number;
  /** Storage parameters each new partition gets (a partitioned table has no storage of its own to hold them). */
  storage?: string;
  /** New partitions are UNLOGGED (a partitioned table cannot be: each partition says it). */
  unlogged?: boolean;
}

/** Periods kept ready ahead of the current one. */
export const PERIODS_AHEAD = 3;
/** A partition change waits at most this long for its lock, then gives way to traffic (the next sweep tries again). */
const LOCK_TIMEOUT_MS = 3000;

interface Partition {
  name: string;
  /** Undefined: the default partition. Null from: MINVALUE. */
  from: Date | null | undefined;
  to: Date | undefined;
}

type Period = NonNullable<TimePartitioned['period']>;

/** The start of the period `at` is in, `plus` periods on (UTC). */
function periodStart(period: Period, at: Date, plus = 0): Date {
  return period === 'month'
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + plus));
}

function partitionName(table: string, period: Period, start: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const month = `${table}_y${start.getUTCFullYear()}m${two(start.getUTCMonth() + 1)}`;
  return period === 'month' ? month : `${month}d${two(start.getUTCDate())}`;
}

async function partitionsOf(pool: Pool, table: string): Promise<Partition[]> {
  // The bounds are read back as timestamps by the server that rendered them (in the session's time zone).
  const { rows } = await pool.query<{
    name: string;
    is_default: boolean;
    from_min: boolean;
    from_at: Date | null;
    to_at: Date | null;
  }>(
    `SELECT name, bound = 'DEFAULT' AS is_default, bound LIKE 'FOR VALUES FROM (MINVALUE)%' AS from_min,
            (regexp_match(bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS from_at,
            (regexp_match(bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS to_at
     FROM (SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass) AS parts`,
    [table],
  );
  return rows.map((row) => {
    if (row.is_default) return { name: row.name, from: undefined, to: undefined };
    if (!row.to_at || (!row.from_min && !row.from_at))
      throw new Error(`${table}: partition ${row.name} has a bound this sweep does not read`);
    return { name: row.name, from: row.from_min ? null : row.from_at, to: row.to_at };
  });
}

/** A quoted identifier. */
function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function inTransaction(pool: Pool, work: (client: PoolClient) => Promise<void>): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
    await work(client);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    // A lock not granted in time: traffic goes first, the next sweep tries again. A partition another node's sweep
    // created or dropped meanwhile: done already.
    if (['55P03', '42P07', '42P01'].includes((error as { code?: string }).code ?? '')) return false;
    throw error;
  } finally {
    client.release();
  }
}

export interface PartitionSweep {
  created: string[];
  dropped: string[];
}

/**
 * Keeps the current period and PERIODS_AHEAD more partitioned (rows the default partition took for such a period
 * move into it, in the same transaction), and drops every partition whose rows are all older than the retention (the
 * legacy partition too, once its newest possible row is). Dropping detaches first; both wait at most a few seconds
 * for their lock. Idempotent: any node may run it, any number of times.
 */
export async function sweepPartitions(pool: Pool, spec: TimePartitioned, now: Date): Promise<PartitionSweep> {
  const period = spec.period ?? 'month';
  const sweep: PartitionSweep = { created: [], dropped: [] };
  const table = ident(spec.table);
  const column = ident(spec.column);
  const { rows: kind } = await pool.query<{ partitioned: boolean }>(
    "SELECT relkind = 'p' AS partitioned FROM pg_class WHERE oid = $1::regclass",
    [spec.table],
  );
  // Not converted yet (its migrations run at the next start): nothing to keep.
  if (!kind[0]?.partitioned) return sweep;
  const partitions = await partitionsOf(pool, spec.table);
  const legacyEnd = partitions.find((p) => p.from === null)?.to;
  const fallback = partitions.find((p) => p.from === undefined);
  // Every period from the end of the newest partition (a sweep that did not run for a while, a clock moved ahead: the
  // default partition took those rows) to PERIODS_AHEAD past the current one.
  const ends = partitions.map((p) => p.to?.getTime() ?? 0);
  const latestEnd = new Date(Math.max(0, ...ends));
  const current = periodStart(period, now);
  const first = latestEnd.getTime() > 0 && latestEnd < current ? periodStart(period, latestEnd) : current;
  const last = periodStart(period, now, PERIODS_AHEAD);
  for (let start = first; start <= last; start = periodStart(period, start, 1)) {
    const next = periodStart(period, start, 1);
    if (legacyEnd && start < legacyEnd) continue;
    if (partitions.some((p) => p.from instanceof Date && p.from.getTime() === start.getTime())) continue;
    const name = partitionName(spec.table, period, start);
    const range = [start.toISOString(), next.toISOString()].map((v) => `'${v}'::timestamptz`);
    const done = await inTransaction(pool, async (client) => {
      if (fallback) {
        const from = ident(fallback.name);
        await client.query(
          `CREATE TEMP TABLE partition_moving ON COMMIT DROP AS
             SELECT * FROM ${from} WHERE ${column} >= ${range[0]} AND ${column} < ${range[1]}`,
        );
        await client.query(`DELETE FROM ${from} WHERE ${column} >= ${range[0]} AND ${column} < ${range[1]}`);
      }
      const storage = spec.storage ? ` WITH (${spec.storage})` : '';
      await client.query(
        `CREATE ${spec.unlogged ? 'UNLOGGED ' : ''}TABLE ${ident(name)} PARTITION OF ${table}
         FOR VALUES FROM (${range[0]}) TO (${range[1]})${storage}`,
      );
      // Into the partition itself: an insert through the parent would fire its statement triggers again (the
      // events' webhook fan-out) for rows that were recorded long ago.
      if (fallback) await client.query(`INSERT INTO ${ident(name)} SELECT * FROM partition_moving`);
    });
    if (done) sweep.created.push(name);
  }
  if (spec.retentionDays > 0) {
    const horizon = new Date(now.getTime() - spec.retentionDays * 86_400_000);
    for (const partition of partitions) {
      if (!partition.to || partition.to > horizon) continue;
      const name = ident(partition.name);
      const done = await inTransaction(pool, async (client) => {
        await client.query(`ALTER TABLE ${table} DETACH PARTITION ${name}`);
        await client.query(`DROP TABLE ${name}`);
      });
      if (done) sweep.dropped.push(partition.name);
    }
  }
  return sweep;
}

/** The sweep as a module's purge in the maintenance job (every 10 minutes): how many partitions it made or dropped. */
export function partitionSweepPurge(name: string, pool: Pool, spec: TimePartitioned) {
  return {
    name,
    async purge(now: Date): Promise<number> {
      const sweep = await sweepPartitions(pool, spec, now);
      return sweep.created.length + sweep.dropped.length;
    },
  };
}

/** A default partition is counted up to this many rows at each scrape (it should hold none). */
const DEFAULT_ROWS_COUNTED = 100_000;

/**
 * Rows in each time-partitioned table's default partition: rows no period partition held when they were written, so
 * the sweep is behind (it did not run, or it could not take its lock). The next sweep moves them into their period;
 * an operator is told when they stay (docs/operations.md, "Monitoring").
 */
export function registerPartitionGauges(metrics: Metrics, pool: Pool): void {
  const read = sharedRead(async () => {
    const { rows: defaults } = await pool.query<{ parent: string; name: string }>(
      `SELECT p.relname AS parent, c.relname AS name
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
       WHERE c.relnamespace = 'public'::regnamespace AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'
       ORDER BY 1`,
    );
    if (defaults.length === 0) return [];
    const { rows } = await pool.query<{ parent: string; n: number }>(
      defaults
        .map(
          (d, i) =>
            `SELECT $${i + 1}::text AS parent,
                    (SELECT count(*)::int FROM (SELECT 1 FROM ${ident(d.name)} LIMIT ${DEFAULT_ROWS_COUNTED}) s) AS n`,
        )
        .join(' UNION ALL '),
      defaults.map((d) => d.parent),
    );
    return rows;
  });
  metrics.gauge(
    'tessera_partition_default_rows',
    "Rows in a time-partitioned table's default partition (no period's partition held them: the sweep is behind)",
    ['table'],
    async () => (await read()).map((row) => ({ labels: { table: row.parent }, value: row.n })),
  );
}
