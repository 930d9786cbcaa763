// `npm run bench`: measures in one run, on one database, each figure as a ratio to a baseline measured in the same
// run (absolute numbers on these machines are noise). Prints a table; writes bench/results/latest.json.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.js';
import { migrate } from '../src/platform/db/migrator.js';
import { sweepPartitions } from '../src/platform/db/time-partitions.js';
import { freePort } from '../src/platform/net.js';
import { projectRoot } from '../src/platform/paths.js';
import { ADYEN_BENCH_ACCOUNT } from './adyen-account.js';
import { billingBenchmark } from './billing.js';
import { cpuMsPer, cpuSnapshot, cpuSplit } from './cpu.js';
import { dashboardBenchmark } from './dashboard.js';
import { eventStreamBenchmark } from './event-streams.js';
import { type Figure, runWithClients } from './fixed-clients.js';
import { invoicesBenchmark } from './invoices.js';
import { linksBenchmark } from './links.js';
import { drainExport, liveHeapGrowth } from './live-heap.js';
import { nachaBenchmark } from './nacha.js';
import { partnerBenchmark } from './partner.js';
import { paymentGrowth, RAW_CARD_SALE } from './payment-growth.js';
import { PG_STATEMENTS, pgStatementsSettings, printPgStatements, resetPgStatements } from './pg-statements.js';
import { posBenchmark } from './pos.js';
import { retentionBenchmark } from './retention.js';
import { ratioOf } from './scoreboard.js';
import { sessionsBenchmark } from './sessions.js';
import { score } from './targets.js';
import { prepareWal, walSegmentsCreated } from './wal.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
// BENCH_CONNECTIONS: fewer for a CPU profile taken off the saturation point (the figures are measured at 32).
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
// e.g. "GET /pay-api" to run (and profile) one measurement; "|" separates alternatives ("2 INSERTs|sale").
const ONLY = process.env.BENCH_ONLY?.split('|');

const root = projectRoot();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
const db = process.env.DATABASE_URL
  ? { url: process.env.DATABASE_URL, stop: async () => {} }
  : await startEmbeddedPostgres({ dataDir, settings: pgStatementsSettings() });
// A run that fails still stops what it started: the database and the servers it forked.
const started = new Set<ChildProcess>();
process.once('exit', (code) => {
  for (const child of started) child.kill('SIGTERM');
  const pid = (db as { pid?: number }).pid;
  if (pid && code !== 0) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already stopped
    }
  }
});
await migrate(db.url);
// The cluster's WAL as a running database has it (bench/wal.ts); BENCH_COLD_WAL=1 measures a brand-new cluster.
const walNote =
  process.env.DATABASE_URL || process.env.BENCH_COLD_WAL === '1'
    ? 'WAL not prepared'
    : `WAL prepared: ${(await prepareWal(db.url)).segments} segments ready`;

interface Server {
  api: string;
  baseline: string;
  process: ChildProcess;
}

/** The server runs in its own process so the load generator does not share its event loop. */
async function startServer(env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Server> {
  const apiPort = await freePort();
  const baselinePort = await freePort();
  const child = fork(path.join(root, 'bench/server.ts'), {
    execArgv: [
      ...nodeFlags,
      '--import',
      'tsx',
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
    ],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: db.url,
      BENCH_BASELINE_PORT: String(baselinePort),
      PORT: String(apiPort),
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      WORKERS: '0',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      // One principal is hammered; the limiter still runs on every request, with limits it will not reach.
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_BURST_PER_10S: '100000000',
      ...env,
    },
    // BENCH_SERVER_LOG=1 shows the server's log (LOG_LEVEL=error keeps it to failures).
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  started.add(child);
  measuredServer = child;
  child.once('exit', () => started.delete(child));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { api: `http://127.0.0.1:${apiPort}`, baseline: `http://127.0.0.1:${baselinePort}/select1`, process: child };
}

async function stopServer(server: Server): Promise<void> {
  server.process.kill('SIGTERM');
  await new Promise((resolve) => server.process.once('exit', resolve));
}

async function call(method: string, url: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

/** The server process being measured: each figure says how much CPU it and PostgreSQL spent per request. */
let measuredServer: ChildProcess | undefined;

const isSelected = (name: string) => !ONLY || ONLY.some((part) => name.includes(part));

async function measure(name: string, options: autocannon.Options, selected = false): Promise<Figure | undefined> {
  if (!selected && !isSelected(name)) return undefined;
  return runWithClients(name, options, CONNECTIONS, DURATION, 2, { server: measuredServer?.pid });
}

const ratio = (a: Figure | undefined, b: Figure | undefined) => ratioOf(a?.requestsPerSecond, b?.requestsPerSecond);

/** Where the figures were taken: they are ratios because absolute numbers differ from machine to machine. */
const machine = () => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  command: `${ONLY ? `BENCH_ONLY='${ONLY.join('|')}' ` : ''}${process.env.BENCH_DURATION ? `BENCH_DURATION=${DURATION} ` : ''}npm run bench`,
});

/** The loopback webhook receiver (bench/receiver.ts) in a process of its own, once it listens. */
async function startReceiver(): Promise<{ receiver: ChildProcess; receiverPort: number }> {
  const receiver = fork(path.join(root, 'bench/receiver.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const receiverPort = await new Promise<number>((resolve) =>
    receiver.once('message', (m: { port: number }) => resolve(m.port)),
  );
  return { receiver, receiverPort };
}

/** A webhook endpoint of the merchant's, subscribed to its card captures, at the receiver. */
async function subscribeCaptures(server: Server, token: string, name: string, receiverPort: number): Promise<void> {
  const res = await fetch(`${server.api}/v2/webhooks/endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      endpointUrl: `http://127.0.0.1:${receiverPort}/hook`,
      eventTypes: ['transaction.card.captured'],
    }),
  });
  if (!res.ok) throw new Error(`endpoint: ${await res.text()}`);
}

