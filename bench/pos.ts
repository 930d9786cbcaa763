// The POS figures of `npm run bench`:
// 1. Long-polls: 2,000 `GET /pos-api/v1/pos-transactions/{id}?waitForTransactionProcessing=true` held at once by one
//    node (each transaction accepted by its terminal and waiting for a card). Memory per waiter is the server's live
//    heap (after a full collection) with the 2,000 held, less before, over 2,000. Each transaction is then ended
//    (cancelled, 32 at a time) and the time from its move (the row's modified_at) to its long-poll's answer is
//    recorded: p50 and p99, against the p99 of a plain GET of one POS transaction measured in the same run.
// 2. POS sales end to end through real terminal-channel clients (the simulator, TerminalSimulator, one per
//    terminal over its own WebSocket): present the card on the terminal, create the sale, wait for it to complete;
//    sales per second against the API's raw-card sale measured in the same run.

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Agent, request } from 'undici';
import { PosStatus } from '../src/modules/pos/pos.model.js';
import { POS_CHANNEL } from '../src/modules/pos/pos.repo.js';
import { TerminalSimulator } from '../src/modules/terminals/simulator/terminal-simulator.js';
import { cpuMsPer } from './cpu.js';

interface Figure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface PosBenchOptions {
  api: string;
  databaseUrl: string;
  adminToken: string;
  /** The server process's memory after a full collection, and the long-polls it holds. */
  memory(): Promise<{ heapUsed: number; rss: number; waiting: number }>;
  measure(name: string, options: Record<string, unknown>): Promise<Figure>;
  durationSeconds: number;
  /** BENCH_PG_STATEMENTS: the statements the POS sales ran, per sale. */
  profiled?<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** CPU milliseconds per sale by process, over the measured sales. */
  cpuOf?<T>(work: () => Promise<T>): Promise<{ result: T; cpu: Record<string, number> }>;
}

