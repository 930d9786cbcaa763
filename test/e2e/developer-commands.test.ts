// The developer commands against a running server, as a developer runs them: `tessera login` saves a profile,
// `tessera listen` forwards the merchant's events to a loopback receiver signed like webhook deliveries (verified with
// the standardwebhooks package) and loses nothing across a server restart, `tessera logs tail` shows a request made
// just before.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createTestDatabase, eventually, freePort, type TestDatabase } from '../harness.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';
import { callOk, merchantWithToken, type Proc, START_TIMEOUT_MS, tessera, waitForLog } from './tessera-process.js';

const SECRET = 'b'.repeat(64);

describe('developer commands: login, listen, logs tail', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  let port: number;
  let server: Proc | undefined;
  let other: Proc | undefined;
  let listen: Proc | undefined;
  let key: { clientId: string; clientSecret: string };
  let token: string;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-listen-'));
  const env = () => ({ DATABASE_URL: db.url, WORKERS: '0', SANDBOX_DEMO_DATA: 'false', DATA_DIR: dataDir });

  async function serve(onPort: number): Promise<Proc> {
    // One public address for both nodes: a token from one is good on the other.
    const proc = tessera(['serve'], { ...env(), PORT: String(onPort), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await waitForLog(proc, 'tessera listening', START_TIMEOUT_MS);
    return proc;
  }
  const stop = async (proc: Proc | undefined) => {
    if (proc && proc.child.exitCode === null) proc.child.kill('SIGTERM');
    await proc?.exited;
  };
  async function sale(base: string, referenceId: string) {
    return callOk(`${base}/pay-api/v1/transactions/sale`, {
      method: 'POST',
      token,
      body: {
        amount: 12.34,
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
        referenceId,
      },
    });
  }
  const forwarded = () =>
    receiver.hits.map((hit) => JSON.parse(hit.body) as { id: string; type: string; data: { object: { id: string } } });

  before(async () => {
    db = await createTestDatabase();
    receiver = await startReceiver();
    port = await freePort();
    server = await serve(port);
    const base = `http://127.0.0.1:${port}`;
    ({ key, token } = await merchantWithToken(base, 'L'));
  });
  after(async () => {
    await stop(listen);
    await stop(other);
    await stop(server);
    await receiver?.close();
    await db?.drop();
  });

  const configDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-config-'));
  /** `tessera login`, the secret typed into standard input as a pipe; its exit code and output. */
  async function loginAs(clientId: string, secret: string) {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.resolve('src/main.ts'),
        'login',
        '--base-url',
        `http://127.0.0.1:${port}/`,
        '--client-id',
        clientId,
        '--profile',
        'dev',
        '--json',
      ],
      { env: { ...process.env, TESSERA_CONFIG_DIR: configDir, TESSERA_CLIENT_SECRET: '' }, stdio: 'pipe' },
    );
    child.stdin.end(`${secret}\n`);
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, output };
  }

  it('logs in: checks the key, saves the profile readable by its owner only; a wrong secret saves nothing', async () => {
    const file = path.join(configDir, 'profiles.json');
    const wrong = await loginAs(key.clientId, 'not-the-secret');
    assert.equal(wrong.code, 1, wrong.output);
    assert.match(wrong.output, /check the client id and secret/);
    assert.throws(() => statSync(file));
    const ok = await loginAs(key.clientId, key.clientSecret);
    assert.equal(ok.code, 0, ok.output);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(saved.dev, {
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
    });
  });

  it('forwards each event signed like a webhook delivery, and misses none across a server restart', async () => {
    const base = `http://127.0.0.1:${port}`;
    // The profile saved by login is all it needs.
    listen = tessera(
      ['listen', '--profile', 'dev', '--forward-to', `${receiver.url}/hooks`, '--print-json', '--secret', SECRET],
      { TESSERA_CONFIG_DIR: configDir, TESSERA_CLIENT_ID: '', TESSERA_CLIENT_SECRET: '' },
    );
    await waitForLog(listen, '"connected":true', START_TIMEOUT_MS);

    // Before any event, the server goes away; meanwhile another node on the same database takes two payments. The
    // stream told listen where it started, so they arrive once the server is back.
    await stop(server);
    server = undefined;
    await waitForLog(listen, '"reconnecting":true', 15_000);
    const otherPort = await freePort();
    other = await serve(otherPort);
    const during = [
      await sale(`http://127.0.0.1:${otherPort}`, 'listen-1'),
      await sale(`http://127.0.0.1:${otherPort}`, 'listen-2'),
    ];
    server = await serve(port);
    await eventually(
      async () => during.every((t) => forwarded().some((event) => event.data.object.id === t.transactionId)),
      30_000,
    );

    // And what happens from then on, as it happens.
    const next = await sale(base, 'listen-3');
    await eventually(async () => forwarded().some((event) => event.data.object.id === next.transactionId), 15_000);
    const verifier = new Webhook(SECRET, { format: 'raw' });
    for (const hit of receiver.hits) {
      const verified = verifier.verify(hit.body, hit.headers as Record<string, string>) as { id: string };
      assert.equal(verified.id, hit.headers['webhook-id']);
      assert.ok(hit.headers['service-webhook-signature'], 'the branded headers too');
    }
    // One line per event, with the local answer's status and time.
    await waitForLog(listen, '"status":200', 5000);
    assert.match(listen.stdout.join(''), /"type":"transaction\.card\.[a-z]+","status":200,"ms":\d+/);
    const ids = forwarded().map((event) => event.id);
    assert.equal(new Set(ids).size, ids.length, 'no event was forwarded twice');
  });

  it('logs tail shows a request made just before, from the saved profile', async () => {
    const base = `http://127.0.0.1:${port}`;
    const res = await fetch(`${base}/pay-api/v1/customers`, {
      headers: { authorization: `Bearer ${token}`, 'x-correlation-id': 'just-before' },
    });
    assert.equal(res.status, 200);
    await eventually(async () => {
      const page = await callOk(`${base}/pay-api/v1/request-logs`, { token });
      return page.items.some((item: { correlationId: string }) => item.correlationId === 'just-before');
    }, 10_000);
    const tail = tessera(['logs', 'tail', '--profile', 'dev', '--no-follow', '--json'], {
      TESSERA_CONFIG_DIR: configDir,
      TESSERA_CLIENT_ID: '',
      TESSERA_CLIENT_SECRET: '',
    });
    assert.equal(await tail.exited, 0, tail.output.join(''));
    const lines = tail.stdout
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const line = lines.find((entry) => entry.correlationId === 'just-before');
    assert.deepEqual(
      { method: line?.method, path: line?.path, status: line?.status },
      { method: 'GET', path: '/pay-api/v1/customers', status: 200 },
    );
  });
});