async function credentials(server: Server) {
  const merchant = await call('POST', `${server.api}/admin/v1/merchants`, { companyName: 'Bench Merchant' });
  const key = await call('POST', `${server.api}/admin/v1/api-keys`, { merchantId: merchant.id });
  const tokenBody = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: key.clientId,
    client_secret: key.clientSecret,
  }).toString();
  const res = await fetch(`${server.api}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenBody,
  });
  return {
    tokenBody,
    token: ((await res.json()) as { access_token: string }).access_token,
    merchantId: merchant.id as string,
  };
}

console.log(
  `\nTessera benchmark: ${CONNECTIONS} connections, ${DURATION} s per measurement, ${os.cpus().length} CPUs, ${walNote}\n`,
);

// Run 1: the node as deployed (configuration cache on, the default).
const server = await startServer();
const { token, tokenBody } = await credentials(server);
// BENCH_PARTITION_MONTHS=N: the monthly-partitioned tables get N months of partitions ahead before anything is
// measured (a fresh database has five or six; a 400-day retention keeps about eighteen), to see what their number costs.
const partitionMonths = Number(process.env.BENCH_PARTITION_MONTHS ?? 0);
if (partitionMonths > 0) {
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const ahead = new Date();
  ahead.setUTCMonth(ahead.getUTCMonth() + partitionMonths);
  for (const [table, column] of [
    ['events', 'occurred_at'],
    ['webhook_deliveries', 'created_at'],
    ['webhook_delivery_logs', 'created_at'],
    ['messages', 'created_at'],
  ] as const) {
    const sweep = await sweepPartitions(pool, { table, column, retentionDays: 0 }, ahead);
    console.log(
      `  ${table}: ${sweep.created.length} partitions made ahead (BENCH_PARTITION_MONTHS=${partitionMonths})`,
    );
  }
  await pool.end();
}
const baseline = await measure('baseline: bare Fastify + SELECT 1, same pool', { url: server.baseline });
const authenticatedGet = await measure('GET /pay-api/v1/configurations/payments', {
  url: `${server.api}/pay-api/v1/configurations/payments`,
  headers: { authorization: `Bearer ${token}` },
});
const tokenIssuance = await measure('POST /oauth2/token (client_credentials)', {
  url: `${server.api}/oauth2/token`,
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: tokenBody,
});
const baselineAgain = await measure('baseline again (drift check)', { url: server.baseline });
await stopServer(server);

// Run 2: configuration cache off, so every request reads PostgreSQL (for honesty about what the cache buys).
const uncachedServer = await startServer({ CONFIG_CACHE_TTL_MS: '0' });
// Eight merchants' tokens in turn: concurrent reads are of different merchants, as on a real node.
const uncachedTokens: string[] = [];
for (let i = 0; i < 8; i++) uncachedTokens.push((await credentials(uncachedServer)).token);
let uncachedTurn = 0;
const uncachedBaseline = await measure('baseline (second server)', { url: uncachedServer.baseline });
// Each connection keeps one merchant's token (four connections a merchant), so its request is built once, as the
// baseline's is: rebuilt for every send, a request cost the load generator 0.063 ms against the baseline's 0.027.
const uncachedGet = await measure('GET .../configurations/payments, cache off, 8 merchants', {
  url: `${uncachedServer.api}/pay-api/v1/configurations/payments`,
  setupClient: (client) =>
    client.setHeaders({ authorization: `Bearer ${uncachedTokens[uncachedTurn++ % uncachedTokens.length]}` }),
});
await stopServer(uncachedServer);

// Run 3: card sales against the payment baseline (sandbox network latency 0).
const payServer = await startServer({ SANDBOX_CARD_LATENCY_MS: '0' });
const pay = await credentials(payServer);
const authHeaders = { authorization: `Bearer ${pay.token}`, 'content-type': 'application/json' };
const customer = (await (
  await fetch(`${payServer.api}/pay-api/v1/customers`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({ firstName: 'Bench' }),
  })
).json()) as { id: string };
const vaulted = (await (
  await fetch(`${payServer.api}/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({ pan: '4111111111111111', expirationMonth: 12, expirationYear: 2035 }),
  })
).json()) as { id: string };
let referenceSeq = 0;
/** Every sale gets its own referenceId, so the duplicate check runs for real and never refuses. */
const sale = (body: Record<string, unknown>, path = '/pay-api/v1/transactions/sale'): autocannon.Options => ({
  url: payServer.api,
  requests: [
    {
      method: 'POST',
      path,
      headers: authHeaders,
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ ...body, referenceId: `bench-${++referenceSeq}` }),
      }),
    },
  ],
});
const walBeforeSales = await walSegmentsCreated(db.url);
const paymentBaseline = await measure('baseline: bare Fastify + BEGIN, 2 INSERTs, COMMIT', {
  url: payServer.baseline.replace('/select1', '/two-inserts'),
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ amount: 12.34 }),
});
const countRows = async (table: string) => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  await client.end();
  return rows[0]!.n;
};
/** With BENCH_PG_STATEMENTS=1: the database's statements of one measurement, per row it added to `table`. */
async function profiled<T>(label: string, work: () => Promise<T>, table = 'transactions'): Promise<T> {
  if (!PG_STATEMENTS) return work();
  await resetPgStatements(db.url);
  const before = await countRows(table);
  const result = await work();
  await printPgStatements(db.url, label, Math.max(1, (await countRows(table)) - before));
  return result;
}
const rawSale = await profiled('the raw-card sale', () =>
  measure('POST /pay-api/v1/transactions/sale (raw card)', sale(RAW_CARD_SALE)),
);
// The version 2 create of the same raw-card sale: the v2 layer's cost over the v1 route (target >= 0.9).
const v2Sale = await measure(
  'POST /v2/transactions (raw card sale)',
  sale(
    {
      baseAmount: 12.34,
      billingAddress: { line1: '123 Test St', postalCode: '10001' },
      transactionDetails: {
        cardData: {
          captureMethod: 'Auto',
          paymentMethodDetails: {
            cardNumber: '4111111111111111',
            expirationMonth: 12,
            expirationYear: 2035,
            securityCode: '123',
          },
        },
      },
    },
    '/v2/transactions',
  ),
);
const vaultedSale = await measure(
  'POST /pay-api/v1/transactions/sale (vaulted card)',
  sale({
    amount: 12.34,
    customerId: customer.id,
    paymentMethodId: vaulted.id,
  }),
);
const v2VaultedSale = await profiled('the v2 vaulted-card sale', () =>
  measure(
    'POST /v2/transactions (vaulted card sale)',
    sale({ baseAmount: 12.34, transactionDetails: { cardData: { paymentMethodId: vaulted.id } } }, '/v2/transactions'),
  ),
);
// Backends report I/O statistics when idle, at most once a second.
await new Promise((resolve) => setTimeout(resolve, 1500));
const walAfterSales = await walSegmentsCreated(db.url);
const walSegmentsCreatedDuringSales =
  walBeforeSales !== undefined && walAfterSales !== undefined ? walAfterSales - walBeforeSales : undefined;
