// The malformed inputs that once reached PostgreSQL unchecked (a 500 each), answered as the 400s they are, naming
// the field; the fuzz suite (fuzz.test.ts) covers the rest of the document at random.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('malformed input', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  const expect400 = async (
    method: string,
    url: string,
    field: string,
    options: { body?: unknown; token?: string } = {},
  ) => {
    const res = await t.request(method, url, { token: options.token ?? m.token, body: options.body });
    assert.equal(res.status, 400, `${method} ${url}: ${res.text}`);
    assert.ok(res.body.errors[field], `${method} ${url} names '${field}': ${res.text}`);
    assert.equal(res.body.statusCode, 400);
  };

  it('refuses a page beyond what can exist on every list', async () => {
    const lists = [
      ['/pay-api/v1/customers', m.token],
      ['/pay-api/v1/transactions', m.token],
      ['/pay-api/v1/settlements/batches', m.token],
      ['/v2/webhooks/endpoints', m.token],
      ['/v2/webhooks/delivery-logs', m.token],
      ['/admin/v1/ach/files', ADMIN_TOKEN],
    ] as const;
    for (const [url, token] of lists) {
      for (const page of ['1e20', '99999999999999999999', '10000001']) {
        await expect400('GET', `${url}?page=${page}`, 'page', { token });
      }
      const last = await t.request('GET', `${url}?page=10000000`, { token });
      assert.equal(last.status, 200, `${url}: the last possible page is an empty page`);
      assert.deepEqual(last.body.items ?? last.body.data, []);
    }
  });

  it('refuses NUL and other control characters in queries, path ids and bodies, naming the field', async () => {
    for (const url of ['/pay-api/v1/customers', '/pay-api/v1/transactions', '/v2/webhooks/delivery-logs']) {
      await expect400('GET', `${url}?search=%00`, 'search');
      await expect400('GET', `${url}?search=a%01b`, 'search');
    }
    await expect400('DELETE', `/pay-api/v1/merchants/tokens/%00?merchantId=${m.id}`, 'clientId');
    await expect400('DELETE', '/admin/v1/api-keys/%00', 'clientId', { token: ADMIN_TOKEN });
    await expect400('POST', '/admin/v1/partners', 'name', { body: { name: 'a\u0000b' }, token: ADMIN_TOKEN });
    await expect400('POST', '/pay-api/v1/customers', 'firstName', { body: { firstName: 'Ada\nLovelace' } });
    await expect400('POST', '/pay-api/v1/customers', 'billingAddress.line1', {
      body: { firstName: 'Ada', billingAddress: { line1: '\ud800' } },
    });
    // Free text keeps its line breaks.
    const session = await t.request('POST', '/v2/payment-sessions', {
      token: m.token,
      body: { amount: 1, paymentNotes: 'Two items:\n- a\n- b' },
    });
    assert.equal(session.status, 200, session.text);
    const idempotencyKey = await t.request('POST', '/v2/payment-sessions', {
      token: m.token,
      body: { amount: 1 },
      headers: { 'idempotency-key': 'a\u0001b' },
    });
    assert.equal(idempotencyKey.status, 400);
    assert.ok(idempotencyKey.body.errors['idempotency-key']);
  });

  it('answers a from-date in the future without a to-date with an empty page, on every list', async () => {
    const partner = await t.partner();
    await t.merchant({ partnerId: partner.id });
    const future = '2999-01-01';
    const lists = [
      [`/pay-api/v1/merchants?createdFrom=${future}`, partner.token],
      [`/pay-api/v1/merchants?modifiedFrom=${future}`, partner.token],
      [`/pay-api/v1/customers?dateFrom=${future}`, m.token],
      [`/pay-api/v1/transactions?dateFrom=${future}`, m.token],
      [`/pay-api/v1/settlements/batches?dateFrom=${future}`, m.token],
      [`/v2/webhooks/delivery-logs?fromDate=${future}`, m.token],
    ] as const;
    for (const [url, token] of lists) {
      const res = await t.request('GET', url, { token });
      assert.equal(res.status, 200, `${url}: ${res.text}`);
      assert.equal(res.body.total, 0, url);
    }
    // A pair sent in the wrong order is still refused, naming the from-field.
    await expect400('GET', `/pay-api/v1/transactions?dateFrom=${future}&dateTo=2026-01-01`, 'dateFrom');
  });

  it('runs a from alone to the present on recorded dates, and without end on the dates an invoice is scheduled by', async () => {
    const invoice = await t.expectOk(
      t.request('POST', '/pay-int-api/invoices', {
        token: m.token,
        body: {
          customer: { firstName: 'Ada', lastName: 'Lovelace' },
          lineItems: [{ productName: 'Later', quantity: 1, unitPrice: 10 }],
          issueDate: '2998-06-01T00:00:00Z',
          dueDate: '2998-07-01T00:00:00Z',
        },
      }),
    );
    const ids = async (query: string) =>
      (await t.expectOk(t.request('GET', `/pay-int-api/invoices?${query}`, { token: m.token }))).items.map(
        (i: { id: string }) => i.id,
      );
    // Issue and due dates are set by the merchant and are normally ahead: a from alone reaches every later one.
    assert.deepEqual(await ids('dueDateFrom=2998-01-01'), [invoice.id]);
    assert.deepEqual(await ids('issueDateFrom=2998-01-01'), [invoice.id]);
    // A payment date is recorded when a payment happens: nothing lies after the present.
    assert.deepEqual(await ids('paymentDateFrom=2998-01-01'), []);
  });

  it('answers a path the router cannot read in the standard error body', async () => {
    for (const url of ['/pay-api/v1/customers/%ff', `/pay-api/v1/customers/${'x'.repeat(300)}`]) {
      const res = await t.request('GET', url, { token: m.token });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.statusCode, 400);
      assert.ok(res.body.correlationId);
      assert.equal(res.headers['x-correlation-id'], res.body.correlationId);
    }
  });
});
