// The event-stream figures of `npm run bench`: what idle streams cost. 2,000 `GET /pay-api/v1/events/stream` held
// open by one node (200 merchants with 10 streams each, the default cap), nothing happening. Measured without them and
// then with them: over 5 s of quiet, the node's CPU (cores) and PostgreSQL's transactions per second
// (pg_stat_database); over the next 5 s, another tenant's GET latency from a process of its own
// (bench/probe-client.ts). The figure is that tenant's p99 with the streams over its p99 without.

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Agent, type Dispatcher, request } from 'undici';

export interface EventStreamBenchOptions {
  api: string;
  databaseUrl: string;
  adminToken: string;
  /** The server process's CPU time so far (process.cpuUsage(), microseconds). */
  cpu(): Promise<{ user: number; system: number }>;
}

// BENCH_EVENT_STREAM_MERCHANTS changes the count for exploring (docs/performance.md).
const MERCHANTS = Number(process.env.BENCH_EVENT_STREAM_MERCHANTS ?? 200);
const PER_MERCHANT = 10;
const WINDOW_MS = 5000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

export async function eventStreamBenchmark(o: EventStreamBenchOptions) {
  const agent = new Agent({ connections: MERCHANTS * PER_MERCHANT + 50, pipelining: 1, bodyTimeout: 0 });
  const call = async (method: 'GET' | 'POST', path: string, token: string, body?: unknown) => {
    const response = await request(`${o.api}${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
    return JSON.parse(text);
  };
  const tokenOf = async (companyName: string) => {
    const merchant = await call('POST', '/admin/v1/merchants', o.adminToken, { companyName });
    const key = await call('POST', '/admin/v1/api-keys', o.adminToken, { merchantId: merchant.id });
    const response = await request(`${o.api}/oauth2/token`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: key.clientId,
        client_secret: key.clientSecret,
      }).toString(),
    });
    return ((await response.body.json()) as { access_token: string }).access_token;
  };

  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  const transactions = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
        )
      ).rows[0]!.n,
    );

  // What the node and PostgreSQL spend while nothing happens: the node's cores, PostgreSQL's transactions per second.
  // (pg_stat_database counts a backend's transactions when it reports them, at most once a second.)
  const idle = async () => {
    // What came before (making merchants, opening streams) reaches the statistics within a second or so.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const cpuBefore = await o.cpu();
    const xactBefore = await transactions();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const cpuAfter = await o.cpu();
    const xactAfter = await transactions();
    const seconds = (performance.now() - started) / 1000;
    return {
      nodeCores: round((cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1e6 / seconds, 3),
      postgresTransactionsPerSecond: Math.round((xactAfter - xactBefore) / seconds),
    };
  };
  // Another tenant's GETs (8 clients one after the other, in a process of their own) over a window.
  const probe = async (otherToken: string) => {
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
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    child.send('stop');
    const latencies = await result;
    return {
      requests: latencies.length,
      p50Ms: round(percentile(latencies, 0.5)),
      p99Ms: round(percentile(latencies, 0.99)),
    };
  };
  const window = async (otherToken: string) => ({ ...(await idle()), other: await probe(otherToken) });

  try {
    const otherToken = await tokenOf('Bench stream bystander');
    const tokens: string[] = [];
    for (let n = 0; n < MERCHANTS; n += 20) {
      tokens.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, MERCHANTS - n) }, (_, i) => tokenOf(`Bench stream ${n + i}`)),
        )),
      );
    }

    const without = await window(otherToken);

    // Every stream open and started (its first block read) before the window.
    const open: Dispatcher.ResponseData[] = [];
    const openOne = async (token: string) => {
      const response = await request(`${o.api}/pay-api/v1/events/stream`, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      });
      if (response.statusCode !== 200) {
        throw new Error(`stream: ${response.statusCode} ${await response.body.text()}`);
      }
      const first = await new Promise<string>((resolve, reject) => {
        response.body.once('data', (chunk: Buffer) => resolve(chunk.toString()));
        response.body.once('error', reject);
      });
      if (!first.includes('id: ')) throw new Error(`stream started without its position: ${first}`);
      response.body.resume(); // keep-alive comments are read and dropped
      open.push(response);
    };
    for (let n = 0; n < tokens.length; n += 20) {
      await Promise.all(
        tokens.slice(n, n + 20).flatMap((token) => Array.from({ length: PER_MERCHANT }, () => openOne(token))),
      );
    }
    const withStreams = await window(otherToken);
    for (const response of open) response.body.destroy();

    return {
      streams: open.length,
      merchants: MERCHANTS,
      without,
      withStreams,
      p99Ratio: round(withStreams.other.p99Ms / without.other.p99Ms),
      nodeCoresForStreams: round(withStreams.nodeCores - without.nodeCores, 3),
      postgresTransactionsPerSecondForStreams:
        withStreams.postgresTransactionsPerSecond - without.postgresTransactionsPerSecond,
    };
  } finally {
    await db.end();
    await agent.close();
  }
}