// The same raw-card sale through the Adyen connector, against the fake of Adyen in a process of its own (target: at
// least 0.8 of the sandbox sale).
const ADYEN_SALE = 'POST /pay-api/v1/transactions/sale (raw card, Adyen fake)';
let adyenSale: Figure | undefined;
if (isSelected(ADYEN_SALE)) {
  const fakeProcess = fork(path.join(root, 'bench/adyen-fake-process.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  started.add(fakeProcess);
  const fakeUrl = await new Promise<string>((resolve) =>
    fakeProcess.once('message', (message: { url: string }) => resolve(message.url)),
  );
  const adyen = await call('POST', `${payServer.api}/admin/v1/merchants/${pay.merchantId}/processors`, {
    name: 'Adyen (fake)',
    typeId: 1,
    connector: 'adyen',
    isDefault: false,
    settings: { merchantAccount: ADYEN_BENCH_ACCOUNT.merchantAccount, baseUrl: fakeUrl },
    credentials: {
      apiKey: ADYEN_BENCH_ACCOUNT.apiKey,
      hmacKey: ADYEN_BENCH_ACCOUNT.hmacKey,
      notificationUsername: ADYEN_BENCH_ACCOUNT.notificationUsername,
      notificationPassword: ADYEN_BENCH_ACCOUNT.notificationPassword,
    },
  });
  fakeProcess.send({ notificationUrl: `${payServer.api}${adyen.notificationUrlPath}` });
  adyenSale = await profiled('the Adyen sale', () =>
    measure(
      ADYEN_SALE,
      // Adyen's test cards take the security code 737.
      sale({ ...RAW_CARD_SALE, securityCode: '737', paymentProcessorId: adyen.id }),
    ),
  );
  const violations = await new Promise<{ count: number; violations: string[] }>((resolve) => {
    fakeProcess.once('message', (message: { count: number; violations: string[] }) => resolve(message));
    fakeProcess.send({ violations: true });
  });
  if (violations.count > 0)
    throw new Error(`the fake of Adyen saw ${violations.count} violations: ${violations.violations.join('; ')}`);
  fakeProcess.kill('SIGTERM');
}
const paymentBaselineAgain = await measure('payment baseline again (drift check)', {
  url: payServer.baseline.replace('/select1', '/two-inserts'),
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ amount: 12.34 }),
});
await stopServer(payServer);

