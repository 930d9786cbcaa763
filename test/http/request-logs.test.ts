// The merchant's own request log (GET /pay-api/v1/request-logs): each request with one of its tokens, within a
// second, never another merchant's, never a body; filtered by status and path, followed with `after`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const LOGS = '/pay-api/v1/request-logs';

describe('request log', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let other: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
    other = await t.merchant();
  });
  after(() => t.stop());

  const logs = async (tenant: MerchantTenant, query = '') =>
    t.expectOk(t.request('GET', `${LOGS}${query}`, { token: tenant.token }));

  it('shows each request soon after its answer, with its correlation id, and only to its merchant', async () => {
    const ok = await t.request('GET', '/pay-api/v1/customers', {
      token: m.token,
      headers: { 'x-correlation-id': 'tail-ok-1' },
    });
    assert.equal(ok.status, 200);
    const refused = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      headers: { 'x-correlation-id': 'tail-bad-1' },
      body: { amount: -1 },
    });
    assert.equal(refused.status, 400);
    await t.request('GET', '/pay-api/v1/customers', { token: other.token, headers: { 'x-correlation-id': 'theirs' } });

    const page = await eventually(async () => {
      const found = await logs(m);
      return found.items.some((i: any) => i.correlationId === 'tail-bad-1') ? found : undefined;
    }, 5000);
    const mine = page.items.map((i: any) => i.correlationId);
    assert.ok(mine.includes('tail-ok-1'));
    assert.ok(!mine.includes('theirs'), "another merchant's request is not shown");
    const bad = page.items.find((i: any) => i.correlationId === 'tail-bad-1');
    assert.deepEqual(
      { method: bad.method, path: bad.path, status: bad.status },
      { method: 'POST', path: '/pay-api/v1/transactions/sale', status: 400 },
    );
    assert.equal(typeof bad.durationMs, 'number');
    assert.equal(bad.body, undefined, 'no body is kept');
  });

  it('never keeps a card number: not in a path or query however it is encoded, not as a correlation id', async () => {
    const sent = await t.request('GET', '/pay-api/v1/customers?search=4571%207367%207712%203456', {
      token: m.token,
      headers: { 'x-correlation-id': '4571736777123456' },
    });
    assert.equal(sent.status, 200);
    const id = sent.headers['x-correlation-id'] as string;
    assert.notEqual(id, '4571736777123456', 'a card number is not taken as a correlation id');
    assert.match(id, /^[0-9a-f-]{36}$/);
    const line = await eventually(async () => {
      const found = await logs(m, '?path=/pay-api/v1/customers');
      return found.items.find((i: any) => i.correlationId === id);
    }, 5000);
    assert.ok(!/4571.{0,3}7367/.test(decodeURIComponent(line.path.replace(/\+/g, ' '))), line.path);
    const text = JSON.stringify(await t.query('SELECT * FROM request_logs')) + t.logs.join('');
    assert.ok(!/4571(%20|\+| |-)?7367(%20|\+| |-)?7712/.test(text), 'nowhere in the table or the log lines');
  });

  it('filters by status and path, and follows with after', async () => {
    const all = await logs(m);
    const clientErrors = await logs(m, '?status=4xx');
    assert.ok(clientErrors.items.length > 0);
    assert.ok(clientErrors.items.every((i: any) => i.status >= 400 && i.status < 500));
    assert.ok((await logs(m, '?status=400')).items.every((i: any) => i.status === 400));
    const sales = await logs(m, '?path=/pay-api/v1/transactions');
    assert.ok(sales.items.every((i: any) => i.path.startsWith('/pay-api/v1/transactions')));

    await t.request('GET', '/pay-api/v1/customers', { token: m.token, headers: { 'x-correlation-id': 'tail-next' } });
    const next = await eventually(async () => {
      const page = await logs(m, `?after=${all.next}`);
      return page.items.some((i: any) => i.correlationId === 'tail-next') ? page : undefined;
    }, 5000);
    const before = new Set(all.items.map((i: any) => i.correlationId));
    assert.ok(
      next.items.every((i: any) => !before.has(i.correlationId)),
      'only what came after',
    );
    const times = next.items.map((i: any) => Date.parse(i.at));
    assert.deepEqual(
      times,
      [...times].sort((a: number, b: number) => a - b),
      'oldest first',
    );
  });

  it('hands out positions that reveal nothing: opaque, bound to the merchant', async () => {
    const mine = await logs(m);
    assert.ok(mine.items.length > 0);
    for (const item of mine.items) {
      assert.equal(typeof item.cursor, 'string');
      assert.ok(!/^\d+$/.test(item.cursor), 'not a counter');
      assert.equal(item.seq, undefined);
    }
    // Two positions of adjacent lines share nothing a client could subtract.
    assert.notEqual(mine.items[0].cursor.slice(0, 8), mine.items.at(-1).cursor.slice(0, 8));
    // Another merchant's position is refused like a forged one.
    await t.request('GET', '/pay-api/v1/customers', { token: other.token });
    const theirs = await eventually(async () => {
      const page = await logs(other);
      return page.items.length > 0 ? page : undefined;
    }, 5000);
    for (const cursor of [theirs.next, '12', 'x'.repeat(60)]) {
      const refused = await t.request('GET', `${LOGS}?after=${cursor}`, { token: m.token });
      assert.equal(refused.status, 400, cursor);
      assert.ok(refused.body.errors.after);
    }
  });

  it('refuses a status that is not one, and an unknown parameter', async () => {
    for (const query of ['?status=4x', '?status=600', '?limit=500', '?since=1']) {
      assert.equal((await t.request('GET', `${LOGS}${query}`, { token: m.token })).status, 400, query);
    }
  });
});
