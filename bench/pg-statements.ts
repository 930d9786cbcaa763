// BENCH_PG_STATEMENTS=1: PostgreSQL records every statement's calls and time (pg_stat_statements), and the
// benchmark prints the heaviest after a measurement — where a request's database time goes, before changing it.
import pg from 'pg';

export const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';

export const pgStatementsSettings = (): Record<string, string> =>
  PG_STATEMENTS
    ? {
        shared_preload_libraries: 'pg_stat_statements',
        'pg_stat_statements.track': 'all',
        'pg_stat_statements.track_planning': 'on',
      }
    : {};

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function resetPgStatements(url: string): Promise<void> {
  if (!PG_STATEMENTS) return;
  await withClient(url, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
  });
}

/** The statements that took the most time since the last reset, per call of `per` (e.g. one sale). */
export async function printPgStatements(url: string, label: string, per: number): Promise<void> {
  if (!PG_STATEMENTS) return;
  const { rows } = await withClient(url, (client) =>
    client.query<{
      calls: string;
      total_ms: number;
      mean_ms: number;
      plan_ms: number;
      wal_bytes: string;
      query: string;
    }>(
      `SELECT calls, round(total_exec_time::numeric, 1)::float AS total_ms, round(mean_exec_time::numeric, 3)::float AS mean_ms, round(total_plan_time::numeric, 1)::float AS plan_ms,
              wal_bytes, regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT ${Number(process.env.BENCH_PG_STATEMENTS_TOP ?? 15)}`,
    ),
  );
  const tables = await withClient(url, (client) =>
    client.query<{ relname: string; n_tup_upd: string; n_tup_hot_upd: string; n_tup_ins: string }>(
      `SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
       WHERE n_tup_ins + n_tup_upd > 0 ORDER BY n_tup_ins + n_tup_upd DESC LIMIT 8`,
    ),
  );
  console.log(`\n  pg_stat_statements after ${label} (${per} requests):`);
  console.log(
    `    rows written since the database started (inserted / updated / of which heap-only): ${tables.rows
      .map((t) => `${t.relname} ${t.n_tup_ins}/${t.n_tup_upd}/${t.n_tup_hot_upd}`)
      .join(', ')}`,
  );
  for (const row of rows) {
    console.log(
      `    ${String(row.total_ms).padStart(9)} ms  ${(Number(row.calls) / per).toFixed(2).padStart(6)}/req  mean ${row.mean_ms} ms  planning ${row.plan_ms} ms  wal ${row.wal_bytes}  ${row.query.slice(0, 110)}`,
    );
  }
}