// Run 4: webhook delivery. Events are recorded in the outbox (as a state change would), fanned out by the trigger,
// delivered by the worker in the server process to a receiver in a third process, signed and logged. The baseline
// is the receiver's own ceiling: unsigned POSTs of a same-sized body straight at it from the load generator.
interface DeliveryFigures {
  baseline: Figure;
  deliveriesPerSecond: number;
  throughputRatio: number;
  loadedP50Ms: number;
  loadedP99Ms: number;
  idleP50Ms: number;
  idleP99Ms: number;
  /** CPU milliseconds per delivery in the loaded run, per process. */
  cpuMsPerDelivery: Record<string, number>;
  liveHeapGrowthMiB?: { small: number; large: number; smallCount: number; largeCount: number };
}
let webhookDelivery: DeliveryFigures | undefined;
let deliveryHeap: { small: number; large: number; smallCount: number; largeCount: number } | undefined;
/** Batch paths' live heap at two sizes (exports; the billing and NACHA runs keep their own). */
const memoryChecks: Array<{
  name: string;
  liveHeapGrowthMiB: { small: number; large: number };
  rows: [number, number];
  bytes?: [number, number];
}> = [];
if (!ONLY || ONLY.some((part) => 'webhook delivery'.includes(part))) {
  const { receiver, receiverPort } = await startReceiver();
  /** Sends the receiver a request and resolves with its reply of `replyType`. */
  const ask = <T>(request: Record<string, unknown>, replyType: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (message: { type?: string }) => {
        if (message.type !== replyType) return;
        receiver.off('message', onMessage);
        resolve(message as T);
      };
      receiver.on('message', onMessage);
      receiver.send(request);
    });
  const drain = () => ask<{ count: number; arrivals: Array<[string, number]> }>({ type: 'drain' }, 'drained');
  const hookServer = await startServer({ WORKERS: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, ['--expose-gc']);
  const hook = await credentials(hookServer);
  await subscribeCaptures(hookServer, hook.token, 'bench', receiverPort);
  const events = new pg.Pool({ connectionString: db.url, max: 4 });
  const { rows: owner } = await events.query<{ merchant_id: string }>(
    'SELECT merchant_id FROM webhook_endpoints LIMIT 1',
  );
  const merchantId = owner[0]!.merchant_id;
  const record = async (count: number): Promise<{ ids: string[]; committedAt: number }> => {
    const { rows } = await events.query<{ id: string }>(
      `INSERT INTO events (id, type, merchant_id, resource_type, resource_id, occurred_at)
       SELECT gen_random_uuid(), 'transaction.card.captured', $1, 'transaction', gen_random_uuid()::text, now()
       FROM generate_series(1, $2) RETURNING id`,
      [merchantId, count],
    );
    return { ids: rows.map((row) => row.id), committedAt: Date.now() };
  };
  const deliveryIds = async (eventIds: string[]) =>
    new Map(
      (
        await events.query<{ id: string; event_id: string }>(
          'SELECT id, event_id FROM webhook_deliveries WHERE event_id = ANY($1)',
          [eventIds],
        )
      ).rows.map((row) => [row.id, row.event_id]),
    );
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
  };
  const waitDelivered = async (pollMs = 20) => {
    for (;;) {
      const { rows } = await events.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('Pending', 'Scheduled')",
      );
      if (rows[0]!.n === 0) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };

  const sampleBody = JSON.stringify({
    id: '3e8a1c2d-7b6f-4a5e-9d0c-1f2e3d4c5b6a',
    type: 'transaction.card.captured',
    created: 1795255200,
    apiVersion: 'v2',
    data: { object: { id: '9c1f3e8a-1c2d-7b6f-4a5e-9d0c1f2e3d4c', resourceType: 'transaction' } },
  });
  const receiverBaseline = await measure('webhook delivery baseline: unsigned POSTs to the receiver', {
    url: `http://127.0.0.1:${receiverPort}/hook`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: sampleBody,
  });
  await drain();

  // Warm-up, then the loaded run: a burst of events recorded in batches as fast as the database takes them.
  await record(500);
  await waitDelivered();
  await drain();
  // BENCH_WEBHOOK_EVENTS: a longer loaded run, for profiling it (the figure is defined over 10,000).
  const TOTAL = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
  await resetPgStatements(db.url);
  const cpuBefore = cpuSnapshot();
  const started = Date.now();
  const committed = new Map<string, number>();
  // The receiver says when the last message arrived; only then is the database asked (until the outcomes are written).
  const arrivedAll = ask({ type: 'await', count: TOTAL }, 'reached');
  for (let sent = 0; sent < TOTAL; sent += 500) {
    const batch = await record(500);
    for (const id of batch.ids) committed.set(id, batch.committedAt);
  }
  await arrivedAll;
  const finished = await waitDelivered(5);
  const loadedCpu = cpuSplit(cpuBefore, cpuSnapshot(), {
    server: hookServer.process.pid,
    receiver: receiver.pid,
    'load generator': process.pid,
  });
  await printPgStatements(db.url, 'the loaded delivery run', TOTAL);
  const loaded = await drain();
  const loadedDeliveries = await deliveryIds([...committed.keys()]);
  const loadedLatencies = loaded.arrivals
    .filter(([id]) => loadedDeliveries.has(id))
    .map(([id, at]) => at - committed.get(loadedDeliveries.get(id)!)!);
  const deliveriesPerSecond = Math.round((TOTAL / (finished - started)) * 1000);

  // Idle: one event at a time, commit to arrival.
  const idle: number[] = [];
  for (let i = 0; i < 50; i++) {
    const one = await record(1);
    const [deliveryId] = [...(await deliveryIds(one.ids)).keys()];
    for (;;) {
      const { arrivals } = await drain();
      const hit = arrivals.find(([id]) => id === deliveryId);
      if (hit) {
        idle.push(hit[1] - one.committedAt);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (process.env.BENCH_DEBUG_IDLE) console.log('idle latencies', idle.join(' '));

  // Memory flat: the worker's live heap while it delivers a burst of 10,000 and one of 50,000 (sampled, so slower
  // than the run above), and while the delivery log is exported with ~10,000 rows and with ~70,000.
  const exportUrl = `${hookServer.api}/v2/webhooks/delivery-logs/export`;
  const smallExport = await liveHeapGrowth(hookServer.process, () => drainExport(exportUrl, hook.token));
  const burst = async (count: number) => {
    for (let sent = 0; sent < count; sent += 500) await record(500);
    await waitDelivered();
  };
  const delivered10k = await liveHeapGrowth(hookServer.process, () => burst(10_000));
  const delivered50k = await liveHeapGrowth(hookServer.process, () => burst(50_000));
  const largeExport = await liveHeapGrowth(hookServer.process, () => drainExport(exportUrl, hook.token));
  const { rows: logCount } = await events.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_delivery_logs');
  memoryChecks.push({
    name: 'delivery log export',
    liveHeapGrowthMiB: { small: smallExport.mib, large: largeExport.mib },
    rows: [10_550, logCount[0]!.n],
    bytes: [smallExport.result, largeExport.result],
  });
  deliveryHeap = { small: delivered10k.mib, large: delivered50k.mib, smallCount: 10_000, largeCount: 50_000 };
  console.log(
    `  ${'live heap growth: deliveries 10k / 50k; export'.padEnd(52)} ${delivered10k.mib} / ${delivered50k.mib} MiB; export ${smallExport.mib} MiB (${smallExport.result} B) / ${largeExport.mib} MiB (${largeExport.result} B)`,
  );
  await events.end();
  await stopServer(hookServer);
  receiver.kill('SIGTERM');
  if (receiverBaseline) {
    webhookDelivery = {
      baseline: receiverBaseline,
      deliveriesPerSecond,
      throughputRatio: Math.round((deliveriesPerSecond / receiverBaseline.requestsPerSecond) * 100) / 100,
      loadedP50Ms: percentile(loadedLatencies, 50),
      loadedP99Ms: percentile(loadedLatencies, 99),
      idleP50Ms: percentile(idle, 50),
      idleP99Ms: percentile(idle, 99),
      ...(deliveryHeap ? { liveHeapGrowthMiB: deliveryHeap } : {}),
      cpuMsPerDelivery: cpuMsPer(loadedCpu, TOTAL),
    };
    console.log(
      `  ${`webhook deliveries (signed, logged), ${TOTAL.toLocaleString('en-US')} events`.padEnd(52)} ${String(deliveriesPerSecond).padStart(7)} /s     commit→receiver p50 ${webhookDelivery.loadedP50Ms} ms  p99 ${webhookDelivery.loadedP99Ms} ms`,
    );
    console.log(
      `  ${'webhook delivery latency while idle (50 events)'.padEnd(52)}                commit→receiver p50 ${webhookDelivery.idleP50Ms} ms  p99 ${webhookDelivery.idleP99Ms} ms`,
    );
    console.log(
      `  ${'CPU ms per delivery in the loaded run'.padEnd(52)} ${Object.entries(webhookDelivery.cpuMsPerDelivery)
        .map(([role, ms]) => `${role} ${ms}`)
        .join(', ')} (over ${((finished - started) / 1000).toFixed(1)} s on ${os.cpus().length} CPUs)`,
    );
  }
}

// Run 5: payment sessions and the hosted checkout page (the payer's address limit is out of the way: one client).
let sessions: Awaited<ReturnType<typeof sessionsBenchmark>> | undefined;
if (!ONLY || ONLY.some((part) => 'sessions'.includes(part))) {
  const sessionServer = await startServer({ CHECKOUT_RATE_LIMIT_PER_MINUTE: '100000000' });
  const session = await credentials(sessionServer);
  sessions = await sessionsBenchmark({
    api: sessionServer.api,
    baselineUrl: sessionServer.baseline,
    paymentBaselineUrl: sessionServer.baseline.replace('/select1', '/two-inserts'),
    token: session.token,
    profiled: (label, work) => profiled(label, work, 'payment_sessions'),
    measure: (name, options) => measure(name, options, true),
  });
  await stopServer(sessionServer);
}

let nacha: Awaited<ReturnType<typeof nachaBenchmark>> | undefined;
if (!ONLY || ONLY.some((part) => 'nacha'.includes(part))) {
  nacha = await nachaBenchmark({
    ...process.env,
    BENCH_DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
  });
}

// Run 7: a subscription billing run of 100,000 due installments (sandbox card network, no latency), against the API's
// vaulted-card sale measured here, in this run, on a server of its own.
let billing: (Awaited<ReturnType<typeof billingBenchmark>> & { apiSale: Figure; throughputRatio: number }) | undefined;
if (!ONLY || ONLY.some((part) => 'subscriptions'.includes(part))) {
  const saleServer = await startServer({ SANDBOX_CARD_LATENCY_MS: '0' });
  const seller = await credentials(saleServer);
  const headers = { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json' };
  const post = async (url: string, body: unknown) =>
    (await (
      await fetch(`${saleServer.api}${url}`, { method: 'POST', headers, body: JSON.stringify(body) })
    ).json()) as {
      id: string;
    };
  const buyer = await post('/pay-api/v1/customers', { firstName: 'Bench' });
  const card = await post(`/pay-api/v1/customers/${buyer.id}/payment-methods/cards`, {
    pan: '4111111111111111',
    expirationMonth: 12,
    expirationYear: 2035,
  });
  let seq = 0;
  const apiSale = (await measure(
    'POST .../sale (vaulted card), the billing reference',
    {
      url: saleServer.api,
      requests: [
        {
          method: 'POST',
          path: '/pay-api/v1/transactions/sale',
          headers,
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              amount: 12.34,
              customerId: buyer.id,
              paymentMethodId: card.id,
              referenceId: `billing-ref-${++seq}`,
            }),
          }),
        },
      ],
    },
    true,
  ))!;
  await stopServer(saleServer);
  const run = await billingBenchmark({
    ...process.env,
    BENCH_DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
  });
  billing = { ...run, apiSale, throughputRatio: Math.round((run.perSecond / apiSale.requestsPerSecond) * 100) / 100 };
}

