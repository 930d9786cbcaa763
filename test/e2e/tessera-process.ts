// Real `tessera` processes for end-to-end tests: `src/main.ts` through tsx, or the bundle `npm start` runs
// (`bin/tessera.js`), which starts in a fraction of the time: the cluster test starts dozens of them.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ADMIN_TOKEN, ENCRYPTION_KEY, eventually } from '../harness.js';

const MAIN = path.resolve('src/main.ts');
const BIN = path.resolve('bin/tessera.js');

export interface Proc {
  child: ChildProcess;
  /** stdout and stderr interleaved */
  output: string[];
  stdout: string[];
  baseUrl: string;
  exited: Promise<number | null>;
}

/**
 * `from`: this checkout's sources (through tsx), its bundle, or another build's `bin/tessera.js` (the rolling upgrade
 * runs the previous commit's). `input`: what the process reads on standard input (none: stdin is closed).
 */
export function tessera(
  args: string[],
  env: Record<string, string>,
  from: 'source' | 'bundle' | { bin: string } = 'source',
  input?: string,
): Proc {
  const entry = typeof from === 'object' ? [from.bin] : from === 'bundle' ? [BIN] : ['--import', 'tsx', MAIN];
  const child = spawn(process.execPath, [...entry, ...args], {
    env: { ...process.env, ADMIN_TOKEN, ENCRYPTION_KEY, LOG_LEVEL: 'info', ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  const output: string[] = [];
  const stdout: string[] = [];
  child.stdout!.on('data', (d) => {
    output.push(d.toString());
    stdout.push(d.toString());
  });
  child.stderr!.on('data', (d) => output.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, stdout, baseUrl: env.PORT ? `http://127.0.0.1:${env.PORT}` : '', exited };
}

/**
 * How long a process may take to start: through tsx, an embedded PostgreSQL's first initdb and every migration, on a
 * CI machine running two test files at once, a start has taken over 30 s. What a test measures is never the start.
 */
export const START_TIMEOUT_MS = 90_000;

export async function waitForLog(proc: Proc, text: string, timeoutMs: number): Promise<void> {
  await eventually(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`process exited early:\n${proc.output.join('')}`);
      return proc.output.join('').includes(text);
    },
    timeoutMs,
    50,
  );
}

/** A JSON request that must succeed (2xx); answers the parsed body. */
export async function callOk(url: string, options: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(url, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  assert.ok(res.status < 300, `${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A merchant created through the operator API, with an API key and an access token from the token endpoint. */
export async function merchantWithToken(base: string, companyName: string) {
  const admin = { token: ADMIN_TOKEN };
  const merchant = await callOk(`${base}/admin/v1/merchants`, { method: 'POST', ...admin, body: { companyName } });
  const key = await callOk(`${base}/admin/v1/api-keys`, {
    method: 'POST',
    ...admin,
    body: { merchantId: merchant.id },
  });
  return { merchant, token: await accessToken(base, key), key: key as { clientId: string; clientSecret: string } };
}

/** An access token for an API key from the node's token endpoint (client credentials). */
export async function accessToken(base: string, key: { clientId: string; clientSecret: string }): Promise<string> {
  const response = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: key.clientId,
      client_secret: key.clientSecret,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
