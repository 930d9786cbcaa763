import type { Pool, PoolClient } from './pool.js';

/**
 * A table partitioned by month of one timestamp column (docs/operations.md, "Retention"), as its conversion left it:
 * `<table>_legacy` (the rows from before, up to a month boundary), one partition per month from there
 * (`<table>_yYYYYmMM`), and `<table>_default` for rows no month holds yet.
 */
export interface MonthlyPartitioned {
  table: string;
  column: string;
  /** Partitions wholly older than this many days are dropped; 0 keeps everything. */
  retentionDays: number;
  /** Storage parameters each new partition gets (a partitioned table has no storage of its own to hold them). */
  storage?: string;
}

/** Months kept ready ahead of the current one. */
export const MONTHS_AHEAD = 3;
/** A partition change waits at most this long for its lock, then gives way to traffic (the next sweep tries again). */
const LOCK_TIMEOUT_MS = 3000;

interface Partition {
  name: string;
  /** Undefined: the default partition. Null from: MINVALUE. */
  from: Date | null | undefined;
  to: Date | undefined;
}

function monthStart(at: Date, plusMonths = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plusMonths, 1));
}

function partitionName(table: string, month: Date): string {
  return `${table}_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
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
 * Keeps the current month and MONTHS_AHEAD more partitioned (rows the default partition took for such a month move
 * into it, in the same transaction), and drops every partition whose rows are all older than the retention (the
 * legacy partition too, once its newest possible row is). Dropping detaches first; both wait at most a few seconds
 * for their lock. Idempotent: any node may run it, any number of times.
 */
export async function sweepPartitions(pool: Pool, spec: MonthlyPartitioned, now: Date): Promise<PartitionSweep> {
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
  // Every month from the end of the newest partition (a sweep that did not run for a while, a clock moved ahead: the
  // default partition took those rows) to MONTHS_AHEAD past the current one.
  const ends = partitions.map((p) => p.to?.getTime() ?? 0);
  const latestEnd = new Date(Math.max(0, ...ends));
  const first = latestEnd.getTime() > 0 && latestEnd < monthStart(now) ? monthStart(latestEnd) : monthStart(now);
  const last = monthStart(now, MONTHS_AHEAD);
  for (let month = first; month <= last; month = monthStart(month, 1)) {
    const next = monthStart(month, 1);
    if (legacyEnd && month < legacyEnd) continue;
    if (partitions.some((p) => p.from instanceof Date && p.from.getTime() === month.getTime())) continue;
    const name = partitionName(spec.table, month);
    const range = [month.toISOString(), next.toISOString()].map((v) => `'${v}'::timestamptz`);
    const done = await inTransaction(pool, async (client) => {
      if (fallback) {
        const from = ident(fallback.name);
        await client.query(
          `CREATE TEMP TABLE partition_moving ON COMMIT DROP AS
             SELECT * FROM ${from} WHERE ${column} >= ${range[0]} AND ${column} < ${range[1]}`,
        );
        await client.query(`DELETE FROM ${from} WHERE ${column} >= ${range[0]} AND ${column} < ${range[1]}`);
      }
      await client.query(
        `CREATE TABLE ${ident(name)} PARTITION OF ${table} FOR VALUES FROM (${range[0]}) TO (${range[1]})` +
          (spec.storage ? ` WITH (${spec.storage})` : ''),
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
export function partitionSweepPurge(name: string, pool: Pool, spec: MonthlyPartitioned) {
  return {
    name,
    async purge(now: Date): Promise<number> {
      const sweep = await sweepPartitions(pool, spec, now);
      return sweep.created.length + sweep.dropped.length;
    },
  };
}
