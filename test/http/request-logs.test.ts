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
    assert.ok(
      next.items.every((i: any) => i.seq > all.next),
      'only what came after',
    );
    const seqs = next.items.map((i: any) => i.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a: number, b: number) => a - b),
      'oldest first',
    );
  });

  it('refuses a status that is not one, and an unknown parameter', async () => {
    for (const query of ['?status=4x', '?status=600', '?limit=500', '?since=1']) {
      assert.equal((await t.request('GET', `${LOGS}${query}`, { token: m.token })).status, 400, query);
    }
  });
});
