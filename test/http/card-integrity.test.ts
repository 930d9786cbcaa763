import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const PAN = '4111111111111111';
const CVV = '737';
const CARD = { accountNumber: PAN, expirationMonth: 12, expirationYear: 2031, securityCode: CVV };
let seq = 0;
const ref = () => `int-${++seq}`;

describe('card money integrity', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode({
      workers: true,
      env: { RATE_LIMIT_BURST_PER_10S: '100000', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    m = await t.merchant({ body: { settings: { isTipsEnabled: true } } });
  });
  after(() => t.stop());

  const post = (path: string, body: unknown) =>
    t.request('POST', `/pay-api/v1/transactions/${path}`, { token: m.token, body });

  it('50 concurrent captures of one authorization capture it exactly once', async () => {
    const auth = await post('auth', { amount: 80, ...CARD, referenceId: ref() });
    assert.equal(auth.body.status, 'Authorized');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post('capture', { transactionId: auth.body.transactionId })),
    );
    const ok = results.filter((r) => r.status === 200 && r.body.status === 'Captured');
    assert.equal(ok.length, 1, results.map((r) => r.status).join(','));
    for (const r of results) if (r !== ok[0]) assert.ok([400, 409].includes(r.status), r.text);
    const entries = await t.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_entries WHERE transaction_id = $1 AND kind = 'capture'",
      [auth.body.transactionId],
    );
    assert.equal(entries[0]!.n, 4); // one entry set: hold release (2 lines) + capture (2 lines)
  });

  it('concurrent refunds whose sum would exceed the capture never refund more than was captured', async () => {
    const sale = await post('sale', { amount: 100, ...CARD, referenceId: ref() });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => post('return', { transactionId: sale.body.transactionId, amount: 10 })),
    );
    const refunded = results.filter((r) => r.status === 200 && r.body.status === 'Refunded').length;
    assert.ok(refunded <= 10 && refunded >= 1, `refunded ${refunded}`);
    const [row] = await t.query<{ refunded_cents: number; captured_cents: number }>(
      'SELECT refunded_cents, captured_cents FROM transactions WHERE id = $1',
      [sale.body.transactionId],
    );
    assert.equal(row!.refunded_cents, refunded * 1000);
    assert.ok(row!.refunded_cents <= row!.captured_cents);
  });

  it('a randomized workload leaves a ledger that verifies', async () => {
    const ids: string[] = [];
    let random = 42;
    const next = () => {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      return random / 2 ** 31;
    };
    for (let i = 0; i < 60; i++) {
      const roll = next();
      const amount = Math.round(next() * 50_000) / 100 + 1;
      if (roll < 0.35 || ids.length === 0) {
        const r = await post('sale', { amount, ...CARD, tipAmount: roll < 0.1 ? 2 : undefined, referenceId: ref() });
        if (r.body.transactionId) ids.push(r.body.transactionId);
      } else if (roll < 0.5) {
        const r = await post('auth', { amount, ...CARD, referenceId: ref() });
        if (r.body.transactionId) ids.push(r.body.transactionId);
      } else {
        const id = ids[Math.floor(next() * ids.length)]!;
        const op = ['capture', 'void', 'return', 'tip-adjustment', 'settle'][Math.floor(next() * 5)]!;
        const body =
          op === 'return'
            ? { transactionId: id, amount: Math.round(next() * 3000) / 100 + 0.01 }
            : op === 'tip-adjustment'
              ? { transactionId: id, tipAmount: 3 }
              : op === 'settle'
                ? {}
                : { transactionId: id };
        const r = await post(op, body);
        assert.ok([200, 400].includes(r.status), `${op}: ${r.text}`);
      }
    }
    await post('refund-without-reference', { ...CARD, amount: 7 });
    await post('settle', {});
    const report = await verifyLedger(t.ctx.pool);
    assert.deepEqual(report.problems, []);
    assert.ok(report.ok);
    assert.ok(report.checked.entrySets > 20);
    assert.ok(report.checked.settledTransactions > 0);
  });

  it('concurrent sales written in groups each keep their own row, events and entries; a duplicate pair charges once', async () => {
    const declined = { ...CARD, accountNumber: '4000000010050005' };
    const twin = { amount: 42.42, ...CARD, referenceId: ref() };
    const bodies = [
      ...Array.from({ length: 20 }, (_, i) => ({ amount: 10 + i, ...CARD, referenceId: ref() })),
      { amount: 9.99, ...declined, referenceId: ref() },
      twin,
      twin,
    ];
    // The earlier tests settled the batch this node remembers: one sale first finds the new Open batch, so the burst
    // takes the fast path (a group whose remembered batch closed is applied item by item, the slow way).
    assert.equal((await post('sale', { amount: 1, ...CARD, referenceId: ref() })).body.status, 'Captured');
    const results = await Promise.all(bodies.map((body) => post('sale', body)));
    const approved = results.filter((r) => r.status === 200 && r.body.status === 'Captured');
    assert.equal(approved.length, 21, results.map((r) => `${r.status}:${r.body.status}`).join(','));
    const duplicate = results.filter((r) => r.status === 400);
    assert.equal(duplicate.length, 1, 'the twin charged once');
    assert.ok(duplicate[0]!.text.includes('Duplicate'), duplicate[0]!.text);
    assert.equal(results[20]!.body.status, 'Declined');

    const ids = results.filter((r) => r.body.transactionId).map((r) => r.body.transactionId as string);
    const rows = await t.query<{ id: string; total_cents: number; status_id: number; writes: number }>(
      'SELECT id, total_cents, status_id, count(*) OVER (PARTITION BY xmin::text)::int AS writes FROM transactions WHERE id = ANY($1)',
      [ids],
    );
    assert.equal(rows.length, 22);
    // Rows updated by the same database transaction share its xmin: at least one outcome group held several.
    assert.ok(
      rows.some((row) => row.writes > 1),
      'outcomes were applied in groups',
    );
    for (const [i, r] of results.entries()) {
      if (!approved.includes(r)) continue;
      const row = rows.find((x) => x.id === r.body.transactionId)!;
      assert.equal(row.total_cents, Math.round(bodies[i]!.amount * 100));
      const events = await t.query<{ type: string }>(
        "SELECT type FROM events WHERE resource_id = $1 AND type LIKE 'transaction.card.%' ORDER BY seq",
        [row.id],
      );
      assert.deepEqual(
        events.map((e) => e.type),
        ['transaction.card.authorized', 'transaction.card.captured'],
      );
      const [entries] = await t.query<{ n: number; sum: number }>(
        'SELECT count(*)::int AS n, coalesce(sum(amount_cents), 0)::int AS sum FROM ledger_entries WHERE transaction_id = $1',
        [row.id],
      );
      assert.deepEqual(entries, { n: 2, sum: 0 });
    }
    const network = await t.query('SELECT reference FROM sandbox_card_network WHERE reference = ANY($1)', [ids]);
    assert.equal(network.length, 22, 'the sandbox network remembers every call, written in groups too');
    assert.deepEqual((await verifyLedger(t.ctx.pool)).problems, []);
  });

  it('ledger verify notices a tampered balance and a tampered batch total', async () => {
    await t.query(
      'UPDATE ledger_balances SET balance_cents = balance_cents + 1 WHERE ctid = (SELECT ctid FROM ledger_balances LIMIT 1)',
    );
    await t.query(
      'UPDATE settlement_batches SET sales_cents = sales_cents + 5, net_cents = net_cents + 5 WHERE status_id = 2',
    );
    const report = await verifyLedger(t.ctx.pool);
    assert.equal(report.ok, false);
    const checks = new Set(report.problems.map((p) => p.check));
    assert.ok(checks.has('stored-balance'));
    assert.ok(checks.has('batch-totals'));
  });

  it('the test PAN and CVV appear nowhere in clear: no table, event, job or log line', async () => {
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { lastName: 'Scan' } }),
    );
    await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
        token: m.token,
        body: { pan: PAN, expirationMonth: 12, expirationYear: 2031, securityCode: CVV },
      }),
    );
    await post('sale', { amount: 1.23, ...CARD, referenceId: ref() });
    const tables = await t.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    for (const { table_name } of tables) {
      const hits = await t.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table_name}" x WHERE x::text LIKE $1 OR x::text LIKE $2 OR encode(convert_to(x::text, 'UTF8'), 'escape') LIKE $1`,
        [`%${PAN}%`, `%"${CVV}"%`],
      );
      // The simulated card network is the outside world; it never receives the CVV in its records either.
      assert.equal(hits[0]!.n, 0, `${table_name} holds the PAN or CVV in clear`);
    }
    const logs = t.logs.join('\n');
    assert.ok(!logs.includes(PAN), 'a log line holds the PAN');
    assert.ok(!logs.includes(`"${CVV}"`), 'a log line holds the CVV');
  });
});
