// The first operator user of a deployment, made with `tessera dashboard create-operator` (production has no demo
// users): it prints a password and a TOTP secret once, and they sign in to the running server's dashboard.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { totpCode } from '../../src/modules/dashboard/accounts/totp.js';
import { createTestDatabase, freePort, type TestDatabase } from '../harness.js';
import { START_TIMEOUT_MS, tessera, waitForLog } from './tessera-process.js';

describe('tessera dashboard create-operator', () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await db?.drop();
  });

  it('creates an operator who signs in with the printed password and TOTP secret', async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, SANDBOX_DEMO_DATA: 'false' };
    const cli = tessera(['dashboard', 'create-operator', '--email', 'ops@example.com', '--name', 'Ops'], env);
    children.push(cli.child);
    assert.equal(await cli.exited, 0, cli.output.join(''));
    const printed = JSON.parse(cli.stdout.join('')) as {
      email: string;
      password: string;
      totpSecret: string;
      totpUri: string;
    };
    assert.equal(printed.email, 'ops@example.com');
    assert.match(printed.totpUri, /^otpauth:\/\/totp\//);

    const again = tessera(['dashboard', 'create-operator', '--email', 'OPS@example.com'], env);
    children.push(again.child);
    assert.notEqual(await again.exited, 0, 'the same e-mail twice is refused');

    const port = await freePort();
    const serve = tessera(['serve'], {
      ...env,
      PORT: String(port),
      WORKERS: '0',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
    });
    children.push(serve.child);
    await waitForLog(serve, 'tessera listening', START_TIMEOUT_MS);
    const base = `http://127.0.0.1:${port}`;
    const res = await fetch(`${base}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: printed.email,
        password: printed.password,
        code: totpCode(printed.totpSecret),
      }),
    });
    assert.equal(res.status, 303, await res.text());
    const cookie = /tessera_dashboard=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
    assert.ok(cookie);
    const console = await fetch(`${base}/dashboard`, { headers: { cookie } });
    assert.equal(console.status, 200);
    assert.match(await console.text(), /Operator console/);
    serve.child.kill('SIGTERM');
    await serve.exited;
  });
});