// Run 8: POS transactions: 2,000 long-polls held by one node, then POS sales end to end through simulated terminals
// on the terminal channel, against the API's raw-card sale measured here on the same server.
let pos: (Awaited<ReturnType<typeof posBenchmark>> & { apiSale: Figure; salesRatio: number }) | undefined;
if (!ONLY || ONLY.some((part) => 'pos'.includes(part))) {
  const posServer = await startServer({ POS_LONG_POLL_MS: '120000', SANDBOX_CARD_LATENCY_MS: '0' }, ['--expose-gc']);
  const seller = await credentials(posServer);
  let seq = 0;
  const apiSale = (await measure(
    'POST .../sale (raw card), the POS reference',
    {
      url: posServer.api,
      requests: [
        {
          method: 'POST',
          path: '/pay-api/v1/transactions/sale',
          headers: { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              amount: 4.2,
              accountNumber: '4111111111111111',
              expirationMonth: 12,
              expirationYear: 2035,
              referenceId: `pos-ref-${++seq}`,
            }),
          }),
        },
      ],
    },
    true,
  ))!;
  const memory = () =>
    new Promise<{ heapUsed: number; rss: number; waiting: number }>((resolve) => {
      posServer.process.once('message', (message: { memory: NodeJS.MemoryUsage; waiting: number }) =>
        resolve({ heapUsed: message.memory.heapUsed, rss: message.memory.rss, waiting: message.waiting }),
      );
      posServer.process.send('memory');
    });
  // A failed run must not leave its server behind.
  const run = await posBenchmark({
    api: posServer.api,
    databaseUrl: db.url,
    adminToken: ADMIN_TOKEN,
    memory,
    measure: async (name, options) => (await measure(name, options as unknown as autocannon.Options, true))!,
    durationSeconds: DURATION,
    profiled: (label, work) => profiled(label, work, 'pos_transactions'),
    cpuOf: async (work) => {
      const before = cpuSnapshot();
      const result = await work();
      return {
        result,
        cpu: cpuSplit(before, cpuSnapshot(), { server: posServer.process.pid, 'load generator': process.pid }),
      };
    },
  }).finally(() => stopServer(posServer));
  pos = {
    ...run,
    apiSale,
    salesRatio: Math.round((run.sales.salesPerSecond / apiSale.requestsPerSecond) * 100) / 100,
  };
}

