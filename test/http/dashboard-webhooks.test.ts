// Webhooks in the dashboard: the endpoints and the latest deliveries; a failed delivery retried from the page
// (through the webhooks service, as the API's retry) reaches the receiver; an analyst has no webhooks page.
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
});
