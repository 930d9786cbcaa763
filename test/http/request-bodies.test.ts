// The kernel's rules for request bodies, shared by every route: an optional body may be left out, an operation that
// takes no body refuses one it would ignore, names a plain object's prototype answers are ordinary unknown fields,
// nesting is bounded, and what Node's HTTP parser refuses (a URL over 16 KiB) is answered in the standard error body.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('request bodies', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let other: MerchantTenant;
  const invoices = '/pay-int-api/invoices';
  /** A request with no body at all: no content type, no bytes (what the vendor's clients send). */
  const bare = (method: string, url: string, tenant = m) => t.request(method, url, { token: tenant.token });

  before(async () => {
    t = await startNode({ listen: true });
    m = await t.merchant();
    other = await t.merchant();
  });
  after(() => t.stop());

  async function publishedInvoice(tenant = m): Promise<string> {
    const invoice = await t.ok(tenant, 'POST', invoices, {
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      lineItems: [{ productName: 'Work', quantity: 1, unitPrice: 100 }],
    });
    await t.ok(tenant, 'POST', `${invoices}/publish`, { invoiceId: invoice.id });
    return invoice.id;
  }

  it('takes no body where the body is optional: mark-as-paid answers the invoice, or 404 for a missing one', async () => {
    const id = await publishedInvoice();
    const paid = await bare('PUT', `${invoices}/${id}/mark-as-paid`);
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.statusName, 'Paid');

    const missing = await bare('PUT', `${invoices}/${randomUUID()}/mark-as-paid`);
    assert.equal(missing.status, 404, missing.text);
    const foreign = await bare('PUT', `${invoices}/${await publishedInvoice(other)}/mark-as-paid`);
    assert.equal(foreign.status, 404, foreign.text);

    // A JSON null is the same as no body; a body of another type is still refused.
    const withNull = await t.request('PUT', `${invoices}/${await publishedInvoice()}/mark-as-paid`, {
      token: m.token,
      payload: 'null',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(withNull.status, 200, withNull.text);
    const withArray = await t.request('PUT', `${invoices}/${await publishedInvoice()}/mark-as-paid`, {
      token: m.token,
      body: [],
    });
    assert.equal(withArray.status, 400, withArray.text);
  });

  it('documents optional bodies as not required in /openapi.json', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const body = (path: string, method: string) => doc.paths[path][method].requestBody;
    assert.equal(body('/pay-int-api/invoices/{invoiceId}/mark-as-paid', 'put').required, false);
    assert.equal(body('/pay-api/v1/transactions/settle', 'post').required, false);
    assert.equal(body('/pay-api/v1/customers', 'post').required, true);
  });

  it('refuses a body an operation that takes none would ignore, naming its fields; {} and nothing are fine', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['POST', `/pay-api/v1/transactions/ach/${id}/hold`],
      ['POST', `/pay-int-api/quick-payments/${id}/activate`],
      ['PUT', `/sub-api/v1/subscriptions/${id}/suspend`],
    ] as const) {
      const refused = await t.request(method, url, { token: m.token, body: { x: 1 } });
      assert.equal(refused.status, 400, `${method} ${url}: ${refused.text}`);
      assert.deepEqual(Object.keys(refused.body.errors), ['x']);
      for (const accepted of [await t.request(method, url, { token: m.token, body: {} }), await bare(method, url)]) {
        assert.equal(accepted.status, 404, `${method} ${url}: ${accepted.text}`);
      }
    }
  });

  it("refuses field names a plain object's prototype answers like any unknown field (400, never 500)", async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      const created = await t.request('POST', '/pay-api/v1/customers', {
        token: m.token,
        payload: `{"firstName":"a","${name}":1}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(created.status, 400, `${name}: ${created.text}`);
      assert.deepEqual(created.body.errors, {
        [name]: [`The JSON property '${name}' could not be mapped to any field of this request.`],
      });
    }
    // Without any login: the payment elements' frame.
    const frame = await t.request('POST', `/elements/v1/frame/${randomUUID()}/pay`, { body: { toString: 1 } });
    assert.ok(frame.status >= 400 && frame.status < 500, frame.text);
    assert.ok(frame.body.errors, frame.text);
  });

  it('refuses a body nested deeper than 32 levels with a 400 naming the field', async () => {
    const deep = (levels: number) => `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;
    for (const [url, extra] of [
      ['/v2/payment-sessions', '"amount":3'],
      ['/pay-int-api/payment-sessions', '"amount":3'],
    ] as const) {
      const refused = await t.request('POST', url, {
        token: m.token,
        payload: `{${extra},"metadata":${deep(3000)}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(refused.status, 400, `${url}: ${refused.text}`);
      assert.deepEqual(Object.keys(refused.body.errors), ['metadata']);
    }
    // An idempotent POST: refused before its key is claimed (the key stays free for the corrected request).
    const key = randomUUID();
    const refused = await t.request('POST', '/pay-api/v1/customers', {
      token: m.token,
      payload: `{"firstName":${deep(5000)}}`,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(Object.keys(refused.body.errors), ['firstName']);
    const created = await t.request('POST', '/pay-api/v1/customers', {
      token: m.token,
      body: { firstName: 'Ada' },
      headers: { 'idempotency-key': key },
    });
    assert.equal(created.status, 200, created.text);
    // 32 levels are fine (the metadata's own rules then apply).
    const shallow = await t.request('POST', '/v2/payment-sessions', {
      token: m.token,
      payload: `{"amount":3,"metadata":{"k":"v","deep":${deep(15)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.notEqual(shallow.status, 500, shallow.text);
    assert.ok(!('metadata' in (shallow.body.errors ?? {})) || !/nested/.test(shallow.text), shallow.text);
  });

  it('answers a URL over 16 KiB with 431 in the standard error body', async () => {
    const { port } = new URL(t.baseUrl);
    const response = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let text = '';
      socket.setTimeout(5000, () => socket.destroy(new Error('no answer in 5 s')));
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
      });
      socket.on('end', () => resolve(text));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(`GET /pay-api/v1/customers?search=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    });
    const [head, body] = response.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 431 /);
    assert.match(head!, /x-correlation-id: [0-9a-f-]{36}/i);
    const parsed = JSON.parse(body!);
    assert.equal(parsed.statusCode, 431);
    for (const field of ['errors', 'details', 'errorCode', 'title', 'correlationId']) assert.ok(field in parsed, field);
  });
});
