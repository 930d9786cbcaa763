// Point-in-time recovery of the embedded PostgreSQL, end to end through the CLI a operator runs: a node takes card
// sales from four clients; `tessera backup` runs in the middle of them; more sales; an instant is read from the
// database's own clock between two acknowledged sales; more sales; then `tessera restore --to <instant>` into a new
// DATA_DIR. On the restored data every sale acknowledged before the instant is there, none sent after it, the ledger
// verifies, and a node started on it answers the lost sales' idempotent retries as new sales.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import {
  accessToken,
  merchantWithToken,
  type Proc,
  START_TIMEOUT_MS,
  tessera,
  waitForLog,
} from '../e2e/tessera-process.js';
import { eventually, freePort } from '../harness.js';

const CLIENTS = 4;
/** The embedded default with its default folders, whatever the calling shell sets. */
const defaults = { DATABASE_URL: '', DATABASE_DIRECT_URL: '', WAL_ARCHIVE_DIR: '', BACKUP_DIR: '' };
const PER_PHASE = 24;

interface Sale {
  key: string;
  amount: number;
  /** Sent after the instant was read: must be missing after the restore. */
  sentAfterInstant: boolean;
  /** Answered before the instant was read: must be there after the restore. */
  ackedBeforeInstant: boolean;
  transactionId?: string;
}

async function finished(proc: Proc): Promise<{ code: number | null; json: any }> {
  const code = await proc.exited;
  const stdout = proc.stdout.join('');
  assert.equal(code, 0, proc.output.join(''));
  return { code, json: JSON.parse(stdout) };
}

function sell(base: string, bearer: string, sale: Sale) {
  return fetch(`${base}/pay-api/v1/transactions/sale`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': sale.key },
    body: JSON.stringify({
      amount: sale.amount / 100,
      accountNumber: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
      securityCode: '123',
      billingAddress: { line1: '1 Recovery Way', postalCode: '10001' },
    }),
  });
}

