// Retention (issue 38): what a million payments add to the database, table by table, as the API writes them (a raw-card
// sale with its webhook delivered and logged, its request logged), and how much of that is dropped after a retention
// (time partitions, or expiry) rather than kept for ever. Before partitioning everything stayed; now only the books
// and what must stay do.
import pg from 'pg';

/** The benchmark's raw-card sale (the sandbox's test card; the v1 sale figure and this one send the same). */
export const RAW_CARD_SALE = {
  amount: 12.34,
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

/** Tables whose rows go after a retention: partitions dropped (or rows expired), the setting that says when. */
export const RETAINED: Readonly<Record<string, string>> = {
  events: 'EVENT_RETENTION_DAYS (400)',
  webhook_deliveries: 'EVENT_RETENTION_DAYS (400)',
  webhook_delivery_logs: 'WEBHOOK_DELIVERY_LOG_RETENTION_DAYS (kept by default)',
  messages: 'MESSAGE_RETENTION_DAYS (400)',
  request_logs: '24 hours',
  idempotency_keys: 'IDEMPOTENCY_RETENTION_MINUTES (24 hours)',
  rate_limit_counters: 'the window',
};

export interface PaymentGrowth {
  payments: number;
  /** Bytes per million payments, by table (partitions summed into their table), largest first. */
  perMillion: Array<{ table: string; bytes: number; retention?: string }>;
  /** Kept for ever; dropped after a retention (delivery logs counted as kept: they are by default). */
  keptPerMillion: number;
  droppedPerMillion: number;
}

async function tableSizes(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ name: string; bytes: string }>(
    // pg_partition_tree lists a partitioned table's partitions and nothing for a plain table: each counted its way.
    `SELECT c.relname AS name,
            CASE WHEN c.relkind = 'p'
                 THEN (SELECT sum(pg_total_relation_size(t.relid)) FROM pg_partition_tree(c.oid) t)
                 ELSE pg_total_relation_size(c.oid) END::bigint AS bytes
     FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
  );
  return new Map(rows.map((row) => [row.name, Number(row.bytes)]));
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('payment growth: the payments did not settle in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Makes `payments` sales through the API (16 at a time), waits until their webhooks are delivered and their request
 * log lines written, and returns what each table grew by, per million payments.
 */
export async function paymentGrowth(options: {
  api: string;
  token: string;
  databaseUrl: string;
  payments: number;
}): Promise<PaymentGrowth> {
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const count = async (sql: string) => (await client.query<{ n: number }>(sql)).rows[0]!.n;
    const requestLines = () => count('SELECT count(*)::int AS n FROM request_logs');
    const linesBefore = await requestLines();
    const before = await tableSizes(client);
    let next = 0;
    const seller = async () => {
      while (next < options.payments) {
        next++;
        const res = await fetch(`${options.api}/pay-api/v1/transactions/sale`, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...RAW_CARD_SALE, referenceId: `growth-${next}` }),
        });
        if (!res.ok) throw new Error(`payment growth: sale ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 16 }, seller));
    await until(
      async () =>
        (await count("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('Pending', 'Scheduled')")) ===
          0 && (await requestLines()) >= linesBefore + options.payments,
      120_000,
    );
    const after = await tableSizes(client);
    const perMillion = [...after]
      .map(([table, bytes]) => ({
        table,
        bytes: Math.round(((bytes - (before.get(table) ?? 0)) / options.payments) * 1_000_000),
        retention: RETAINED[table],
      }))
      .filter((row) => row.bytes > 0)
      .sort((a, b) => b.bytes - a.bytes);
    const dropped = (row: { table: string }) => row.table in RETAINED && row.table !== 'webhook_delivery_logs';
    return {
      payments: options.payments,
      perMillion,
      keptPerMillion: perMillion.filter((row) => !dropped(row)).reduce((sum, row) => sum + row.bytes, 0),
      droppedPerMillion: perMillion.filter(dropped).reduce((sum, row) => sum + row.bytes, 0),
    };
  } finally {
    await client.end();
  }
}
