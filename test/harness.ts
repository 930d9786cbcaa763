// The shared test harness: a fresh database per test file (cloned from the migrated template), a node built exactly
// as `tessera serve` builds it, captured logs, and one-line helpers for "a merchant with a key and a token".
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { type Config, loadConfig } from '../src/config.js';
import { createNode, type Node } from '../src/node.js';
import { createClient } from '../src/platform/db/pool.js';
import { freePort } from '../src/platform/net.js';

export { freePort };

import type { App } from '../src/platform/http/server.js';
import { createLogger } from '../src/platform/observability/logger.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TESSERA_TEST_ADMIN_URL;
  if (!url) throw new Error('Run the tests with `npm test` (it provides the PostgreSQL they need).');
  return url;
}

/** A database cloned from the migrated template, or an empty one (to watch migrations run). */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `tessera_t_${process.env.TESSERA_TEST_RUN}_${randomBytes(5).toString('hex')}`;
  const client = createClient(adminUrl(), 'tessera-tests');
  await client.connect();
  try {
    await client.query(
      options.empty
        ? `CREATE DATABASE ${name}`
        : `CREATE DATABASE ${name} TEMPLATE ${process.env.TESSERA_TEST_TEMPLATE}`,
    );
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = createClient(adminUrl(), 'tessera-tests');
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig(
    {
      TESSERA_ENV: 'sandbox',
      ADMIN_TOKEN,
      ENCRYPTION_KEY,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-test-data-')),
      PORT: '0',
      WORKERS: '0',
      LOG_LEVEL: 'info',
      DB_POOL_SIZE: '10',
      ...env,
    },
    process.cwd(),
  );
}

export interface HttpResult<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw payload (string) instead of JSON. */
  payload?: string;
}

export interface Tenant {
  id: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

export interface MerchantTenant extends Tenant {
  partnerId: string | null;
}

export class TestNode {
  constructor(
    readonly node: Node,
    readonly config: Config,
    readonly database: TestDatabase,
    readonly logs: string[],
    private readonly ownsDatabase: boolean,
  ) {}

  get app(): App {
    return this.node.app;
  }

  get ctx() {
    return this.node.ctx;
  }

  /** An HTTP request through Fastify's injector: the full pipeline, without a socket. */
  async request<T = any>(method: string, url: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | undefined = options.payload;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    let body: unknown;
    try {
      body = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      body = response.body;
    }
    return { status: response.statusCode, headers: response.headers, body: body as T, text: response.body };
  }

  /** A request as the tenant (its current token), with a JSON body and, on a POST, an idempotency key (fresh, or `key`). */
  call<T = any>(
    tenant: { token: string },
    method: string,
    url: string,
    body?: unknown,
    key: string = randomUUID(),
  ): Promise<HttpResult<T>> {
    return this.request<T>(method, url, {
      token: tenant.token,
      headers: method === 'POST' ? { 'idempotency-key': key } : {},
      ...(body === undefined ? {} : { body }),
    });
  }

  /** `call`, expecting 200 (the assertion names the route and shows the answer); answers the body. */
  async ok<T = any>(tenant: { token: string }, method: string, url: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(tenant, method, url, body);
    assert.equal(res.status, 200, `${method} ${url}: ${res.text}`);
    return res.body;
  }

  admin<T = any>(method: string, url: string, body?: unknown): Promise<HttpResult<T>> {
    return this.request<T>(method, url, { token: ADMIN_TOKEN, ...(body !== undefined ? { body } : {}) });
  }