// Run 8b: what 2,000 idle event streams cost the node, PostgreSQL and another tenant.
let eventStreams: Awaited<ReturnType<typeof eventStreamBenchmark>> | undefined;
if (!ONLY || ONLY.some((part) => 'event-streams'.includes(part))) {
  const streamServer = await startServer();
  const cpu = () =>
    new Promise<{ user: number; system: number }>((resolve) => {
      const answer = (message: { cpu?: { user: number; system: number } }) => {
        if (!message.cpu) return;
        streamServer.process.off('message', answer);
        resolve(message.cpu);
      };
      streamServer.process.on('message', answer);
      streamServer.process.send('cpu');
    });
  eventStreams = await eventStreamBenchmark({
    api: streamServer.api,
    databaseUrl: db.url,
    adminToken: ADMIN_TOKEN,
    cpu,
  }).finally(() => stopServer(streamServer));
}

// Run 9: invoicing: create + publish, PDFs (in worker threads, then inline for comparison), the list with 100,000
// invoices.
let invoices: Awaited<ReturnType<typeof invoicesBenchmark>> | undefined;
let invoicesInline: Awaited<ReturnType<typeof invoicesBenchmark>> | undefined;
if (!ONLY || ONLY.some((part) => 'invoices'.includes(part))) {
  const inlineToo = !process.env.BENCH_INVOICE_PARTS || process.env.BENCH_INVOICE_PARTS.includes('pdf');
  for (const inline of inlineToo ? [false, true] : [false]) {
    const invoiceServer = await startServer(inline ? { PDF_RENDER_THREADS: '0' } : {});
    const seller = await credentials(invoiceServer);
    const result = await invoicesBenchmark({
      api: invoiceServer.api,
      baselineUrl: invoiceServer.baseline,
      paymentBaselineUrl: invoiceServer.baseline.replace('/select1', '/two-inserts'),
      databaseUrl: db.url,
      token: seller.token,
      durationSeconds: DURATION,
      measure: (name, options) => measure(name, options, true),
      profiled: (label, work) => profiled(label, work, 'invoices'),
      ...(inline ? { parts: ['pdf' as const], label: '[inline]' } : {}),
      // e.g. BENCH_INVOICE_PARTS=list to measure one part while working on it.
      ...(!inline && process.env.BENCH_INVOICE_PARTS
        ? { parts: process.env.BENCH_INVOICE_PARTS.split(',') as Array<'create' | 'pdf' | 'list'> }
        : {}),
    }).finally(() => stopServer(invoiceServer));
    if (inline) invoicesInline = result;
    else invoices = result;
  }
}

