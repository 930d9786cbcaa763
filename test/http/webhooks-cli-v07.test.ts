// The vendor's webhooks CLI 0.7 as it speaks to /v2 (the published revision's names): endpoints created and read as
// endpointName/endpointStatus, lists read as items + pageInfo (with pageIndex and without), a bodyless ping
// (Content-Length 0) read as isDelivered/endpointHTTPResponseCode, delivery logs filtered by endpointId and
// deliveryLogStatus and read as deliveryLogStatus/endpointHTTPResponseCode/endpointId; the older names still answered
// beside them, so the older clients keep working.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

describe('the webhooks CLI 0.7 against /v2/webhooks', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    t = await startNode({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    m = await t.merchant();
    receiver = await startReceiver();
  });
  after(async () => {
    await t.stop();
    await receiver.close();
  });

  /** A bodyless POST as the CLI sends it: an empty body with Content-Length 0 and no content type. */
  const bodyless = (url: string) =>
    t.request('POST', url, {
      token: m.token,
      payload: '',
      headers: { 'content-length': '0', accept: 'application/json' },
    });

  it('creates, lists, pauses, pings and reads the logs in the published names', async () => {
    const created = await t.request('POST', '/v2/webhooks/endpoints', {
      token: m.token,
      body: { endpointName: 'cli', endpointUrl: `${receiver.url}/cli`, eventTypes: ['transaction.card.captured'] },
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.endpointId as string;
    assert.equal(created.body.endpointName, 'cli');
    assert.equal(created.body.endpointStatus, 'Active');
    assert.ok(created.body.hmacSecret);
    assert.ok(created.body.createdOn);
    assert.equal(created.body.name, 'cli', 'the older name beside it');

    for (const query of ['?pageIndex=0&pageSize=20', '']) {
      const listed = await t.request('GET', `/v2/webhooks/endpoints${query}`, { token: m.token });
      assert.equal(listed.status, 200);
      assert.equal(listed.body.items[0].endpointName, 'cli');
      assert.deepEqual(listed.body.pageInfo, {
        pageIndex: 0,
        pageSize: 20,
        totalItems: 1,
        totalPages: 1,
        hasMore: false,
      });
      assert.equal(listed.body.data.length, 1, 'the older envelope beside it');
    }
    const paused = await t.request('PATCH', `/v2/webhooks/endpoints/${id}`, {
      token: m.token,
      body: { endpointStatus: 'Inactive' },
    });
    assert.equal(paused.status, 200, paused.text);
    assert.equal(paused.body.endpointStatus, 'Inactive');
    const renamed = await t.request('PATCH', `/v2/webhooks/endpoints/${id}`, {
      token: m.token,
      body: { endpointName: 'cli 2', endpointStatus: 'Active' },
    });
    assert.deepEqual([renamed.body.endpointName, renamed.body.endpointStatus], ['cli 2', 'Active']);

    const ping = await bodyless(`/v2/webhooks/endpoints/${id}/ping`);
    assert.equal(ping.status, 200, ping.text);
    assert.equal(ping.body.isDelivered, true);
    assert.equal(ping.body.endpointHTTPResponseCode, 200);
    assert.equal(typeof ping.body.roundTripDurationMs, 'number');

    const logs = await t.request(
      'GET',
      `/v2/webhooks/delivery-logs?pageIndex=0&pageSize=10&endpointId=${id}&deliveryLogStatus=Success`,
      { token: m.token },
    );
    assert.equal(logs.status, 200, logs.text);
    assert.equal(logs.body.pageInfo.totalItems, 1);
    const log = logs.body.items[0];
    assert.deepEqual(
      [log.endpointId, log.endpointName, log.deliveryLogStatus, log.endpointHTTPResponseCode, log.eventType],
      [id, 'cli 2', 'Success', 200, 'ping'],
    );
    const byCode = await t.request('GET', '/v2/webhooks/delivery-logs?endpointHTTPResponseCode=500', {
      token: m.token,
    });
    assert.equal(byCode.body.pageInfo.totalItems, 0);
    assert.equal(
      (await t.request('GET', '/v2/webhooks/delivery-logs?deliveryLogStatus=Pending', { token: m.token })).status,
      400,
    );
    const retried = await bodyless(`/v2/webhooks/delivery-logs/${log.deliveryLogId}/retry`);
    assert.equal(retried.status, 400, 'a ping is not retried');

    const types = await t.request('GET', '/v2/webhooks/event-types', { token: m.token });
    assert.ok(
      types.body.items.some(
        (e: { eventType: string; group: string }) => e.eventType === 'transaction.card.captured' && e.group,
      ),
    );

    assert.equal((await t.request('DELETE', `/v2/webhooks/endpoints/${id}`, { token: m.token })).status, 200);
    assert.equal((await t.request('DELETE', `/v2/webhooks/endpoints/${id}`, { token: m.token })).status, 404);
  });
});
