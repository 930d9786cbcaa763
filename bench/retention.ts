// Retention (issue 38): what the delivery logs cost per million rows, and what it takes to drop a month of them, on
// the shape they had before (one table: a DELETE of the month, whose dead rows VACUUM must then reclaim) and after
// (partitioned by month: DETACH and DROP of its partition). Same columns, indexes and rows in both, on the
// benchmark's database, in a schema of its own that is dropped afterwards.
import pg from 'pg';

export interface RetentionFigures {
  rowsPerMonth: number;
  /** Table and index bytes per million rows, one table and partitioned. */
  bytesPerMillion: { single: number; partitioned: number };
  /** Dropping the oldest month: DELETE (then VACUUM) on the single table, DETACH and DROP of its partition. */
  deleteMonthMs: number;
  vacuumAfterDeleteMs: number;
  dropMonthMs: number;
}

const COLUMNS = `id uuid NOT NULL, seq bigint NOT NULL, merchant_id uuid, endpoint_id uuid NOT NULL,
  message_id uuid NOT NULL, event_type text NOT NULL, status text NOT NULL, response_status_code int,
  duration_ms int NOT NULL, request_headers jsonb NOT NULL, request_body text NOT NULL, response_body text,
  created_at timestamptz NOT NULL`;
const INDEXES = (table: string) => [
  `CREATE INDEX ON ${table} (merchant_id, created_at DESC, seq DESC) WHERE merchant_id IS NOT NULL`,
  `CREATE INDEX ON ${table} (message_id)`,
];
/** Rows shaped like a delivery attempt's log: the signed request as sent (about 700 bytes) and a short answer. */
const FILL = (table: string, months: number, perMonth: number) => `
  INSERT INTO ${table}
  SELECT gen_random_uuid(), g, md5((g % 50)::text)::uuid, md5('e')::uuid, gen_random_uuid(), 'transaction.card.captured',
         'Success', 200, 40 + g % 30,
         jsonb_build_object('content-type', 'application/json', 'service-webhook-id', gen_random_uuid(),
                            'service-webhook-timestamp', 1795700000 + g, 'service-webhook-signature', 'v1,' || md5(g::text)),
         '{"id":"' || gen_random_uuid() || '","type":"transaction.card.captured","data":{"transactionId":"' ||
           gen_random_uuid() || '","amount":' || (g % 10000) || ',"status":"Captured"},"text":"' || repeat('x', 420) || '"}',
         'ok',
         timestamptz '2027-01-01' + ((g - 1) % ${months}) * interval '1 month' + ((g - 1) / ${months}) * interval '20 seconds'
  FROM generate_series(1, ${months * perMonth}) g`;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return Math.round(performance.now() - started);
}

export async function retentionBenchmark(databaseUrl: string, rowsPerMonth = 100_000): Promise<RetentionFigures> {
  const months = 3;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const size = async (tables: string[]) => {
    const { rows } = await client.query<{ bytes: string }>(
      'SELECT sum(pg_total_relation_size(t::regclass))::bigint AS bytes FROM unnest($1::text[]) t',
      [tables],
    );
    return Number(rows[0]!.bytes);
  };
  try {
    await client.query('DROP SCHEMA IF EXISTS bench_retention CASCADE; CREATE SCHEMA bench_retention');
    await client.query(`CREATE TABLE bench_retention.single (${COLUMNS}, PRIMARY KEY (id))`);
    for (const index of INDEXES('bench_retention.single')) await client.query(index);
    await client.query(
      `CREATE TABLE bench_retention.parted (${COLUMNS}, PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at)`,
    );
    for (const index of INDEXES('bench_retention.parted')) await client.query(index);
    const parts: string[] = [];
    for (let i = 0; i < months; i++) {
      const name = `bench_retention.parted_m${i}`;
      parts.push(name);
      await client.query(
        `CREATE TABLE ${name} PARTITION OF bench_retention.parted
           FOR VALUES FROM (timestamptz '2027-01-01' + ${i} * interval '1 month')
           TO (timestamptz '2027-01-01' + ${i + 1} * interval '1 month')`,
      );
    }
    await client.query(FILL('bench_retention.single', months, rowsPerMonth));
    await client.query(FILL('bench_retention.parted', months, rowsPerMonth));
    await client.query('VACUUM ANALYZE bench_retention.single');
    await client.query('VACUUM ANALYZE bench_retention.parted');
    const rows = months * rowsPerMonth;
    const bytesPerMillion = {
      single: Math.round(((await size(['bench_retention.single'])) / rows) * 1_000_000),
      partitioned: Math.round(((await size(parts)) / rows) * 1_000_000),
    };
    const deleteMonthMs = await timed(() =>
      client.query("DELETE FROM bench_retention.single WHERE created_at < timestamptz '2027-02-01'"),
    );
    const vacuumAfterDeleteMs = await timed(() => client.query('VACUUM bench_retention.single'));
    const dropMonthMs = await timed(async () => {
      await client.query('ALTER TABLE bench_retention.parted DETACH PARTITION bench_retention.parted_m0');
      await client.query('DROP TABLE bench_retention.parted_m0');
    });
    return { rowsPerMonth, bytesPerMillion, deleteMonthMs, vacuumAfterDeleteMs, dropMonthMs };
  } finally {
    await client.query('DROP SCHEMA IF EXISTS bench_retention CASCADE').catch(() => {});
    await client.end();
  }
}
