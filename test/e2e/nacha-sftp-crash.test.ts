// A `tessera worker` SIGKILLed at each step of delivering an ACH file to a bank's SFTP server (OpenSSH on
// loopback), one step after another on the same file, and a last worker left to finish: the server ends with
// exactly one final file, whole, and never a temporary one the bank could take or a second copy.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { ADMIN_TOKEN, createTestDatabase, eventually, freePort, type TestDatabase } from '../harness.js';
import { nachaSftpSettings } from '../sftp-bank.js';
import { type SftpServer, startSftpServer } from '../sftp-server.js';
import { callOk, merchantWithToken, START_TIMEOUT_MS, tessera, waitForLog } from './tessera-process.js';

/** The steps, in the order delivery reaches them (src/modules/payments/ach/exchange/deliver.ts). */
const STEPS = ['before-upload', 'during-upload', 'after-upload', 'before-rename', 'after-rename'] as const;

describe('ACH file delivery survives a worker killed at every step', () => {
  let db: TestDatabase;
  let server: SftpServer;
  let pool: pg.Pool | undefined;
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await pool?.end();
    await server?.stop();
    await db?.drop();
  });

  it('SIGKILL before, during and after the upload and the rename: one final file, whole', async () => {
    db = await createTestDatabase();
    server = await startSftpServer();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const common = { DATABASE_URL: db.url, SANDBOX_DEMO_DATA: 'false', ACH_INBOUND_SETTLE_MS: '20' };
    const port = await freePort();
    const serve = tessera(['serve'], {
      ...common,
      PORT: String(port),
      WORKERS: '0',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
    });
    children.push(serve.child);
    await waitForLog(serve, 'tessera listening', START_TIMEOUT_MS);
    const base = `http://127.0.0.1:${port}`;
    const admin = { token: ADMIN_TOKEN };
    const advanceTo = async (instant: Date) => {
      const now = new Date((await callOk(`${base}/admin/v1/clock`, admin)).now);
      const seconds = Math.ceil((instant.getTime() - now.getTime()) / 1000);
      if (seconds > 0) await callOk(`${base}/admin/v1/clock/advance`, { method: 'POST', ...admin, body: { seconds } });
    };
    // A Monday next year (not a holiday): 08:00, then the 17:00 window.
    const year = new Date().getUTCFullYear() + 1;
    const firstMonday = 1 + ((8 - new Date(Date.UTC(year, 2, 1)).getUTCDay()) % 7);
    await advanceTo(zonedInstant(year, 3, firstMonday + 7, 8, 0, 'America/New_York'));
    // Tokens are issued on business time: after the clock moved.
    const { merchant, token } = await merchantWithToken(base, 'Crash Test Co');
    await callOk(`${base}/admin/v1/merchants/${merchant.id}/processors`, {
      method: 'POST',
      ...admin,
      body: {
        name: 'Bank SFTP',
        typeId: 2,
        connector: 'nacha-sftp',
        isDefault: true,
        settings: nachaSftpSettings(server),
        credentials: { privateKey: server.privateKey },
      },
    });
    for (const [accountNumber, amount] of [
      ['123456789', 10],
      ['223456789', 20],
      ['323456789', 30],
    ] as const) {
      await callOk(`${base}/pay-api/v1/transactions/ach/payment`, {
        method: 'POST',
        token,
        body: {
          amount,
          secCode: 1,
          requesterIPaddress: '203.0.113.7',
          accountNumber,
          routingNumber: '021000021',
          accountHolderType: 2,
          ...ACH_PAYER,
        },
      });
    }
    await advanceTo(zonedInstant(year, 3, firstMonday + 7, 17, 0, 'America/New_York'));

    const outbound = path.join(server.root, 'outbound');
    const names = () => readdirSync(outbound).sort();
    const finals = () => names().filter((n) => !n.startsWith('.'));
    const state = async () =>
      (
        await pool!.query<{ state: string; size_bytes: string; sha256: string; remote_name: string }>(
          `SELECT state, size_bytes, sha256, remote_name FROM ach_bank_files WHERE direction = 'outbound'`,
        )
      ).rows[0];
    const worker = (crashAt?: string) => {
      const proc = tessera(['worker'], {
        ...common,
        ...(crashAt ? { TESSERA_CRASH_AT: `ach-deliver:${crashAt}` } : {}),
      });
      children.push(proc.child);
      return proc;
    };

    for (const step of STEPS) {
      const proc = worker(step);
      await eventually(
        async () => proc.child.exitCode !== null || proc.child.signalCode !== null,
        START_TIMEOUT_MS,
        50,
      );
      assert.equal(proc.child.signalCode, 'SIGKILL', `the worker died at ${step}:\n${proc.output.join('')}`);
      const row = (await state())!;
      assert.ok(row, 'the file was built before anything was sent');
      assert.ok(finals().length <= 1, `at most one final file after ${step}: ${names()}`);
      const temp = names().find((n) => n.startsWith('.'));
      if (step === 'before-upload') {
        assert.equal(row.state, 'uploading');
        assert.deepEqual(names(), []);
      } else if (step === 'during-upload') {
        assert.ok(temp, 'a partial temporary file is left');
        assert.ok(statSync(path.join(outbound, temp)).size < Number(row.size_bytes));
        assert.deepEqual(finals(), [], 'the bank never sees a partial file under a final name');
      } else if (step === 'after-upload') {
        assert.equal(row.state, 'uploading');
        assert.equal(statSync(path.join(outbound, temp!)).size, Number(row.size_bytes));
        assert.deepEqual(finals(), []);
      } else if (step === 'before-rename') {
        assert.equal(row.state, 'uploaded');
        assert.ok(temp);
        assert.deepEqual(finals(), []);
      } else {
        assert.equal(row.state, 'uploaded', 'renamed, but the worker died before recording it');
        assert.deepEqual(names(), [row.remote_name]);
      }
    }

    const last = worker();
    await waitForLog(last, 'tessera worker running', START_TIMEOUT_MS);
    await eventually(async () => (await state())?.state === 'sent', 30_000);
    const row = (await state())!;
    assert.deepEqual(names(), [row.remote_name], 'exactly one file, under its final name, and no temporary one');
    const content = readFileSync(path.join(outbound, row.remote_name));
    assert.equal(createHash('sha256').update(content).digest('hex'), row.sha256, 'the file is whole');
    const { rows } = await pool.query<{ status_id: number }>(`SELECT status_id FROM transactions WHERE method = 'ach'`);
    assert.deepEqual(
      rows.map((r) => r.status_id),
      [24, 24, 24],
    );
    last.child.kill('SIGTERM');
    await last.exited;
    serve.child.kill('SIGTERM');
    await serve.exited;
  });
});
