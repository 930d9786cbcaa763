// Capacity (run by `npm run bench`, `BENCH_ONLY=scale`; or alone: `node --import tsx bench/cluster-scale.ts`): how
// raw-card sale throughput grows with `serve` nodes (1, 2, 3) on one PostgreSQL on this machine, what each request
// costs in CPU in the server processes and in PostgreSQL, and how many statements and transactions one sale makes
// (pg_stat_statements, pg_stat_database). docs/performance.md, "Capacity model", turns these into a projection.
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { createPool } from '../src/platform/db/pool.js';
import { Cluster } from '../test/cluster/cluster.js';
import { ADMIN_TOKEN } from '../test/harness.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;
const TICKS_PER_SECOND = 100; // Linux USER_HZ: /proc/<pid>/stat counts CPU time in these

export interface ScaleFigure {
  serveNodes: number;
  requestsPerSecond: number;
  p99Ms: number;
  serverCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number;
  statementsPerSale: number;
  transactionsPerSale: number;
}

/** CPU time (ms) these processes have used so far (from /proc: user plus system). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // exited meanwhile
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** A process and all its children now (PostgreSQL: the postmaster and one backend per connection). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // exited meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

async function json(url: string, init: RequestInit & { token?: string } = {}) {
  const res = await fetch(url, {
    ...init,
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

export async function measureScale(nodes: number, logDir: string): Promise<ScaleFigure> {
  const cluster = await Cluster.start({
    serve: nodes,
    workers: 1,
    logDir,
    env: { SANDBOX_CARD_LATENCY_MS: '0', RATE_LIMIT_PER_MINUTE: '100000000', RATE_LIMIT_BURST_PER_10S: '100000000' },
    postgresSettings: { shared_preload_libraries: 'pg_stat_statements' },
  });
  const pool = createPool(cluster.databaseUrl, 2, 'bench-scale');
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const base = cluster.liveServeUrls()[0]!.url;
    const merchant = await json(`${base}/admin/v1/merchants`, {
      method: 'POST',
      token: ADMIN_TOKEN,
      body: JSON.stringify({ companyName: 'Scale' }),
    });
    const key = await json(`${base}/admin/v1/api-keys`, {
      method: 'POST',
      token: ADMIN_TOKEN,
      body: JSON.stringify({ merchantId: merchant.id }),
    });
    const tokenResponse = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: key.clientId,
        client_secret: key.clientSecret,
      }),
    });
    const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
    let seq = 0;
    const sale = (url: string, connections: number, duration: number) =>
      autocannon({
        url,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            path: '/pay-api/v1/transactions/sale',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                amount: 12.34,
                accountNumber: '4111111111111111',
                expirationMonth: 12,
                expirationYear: 2035,
                securityCode: '123',
                referenceId: `scale-${++seq}`,
              }),
            }),
          },
        ],
      });
    const urls = cluster.liveServeUrls().map((n) => n.url);
    const share = (i: number) => Math.floor(CONNECTIONS / urls.length) + (i < CONNECTIONS % urls.length ? 1 : 0);
    // Warm every node up (JIT, pools, caches), then measure them all at once.
    await Promise.all(urls.map((url, i) => sale(url, share(i), 2)));
    await pool.query('SELECT pg_stat_statements_reset()');
    const before = (
      await pool.query<{ xacts: number }>('SELECT sum(xact_commit)::bigint AS xacts FROM pg_stat_database')
    ).rows[0]!.xacts;
    const pids = cluster.nodes.filter((n) => n.kind === 'serve').map((n) => n.proc!.child.pid!);
    const postgres = processTree(cluster.postgresPid!);
    const cpu0 = { server: cpuMs(pids), postgres: cpuMs(postgres) };
    const results = await Promise.all(urls.map((url, i) => sale(url, share(i), DURATION)));
    // Backends started during the run count too; one that ended meanwhile is lost (the pools keep theirs open).
    const cpu1 = { server: cpuMs(pids), postgres: cpuMs(processTree(cluster.postgresPid!)) };
    const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    if (failed > 0) throw new Error(`${nodes} nodes: ${failed} failed sales`);
    const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
    const after = (
      await pool.query<{ xacts: number }>('SELECT sum(xact_commit)::bigint AS xacts FROM pg_stat_database')
    ).rows[0]!.xacts;
    const statements = (
      await pool.query<{ calls: number }>(
        `SELECT coalesce(sum(calls), 0)::bigint AS calls FROM pg_stat_statements
         WHERE query !~* 'pg_stat_statements|pg_stat_database|pg_locks|tessera_node_alive'`,
      )
    ).rows[0]!.calls;
    const figure: ScaleFigure = {
      serveNodes: nodes,
      requestsPerSecond: Math.round(requests / DURATION),
      p99Ms: Math.max(...results.map((r) => r.latency.p99)),
      serverCpuMsPerRequest: Number(((cpu1.server - cpu0.server) / requests).toFixed(2)),
      postgresCpuMsPerRequest: Number(((cpu1.postgres - cpu0.postgres) / requests).toFixed(2)),
      statementsPerSale: Number((statements / requests).toFixed(2)),
      transactionsPerSale: Number(((after - before) / requests).toFixed(2)),
    };
    console.log(
      `  ${`${nodes} serve node${nodes > 1 ? 's' : ''}, raw-card sales`.padEnd(52)} ${String(figure.requestsPerSecond).padStart(7)} req/s  p99 ${figure.p99Ms} ms  CPU/req server ${figure.serverCpuMsPerRequest} ms, PostgreSQL ${figure.postgresCpuMsPerRequest} ms  ${figure.statementsPerSale} statements, ${figure.transactionsPerSale} commits/sale`,
    );
    return figure;
  } finally {
    await pool.end();
    await cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdtempSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-scale-'));
  const figures: ScaleFigure[] = [];
  for (const nodes of [1, 2, 3]) figures.push(await measureScale(nodes, path.join(logDir, String(nodes))));
  console.log(JSON.stringify(figures, null, 2));
}
