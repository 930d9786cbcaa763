import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, startNode, startOfFreshMinute, type TestNode } from '../harness.js';

const CONFIG = '/pay-api/v1/configurations/payments';

describe('rate limiting per principal', () => {
  let a: TestNode;
  let b: TestNode;
  const env = { RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_BURST_PER_10S: '1000' };
  before(async () => {
    a = await startNode({ env });
    b = await startNode({ env, database: a.database });
  });
  after(async () => {
    await b.stop();
    await a.stop();
  });

  // Token requests count against the client address, so each test gets its tenants from a fresh window. Windows are
  // aligned to the minute: the clock moves to the start of the next one (seen by both nodes), so a test's requests
  // cannot straddle a rollover (they did, about once in sixty runs, when the clock just moved on by 60 s).
  async function freshWindow() {
    await startOfFreshMinute(a, b);
  }

  it('answers 429 with Retry-After and the error body once the limit is used up', async () => {
    await freshWindow();
    const merchant = await a.merchant();
    await freshWindow();
    const statuses: number[] = [];
    let limited: { headers: Record<string, unknown>; body: any } | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await a.request('GET', CONFIG, { token: merchant.token });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
    assert.ok(limited);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(limited.body.statusCode, 429);
    assert.equal(limited.body.errorCode, 'R0000');
    assert.equal(limited.body.exceptionType, 'RateLimitExceededException');

    // Another principal has its own budget; the window resets on the business clock.
    const other = await a.merchant();
    assert.equal((await a.request('GET', CONFIG, { token: other.token })).status, 200);
    await freshWindow();
    assert.equal((await a.request('GET', CONFIG, { token: merchant.token })).status, 200);
  });

  it('holds across nodes: the counters live in PostgreSQL', async () => {
    await freshWindow();
    const merchant = await a.merchant();
    await freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const node = i % 2 === 0 ? a : b;
      statuses.push((await node.request('GET', CONFIG, { token: merchant.token })).status);
    }
    assert.equal(statuses.filter((s) => s === 200).length, 6, statuses.join(','));
    assert.deepEqual(statuses.slice(6), [429, 429, 429, 429]);
  });

  it('limits the token endpoint by client address', async () => {
    await freshWindow();
    const merchant = await a.merchant();
    await freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await a.tokenRequest({
        grant_type: 'client_credentials',
        client_id: merchant.clientId,
        client_secret: 'wrong',
      });
      statuses.push(res.status);
      if (res.status === 429) assert.ok(Number(res.headers['retry-after']) >= 1);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 401, 429]);
  });
});

describe('burst limit', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode({ env: { RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_BURST_PER_10S: '3' } });
  });
  after(() => t.stop());

  it('refuses the fourth request within ten seconds', async () => {
    const merchant = await t.merchant();
    await t.request('POST', '/admin/v1/clock/advance', { token: ADMIN_TOKEN, body: { seconds: 10 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.request('GET', CONFIG, { token: merchant.token })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });
});
