import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Type from 'typebox';
import { AmountSchema } from '../../src/platform/money.js';
import { eventually, startNode, type TestNode } from '../harness.js';

const ERROR_FIELDS = [
  'errors',
  'details',
  'statusCode',
  'source',
  'exceptionType',
  'correlationId',
  'entityId',
  'errorCode',
  'title',
  'cause',
  'resolution',
  'documentationUrl',
].sort();

describe('API conventions', () => {
  let t: TestNode;
  let merchant: Awaited<ReturnType<TestNode['merchant']>>;
  before(async () => {
    t = await startNode({
      configure(app) {
        // Probes for the shared mechanisms, registered only in tests.
        app.post(
          '/test/amounts',
          {
            schema: {
              body: Type.Object(
                { amount: AmountSchema(), note: Type.Optional(Type.String({ maxLength: 5 })) },
                { additionalProperties: false },
              ),
            },
          },
          async (request) => ({ amount: request.body.amount }),
        );
        app.get('/test/boom', async () => {
          throw new Error('secret internal detail at /srv/app.ts:42');
        });
      },
    });
    merchant = await t.merchant();
  });
  after(() => t.stop());

  it('renders every error with the same body and the correlation id in a header', async () => {
    const res = await t.request('POST', '/test/amounts', { token: merchant.token, body: { amount: 'x' } });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body).sort(), ERROR_FIELDS);
    assert.equal(res.body.errorCode, 'V0000');
    assert.equal(res.body.exceptionType, 'ValidationException');
    assert.equal(res.body.statusCode, 400);
    assert.equal(res.body.correlationId, res.headers['x-correlation-id']);
    assert.deepEqual(Object.keys(res.body.errors), ['amount']);
  });

  it('takes the correlation id from the request when the client sends one', async () => {
    const res = await t.request('GET', '/pay-api/v1/configurations/payments', {
      token: merchant.token,
      headers: { 'x-correlation-id': 'client-trace-123' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-correlation-id'], 'client-trace-123');
    const bad = await t.request('GET', '/nowhere', { headers: { 'x-correlation-id': 'has spaces and <tags>' } });
    assert.notEqual(bad.headers['x-correlation-id'], 'has spaces and <tags>');
    assert.equal(bad.body.correlationId, bad.headers['x-correlation-id']);
  });

  it('accepts amounts with 2 decimals and refuses 3', async () => {
    for (const amount of [0, 1, 10.5, 19.99, 0.01, 123456.78]) {
      const res = await t.request('POST', '/test/amounts', { token: merchant.token, body: { amount } });
      assert.equal(res.status, 200, `${amount}: ${res.text}`);
      assert.equal(res.body.amount, amount);
    }
    for (const amount of [19.999, 0.001, 1.005]) {
      const res = await t.request('POST', '/test/amounts', { token: merchant.token, body: { amount } });
      assert.equal(res.status, 400, `${amount}`);
      assert.match(res.body.errors.amount[0], /2 decimal/);
    }
    const negative = await t.request('POST', '/test/amounts', { token: merchant.token, body: { amount: -1 } });
    assert.equal(negative.status, 400);
  });

  it('refuses malformed JSON, unknown fields and wrong content types', async () => {
    const malformed = await t.request('POST', '/test/amounts', {
      token: merchant.token,
      payload: '{"amount": 1,',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errorCode, 'V0000');

    const unknown = await t.request('POST', '/test/amounts', {
      token: merchant.token,
      body: { amount: 1, zzzNotAField: 2 },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errors.zzzNotAField[0], /zzzNotAField/);

    const text = await t.request('POST', '/test/amounts', {
      token: merchant.token,
      payload: 'amount=1',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.deepEqual(Object.keys(text.body).sort(), ERROR_FIELDS);

    const empty = await t.request('POST', '/test/amounts', {
      token: merchant.token,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(empty.status, 400, 'an empty body is no body, and this route needs one');
    assert.ok(empty.body.errors[''] || empty.body.errors.body, empty.text);

    const proto = await t.request('POST', '/test/amounts', {
      token: merchant.token,
      payload: '{"amount": 1, "__proto__": {"admin": true}}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(proto.status, 400);
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const res = await t.request('POST', '/test/amounts', {
      token: merchant.token,
      payload: JSON.stringify({ amount: 1, note: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 413);
    assert.equal(res.body.statusCode, 413);
  });

  it('answers unknown routes with a 404 error body', async () => {
    const res = await t.request('GET', '/pay-api/v1/nothing-here');
    assert.equal(res.status, 404);
    assert.equal(res.body.errorCode, 'N0000');
    assert.deepEqual(Object.keys(res.body).sort(), ERROR_FIELDS);
  });

  it('hides internal errors: 500 with I0000 and no stack or message', async () => {
    const res = await t.request('GET', '/test/boom', { token: merchant.token });
    assert.equal(res.status, 500);
    assert.equal(res.body.errorCode, 'I0000');
    assert.equal(res.body.details, 'Internal server error');
    assert.ok(!res.text.includes('secret internal detail'));
    assert.ok(!res.text.includes('app.ts'));
    // ...but the log has it, with the correlation id, for the operator.
    // The error is logged as the response goes out, not before: wait for the line rather than race it.
    await eventually(async () =>
      t.logs.some((line) => line.includes(res.body.correlationId) && line.includes('secret internal detail')),
    );
  });

  it('answers 401 with the spec body for missing, malformed and forged tokens', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: `Bearer ${merchant.token.slice(0, -4)}AAAA` },
    ];
    for (const headers of cases) {
      const res = await t.request('GET', '/pay-api/v1/configurations/payments', { headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.body.errorCode, 'V0000');
      assert.ok(res.body.errors.BearerTokenError);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
  });

  it('marks API responses as not cacheable', async () => {
    const res = await t.request('GET', '/pay-api/v1/configurations/payments', { token: merchant.token });
    assert.equal(res.headers['cache-control'], 'no-store');
  });
});
