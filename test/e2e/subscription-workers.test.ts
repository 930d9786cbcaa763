// Three `tessera worker` processes bill the same installments; one is killed with SIGKILL in the middle of the run.
// Every installment is still charged exactly once (one approved sale each), none is skipped, and the ledger balances.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { createPool, type Pool } from '../../src/platform/db/pool.js';
import { ADMIN_TOKEN, createTestDatabase, eventually, freePort, type TestDatabase } from '../harness.js';
import { callOk, merchantWithToken, type Proc, START_TIMEOUT_MS, tessera, waitForLog } from './tessera-process.js';

const SUBSCRIPTIONS = 240;

describe('subscription billing across worker processes', () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  let pool: Pool | undefined;
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await pool?.end();
    await db?.drop();
  });

  it('three workers, one SIGKILLed mid-run: every installment charged exactly once, none skipped', async () => {
    db = await createTestDatabase();
    // The project's pool: its bigint parser is what the ledger check compares with.
    pool = createPool(db.url, 2);
    const common = {
      DATABASE_URL: db.url,
      SANDBOX_DEMO_DATA: 'false',
      // A slow card network keeps payments in flight when the worker dies.
      SANDBOX_CARD_LATENCY_MS: '300',
    };
    const port = await freePort();
    const server = tessera(['serve'], {
      ...common,
      PORT: String(port),
      WORKERS: '0',
      // The test creates its subscriptions as fast as it can, as one merchant.
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_BURST_PER_10S: '100000',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
    });
    children.push(server.child);
    await waitForLog(server, 'tessera listening', START_TIMEOUT_MS);
    const base = `http://127.0.0.1:${port}`;
    const admin = { token: ADMIN_TOKEN };
    const { token: bearer } = await merchantWithToken(base, 'S');
    const configuration = await callOk(`${base}/pay-api/v1/configurations/payments`, { token: bearer });
    const processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
    const clock = async () => new Date((await callOk(`${base}/admin/v1/clock`, admin)).now).getTime();
    const start = new Date(Math.ceil(((await clock()) + 10 * 60_000) / 60_000) * 60_000).toISOString();

    const ids: string[] = [];
    for (let n = 0; n < SUBSCRIPTIONS; n += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const customer = await callOk(`${base}/pay-api/v1/customers`, {
            method: 'POST',
            token: bearer,
            body: { firstName: 'Sub' },
          });
          const card = await callOk(`${base}/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
            method: 'POST',
            token: bearer,
            body: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
          });
          const s = await callOk(`${base}/sub-api/v1/subscriptions`, {
            method: 'POST',
            token: bearer,
            body: {
              customerId: customer.id,
              paymentMethodId: card.id,
              amount: 7.5,
              paymentFrequencyUnit: 3,
              paymentFrequency: 1,
              numberOfPayments: 2,
              transactionType: 2,
              requesterIpAddress: '192.0.2.10',
              paymentProcessorId: processor,
              paymentStartDateTime: start,
            },
          });
          ids.push(s.id);
        }),
      );
    }

    const workers: Proc[] = [];
    for (let n = 0; n < 3; n++) {
      const worker = tessera(['worker'], { ...common, WORKERS: '4' });
      children.push(worker.child);
      workers.push(worker);
    }
    for (const worker of workers) await waitForLog(worker, 'tessera worker running', START_TIMEOUT_MS);

    const count = async (sql: string) => (await pool!.query<{ n: number }>(sql, [ids])).rows[0]!.n;
    const paid = () =>
      count(
        'SELECT count(*)::int AS n FROM subscription_installments WHERE subscription_id = ANY($1) AND status_id = 3',
      );
    // The installments fall due: the workers start charging.
    await callOk(`${base}/admin/v1/clock/advance`, {
      method: 'POST',
      ...admin,
      body: { seconds: Math.ceil((Date.parse(start) - (await clock())) / 1000) + 1 },
    });
    // Each worker logs its node liveness id; the victim is one with payments on their way to the card network now.
    const nodeOf = (worker: Proc) =>
      Number(/"node":(\d+)[^\n]*tessera worker running/.exec(worker.output.join(''))![1]);
    let victim: Proc | undefined;
    await eventually(
      async () => {
        const { rows } = await pool!.query<{ node: number }>(
          `SELECT DISTINCT (pending_operation->>'node')::int AS node FROM transactions
           WHERE source_id = ANY($1::uuid[]) AND pending_operation ? 'node'`,
          [ids],
        );
        victim = workers.find((worker) => rows.some((row) => row.node === nodeOf(worker)));
        return victim !== undefined;
      },
      60_000,
      2,
    );
    victim!.child.kill('SIGKILL');
    await victim!.exited;
    const survivors = workers.filter((worker) => worker !== victim);
    assert.ok((await paid()) < SUBSCRIPTIONS, 'killed before the run ended');
    // What the dead worker held: claimed by a node whose liveness lock is gone.
    const orphaned = await count(
      `SELECT count(*)::int AS n FROM subscription_installments WHERE subscription_id = ANY($1) AND status_id = 2
         AND attempt_node IS NOT NULL AND NOT tessera_node_alive(attempt_node)`,
    );
    assert.ok(orphaned > 0, 'the killed worker held installments mid-charge');
    // The next minute's billing run takes up what the dead worker held (its node is gone: no lease to wait out).
    await callOk(`${base}/admin/v1/clock/advance`, { method: 'POST', ...admin, body: { seconds: 60 } });
    const open = () =>
      count(
        'SELECT count(*)::int AS n FROM subscription_installments WHERE subscription_id = ANY($1) AND status_id = 2',
      );
    const dump = async (error: Error) => {
      const state = await pool!.query(
        `SELECT status_id, attempts, attempt_node, recheck_at, tessera_node_alive(attempt_node) AS alive, count(*)::int
         FROM subscription_installments WHERE subscription_id = ANY($1) GROUP BY 1, 2, 3, 4, 5`,
        [ids],
      );
      const jobs = await pool!.query('SELECT queue, run_at, locked_node, attempts, last_error FROM jobs');
      // Why the attempts of installments not paid failed, with their payments' state.
      const attempts = await pool!.query(
        `SELECT a.attempt_number, a.result, a.response_code, a.response_message, t.status_id, t.pending_operation
         FROM subscription_installments i JOIN subscription_attempts a ON a.installment_id = i.id
         LEFT JOIN transactions t ON t.id = a.transaction_id
         WHERE i.subscription_id = ANY($1) AND i.status_id = 4 ORDER BY i.id, a.attempt_number LIMIT 20`,
        [ids],
      );
      throw new Error(
        `${error.message}: ${JSON.stringify(state.rows)} ${JSON.stringify(jobs.rows)} ${JSON.stringify(attempts.rows)}`,
      );
    };
    await eventually(async () => (await open()) === 0, 90_000, 200).catch(dump);
    // A payment the dead worker had recorded as in flight but never got to the card network is settled by asking the
    // network: it has no record, so nothing was charged and the attempt failed (dunning retries it a day later).
    const cutOff = await pool.query<{ response_code: string; status_id: number }>(
      `SELECT t.response_code, t.status_id FROM subscription_installments i JOIN transactions t ON t.id = i.transaction_id
       WHERE i.subscription_id = ANY($1) AND i.status_id = 4`,
      [ids],
    );
    assert.deepEqual(
      cutOff.rows.filter((row) => row.response_code !== '96'),
      [],
      'only attempts that never reached the network failed',
    );
    if (cutOff.rows.length > 0) {
      await callOk(`${base}/admin/v1/clock/advance`, { method: 'POST', ...admin, body: { seconds: 86_400 } });
    }
    await eventually(async () => (await paid()) === SUBSCRIPTIONS, 90_000, 200).catch(dump);

    const first = await pool.query<{ status_id: number; n: number }>(
      `SELECT status_id, count(*)::int AS n FROM subscription_installments
       WHERE subscription_id = ANY($1) AND payment_order = 1 GROUP BY status_id`,
      [ids],
    );
    assert.deepEqual(first.rows, [{ status_id: 3, n: SUBSCRIPTIONS }]);
    const sales = await pool.query<{ source_id: string; approved: number; other: number }>(
      `SELECT source_id, count(*) FILTER (WHERE status_id IN (2, 6))::int AS approved,
         count(*) FILTER (WHERE status_id NOT IN (2, 6) AND response_code IS DISTINCT FROM '96')::int AS other
       FROM transactions WHERE source_id = ANY($1::uuid[]) GROUP BY source_id`,
      [ids],
    );
    assert.equal(sales.rows.length, SUBSCRIPTIONS, 'every subscription was charged');
    assert.deepEqual(
      sales.rows.filter((row) => row.approved !== 1 || row.other !== 0),
      [],
      'exactly one approved payment per installment (besides attempts that never reached the network)',
    );
    const linked = await count(
      `SELECT count(DISTINCT transaction_id)::int AS n FROM subscription_installments
       WHERE subscription_id = ANY($1) AND status_id = 3`,
    );
    assert.equal(linked, SUBSCRIPTIONS);
    assert.deepEqual((await verifyLedger(pool)).problems, []);
    for (const worker of survivors) worker.child.kill('SIGTERM');
    server.child.kill('SIGTERM');
    await Promise.all([...survivors.map((w) => w.exited), server.exited]);
  });
});