/** The embedded database a running node started in DATA_DIR (its port from the pid file, its password file). */
function embeddedUrl(dataDir: string): string {
  const port = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')
    .split('\n')[3]!
    .trim();
  const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/tessera`;
}

describe('backup and point-in-time recovery of the embedded PostgreSQL', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-recovery-'));
  // PostgreSQL runs as its own user when the tests run as root: it must get through to the DATA_DIRs inside.
  chmodSync(dir, 0o711);
  const running: Proc[] = [];
  after(async () => {
    for (const proc of running) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
    }
    // TESSERA_KEEP_RECOVERY_DIR=1 keeps the DATA_DIRs and their postgres.log for a look after a failure.
    if (!process.env.TESSERA_KEEP_RECOVERY_DIR) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  });

  it('restores to an instant between two acknowledged sales: those before are there, those after answer as new', async (t) => {
    const source = path.join(dir, 'node');
    const restored = path.join(dir, 'restored');
    const port = await freePort();
    const nodeEnv = {
      ...defaults,
      DATA_DIR: source,
      PORT: String(port),
      SANDBOX_DEMO_DATA: 'false',
      WORKERS: '1',
      // The clients send as fast as the node answers; the limits are not what this test is about.
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_BURST_PER_10S: '1000000',
    };
    const node = tessera(['serve'], nodeEnv);
    running.push(node);
    await waitForLog(node, 'tessera listening', START_TIMEOUT_MS);
    const base = `http://127.0.0.1:${port}`;
    const { key, token: bearer } = await merchantWithToken(base, 'Recovery test');

    const sales: Sale[] = [];
    let instantRead = false;
    let instantTaken = false;
    let stop = false;
    let acked = 0;
    const client = async () => {
      while (!stop) {
        const sale: Sale = {
          key: `recovery-${randomUUID()}`,
          amount: 100 + sales.length,
          sentAfterInstant: instantTaken,
          ackedBeforeInstant: false,
        };
        sales.push(sale);
        const res = await sell(base, bearer, sale);
        const body = (await res.json()) as { transactionId?: string };
        assert.equal(res.status, 200, JSON.stringify(body));
        sale.transactionId = body.transactionId;
        sale.ackedBeforeInstant = !instantRead;
        acked += 1;
      }
    };
    let failure: unknown;
    const clients = Array.from({ length: CLIENTS }, () =>
      client().catch((error: unknown) => {
        failure ??= error;
        stop = true;
      }),
    );
    const progressed = (done: () => boolean) =>
      eventually(
        async () => {
          if (failure) throw failure;
          return done();
        },
        60_000,
        5,
      );
    const ackedAtLeast = (n: number) => progressed(() => acked >= n);

    await ackedAtLeast(PER_PHASE);
    const backup = tessera(['backup'], { ...defaults, DATA_DIR: source });
    running.push(backup);
    const taken = (await finished(backup)).json;
    assert.ok(taken.label && taken.finishedAt, JSON.stringify(taken));
    await ackedAtLeast(acked + PER_PHASE);

    const db = new pg.Client({ connectionString: embeddedUrl(source) });
    await db.connect();
    instantRead = true;
    const { rows } = await db.query<{ at: string }>(
      `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at`,
    );
    const instant = rows[0]!.at;
    instantTaken = true;
    await eventually(
      async () => sales.filter((s) => s.sentAfterInstant && s.transactionId).length >= PER_PHASE,
      60_000,
      5,
    );
    stop = true;
    await Promise.all(clients);
    // What a restore replays must be in the archive: close the current segment and wait until it is archived.
    const switched = await db.query<{ file: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS file');
    await eventually(async () => {
      const archived = await db.query<{ last: string | null }>(
        'SELECT last_archived_wal AS last FROM pg_stat_archiver',
      );
      return (archived.rows[0]!.last ?? '') >= switched.rows[0]!.file;
    }, 30_000);
    await db.end();
    node.child.kill('SIGTERM');
    assert.equal(await node.exited, 0);

    const before = sales.filter((s) => s.ackedBeforeInstant);
    const lost = sales.filter((s) => s.sentAfterInstant);
    assert.ok(
      before.length >= 2 * PER_PHASE && lost.length >= PER_PHASE,
      `${before.length} before, ${lost.length} after`,
    );

    const restore = tessera(['restore', '--to', instant, '--target', restored], { ...defaults, DATA_DIR: source });
    running.push(restore);
    const report = (await finished(restore)).json;
    t.diagnostic(
      `${sales.length} sales: ${before.length} acknowledged before ${instant}, ${lost.length} sent after; backup ${taken.label} of ${taken.files} files (${Math.round(taken.bytes / 1048576)} MiB); ${report.stopped}`,
    );
    assert.equal(report.backup, taken.label);
    assert.match(report.stopped, /recovery stopping before commit/);

    const verify = tessera(['ledger', 'verify'], { ...defaults, DATA_DIR: restored });
    running.push(verify);
    assert.equal((await finished(verify)).json.ok, true);

    const restoredPort = await freePort();
    const again = tessera(['serve'], { ...nodeEnv, DATA_DIR: restored, PORT: String(restoredPort) });
    running.push(again);
    await waitForLog(again, 'tessera listening', START_TIMEOUT_MS);
    const restoredBase = `http://127.0.0.1:${restoredPort}`;
    const restoredBearer = await accessToken(restoredBase, key);
    const read = (id: string) =>
      fetch(`${restoredBase}/pay-api/v1/transactions/${id}`, {
        headers: { authorization: `Bearer ${restoredBearer}` },
      });
    for (const sale of before) {
      const res = await read(sale.transactionId!);
      assert.equal(res.status, 200, `sale ${sale.transactionId} acknowledged before the instant`);
      assert.equal(
        Math.round(((await res.json()) as { amount: { totalAmount: number } }).amount.totalAmount * 100),
        sale.amount,
      );
    }
    for (const sale of lost) {
      assert.equal((await read(sale.transactionId!)).status, 404, `sale ${sale.transactionId} sent after the instant`);
      const retry = await sell(restoredBase, restoredBearer, sale);
      const body = (await retry.json()) as { transactionId: string };
      assert.equal(retry.status, 200, JSON.stringify(body));
      assert.equal(retry.headers.get('idempotent-replayed'), null);
      assert.notEqual(body.transactionId, sale.transactionId);
    }
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  });

  it('backs up a cluster no node started on yet, keeps BACKUPS_KEPT backups, and lists them', async () => {
    const fresh = path.join(dir, 'fresh');
    const env = { ...defaults, DATA_DIR: fresh };
    const take = async () => {
      const proc = tessera(['backup'], { ...env, BACKUPS_KEPT: '1' });
      running.push(proc);
      return (await finished(proc)).json;
    };
    const first = await take();
    assert.equal(first.schemaVersion, 0);
    const second = await take();
    assert.deepEqual(second.pruned.backupsRemoved, [first.label]);
    const list = tessera(['backup', '--list'], env);
    running.push(list);
    assert.deepEqual(
      (await finished(list)).json.map((b: { label: string }) => b.label),
      [second.label],
    );
  });

  it('ends a backup with an error, keeping nothing, when the WAL it needs is not archived in time', async () => {
    const dataDir = path.join(dir, 'stuck');
    const env = { ...defaults, DATA_DIR: dataDir };
    const port = await freePort();
    const node = tessera(['serve'], { ...env, PORT: String(port), SANDBOX_DEMO_DATA: 'false', WORKERS: '0' });
    running.push(node);
    await waitForLog(node, 'tessera listening', START_TIMEOUT_MS);
    const archive = path.join(dataDir, 'wal-archive');
    // PostgreSQL can no longer write its archive (as when its disk is full).
    chmodSync(archive, 0o000);
    try {
      const backup = tessera(['backup'], { ...env, BACKUP_ARCHIVE_WAIT_SECONDS: '3' });
      running.push(backup);
      assert.equal(await backup.exited, 1);
      assert.match(backup.output.join(''), /was not archived within 3 s/);
      assert.deepEqual(readdirSync(path.join(dataDir, 'backups')), [], 'neither a backup nor a partial copy');
    } finally {
      chmodSync(archive, 0o700);
    }
    node.child.kill('SIGTERM');
    assert.equal(await node.exited, 0);
  });
});
