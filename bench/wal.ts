// A fresh cluster has no WAL segments to recycle: PostgreSQL creates and zero-fills a new 16 MB segment on the
// commit path (holding the WAL write lock) every few seconds of sales, stalling every commit in flight for tens of
// milliseconds. A database that has run for a while recycles its segments instead. To measure that steady state,
// the benchmark prepares the WAL of the cluster it just created: it switches segments until enough exist, then a
// checkpoint turns them into recycled, ready-to-use segments.
import pg from 'pg';

export const PREPARED_WAL_SEGMENTS = 64;

export async function prepareWal(url: string, segments = PREPARED_WAL_SEGMENTS): Promise<{ segments: number }> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query('CREATE TABLE bench_wal_switch (x int)');
    for (let i = 0; i < segments; i++) {
      // pg_switch_wal() does nothing unless something was written since the last switch.
      await client.query('INSERT INTO bench_wal_switch VALUES (1)');
      await client.query('SELECT pg_switch_wal()');
    }
    await client.query('DROP TABLE bench_wal_switch');
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_ls_waldir()');
    return { segments: rows[0]!.n };
  } finally {
    await client.end();
  }
}

/** WAL segments created (initialised) so far, from pg_stat_io (PostgreSQL 16+); undefined where it cannot be read. */
export async function walSegmentsCreated(url: string): Promise<number | undefined> {
  const client = new pg.Client(url);
  try {
    await client.connect();
    const { rows } = await client.query<{ n: string }>(
      "SELECT coalesce(sum(writes), 0)::text AS n FROM pg_stat_io WHERE object = 'wal' AND context = 'init'",
    );
    return Number(rows[0]!.n);
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}
