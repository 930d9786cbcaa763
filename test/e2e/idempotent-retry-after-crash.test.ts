// A client's sales die with their node (SIGKILL, connection reset); the client retries each with its idempotency-key
// on the surviving node. Every retry must get the first attempt's own outcome at once: the same transaction (captured
// where the network approved it, declined where it declined, failed where the call never got there), never a 409
// after the dead node's claims are free, never IsDuplicate, never a second sale, and one network approval per key.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { ADMIN_TOKEN, createTestDatabase, eventually, freePort, type TestDatabase } from '../harness.js';
import { accessToken, callOk, START_TIMEOUT_MS, tessera, waitForLog } from './tessera-process.js';

const APPROVE = '4111111111111111';
const DECLINE = '4000000010050005';
// Each call spends half of this on the way to the sandbox network and half on the way back.
const LATENCY_MS = 2000;
const SALES = 10;

describe('idempotent retries after a node crash', () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  let pool: pg.Pool | undefined;
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await pool?.end();
    await db?.drop();
  });

  it('every retry on the surviving node answers with the first attempt, within 5 s', async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    const ports = [await freePort(), await freePort()];
    const common = {
      DATABASE_URL: db.url,
      SANDBOX_DEMO_DATA: 'false',
      SANDBOX_CARD_LATENCY_MS: String(LATENCY_MS),
      // One deployment behind one address: a token from either node is good on both.
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports[0]}`,
    };
    const serve = async (port: number) => {
      const proc = tessera(['serve'], {
        ...common,
        PORT: String(port),
        WORKERS: '0',
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
      });
      children.push(proc.child);
      await waitForLog(proc, 'tessera listening', START_TIMEOUT_MS);
      return { proc, base: `http://127.0.0.1:${port}` };
    };
    const [doomed, survivor] = await Promise.all([serve(ports[0]!), serve(ports[1]!)]);
    const worker = tessera(['worker'], common);
    children.push(worker.child);
    await waitForLog(worker, 'tessera worker running', START_TIMEOUT_MS);

    const admin = { token: ADMIN_TOKEN };
    const merchant = await callOk(`${doomed.base}/admin/v1/merchants`, {
      method: 'POST',
      ...admin,
      body: { companyName: 'Crash test' },
    });
    const key = await callOk(`${doomed.base}/admin/v1/api-keys`, {
      method: 'POST',
      ...admin,
      body: { merchantId: merchant.id },
    });
    const token = await accessToken(doomed.base, key);

    const sales = Array.from({ length: SALES }, (_, i) => ({
      key: `crash-${randomUUID()}`,
      body: {
        amount: 10 + i,
        accountNumber: i === 1 ? DECLINE : APPROVE,
        expirationMonth: 12,
        expirationYear: 2035,
        securityCode: '123',
        billingAddress: { line1: '123 Test St', postalCode: '10001' },
        referenceId: `order-${i}`,
      },
    }));
    const send = (base: string, sale: (typeof sales)[number]) =>
      fetch(`${base}/pay-api/v1/transactions/sale`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': sale.key,
        },
        body: JSON.stringify(sale.body),
      });

    // Sent at a steady pace (load shaping, not a wait), so that when the node dies some calls have reached the
    // network (their answers on the way back) and the others have not.
    const first: Array<Promise<string>> = [];
    for (const sale of sales) {
      first.push(
        send(doomed.base, sale).then(
          (res) => `answered ${res.status}`,
          () => 'no answer',
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const recordedAtNetwork = async () => {
      const { rows } = await pool!.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sandbox_card_network n JOIN transactions t ON t.id::text = n.reference
         WHERE t.merchant_id = $1 AND t.status_id = 24`,
        [merchant.id],
      );
      return rows[0]!.n;
    };
    await eventually(async () => (await recordedAtNetwork()) >= 4, 10_000, 5);
    doomed.proc.child.kill('SIGKILL');
    await doomed.proc.exited;
    const outcomes = await Promise.all(first);
    assert.deepEqual(
      outcomes,
      sales.map(() => 'no answer'),
      'every first attempt died with its node',
    );

    // What the dead node left: one pending sale per key, some known to the network.
    const { rows: left } = await pool.query<{ id: string; reference_id: string; at_network: boolean }>(
      `SELECT t.id, t.reference_id,
              EXISTS (SELECT 1 FROM sandbox_card_network n WHERE n.reference = t.id::text) AS at_network
       FROM transactions t WHERE t.merchant_id = $1 AND t.status_id = 24`,
      [merchant.id],
    );
    assert.equal(left.length, SALES, 'each first attempt recorded its sale before calling the network');
    const byReference = new Map(left.map((row) => [row.reference_id, row]));
    const firstAttempt = new Map(sales.map((sale) => [sale.key, byReference.get(sale.body.referenceId)!]));
    const reached = left.filter((row) => row.at_network).length;
    assert.ok(reached >= 4 && reached < SALES, `killed with ${reached} of ${SALES} calls past the network`);

    // Every unanswered request, retried on the surviving node at once.
    const retries = await Promise.all(
      sales.map(async (sale) => {
        const started = Date.now();
        const res = await send(survivor.base, sale);
        return { sale, status: res.status, body: (await res.json()) as any, ms: Date.now() - started };
      }),
    );
    for (const retry of retries) {
      const original = firstAttempt.get(retry.sale.key)!;
      assert.equal(retry.status, 200, `${retry.sale.key}: ${JSON.stringify(retry.body)}`);
      assert.ok(retry.ms < 5000, `answered in ${retry.ms} ms`);
      assert.equal(retry.body.transactionId, original.id, 'the transaction the first attempt created');
      const expected = !original.at_network
        ? 'Failed'
        : retry.sale.body.accountNumber === DECLINE
          ? 'Declined'
          : 'Captured';
      assert.equal(retry.body.status, expected, `${retry.sale.body.referenceId}: ${JSON.stringify(retry.body)}`);
    }
    assert.ok(
      retries.some((r) => r.body.status === 'Captured'),
      'a sale the network approved was among them',
    );

    // A second retry replays the stored answer.
    const again = await send(survivor.base, sales[0]!);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(((await again.json()) as any).transactionId, firstAttempt.get(sales[0]!.key)!.id);

    const { rows: counts } = await pool.query<{ sales: number; approvals: number; pending: number }>(
      `SELECT count(*)::int AS sales,
              count(*) FILTER (WHERE t.status_id = 24)::int AS pending,
              (SELECT count(*)::int FROM sandbox_card_network n
                 WHERE n.outcome->>'kind' = 'approved' AND n.reference IN (
                   SELECT id::text FROM transactions WHERE merchant_id = $1)) AS approvals
       FROM transactions t WHERE t.merchant_id = $1`,
      [merchant.id],
    );
    assert.equal(counts[0]!.sales, SALES, 'no second sale');
    assert.equal(counts[0]!.pending, 0, 'nothing left in flight');
    assert.equal(counts[0]!.approvals, retries.filter((r) => r.body.status === 'Captured').length);
    const { rows: perKey } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1 GROUP BY reference_id HAVING count(*) > 1`,
      [merchant.id],
    );
    assert.deepEqual(perKey, [], 'one transaction per key');
    const report = await verifyLedger(pool);
    assert.deepEqual(report.problems, []);
  });
});
