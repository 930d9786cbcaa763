// Webhooks in the dashboard: the endpoints and the latest deliveries; a failed delivery retried from the page
// (through the webhooks service, as the API's retry) reaches the receiver; an analyst has no webhooks page. An
// endpoint added from a form (its signing secret shown once), changed, pinged (the ping's request and answer on the
// delivery's page) and deleted; a bad URL or no event type refused with the API's reason; another merchant's 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

describe('dashboard webhooks', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    t = await startNode({ workers: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
    m = await t.merchant();
    receiver = await startReceiver();
  });
  after(async () => {
    await t.stop();
    await receiver.close();
  });

  it('shows a failed delivery and retries it from the page', async () => {
    receiver.state.answer = () => 503;
    const endpoint = await t.request('POST', '/v2/webhooks/endpoints', {
      token: m.token,
      body: { name: 'orders', endpointUrl: `${receiver.url}/hook`, eventTypes: ['transaction.card.captured'] },
    });
    assert.equal(endpoint.status, 200, endpoint.text);
    const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      body: {
        amount: 11,
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
        securityCode: '123',
        billingAddress: { line1: '123 Test St', postalCode: '10001' },
      },
    });
    assert.equal(sale.status, 200, sale.text);
    await eventually(async () => receiver.hits.length >= 1, 15_000);
    const dev = await dashboardSession(t, { merchantId: m.id }, 'developer');
    let page = await dev.get('/dashboard/webhooks');
    await eventually(async () => {
      page = await dev.get('/dashboard/webhooks');
      return /Failure \(503\)/.test(page.text);
    }, 15_000);
    assert.match(page.text, /orders/);
    const logId = /\/dashboard\/webhooks\/logs\/([0-9a-f-]{36})\/retry/.exec(page.text)![1]!;
    receiver.state.answer = () => 200;
    const before = receiver.hits.length;
    const retried = await dev.post(`/dashboard/webhooks/logs/${logId}/retry`, { csrf: field(page.text, 'csrf') });
    assert.equal(retried.status, 303, retried.text);
    assert.match(decodeURIComponent(String(retried.headers.location)), /Retried: Success \(200\)/);
    assert.ok(receiver.hits.length > before, 'the receiver got the retry');
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.equal((await analyst.get('/dashboard/webhooks')).status, 403);
    const other = await t.merchant();
    const stranger = await dashboardSession(t, { merchantId: other.id }, 'owner');
    const strangerPage = await stranger.get('/dashboard/webhooks');
    assert.equal(
      (await stranger.post(`/dashboard/webhooks/logs/${logId}/retry`, { csrf: field(strangerPage.text, 'csrf') }))
        .status,
      404,
      "another merchant's delivery",
    );
  });

  it('adds, changes, pings and deletes an endpoint from the pages', async () => {
    receiver.state.answer = () => 200;
    const dev = await dashboardSession(t, { merchantId: m.id }, 'developer');
    const page = await dev.get('/dashboard/webhooks');
    assert.match(page.text, /Add an endpoint/);
    const csrf = field(page.text, 'csrf');
    const none = await dev.post('/dashboard/webhooks/endpoints', { csrf, name: 'kitchen', url: `${receiver.url}/k` });
    assert.equal(none.status, 400);
    assert.match(none.text, /at least one event type/);
    assert.match(none.text, /value="kitchen"/, 'what was typed is kept');
    const badUrl = await dev.post('/dashboard/webhooks/endpoints', {
      csrf,
      name: 'kitchen',
      url: 'ftp://example.com/x',
      eventTypes: 'transaction.card.captured',
    });
    assert.equal(badUrl.status, 400);
    const body = new URLSearchParams({ csrf, name: 'kitchen', url: `${receiver.url}/k` });
    body.append('eventTypes', 'transaction.card.captured');
    body.append('eventTypes', 'transaction.card.refunded');
    const created = await t.request('POST', '/dashboard/webhooks/endpoints', {
      payload: body.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: dev.cookie },
    });
    assert.equal(created.status, 200, created.text);
    const secret = /id="new-signing-secret">([^<]+)</.exec(created.text)?.[1];
    assert.match(secret ?? '', /^[0-9a-f]{64}$/);
    const id = /action="\/dashboard\/webhooks\/endpoints\/([0-9a-f-]{36})\/ping"/.exec(created.text)![1]!;
    const api = await t.ok(m, 'GET', `/v2/webhooks/endpoints/${id}`);
    assert.deepEqual(api.eventTypes, ['transaction.card.captured', 'transaction.card.refunded']);
    const again = await dev.get(`/dashboard/webhooks/endpoints/${id}`);
    assert.equal(again.text.includes(secret!), false, 'the secret is shown once');

    const changed = await dev.post(`/dashboard/webhooks/endpoints/${id}`, {
      csrf,
      name: 'kitchen display',
      url: `${receiver.url}/k2`,
      eventTypes: 'transaction.card.voided',
      status: 'Active',
    });
    assert.equal(changed.status, 303, changed.text);
    const after = await t.ok(m, 'GET', `/v2/webhooks/endpoints/${id}`);
    assert.deepEqual([after.name, after.eventTypes], ['kitchen display', ['transaction.card.voided']]);

    const before = receiver.hits.length;
    const pinged = await dev.post(`/dashboard/webhooks/endpoints/${id}/ping`, { csrf });
    assert.equal(pinged.status, 303);
    assert.match(decodeURIComponent(String(pinged.headers.location)), /answered 200/);
    assert.equal(receiver.hits.length, before + 1);
    const list = await dev.get('/dashboard/webhooks');
    const logId = /href="\/dashboard\/webhooks\/logs\/([0-9a-f-]{36})"/.exec(list.text)![1]!;
    const detail = await dev.get(`/dashboard/webhooks/logs/${logId}`);
    assert.equal(detail.status, 200);
    assert.match(detail.text, /Delivery of ping/);
    assert.match(detail.text, /webhook-signature/);
    assert.match(detail.text, /ok<\/pre>/, 'the answer body');

    const stranger = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    assert.equal((await stranger.get(`/dashboard/webhooks/endpoints/${id}`)).status, 404);
    assert.equal((await stranger.get(`/dashboard/webhooks/logs/${logId}`)).status, 404);
    const strangerCsrf = field((await stranger.get('/dashboard/webhooks')).text, 'csrf');
    assert.equal(
      (await stranger.post(`/dashboard/webhooks/endpoints/${id}/delete`, { csrf: strangerCsrf, confirm: 'yes' }))
        .status,
      404,
    );
    assert.equal((await dev.post(`/dashboard/webhooks/endpoints/${id}/delete`, { csrf })).status, 400, 'unconfirmed');
    assert.equal((await dev.post(`/dashboard/webhooks/endpoints/${id}/delete`, { csrf, confirm: 'yes' })).status, 303);
    assert.equal((await t.request('GET', `/v2/webhooks/endpoints/${id}`, { token: m.token })).status, 404);
  });
});
