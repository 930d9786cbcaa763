// Terminals over the real terminal channel: two `tessera serve` processes on one database and a `tessera
// terminal-sim` process connected to one of them, driven by the sandbox operator's controls. A sale, a decline on the
// card network and one on the terminal, authorization then capture, a void, a refund, a cancel before and after the
// read, two creates at once on two nodes, paper running out, a disconnect right after the card read (one payment, never
// two), the terminal's node restarting (the simulator reconnects), and long-polls on the other node released by what
// happens on this one.
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

const CARD = { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 };

describe('terminals over the terminal channel', () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  let pool: Pool | undefined;
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await pool?.end();
    await db?.drop();
  });

  it('a simulator process takes sales, declines, cancels, paper, a disconnect and its node restarting', async () => {
    db = await createTestDatabase();
    pool = createPool(db.url, 2);
    const ports = [await freePort(), await freePort()] as const;
    const common = {
      DATABASE_URL: db.url,
      SANDBOX_DEMO_DATA: 'false',
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports[0]}`,
      // A payment stays on its way long enough for the disconnect to land after the read.
      SANDBOX_CARD_LATENCY_MS: '400',
    };
    const serve = async (port: number) => {
      const proc = tessera(['serve'], {
        ...common,
        PORT: String(port),
        WORKERS: '1',
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-')),
      });
      children.push(proc.child);
      await waitForLog(proc, 'tessera listening', START_TIMEOUT_MS);
      return proc;
    };
    let a = await serve(ports[0]);
    await serve(ports[1]);
    const baseA = `http://127.0.0.1:${ports[0]}`;
    const baseB = `http://127.0.0.1:${ports[1]}`;
    const admin = { token: ADMIN_TOKEN };
    const { merchant, token } = await merchantWithToken(baseA, 'T');
    const terminal = await callOk(`${baseA}/admin/v1/merchants/${merchant.id}/terminals`, {
      method: 'POST',
      ...admin,
      body: { serialNumber: 'SIM-0001', terminalManufacturer: 'Sunmi', terminalModel: 'SunmiP3H', terminalModeId: 2 },
    });

    const sim: Proc = tessera(
      ['terminal-sim', '--serial', 'SIM-0001', '--secret', terminal.terminalSecret, '--base-url', baseA],
      {},
    );
    children.push(sim.child);
    await waitForLog(sim, `terminal-sim connected ${terminal.id}`, 30_000);
    const status = async (base = baseA) => callOk(`${base}/pos-api/v1/terminals/${terminal.id}/status`, { token });
    // The simulator's own report (not the sandbox's virtual terminal): it reached the other node through the database.
    await eventually(async () => (await status(baseB)).ariseTerminalVersion === 'sim-1', 10_000, 50);
    assert.equal((await status(baseB)).connectionStatus, 'Online');

    const act = (action: Record<string, unknown>, base = baseA) =>
      callOk(`${base}/admin/v1/sandbox/terminals/${terminal.id}/actions`, { method: 'POST', ...admin, body: action });
    const create = (body: Record<string, unknown>, base = baseA) =>
      callOk(`${base}/pos-api/v1/pos-transactions`, {
        method: 'POST',
        token,
        body: { terminalId: terminal.id, ...body },
      });
    const get = (id: string, base = baseA, wait = false) =>
      callOk(`${base}/pos-api/v1/pos-transactions/${id}${wait ? '?waitForTransactionProcessing=true' : ''}`, { token });

    // A sale: the terminal accepts, the card is presented on it, the payment is made; the long-poll waits on node B.
    const sale = await create({ amount: 8.25, waitForAcceptanceByTerminal: true });
    assert.equal(sale.status, 'TransactionProcessing');
    const polled = get(sale.posTransactionId, baseB, true);
    await act({ action: 'present-card', ...CARD, readingMethod: 'chip' });
    const sold = await polled;
    assert.equal(sold.posTransactionStatus, 'Completed');
    assert.equal(sold.cardDataSource, 'EMV');
    await waitForLog(sim, `terminal-sim result ${sale.posTransactionId} Completed`, 10_000);

    // Declined by the card network; declined on the terminal; cancelled before the read.
    const declined = await create({ amount: 3, waitForAcceptanceByTerminal: true });
    await act({ action: 'present-card', ...CARD, pan: '4000000010050005', readingMethod: 'tap' });
    assert.equal((await get(declined.posTransactionId, baseB, true)).posTransactionStatus, 'DeclinedByProcessor');
    const onTerminal = await create({ amount: 3, waitForAcceptanceByTerminal: true });
    await act({ action: 'decline' }, baseB);
    assert.equal((await get(onTerminal.posTransactionId, baseA, true)).posTransactionStatus, 'CancelByTerminal');
    const cancelled = await create({ amount: 3, waitForAcceptanceByTerminal: true });
    await callOk(`${baseB}/pos-api/v1/pos-transactions/${cancelled.posTransactionId}/cancel`, {
      method: 'POST',
      token,
    });
    await waitForLog(sim, `terminal-sim cancelled ${cancelled.posTransactionId}`, 10_000);

    // Authorization then capture; a void; a refund that reads the card; a cancel after the read is refused.
    const auth = await create({ amount: 20, transactionTypeId: 1, waitForAcceptanceByTerminal: true });
    await act({ action: 'present-card', ...CARD, readingMethod: 'chip' });
    const authorized = await get(auth.posTransactionId, baseB, true);
    assert.equal(authorized.posTransactionStatus, 'Completed');
    const capture = await create({ transactionTypeId: 3, targetTransactionId: authorized.transactionId, amount: 18 });
    const captured = await get(capture.posTransactionId, baseB, true);
    assert.equal(captured.posTransactionStatus, 'Completed');
    assert.equal(captured.transaction.transactionStatus ?? captured.transaction.status, 'Captured');
    const voiding = await create({ transactionTypeId: 4, targetTransactionId: sold.transactionId });
    assert.equal((await get(voiding.posTransactionId, baseB, true)).posTransactionStatus, 'Completed');
    const refund = await create({ transactionTypeId: 5, targetTransactionId: captured.transactionId, amount: 5 });
    await act({ action: 'present-card', ...CARD, readingMethod: 'tap' });
    const refunded = await get(refund.posTransactionId, baseB, true);
    assert.equal(refunded.posTransactionStatus, 'Completed');
    assert.equal(refunded.transaction.transactionType, 'Refund');
    const late = await create({ amount: 4, waitForAcceptanceByTerminal: true });
    await act({ action: 'present-card', ...CARD });
    await waitForLog(sim, `terminal-sim card ${late.posTransactionId}`, 10_000);
    // The read is on its way when the simulator logs it: wait until the server has taken it (being paid, or done).
    await eventually(async () => (await get(late.posTransactionId)).posTransactionStatusId !== 2, 10_000, 20);
    const lateCancel = await fetch(`${baseB}/pos-api/v1/pos-transactions/${late.posTransactionId}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(lateCancel.status, 400, 'the card was read: too late to cancel');
    assert.equal((await get(late.posTransactionId, baseB, true)).posTransactionStatus, 'Completed');

    // Two creates at once, one on each node: exactly one is taken.
    const both = await Promise.all(
      [baseA, baseB].map((base) =>
        fetch(`${base}/pos-api/v1/pos-transactions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ terminalId: terminal.id, amount: 1 }),
        }),
      ),
    );
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 400]);
    const taken = (await both.find((r) => r.status === 200)!.json()) as { posTransactionId: string };
    await callOk(`${baseA}/pos-api/v1/pos-transactions/${taken.posTransactionId}/cancel`, { method: 'POST', token });

    // Paper: the simulator reports it; a print then fails and the merchant hears of it.
    await act({ action: 'paper', paperOut: true });
    await eventually(async () => (await status()).printerStatus === 'NotNormal', 10_000, 50);
    const print = await fetch(`${baseA}/pos-api/v1/pos-transactions/${sale.posTransactionId}/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(print.status, 400);
    const paperEvents = await pool.query(
      "SELECT count(*)::int AS n FROM events WHERE type = 'terminal.out_of_paper' AND resource_id = $1",
      [terminal.id],
    );
    assert.equal(paperEvents.rows[0].n, 2, 'when the terminal reported it, and when a print failed for it');
    await act({ action: 'paper', paperOut: false });
    await eventually(async () => (await status()).printerStatus === 'Normal', 10_000, 50);
    await callOk(`${baseA}/pos-api/v1/pos-transactions/${sale.posTransactionId}/print`, { method: 'POST', token });
    await waitForLog(sim, `terminal-sim print ${sale.posTransactionId} ok`, 10_000);

    // The terminal disconnects right after the card read: the payment it started still gets its one outcome.
    const cut = await create({ amount: 6, waitForAcceptanceByTerminal: true });
    await act({ action: 'present-card', ...CARD });
    await waitForLog(sim, `terminal-sim card ${cut.posTransactionId}`, 10_000);
    // Once the server has the read (a switch-off before it would rightly end the transaction TerminalOffline).
    await eventually(async () => (await get(cut.posTransactionId)).posTransactionStatusId !== 2, 10_000, 20);
    await act({ action: 'connection', online: false });
    const afterCut = await get(cut.posTransactionId, baseB, true);
    assert.equal(afterCut.posTransactionStatus, 'Completed');
    const charged = await pool.query('SELECT count(*)::int AS n FROM transactions WHERE source_id = $1', [
      cut.posTransactionId,
    ]);
    assert.equal(charged.rows[0].n, 1);
    await eventually(async () => (await status()).connectionStatus === 'Offline', 10_000, 50);
    const refused = await fetch(`${baseA}/pos-api/v1/pos-transactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ terminalId: terminal.id, amount: 1 }),
    });
    assert.equal(refused.status, 400, 'an offline terminal takes no transaction');
    await act({ action: 'connection', online: true });
    await eventually(async () => (await status()).ariseTerminalVersion === 'sim-1', 15_000, 100);

    // The terminal's node restarts: the simulator reconnects (to the same address) and carries on.
    a.child.kill('SIGTERM');
    await a.exited;
    // In sandbox, while no simulator is connected, the virtual terminal stands in for it.
    await eventually(async () => (await status(baseB)).ariseTerminalVersion === 'sandbox', 10_000, 50);
    a = await serve(ports[0]);
    await eventually(async () => (await status(baseB)).ariseTerminalVersion === 'sim-1', 20_000, 100);
    const again = await create({ amount: 2, waitForAcceptanceByTerminal: true }, baseB);
    assert.equal(again.status, 'TransactionProcessing', 'commands reach the terminal from the other node');
    await act({ action: 'present-card', ...CARD, readingMethod: 'swipe' }, baseB);
    const last = await get(again.posTransactionId, baseB, true);
    assert.equal(last.posTransactionStatus, 'Completed');
    assert.equal(last.cardDataSource, 'Swipe');

    const pans = await pool.query(
      "SELECT count(*)::int AS n FROM transactions WHERE pan_mask LIKE '%4111111111111111%'",
    );
    assert.equal(pans.rows[0].n, 0);
    assert.deepEqual((await verifyLedger(pool)).problems, []);
    sim.child.kill('SIGTERM');
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
});
