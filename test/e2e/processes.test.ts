// Real `tessera` processes, as an operator runs them: several `serve` and a `worker` on one PostgreSQL, and the
// embedded default with the admin CLI beside it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { totpCode } from '../../src/modules/dashboard/accounts/totp.js';
import { dictionary } from '../../src/platform/dictionary.js';
import { ADMIN_TOKEN, createTestDatabase, eventually, freePort, type TestDatabase } from '../harness.js';
import { type Proc, START_TIMEOUT_MS, tessera, waitForLog } from './tessera-process.js';

async function serve(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const proc = tessera(['serve'], {
    PORT: String(port),
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
    ...env,
  });
  await waitForLog(proc, 'tessera listening', START_TIMEOUT_MS);
  return proc;
}

async function stop(proc: Proc): Promise<number | null> {
  if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
  return proc.exited;
}

async function json(url: string, options: { method?: string; token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = dictionary();
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function accessToken(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as any).access_token;
}

describe('several processes on one database', () => {
  let db: TestDatabase;
  const procs: Proc[] = [];
  after(async () => {
    for (const p of procs) await stop(p);
    await db?.drop();
  });

  it('start together on an empty database, migrating once', async () => {
    db = await createTestDatabase({ empty: true });
    const env = { DATABASE_URL: db.url, WORKERS: '0', SANDBOX_DEMO_DATA: 'false' };
    procs.push(...(await Promise.all([serve(env), serve(env)])));
    const client = await json(`${procs[0]!.baseUrl}/readyz`);
    assert.equal(client.status, 200);
    const applied = procs.map((p) => p.output.join('').includes('migrations applied'));
    assert.equal(applied.filter(Boolean).length, 1, 'exactly one node applied the migrations');
  });

  it('create a missing DATA_DIR for the demo credentials when PostgreSQL is external', async () => {
    const own = await createTestDatabase();
    try {
      const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')), 'not', 'yet');
      const proc = await serve({ DATABASE_URL: own.url, DATA_DIR: dataDir, WORKERS: '0' });
      assert.equal(await stop(proc), 0);
      const file = path.join(dataDir, 'sandbox-credentials.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.ok(JSON.parse(readFileSync(file, 'utf8')).merchant.clientSecret);
    } finally {
      await own.drop();
    }
  });

  it('refuse a deleted key on the other node within one second', async () => {
    const [a, b] = procs as [Proc, Proc];
    const admin = { token: ADMIN_TOKEN };
    const merchant = (
      await json(`${a.baseUrl}/admin/v1/merchants`, { method: 'POST', ...admin, body: { companyName: 'Two Nodes' } })
    ).body;
    const key = (
      await json(`${a.baseUrl}/admin/v1/api-keys`, { method: 'POST', ...admin, body: { merchantId: merchant.id } })
    ).body;
    const token = await accessToken(b.baseUrl, key.clientId, key.clientSecret);
    const config = `${b.baseUrl}/pay-api/v1/configurations/payments`;
    assert.equal((await json(config, { token })).status, 200);
    // Its replacement first: a merchant keeps at least one active key.
    await json(`${a.baseUrl}/admin/v1/api-keys`, { method: 'POST', ...admin, body: { merchantId: merchant.id } });

    const deletedAt = Date.now();
    assert.equal(
      (await json(`${a.baseUrl}/admin/v1/api-keys/${key.clientId}`, { method: 'DELETE', ...admin })).status,
      200,
    );
    let refusedAfter: number | undefined;
    while (Date.now() - deletedAt <= 1000) {
      if ((await json(config, { token })).status === 401) {
        refusedAfter = Date.now() - deletedAt;
        break;
      }
    }
    assert.ok(refusedAfter !== undefined, 'node b still accepted the token a second after deletion on node a');
  });

  it('share the clock and hand jobs to a separate worker process', async () => {
    const [a, b] = procs as [Proc, Proc];
    const worker = tessera(['worker'], {
      DATABASE_URL: db.url,
      WORKERS: '2',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
    });
    procs.push(worker);
    await waitForLog(worker, 'tessera worker running', START_TIMEOUT_MS);
    const advanced = await json(`${a.baseUrl}/admin/v1/clock/advance`, {
      method: 'POST',
      token: ADMIN_TOKEN,
      body: { seconds: 700 },
    });
    // Node b learns the new offset through LISTEN/NOTIFY: within moments, not necessarily by its next request (a
    // loaded machine delays the notification).
    const started = Date.now();
    let gapMs = Number.POSITIVE_INFINITY;
    await eventually(
      async () => {
        const seenByB = await json(`${b.baseUrl}/admin/v1/clock`, { token: ADMIN_TOKEN });
        gapMs = Math.abs(Date.parse(seenByB.body.now) - Date.parse(advanced.body.now) - (Date.now() - started));
        return gapMs < 1000;
      },
      5000,
      50,
    ).catch(() => assert.fail(`node b's clock is ${gapMs} ms away from node a's`));
    // The 10-minute maintenance schedule became due; only the worker process runs jobs.
    await waitForLog(worker, 'maintenance sweep', 5000);
    assert.ok(!a.output.join('').includes('maintenance sweep'));
  });

  it('shut down gracefully on SIGTERM', async () => {
    for (const proc of procs.splice(0)) {
      assert.equal(await stop(proc), 0, proc.output.join('').slice(-2000));
      assert.match(proc.output.join(''), /"msg":"stopped"/);
    }
  });
});

describe('the embedded default', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-embedded-'));
  let server: Proc | undefined;
  after(async () => {
    if (server) await stop(server);
  });

  it('initialises PostgreSQL in DATA_DIR, creates demo credentials, and serves them', async () => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_TOKEN: '', ENCRYPTION_KEY: '' };
    server = await serve(env);
    const out = server.output.join('');
    assert.match(out, /client secret/);
    const file = path.join(dataDir, 'sandbox-credentials.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const credentials = JSON.parse(readFileSync(file, 'utf8'));
    assert.ok(credentials.adminToken && credentials.partner.clientSecret && credentials.merchant.clientSecret);
    assert.ok(out.includes(credentials.merchant.clientSecret), 'the merchant secret is printed once');
    assert.ok(!out.includes(credentials.partner.clientSecret), 'the partner secret is only in the file');
    const token = await accessToken(server.baseUrl, credentials.merchant.clientId, credentials.merchant.clientSecret);
    const config = await json(`${server.baseUrl}/pay-api/v1/configurations/payments`, { token });
    assert.equal(config.status, 200);
    assert.equal(config.body.companyName, 'Demo Merchant');
    const merchants = await json(`${server.baseUrl}/pay-api/v1/merchants`, {
      token: await accessToken(server.baseUrl, credentials.partner.clientId, credentials.partner.clientSecret),
    });
    assert.equal(merchants.body.items[0].merchantId, credentials.merchant.id);

    // The dashboard's demo owner and the operator: printed (the owner) and in the file, and they sign in.
    for (const key of ['dashboard', 'operatorDashboard'] as const) {
      const d = credentials[key];
      assert.deepEqual(Object.keys(d).sort(), ['email', 'password', 'totpSecret', 'url'], key);
      assert.equal(d.url, `${server.baseUrl}/dashboard`);
      const signIn = await fetch(`${server.baseUrl}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: d.email, password: d.password, code: totpCode(d.totpSecret) }),
      });
      assert.equal(signIn.status, 303, `${key}: ${await signIn.text()}`);
    }
    assert.ok(out.includes(credentials.dashboard.password) && out.includes(credentials.dashboard.totpSecret));
  });

  it('lets the admin CLI work beside the running server (JSON output)', async () => {
    const cli = tessera(['admin', 'partners', 'create', '--name', 'CLI Partner'], {
      DATA_DIR: dataDir,
      ADMIN_TOKEN: '',
      ENCRYPTION_KEY: '',
    });
    assert.equal(await cli.exited, 0, cli.output.join(''));
    const partner = JSON.parse(cli.stdout.join(''));
    assert.equal(partner.name, 'CLI Partner');
    const credentials = JSON.parse(readFileSync(path.join(dataDir, 'sandbox-credentials.json'), 'utf8'));
    const read = await json(`${server!.baseUrl}/admin/v1/partners/${partner.id}`, { token: credentials.adminToken });
    assert.equal(read.body.name, 'CLI Partner');
    const bad = tessera(['admin', 'merchants', 'create', '--json', '{"companyName":"X","mccCode":"1"}'], {
      DATA_DIR: dataDir,
      ADMIN_TOKEN: '',
      ENCRYPTION_KEY: '',
    });
    assert.equal(await bad.exited, 1);
    assert.match(JSON.parse(bad.stdout.join('')).errors.mccCode[0], /format/);

    // A processor's credentials go in on standard input (`--json -`): never on the command line, never shown.
    const merchant = tessera(['admin', 'merchants', 'create', '--company-name', 'CLI Merchant'], {
      DATA_DIR: dataDir,
      ADMIN_TOKEN: '',
      ENCRYPTION_KEY: '',
    });
    assert.equal(await merchant.exited, 0, merchant.output.join(''));
    const merchantId = JSON.parse(merchant.stdout.join('')).id as string;
    const secret = 'cli-api-key-never-shown-0042';
    const processor = tessera(
      ['admin', 'processors', 'create', merchantId, '--json', '-'],
      { DATA_DIR: dataDir, ADMIN_TOKEN: '', ENCRYPTION_KEY: '' },
      'source',
      JSON.stringify({
        name: 'Adyen',
        typeId: 1,
        connector: 'adyen',
        settings: { merchantAccount: 'CliShop', baseUrl: 'https://checkout-test.adyen.com' },
        credentials: {
          apiKey: secret,
          hmacKey: 'C'.repeat(64),
          notificationUsername: 'cli',
          notificationPassword: 'cli-notification-password',
        },
      }),
    );
    assert.equal(await processor.exited, 0, processor.output.join(''));
    assert.ok(!processor.output.join('').includes(secret));
    assert.deepEqual(JSON.parse(processor.stdout.join('')).credentials.apiKey, {
      isSet: true,
      version: 1,
      lastFour: '0042',
    });
  });

  it('reaches the partner API with a principal and an identity token made by the admin CLI', async () => {
    // The CLI mints with its own PUBLIC_BASE_URL (the issuer and audience): the server's environment, as documented.
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN: '', ENCRYPTION_KEY: '', PORT: new URL(server!.baseUrl).port };
    const run = async (args: string[]) => {
      const cli = tessera(['admin', ...args], env);
      assert.equal(await cli.exited, 0, cli.output.join(''));
      return JSON.parse(cli.stdout.join(''));
    };
    const principal = await run([
      'partner-principals',
      'create',
      '--json',
      '{"subject":"cli-reporting","system":true}',
    ]);
    const minted = await run(['identity-token', 'mint', '--principal', principal.id, '--ttl-seconds', '600']);
    const credentials = JSON.parse(readFileSync(path.join(dataDir, 'sandbox-credentials.json'), 'utf8'));
    const recorded = await run([
      'merchants',
      'record-compliance',
      credentials.merchant.id,
      '--json',
      '{"status":"compliant","saq":{"type":"A","dueDate":"2027-10-01"}}',
    ]);
    assert.equal(recorded.current, true);
    const me = await json(`${server!.baseUrl}/api/partner/me`, { token: minted.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.principal_id, principal.id);
    const merchant = await json(`${server!.baseUrl}/api/partner/merchants/${credentials.merchant.id}`, {
      token: minted.token,
    });
    assert.equal(merchant.body.data.dba_name, 'Demo Merchant');
    assert.deepEqual(merchant.body.data.pci_compliance.saq_due_date, '2027-10-01');
  });

  it('stops PostgreSQL with the server and reuses the data on the next start', async () => {
    assert.equal(await stop(server!), 0);
    assert.throws(() => statSync(path.join(dataDir, 'pg', 'postmaster.pid')), 'PostgreSQL stopped cleanly');
    server = await serve({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_TOKEN: '', ENCRYPTION_KEY: '' });
    assert.ok(!server.output.join('').includes('client secret'), 'demo data is created only once');
    assert.ok(!server.output.join('').includes('initialising'), 'the cluster is reused');
    const credentials = JSON.parse(readFileSync(path.join(dataDir, 'sandbox-credentials.json'), 'utf8'));
    const token = await accessToken(server.baseUrl, credentials.merchant.clientId, credentials.merchant.clientSecret);
    assert.equal((await json(`${server.baseUrl}/pay-api/v1/configurations/payments`, { token })).status, 200);
  });
});
