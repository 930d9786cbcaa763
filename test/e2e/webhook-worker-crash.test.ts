// A `tessera worker` killed with SIGKILL in the middle of webhook deliveries, then another started: every event
// still reaches the receiver at least once, and no delivery is marked delivered without a 2xx.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { ADMIN_TOKEN, createTestDatabase, eventually, freePort, type TestDatabase } from '../harness.js';
import { accessToken, callOk, START_TIMEOUT_MS, tessera, waitForLog } from './tessera-process.js';

describe('webhook delivery survives a killed worker', () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  let receiver: http.Server | undefined;
  let pool: pg.Pool | undefined;
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    receiver?.closeAllConnections();
    receiver?.close();
    await pool?.end();
    await db?.drop();
  });

  it('SIGKILL mid-delivery, restart: every event delivered at least once', async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const received = new Map<string, number>();
    receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).id as string;
        // Slow answers keep attempts in flight when the worker is killed.
        setTimeout(() => {
          received.set(id, (received.get(id) ?? 0) + 1);
          response.writeHead(200).end('ok');
        }, 300);
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const common = {
      DATABASE_URL: db.url,
      SANDBOX_DEMO_DATA: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Short attempts make a short lease (2 x timeout + 5 s), so the test need not wait long for the takeover.
      WEBHOOK_TIMEOUT_MS: '1000',
    };
    const port = await freePort();
    const server = tessera(['serve'], {
      ...common,
      PORT: String(port),
      WORKERS: '0',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
    });
    children.push(server.child);
    await waitForLog(server, 'tessera listening', START_TIMEOUT_MS);
    const base = `http://127.0.0.1:${port}`;
    const admin = { token: ADMIN_TOKEN };
    const merchant = await callOk(`${base}/admin/v1/merchants`, {
      method: 'POST',
      ...admin,
      body: { companyName: 'K' },
    });
    const key = await callOk(`${base}/admin/v1/api-keys`, {
      method: 'POST',
      ...admin,
      body: { merchantId: merchant.id },
    });
    const token = await accessToken(base, key);
    await callOk(`${base}/v2/webhooks/endpoints`, {
      method: 'POST',
      token,
      body: {
        name: 'crash test',
        endpointUrl: hookUrl,
        eventTypes: ['transaction.card.authorized', 'transaction.card.captured'],
      },
    });

    const SALES = 30;
    await Promise.all(
      Array.from({ length: SALES }, () =>
        callOk(`${base}/pay-api/v1/transactions/sale`, {
          method: 'POST',
          token,
          body: {
            amount: 5,
            accountNumber: '4111111111111111',
            expirationMonth: 12,
            expirationYear: 2035,
            securityCode: '123',
            billingAddress: { line1: '123 Test St', postalCode: '10001' },
            referenceId: randomUUID(),
          },
        }),
      ),
    );
    const { rows: pending } = await pool.query<{ id: string }>('SELECT id FROM webhook_deliveries');
    assert.equal(pending.length, SALES * 2);

    const first = tessera(['worker'], { ...common, WEBHOOK_CONCURRENCY_PER_ENDPOINT: '8' });
    children.push(first.child);
    await waitForLog(first, 'tessera worker running', START_TIMEOUT_MS);
    // Kill it while attempts are in flight: some answers have come back, others not yet.
    await eventually(async () => received.size >= 1, 20_000, 5);
    first.child.kill('SIGKILL');
    await first.exited;
    const { rows: leased } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE locked_by IS NOT NULL AND status = 'Pending'",
    );
    assert.ok(leased[0]!.n > 0, 'the killed worker held deliveries in flight');
    assert.ok(received.size < SALES * 2, 'killed before finishing');

    const second = tessera(['worker'], common);
    children.push(second.child);
    await waitForLog(second, 'tessera worker running', START_TIMEOUT_MS);
    await eventually(
      async () => {
        const { rows } = await pool!.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'Delivered'",
        );
        return rows[0]!.n === 0;
      },
      40_000,
      200,
    );
    for (const { id } of pending) assert.ok((received.get(id) ?? 0) >= 1, `delivery ${id} reached the receiver`);
    const { rows: logged } = await pool.query<{ n: number }>(
      "SELECT count(DISTINCT delivery_id)::int AS n FROM webhook_delivery_logs WHERE status = 'Success'",
    );
    assert.equal(logged[0]!.n, SALES * 2);
    second.child.kill('SIGTERM');
    server.child.kill('SIGTERM');
    await Promise.all([second.exited, server.exited]);
  });
});