  /** A raw form post to the token endpoint, whatever it answers. */
  tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.request('POST', '/oauth2/token', {
      payload: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /** A client-credentials token (the response body); throws unless the endpoint answers 200. */
  async token(clientId: string, clientSecret: string, extra: Record<string, string> = {}): Promise<any> {
    const response = await this.tokenRequest({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      ...extra,
    });
    if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${response.text}`);
    return response.body;
  }

  /**
   * Moves the business clock forward by `seconds`, then gives each tenant a fresh token (tokens expire on the
   * business clock).
   */
  async advanceClock(seconds: number, ...tenants: Tenant[]): Promise<void> {
    if (seconds > 0) await this.expectOk(this.admin('POST', '/admin/v1/clock/advance', { seconds }));
    for (const tenant of tenants) tenant.token = (await this.token(tenant.clientId, tenant.clientSecret)).access_token;
  }

  /** Moves the business clock forward to `instant` (never back), then re-tokens the tenants. */
  async advanceClockTo(instant: Date, ...tenants: Tenant[]): Promise<void> {
    const now = new Date((await this.expectOk(this.admin('GET', '/admin/v1/clock'))).now);
    await this.advanceClock(Math.ceil((instant.getTime() - now.getTime()) / 1000), ...tenants);
  }

  async partner(name = `Partner ${randomBytes(3).toString('hex')}`): Promise<Tenant> {
    const partner = await this.expectOk(this.admin('POST', '/admin/v1/partners', { name }));
    const key = await this.expectOk(this.admin('POST', '/admin/v1/api-keys', { partnerId: partner.id }));
    const token = await this.token(key.clientId, key.clientSecret);
    return { id: partner.id, clientId: key.clientId, clientSecret: key.clientSecret, token: token.access_token };
  }

  /** A merchant (standalone unless a partner id is given) with an API key and a fresh access token. */
  async merchant(options: { partnerId?: string; body?: Record<string, unknown> } = {}): Promise<MerchantTenant> {
    const merchant = await this.expectOk(
      this.admin('POST', '/admin/v1/merchants', {
        companyName: `Merchant ${randomBytes(3).toString('hex')}`,
        ...(options.partnerId ? { partnerId: options.partnerId } : {}),
        ...(options.body ?? {}),
      }),
    );
    const key = await this.expectOk(this.admin('POST', '/admin/v1/api-keys', { merchantId: merchant.id }));
    const token = await this.token(key.clientId, key.clientSecret);
    return {
      id: merchant.id,
      partnerId: merchant.partnerId,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
      token: token.access_token,
    };
  }

  async expectOk<T = any>(pending: Promise<HttpResult<T>>): Promise<T> {
    const result = await pending;
    if (result.status !== 200) throw new Error(`expected 200, got ${result.status}: ${result.text}`);
    return result.body;
  }

  /** Runs every job and webhook delivery due now (and what they make due) in this process, until none is left. */
  drain(): Promise<void> {
    return this.node.drain();
  }

  async query<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, values: unknown[] = []) {
    return (await this.ctx.pool.query<R>(sql, values)).rows;
  }

  async stop(): Promise<void> {
    await this.node.stop();
    if (this.ownsDatabase) await this.database.drop();
  }
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Share another node's database (scale-out tests). */
  database?: TestDatabase;
  configure?: (app: App) => void;
  listen?: boolean;
  workers?: boolean;
}

/** A node on its own fresh database (or a shared one), built like `tessera serve`. */
export async function startNode(options: StartOptions = {}): Promise<TestNode & { baseUrl: string }> {
  const database = options.database ?? (await createTestDatabase());
  const env: Record<string, string> = { ...(options.env ?? {}) };
  if (options.listen) {
    const port = await freePort();
    env.PORT = String(port);
    env.PUBLIC_BASE_URL ??= `http://127.0.0.1:${port}`;
  }
  if (options.workers) env.WORKERS ??= '2';
  const config = testConfig(env);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const logger = createLogger(config.logLevel, stream);
  const node = await createNode(config, { logger, databaseUrl: database.url, app: { configure: options.configure } });
  const test = new TestNode(node, config, database, logs, options.database === undefined) as TestNode & {
    baseUrl: string;
  };
  test.baseUrl = '';
  if (options.workers) await node.startWorkers();
  if (options.listen) test.baseUrl = (await node.listen()).replace('localhost', '127.0.0.1');
  return test;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value (or true), failing after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 5000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/**
 * Moves the business clock to the start of the next minute and waits until every node sees it, so that fixed
 * rate-limit windows (10 s, 60 s) cannot roll over in the middle of a test that counts them.
 */
export async function startOfFreshMinute(...nodes: TestNode[]): Promise<void> {
  const clockOf = async (node: TestNode) => Date.parse((await node.expectOk(node.admin('GET', '/admin/v1/clock'))).now);
  const first = nodes[0]!;
  await first.advanceClockTo(new Date(Math.ceil(((await clockOf(first)) + 1) / 60_000) * 60_000));
  const target = await clockOf(first);
  for (const node of nodes.slice(1)) await eventually(async () => (await clockOf(node)) >= target);
}