// Run 10: opening a payment link's page (a session created for it, then the checkout page) against the checkout page.
let links: Awaited<ReturnType<typeof linksBenchmark>> | undefined;
if (!ONLY || ONLY.some((part) => 'links'.includes(part))) {
  const linkServer = await startServer({ CHECKOUT_RATE_LIMIT_PER_MINUTE: '100000000' });
  const seller = await credentials(linkServer);
  links = await linksBenchmark({ api: linkServer.api, token: seller.token, durationSeconds: DURATION }).finally(() =>
    stopServer(linkServer),
  );
}

// Run 11: the partner portfolio API's merchant list with 100,000 merchants, page_size 200.
let partner: Awaited<ReturnType<typeof partnerBenchmark>> | undefined;
if (!ONLY || ONLY.some((part) => 'partner'.includes(part))) {
  // The bench principals are not throttled: the limiter still runs on every request, with limits it will not reach.
  const partnerServer = await startServer({
    PARTNER_RATE_LIMIT_PER_MINUTE: '100000000',
    PARTNER_RATE_LIMIT_BURST_PER_10S: '100000000',
  });
  partner = await partnerBenchmark({
    api: partnerServer.api,
    baselineUrl: partnerServer.baseline,
    databaseUrl: db.url,
    adminToken: ADMIN_TOKEN,
    durationSeconds: DURATION,
  }).finally(() => stopServer(partnerServer));
}

// Run 12: the dashboard's home page and transactions list for a merchant with 1,000,000 transactions this month.
// Retention: a month of delivery logs dropped from one table (DELETE, VACUUM) and from month partitions (DROP); and
// what a million payments add to the database, kept and dropped after a retention.
let retention: Awaited<ReturnType<typeof retentionBenchmark>> | undefined;
let growth: Awaited<ReturnType<typeof paymentGrowth>> | undefined;
if (!ONLY || ONLY.some((part) => 'retention'.includes(part))) {
  retention = await retentionBenchmark(db.url);
  console.log(
    `  retention: ${retention.rowsPerMonth.toLocaleString('en-US')} delivery log rows a month; a month dropped by DELETE ${retention.deleteMonthMs} ms (+ VACUUM ${retention.vacuumAfterDeleteMs} ms), by DROP of its partition ${retention.dropMonthMs} ms`,
  );
  const { receiver, receiverPort } = await startReceiver();
  const growthServer = await startServer({
    WORKERS: '1',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    DUPLICATE_CHECK_MINUTES: '0',
  });
  try {
    const payer = await credentials(growthServer);
    await subscribeCaptures(growthServer, payer.token, 'growth', receiverPort);
    growth = await paymentGrowth({ api: growthServer.api, token: payer.token, databaseUrl: db.url, payments: 10_000 });
    const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
    console.log(
      `  growth per million payments (sale, webhook delivered and logged, request logged; ${growth.payments.toLocaleString('en-US')} made): kept ${mib(growth.keptPerMillion)}, dropped after a retention ${mib(growth.droppedPerMillion)}`,
    );
    for (const row of growth.perMillion.filter((r) => r.bytes >= 1048576)) {
      console.log(`    ${row.table.padEnd(28)} ${mib(row.bytes).padStart(9)}  ${row.retention ?? 'kept'}`);
    }
  } finally {
    await stopServer(growthServer);
    receiver.kill('SIGTERM');
  }
}