// The issue's figures; BENCH_POS_WAITERS and BENCH_POS_LANES change them for exploring (docs/performance.md).
const WAITERS = Number(process.env.BENCH_POS_WAITERS ?? 2000);
const LANES = Number(process.env.BENCH_POS_LANES ?? 16);
const COMPLETERS = Number(process.env.BENCH_POS_COMPLETERS ?? 8);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export async function posBenchmark(o: PosBenchOptions) {
  const agent = new Agent({ connections: WAITERS + 100, pipelining: 1, headersTimeout: 300_000, bodyTimeout: 300_000 });
  const call = async (method: 'GET' | 'POST', path: string, token: string, body?: unknown) => {
    const response = await request(`${o.api}${path}`, {
      method,
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const inBatches = async <T>(items: T[], size: number, work: (item: T) => Promise<void>) => {
    for (let n = 0; n < items.length; n += size) await Promise.all(items.slice(n, n + size).map(work));
  };

  const merchant = await call('POST', '/admin/v1/merchants', o.adminToken, { companyName: 'Bench POS' });
  const key = await call('POST', '/admin/v1/api-keys', o.adminToken, { merchantId: merchant.id });
  const tokenResponse = await request(`${o.api}/oauth2/token`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: key.clientId,
      client_secret: key.clientSecret,
    }).toString(),
  });
  const token = ((await tokenResponse.body.json()) as { access_token: string }).access_token;
  const register = async (n: number, prefix: string) =>
    (await call('POST', `/admin/v1/merchants/${merchant.id}/terminals`, o.adminToken, {
      serialNumber: `${prefix}-${n}`,
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      terminalModeId: 2,
    })) as { id: string; serialNumber: string; terminalSecret: string };

  // 1. Long-polls.
  const terminals: string[] = [];
  await inBatches([...Array(WAITERS).keys()], 32, async (n) => {
    terminals.push((await register(n, 'LP')).id);
  });
  const pending: string[] = [];
  await inBatches(terminals, 32, async (terminalId) => {
    const created = await call('POST', '/pos-api/v1/pos-transactions', token, {
      terminalId,
      amount: 1,
      waitForAcceptanceByTerminal: true,
    });
    pending.push(created.posTransactionId);
  });
  const plainGet = await o.measure('GET /pos-api/v1/pos-transactions/{id}, the long-poll reference', {
    url: o.api,
    requests: [
      {
        method: 'GET',
        path: `/pos-api/v1/pos-transactions/${pending[0]}`,
        headers: { authorization: `Bearer ${token}` },
      },
    ],
  });
  const before = await o.memory();
  const answeredAt = new Map<string, number>();
  const polls = pending.map(async (id) => {
    const response = await request(`${o.api}/pos-api/v1/pos-transactions/${id}?waitForTransactionProcessing=true`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}` },
    });
    // Answered: the response has arrived (its body is read after the clock is read).
    answeredAt.set(id, Date.now());
    const found = (await response.body.json()) as { isCompleted: boolean };
    if (response.statusCode !== 200 || !found.isCompleted)
      throw new Error(`long-poll ${id} answered before completion`);
  });
  const deadline = Date.now() + 60_000;
  let held = await o.memory();
  while (held.waiting < WAITERS) {
    if (Date.now() > deadline) throw new Error(`only ${held.waiting} long-polls held`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    held = await o.memory();
  }
  const perWaiterKiB = Math.round(((held.heapUsed - before.heapUsed) / WAITERS / 1024) * 10) / 10;
  // Completions arrive as a busy shop's would, spread out (COMPLETERS at a time), not as one burst that saturates the
  // server: the figure is the wake-up path with 2,000 held, not a queue behind a flood of cancels.
  await inBatches(pending, COMPLETERS, async (id) => {
    await call('POST', `/pos-api/v1/pos-transactions/${id}/cancel`, token);
  });
  await Promise.all(polls);
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ id: string; moved: Date }>(
    'SELECT id, modified_at AS moved FROM pos_transactions WHERE id = ANY($1::uuid[])',
    [pending],
  );
  await db.end();
  const release = rows.map((r) => answeredAt.get(r.id)! - r.moved.getTime()).sort((a, b) => a - b);
  const longPoll = {
    waiters: WAITERS,
    heapPerWaiterKiB: perWaiterKiB,
    heapWithWaitersMiB: Math.round((held.heapUsed / 2 ** 20) * 10) / 10,
    releaseP50Ms: percentile(release, 0.5),
    releaseP99Ms: percentile(release, 0.99),
    referenceP99Ms: plainGet.p99Ms,
    p99Ratio: Math.round((percentile(release, 0.99) / Math.max(1, plainGet.p99Ms)) * 100) / 100,
  };
  console.log(
    `  ${`${WAITERS} long-polls held: live heap per waiter`.padEnd(52)} ${longPoll.heapPerWaiterKiB} KiB (heap ${longPoll.heapWithWaitersMiB} MiB)`,
  );
  console.log(
    `  ${'long-poll released after the move, p50 / p99'.padEnd(52)} ${longPoll.releaseP50Ms} / ${longPoll.releaseP99Ms} ms (plain GET p99 ${plainGet.p99Ms} ms: ${longPoll.p99Ratio})`,
  );

  // 1b. All of them released at once (one statement moves the 2,000, as a sweep or a burst of cards would), while
  //     another tenant reads: its p99 during the release over its own p99 just before.
  const burst = await burstRelease();

  // 2. POS sales through simulators on the terminal channel.
  const laneTerminals = await Promise.all([...Array(LANES).keys()].map((n) => register(n, 'SIM')));
  const simulators = laneTerminals.map(
    (t) => new TerminalSimulator({ baseUrl: o.api, serialNumber: t.serialNumber, secret: t.terminalSecret }),
  );
  for (const simulator of simulators) simulator.start();
  const connected = Date.now() + 30_000;
  while (simulators.some((s) => s.terminalId === undefined)) {
    if (Date.now() > connected) throw new Error('simulators did not connect');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const sale = async (terminalId: string) => {
    await call('POST', `/admin/v1/sandbox/terminals/${terminalId}/actions`, o.adminToken, {
      action: 'present-card',
      pan: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
      readingMethod: 'tap',
    });
    const created = await call('POST', '/pos-api/v1/pos-transactions', token, { terminalId, amount: 4.2 });
    const done = await call(
      'GET',
      `/pos-api/v1/pos-transactions/${created.posTransactionId}?waitForTransactionProcessing=true`,
      token,
    );
    if (done.posTransactionStatus !== 'Completed') throw new Error(`POS sale ended ${done.posTransactionStatus}`);
  };
  const latencies: number[] = [];
  const lane = async (terminalId: string, until: number) => {
    while (Date.now() < until) {
      const started = Date.now();
      await sale(terminalId);
      latencies.push(Date.now() - started);
    }
  };
  await Promise.all(laneTerminals.map((t) => lane(t.id, Date.now() + 2000))); // warm-up
  latencies.length = 0;
  const started = Date.now();
  const profiled = o.profiled ?? ((_label, work) => work());
  const cpuOf = o.cpuOf ?? (async (work) => ({ result: await work(), cpu: {} }));
  const { cpu } = await cpuOf(() =>
    profiled('POS sales through simulated terminals', () =>
      Promise.all(laneTerminals.map((t) => lane(t.id, started + o.durationSeconds * 1000))),
    ),
  );
  const seconds = (Date.now() - started) / 1000;
  for (const simulator of simulators) simulator.stop();
  await agent.close();
  latencies.sort((a, b) => a - b);
  const sales = {
    lanes: LANES,
    salesPerSecond: Math.round(latencies.length / seconds),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    cpuMsPerSale: cpuMsPer(cpu, latencies.length),
  };
  console.log(
    `  ${`POS sales through ${LANES} simulated terminals`.padEnd(52)} ${String(sales.salesPerSecond).padStart(7)} sales/s  p50 ${sales.p50Ms} ms  p99 ${sales.p99Ms} ms  CPU ms/sale ${JSON.stringify(sales.cpuMsPerSale)}`,
  );
  return { longPoll, burst, sales };

  async function burstRelease() {
    const otherMerchant = await call('POST', '/admin/v1/merchants', o.adminToken, {
      companyName: 'Bench other tenant',
    });
    const otherKey = await call('POST', '/admin/v1/api-keys', o.adminToken, { merchantId: otherMerchant.id });
    const otherToken = (
      (await (
        await request(`${o.api}/oauth2/token`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: otherKey.clientId,
            client_secret: otherKey.clientSecret,
          }).toString(),
        })
      ).body.json()) as { access_token: string }
    ).access_token;
    // The other tenant: 8 clients, each a GET of its customers after the other, in a process of their own.
    const probe = async (during: () => Promise<void>): Promise<number[]> => {
      const child = fork(
        fileURLToPath(new URL('./probe-client.ts', import.meta.url)),
        [`${o.api}/pay-api/v1/customers`, otherToken],
        { execArgv: ['--import', 'tsx'] },
      );
      const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
      const result = new Promise<number[]>((resolve, reject) => {
        child.on('message', (message) => {
          if (Array.isArray(message)) resolve((message as number[]).sort((a, b) => a - b));
        });
        child.once('exit', (code) => reject(new Error(`probe exited ${code}`)));
      });
      await ready;
      await during();
      child.send('stop');
      return result;
    };
    const second: string[] = [];
    await inBatches(terminals, 32, async (terminalId) => {
      const created = await call('POST', '/pos-api/v1/pos-transactions', token, {
        terminalId,
        amount: 1,
        waitForAcceptanceByTerminal: true,
      });
      second.push(created.posTransactionId);
    });
    const baseline = await probe(() => new Promise((resolve) => setTimeout(resolve, 3000)));
    const answered: number[] = [];
    const held = second.map(async (id) => {
      const response = await request(`${o.api}/pos-api/v1/pos-transactions/${id}?waitForTransactionProcessing=true`, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${token}` },
      });
      answered.push(Date.now());
      await response.body.text();
    });
    const deadline = Date.now() + 60_000;
    let holding = await o.memory();
    while (holding.waiting < WAITERS) {
      if (Date.now() > deadline) throw new Error(`only ${holding.waiting} long-polls held`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      holding = await o.memory();
    }
    let releasedInMs = 0;
    const latencies = await probe(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300)); // the probe runs on its own first
      const db = new pg.Client({ connectionString: o.databaseUrl });
      await db.connect();
      const moved = Date.now();
      await db.query(
        `WITH moved AS (
         UPDATE pos_transactions SET status_id = ${PosStatus.CancelByPos}, modified_at = now(), completed_at = now()
         WHERE id = ANY($1::uuid[]) RETURNING *
       )
       SELECT pg_notify('${POS_CHANNEL}', to_jsonb(moved)::text) FROM moved`,
        [second],
      );
      await db.end();
      await Promise.all(held);
      releasedInMs = Math.max(...answered) - moved;
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    const figure = {
      waiters: WAITERS,
      releasedInMs,
      otherTenantBaselineP99Ms: Math.round(percentile(baseline, 0.99) * 10) / 10,
      otherTenantDuringP99Ms: Math.round(percentile(latencies, 0.99) * 10) / 10,
      otherTenantDuringMaxMs: Math.round((latencies.at(-1) ?? 0) * 10) / 10,
      p99Ratio: Math.round((percentile(latencies, 0.99) / Math.max(0.1, percentile(baseline, 0.99))) * 100) / 100,
    };
    console.log(`  ${`${WAITERS} long-polls released at once, in`.padEnd(52)} ${figure.releasedInMs} ms`);
    console.log(
      `  ${"another tenant's GET p99 during it / before".padEnd(52)} ${figure.otherTenantDuringP99Ms} / ${figure.otherTenantBaselineP99Ms} ms: ${figure.p99Ratio} (max ${figure.otherTenantDuringMaxMs} ms)`,
    );
    return figure;
  }
}
