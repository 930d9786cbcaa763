import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Type from 'typebox';
import { ValidationError } from '../../src/platform/http/errors.js';
import type { App } from '../../src/platform/http/server.js';
import { eventually, startNode, type TestNode } from '../harness.js';

/** Probe routes: a handler the test can hold open, count and make fail. Shared by both nodes. */
function probes() {
  const state = { executions: 0, gate: Promise.resolve() as Promise<void>, failNext: 0 };
  const configure = (app: App) => {
    app.post(
      '/test/idempotent',
      {
        config: { idempotent: true },
        schema: {
          body: Type.Object(
            { amount: Type.Number(), reject: Type.Optional(Type.Boolean()) },
            { additionalProperties: false },
          ),
        },
      },
      async (request) => {
        state.executions++;
        await state.gate;
        if (state.failNext > 0) {
          state.failNext--;
          throw new Error('transient failure');
        }
        if (request.body.reject) throw ValidationError.field('amount', 'rejected by the business rule');
        return { execution: state.executions, amount: request.body.amount, at: Date.now() };
      },
    );
    app.post('/test/other', { config: { idempotent: true } }, async () => ({ other: true }));
  };
  return { state, configure };
}

describe('idempotency keys', () => {
  const { state, configure } = probes();
  let a: TestNode;
  let b: TestNode;
  let merchant: Awaited<ReturnType<TestNode['merchant']>>;
  before(async () => {
    a = await startNode({ configure });
    b = await startNode({ configure, database: a.database });
    merchant = await a.merchant();
  });
  after(async () => {
    await b.stop();
    await a.stop();
  });

  const post = (
    node: TestNode,
    key: string | undefined,
    body: unknown,
    url = '/test/idempotent',
    token = merchant.token,
  ) => node.request('POST', url, { token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });

  it('replays the original status and body without repeating the work', async () => {
    const before = state.executions;
    const first = await post(a, 'replay-1', { amount: 10 });
    assert.equal(first.status, 200);
    const second = await post(a, 'replay-1', { amount: 10 });
    const third = await post(b, 'replay-1', { amount: 10 }); // another node sees the same record
    assert.equal(second.status, 200);
    assert.equal(second.text, first.text);
    assert.equal(third.text, first.text);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(state.executions - before, 1);
  });

  it('treats the same JSON with other key order or spacing as the same request', async () => {
    const first = await a.request('POST', '/test/idempotent', {
      token: merchant.token,
      payload: '{"amount": 5, "reject": false}',
      headers: { 'idempotency-key': 'order-1', 'content-type': 'application/json' },
    });
    const second = await a.request('POST', '/test/idempotent', {
      token: merchant.token,
      payload: '{"reject":false,"amount":5}',
      headers: { 'idempotency-key': 'order-1', 'content-type': 'application/json' },
    });
    assert.equal(second.text, first.text);
  });

  it('answers 422 IdempotencyKeyConflict for the same key with another body or endpoint', async () => {
    await post(a, 'conflict-1', { amount: 1 });
    const other = await post(a, 'conflict-1', { amount: 2 });
    assert.equal(other.status, 422);
    assert.equal(other.body.errorCode, 'IdempotencyKeyConflict');
    assert.equal(other.body.statusCode, 422);
    const endpoint = await post(a, 'conflict-1', {}, '/test/other');
    assert.equal(endpoint.status, 422);
  });

  it('answers 409 IdempotencyKeyInProgress while the first request runs, on any node', async () => {
    let release!: () => void;
    state.gate = new Promise((resolve) => {
      release = resolve;
    });
    const before = state.executions;
    const first = post(a, 'busy-1', { amount: 7 });
    await eventually(async () => state.executions > before);
    const duplicates = await Promise.all([
      post(a, 'busy-1', { amount: 7 }),
      post(b, 'busy-1', { amount: 7 }),
      ...Array.from({ length: 8 }, (_, i) => post(i % 2 ? a : b, 'busy-1', { amount: 7 })),
    ]);
    for (const duplicate of duplicates) {
      assert.equal(duplicate.status, 409, duplicate.text);
      assert.equal(duplicate.body.errorCode, 'IdempotencyKeyInProgress');
    }
    release();
    state.gate = Promise.resolve();
    const original = await first;
    assert.equal(original.status, 200);
    assert.equal(state.executions - before, 1, 'exactly one execution');
    const replay = await post(b, 'busy-1', { amount: 7 });
    assert.equal(replay.text, original.text);
  });

  it('lets exactly one of many simultaneous first requests run', async () => {
    let release!: () => void;
    state.gate = new Promise((resolve) => {
      release = resolve;
    });
    const before = state.executions;
    let answered = 0;
    const racing = Array.from({ length: 12 }, (_, i) =>
      post(i % 2 ? a : b, 'race-1', { amount: 3 }).then((r) => {
        answered++;
        return r;
      }),
    );
    // The one that runs is held at the gate; every other one must be answered (409, in progress) while it is.
    // Releasing only then keeps a slow request from arriving after the first finished (it would be a replay).
    await eventually(async () => answered === 11);
    assert.equal(state.executions - before, 1);
    release();
    state.gate = Promise.resolve();
    const results = await Promise.all(racing);
    assert.equal(state.executions - before, 1);
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal(results.filter((r) => r.status === 409).length, 11);
  });

  it('does not store 5xx responses: the retry runs again', async () => {
    state.failNext = 1;
    const before = state.executions;
    const failed = await post(a, 'five-1', { amount: 9 });
    assert.equal(failed.status, 500);
    const retried = await post(a, 'five-1', { amount: 9 });
    assert.equal(retried.status, 200);
    assert.equal(state.executions - before, 2);
    const replay = await post(a, 'five-1', { amount: 9 });
    assert.equal(replay.text, retried.text);
  });

  it('stores 4xx outcomes of the work itself', async () => {
    const before = state.executions;
    const rejected = await post(a, 'four-1', { amount: 1, reject: true });
    assert.equal(rejected.status, 400);
    const again = await post(a, 'four-1', { amount: 1, reject: true });
    assert.equal(again.status, 400);
    assert.equal(again.text, rejected.text);
    assert.equal(state.executions - before, 1);
  });

  it('scopes keys to the caller', async () => {
    const other = await a.merchant();
    const before = state.executions;
    const mine = await post(a, 'shared-key', { amount: 4 });
    const theirs = await post(a, 'shared-key', { amount: 4 }, '/test/idempotent', other.token);
    assert.equal(mine.status, 200);
    assert.equal(theirs.status, 200);
    assert.notEqual(mine.body.execution, theirs.body.execution);
    assert.equal(state.executions - before, 2);
  });

  it('runs every request sent without a key', async () => {
    const before = state.executions;
    await post(a, undefined, { amount: 1 });
    await post(a, undefined, { amount: 1 });
    assert.equal(state.executions - before, 2);
  });

  it('refuses keys longer than 255 characters', async () => {
    const res = await post(a, 'k'.repeat(256), { amount: 1 });
    assert.equal(res.status, 400);
    assert.ok(res.body.errors['idempotency-key']);
    assert.equal((await post(a, 'k'.repeat(255), { amount: 1 })).status, 200);
  });

  it('stores response bodies encrypted', async () => {
    await post(a, 'sealed-1', { amount: 123.45 });
    const [row] = await a.query<{ response_body: Buffer }>(
      "SELECT response_body FROM idempotency_keys WHERE key = 'sealed-1'",
    );
    assert.ok(row && !row.response_body.toString('latin1').includes('123.45'));
  });

  it('forgets keys after the retention window (business clock)', async () => {
    const first = await post(a, 'retention-1', { amount: 2 });
    await a.admin('POST', '/admin/v1/clock/advance', { seconds: 24 * 3600 + 60 });
    merchant.token = (await a.token(merchant.clientId, merchant.clientSecret)).access_token;
    const later = await post(a, 'retention-1', { amount: 2 });
    assert.equal(later.status, 200);
    assert.notEqual(later.body.execution, first.body.execution);
  });
});