let dashboard: Awaited<ReturnType<typeof dashboardBenchmark>> | undefined;
if (!ONLY || ONLY.some((part) => 'dashboard'.includes(part))) {
  const dashboardServer = await startServer({ DASHBOARD_SIGN_IN_PER_MINUTE: '1000' });
  dashboard = await dashboardBenchmark({
    api: dashboardServer.api,
    baselineUrl: dashboardServer.baseline,
    databaseUrl: db.url,
    adminToken: ADMIN_TOKEN,
    durationSeconds: DURATION,
    dashboardUser: (merchantId) =>
      new Promise((resolve) => {
        const answer = (message: unknown) => {
          const user = (message as { dashboardUser?: { email: string; password: string; totpSecret: string } })
            .dashboardUser;
          if (!user) return;
          dashboardServer.process.off('message', answer);
          resolve(user);
        };
        dashboardServer.process.on('message', answer);
        dashboardServer.process.send({ dashboardUser: merchantId });
      }),
  }).finally(() => stopServer(dashboardServer));
}

const summary = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  connections: CONNECTIONS,
  durationSeconds: DURATION,
  baseline,
  baselineAgain,
  authenticatedGet: authenticatedGet && { ...authenticatedGet, throughputRatio: ratio(authenticatedGet, baseline) },
  tokenIssuance: tokenIssuance && { ...tokenIssuance, throughputRatio: ratio(tokenIssuance, baseline) },
  authenticatedGetCacheOff: uncachedGet && { ...uncachedGet, throughputRatio: ratio(uncachedGet, uncachedBaseline) },
  uncachedBaseline,
  paymentBaseline,
  paymentBaselineAgain,
  rawSale: rawSale && { ...rawSale, throughputRatio: ratio(rawSale, paymentBaseline) },
  vaultedSale: vaultedSale && { ...vaultedSale, throughputRatio: ratio(vaultedSale, paymentBaseline) },
  v2Sale: v2Sale && {
    ...v2Sale,
    throughputRatio: ratio(v2Sale, paymentBaseline),
    ratioToV1Sale: ratio(v2Sale, rawSale),
  },
  v2VaultedSale: v2VaultedSale && { ...v2VaultedSale, throughputRatio: ratio(v2VaultedSale, paymentBaseline) },
  adyenSale: adyenSale && { ...adyenSale, ratioToSandboxSale: ratio(adyenSale, rawSale) },
  wal: { note: walNote, segmentsCreatedDuringSales: walSegmentsCreatedDuringSales },
  webhookDelivery,
  sessions,
  nacha,
  billing,
  pos,
  eventStreams,
  invoices,
  invoicesInline,
  links,
  partner,
  dashboard,
  exports: memoryChecks,
};
const board = score({
  baseline,
  baselineAgain,
  authenticatedGet,
  tokenIssuance,
  uncachedBaseline,
  uncachedGet,
  paymentBaseline,
  paymentBaselineAgain,
  adyenSale,
  rawSale,
  sales: [
    { name: 'raw-card sale (v1)', figure: rawSale },
    { name: 'vaulted-card sale (v1)', figure: vaultedSale },
    { name: 'raw-card sale (v2)', figure: v2Sale },
    { name: 'vaulted-card sale (v2)', figure: v2VaultedSale },
  ],
  webhookDelivery,
  sessions,
  nacha,
  billing,
  pos,
  eventStreams,
  invoices,
  links,
  partner,
  dashboard,
  retention,
  growth,
  exports: memoryChecks,
});
board.print();
console.log(
  `\n  ${walNote}; WAL segments created during the sales: ${walSegmentsCreatedDuringSales ?? 'not measured'}`,
);
// The last run's figures, also when BENCH_ONLY selected a few (then `only` says which).
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, 'bench/results/latest.json'),
  `${JSON.stringify({ ...summary, only: ONLY ?? null, machine: machine(), summary: board.rows }, null, 2)}\n`,
);
await db.stop();
// BENCH_KEEP_DATA=1 keeps the run's database directory (its postgres.log, e.g. with auto_explain through PGOPTIONS).
if (process.env.BENCH_KEEP_DATA === '1') console.log(`  data kept in ${dataDir}`);
else rmSync(dataDir, { recursive: true, force: true });
if (board.misses.length > 0) {
  console.error(
    `\n${board.misses.length} figure(s) miss their target: ${board.misses.map((row) => row.figure).join('; ')}`,
  );
  process.exitCode = 1;
}
