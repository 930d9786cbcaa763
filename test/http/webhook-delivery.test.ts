import assert from 'node:assert/strict';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { MAX_AUTOMATIC_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../../src/modules/webhooks/delivery-attempt.js';
import { WebhookSender } from '../../src/modules/webhooks/sender.js';
import { signature } from '../../src/modules/webhooks/signing.js';
import { claimDue, releaseLeases } from '../../src/modules/webhooks/webhooks.repo.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type Hit, type Receiver, startReceiver } from '../webhook-receiver.js';

const SALE = {
  amount: 12.34,
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

/** Our documented verification recipe (spec "Delivery rules" 4), independent of the signing code. */
function verifyByRecipe(secret: string, hit: Hit, prefix = 'Service'): boolean {
  const id = hit.headers[`${prefix.toLowerCase()}-webhook-id`] as string;
  const timestamp = hit.headers[`${prefix.toLowerCase()}-webhook-timestamp`] as string;
  const header = hit.headers[`${prefix.toLowerCase()}-webhook-signature`] as string;
  assert.ok(id && timestamp && header?.startsWith('v1,'), 'signature headers present');
  const expected = createHmac('sha256', secret).update(`${id}.${timestamp}.${hit.body}`).digest();
  const given = Buffer.from(header.slice(3), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('webhooks: signing', () => {
  it('matches the official Standard Webhooks test vector', () => {
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    assert.equal(
      signature(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });
});

describe('webhooks: endpoints and delivery', () => {
  let t: TestNode;
  let receiver: Receiver;
  let merchant: MerchantTenant;

  before(async () => {
    t = await startNode({ workers: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
    receiver = await startReceiver();
    merchant = await t.merchant();
  });
  after(async () => {
    await t.stop();
    await receiver.close();
  });

  const create = (token: string, body: Record<string, unknown>) =>
    t.request('POST', '/v2/webhooks/endpoints', { token, body });
  const sale = async (token: string) => {
    const res = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token,
      body: { ...SALE, referenceId: randomUUID() },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'Captured', res.text);
    return res.body.transactionId as string;
  };
  const logsOf = async (token: string, query: string) => {
    const res = await t.request('GET', `/v2/webhooks/delivery-logs?${query}`, { token });
    assert.equal(res.status, 200, res.text);
    return res.body as { items: any[]; total: number };
  };
  /** Moves the clock; access tokens expire on it, so the tenant gets a fresh one. */
  const advance = async (seconds: number, tenant?: MerchantTenant) => {
    const res = await t.admin('POST', '/admin/v1/clock/advance', { seconds });
    assert.equal(res.status, 200, res.text);
    if (tenant) tenant.token = (await t.token(tenant.clientId, tenant.clientSecret)).access_token;
  };

  it('refuses non-public and malformed targets, naming endpointUrl, before any connection', async () => {
    const refused = [
      'ftp://hooks.example.com/x',
      'not a url',
      'https://user:pass@hooks.example.com/x',
      'http://10.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fe80::1]/hook',
      'https://[fc00::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://0.0.0.0/hook',
      'https://224.0.0.1/hook',
      'https://100.64.0.1/hook',
      'https://[2001:db8::1]/hook',
    ];
    for (const endpointUrl of refused) {
      const res = await create(merchant.token, { name: 'x', endpointUrl, eventTypes: ['transaction.card.captured'] });
      assert.equal(res.status, 400, `${endpointUrl}: ${res.text}`);
      assert.ok(res.body.errors.endpointUrl, `${endpointUrl} names endpointUrl: ${res.text}`);
    }
    const before = receiver.hits.length;
    assert.equal(receiver.hits.length, before);
  });

  it('loopback is refused without WEBHOOK_ALLOW_PRIVATE_TARGETS, and plain http needs a loopback host', async () => {
    const strict = await startNode({ database: t.database });
    try {
      const other = await strict.merchant();
      for (const endpointUrl of [receiver.url, 'https://127.0.0.1/hook', 'https://localhost/hook', 'https://[::1]/x']) {
        const res = await strict.request('POST', '/v2/webhooks/endpoints', {
          token: other.token,
          body: { name: 'x', endpointUrl, eventTypes: ['transaction.card.captured'] },
        });
        assert.equal(res.status, 400, `${endpointUrl}: ${res.text}`);
        assert.ok(res.body.errors.endpointUrl);
      }
    } finally {
      await strict.stop();
    }
  });

  it('validates names and event types', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ endpointUrl: receiver.url, eventTypes: ['transaction.card.captured'] }, 'name'],
      [{ name: 'x', endpointUrl: receiver.url, eventTypes: [] }, 'eventTypes'],
      [{ name: 'x', endpointUrl: receiver.url }, 'eventTypes'],
      [{ name: 'x', endpointUrl: receiver.url, eventTypes: ['transaction.card.exploded'] }, 'eventTypes'],
      [{ name: 'x', endpointUrl: receiver.url, eventTypes: ['ping'] }, 'eventTypes'],
      [{ name: 'x', endpointUrl: receiver.url, eventTypes: ['merchant.created'] }, 'eventTypes'],
      [
        { name: 'x', endpointUrl: receiver.url, eventTypes: ['transaction.card.captured', 'payment.card.captured'] },
        'eventTypes',
      ],
      [{ name: 'x', eventTypes: ['transaction.card.captured'] }, 'endpointUrl'],
    ];
    for (const [body, field] of cases) {
      const res = await create(merchant.token, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.ok(res.body.errors[field], `${JSON.stringify(body)} names ${field}: ${res.text}`);
    }
  });

  it('shows the secret once, delivers signed messages that standardwebhooks verifies, with the subscribed names', async () => {
    const created = await create(merchant.token, {
      name: 'Orders',
      endpointUrl: `${receiver.url}/hooks`,
      eventTypes: ['transaction.card.authorized', 'payment.card.captured'],
    });
    assert.equal(created.status, 200, created.text);
    const endpoint = created.body;
    assert.equal(endpoint.status, 'Active');
    assert.equal(endpoint.webhookName, 'Orders');
    assert.match(endpoint.hmacSecret, /^[0-9a-f]{64}$/);
    assert.deepEqual(endpoint.eventTypes, ['transaction.card.authorized', 'payment.card.captured']);

    const fetched = await t.request('GET', `/v2/webhooks/endpoints/${endpoint.endpointId}`, { token: merchant.token });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.body.hmacSecret, undefined);
    assert.ok(!fetched.text.includes(endpoint.hmacSecret));
    const list = await t.request('GET', '/v2/webhooks/endpoints', { token: merchant.token });
    assert.ok(!list.text.includes(endpoint.hmacSecret));
    assert.ok(list.body.data.some((e: any) => e.endpointId === endpoint.endpointId));
    const [stored] = await t.query<{ secret_sealed: Buffer }>(
      'SELECT secret_sealed FROM webhook_endpoints WHERE id = $1',
      [endpoint.endpointId],
    );
    assert.ok(!stored!.secret_sealed.toString('latin1').includes(endpoint.hmacSecret), 'secret sealed at rest');

    const startedAt = receiver.hits.length;
    const transactionId = await sale(merchant.token);
    const hits = await eventually(async () => {
      const mine = receiver.hits.slice(startedAt).filter((h) => h.body.includes(transactionId));
      return mine.length >= 2 ? mine : undefined;
    }, 10_000);
    const verifier = new Webhook(endpoint.hmacSecret, { format: 'raw' });
    const types = new Set<string>();
    for (const hit of hits) {
      assert.equal(hit.headers['user-agent'], 'Service-Webhooks/1.0');
      assert.equal(hit.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(hit.headers['service-webhook-id'], hit.headers['webhook-id']);
      assert.equal(hit.headers['service-webhook-signature'], hit.headers['webhook-signature']);
      assert.ok(Math.abs(Number(hit.headers['service-webhook-timestamp']) - Date.now() / 1000) < 60, 'wall clock');
      assert.ok(verifyByRecipe(endpoint.hmacSecret, hit), 'recipe verifies');
      const payload = verifier.verify(hit.body, hit.headers as Record<string, string>) as any;
      assert.equal(payload.id, hit.headers['service-webhook-id']);
      assert.equal(payload.apiVersion, 'v2');
      assert.equal(typeof payload.created, 'number');
      assert.deepEqual(payload.data, { object: { id: transactionId, resourceType: 'transaction' } });
      assert.deepEqual(Object.keys(payload), ['id', 'type', 'created', 'apiVersion', 'data']);
      types.add(payload.type);
      // A tampered body fails verification.
      assert.throws(() => verifier.verify(`${hit.body} `, hit.headers as Record<string, string>));
    }
    assert.deepEqual([...types].sort(), ['payment.card.captured', 'transaction.card.authorized']);

    // The receiver answered before the outcome was written: wait for the log.
    const logs = await eventually(async () => {
      const found = await logsOf(merchant.token, `webhookId=${endpoint.endpointId}`);
      return found.items.length >= 2 ? found : undefined;
    });
    const success = logs.items.filter((l) => l.deliveryAttemptStatus === 'Success');
    assert.equal(success.length, 2, JSON.stringify(logs));
    for (const log of success) {
      assert.equal(log.attemptNumber, 1);
      assert.equal(log.nextRetryAt, null);
      assert.equal(log.responseStatusCode, 200);
      assert.equal(log.webhookName, 'Orders');
    }
    const detail = await t.request('GET', `/v2/webhooks/delivery-logs/${success[0].deliveryLogId}`, {
      token: merchant.token,
    });
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.responseBody, 'ok');
    assert.ok(detail.body.requestBody.includes(transactionId));
    assert.equal(detail.body.requestHeaders['Service-Webhook-ID'], detail.body.eventId);
    // Filter by event type under the other naming set, and search by the message id.
    const byAlias = await logsOf(
      merchant.token,
      `webhookId=${endpoint.endpointId}&eventType=transaction.card.captured`,
    );
    assert.equal(byAlias.total, 1);
    const bySearch = await logsOf(merchant.token, `search=${detail.body.eventId}`);
    assert.equal(bySearch.total, 1);
    await t.request('DELETE', `/v2/webhooks/endpoints/${endpoint.endpointId}`, { token: merchant.token });
  });

  it('follows the 7-attempt schedule on the clock, then fails for good; a manual retry is one more try', async () => {
    const other = await t.merchant();
    receiver.state.answer = (hit) => (hit.body.includes('"failing"') ? 200 : 503);
    const created = await create(other.token, {
      name: 'Flaky',
      endpointUrl: `${receiver.url}/flaky`,
      eventTypes: ['transaction.card.captured'],
    });
    const endpointId = created.body.endpointId as string;
    await sale(other.token);
    const attemptLogs = async (n: number) =>
      eventually(async () => {
        const logs = await logsOf(other.token, `webhookId=${endpointId}&asc=true&orderBy=attemptNumber`);
        return logs.items.length >= n ? logs.items : undefined;
      }, 10_000);
    let logs = await attemptLogs(1);
    for (let attempt = 1; attempt < MAX_AUTOMATIC_ATTEMPTS; attempt++) {
      const last = logs[attempt - 1];
      assert.equal(last.attemptNumber, attempt);
      assert.equal(last.deliveryAttemptStatus, 'Failure');
      assert.equal(last.responseStatusCode, 503);
      const delay = RETRY_DELAYS_SECONDS[attempt - 1]!;
      const gap = (Date.parse(last.nextRetryAt) - Date.parse(last.createdOn)) / 1000;
      assert.ok(Math.abs(gap - delay) < 2, `attempt ${attempt}: next retry after ${gap}s, expected ${delay}s`);
      // Not due yet: nothing happens before the delay is over.
      await advance(delay - 5, other);
      await t.drain();
      assert.equal((await logsOf(other.token, `webhookId=${endpointId}`)).total, attempt);
      await advance(5, other);
      logs = await attemptLogs(attempt + 1);
    }
    assert.equal(logs.length, MAX_AUTOMATIC_ATTEMPTS);
    const final = logs[MAX_AUTOMATIC_ATTEMPTS - 1];
    assert.equal(final.attemptNumber, 7);
    assert.equal(final.nextRetryAt, null);
    const [delivery] = await t.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpointId],
    );
    assert.equal(delivery!.status, 'Failed');
    await advance(48 * 3600, other);
    await t.drain();
    assert.equal((await logsOf(other.token, `webhookId=${endpointId}`)).total, 7, 'nothing after the 7th');

    // Manual retry: one try, logged as attempt 8; a failure changes nothing, a success delivers.
    const retry = await t.request('POST', `/v2/webhooks/delivery-logs/${final.deliveryLogId}/retry`, {
      token: other.token,
    });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.attemptNumber, 8);
    assert.equal(retry.body.status, 'Failure');
    assert.equal(retry.body.isManualRetry, true);
    receiver.state.answer = () => 200;
    const again = await t.request('POST', `/v2/webhooks/delivery-logs/${final.deliveryLogId}/retry`, {
      token: other.token,
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.attemptNumber, 9);
    assert.equal(again.body.deliveryAttemptStatus, 'Success');
    const refusedSuccess = await t.request('POST', `/v2/webhooks/delivery-logs/${again.body.deliveryLogId}/retry`, {
      token: other.token,
    });
    assert.equal(refusedSuccess.status, 400, refusedSuccess.text);
    const refusedDelivered = await t.request('POST', `/v2/webhooks/delivery-logs/${final.deliveryLogId}/retry`, {
      token: other.token,
    });
    assert.equal(refusedDelivered.status, 400, refusedDelivered.text);
    await advance(48 * 3600, other);
    await t.drain();
    assert.equal((await logsOf(other.token, `webhookId=${endpointId}`)).total, 9, 'manual retries schedule nothing');
  });

  it('delivers an event whose time has microseconds once, and marks its delivery delivered', async () => {
    // A delivery is found again by its time (the partition key), which a JavaScript Date would cut to milliseconds.
    const other = await t.merchant();
    receiver.state.answer = () => 200;
    const created = await create(other.token, {
      name: 'Microseconds',
      endpointUrl: `${receiver.url}/micro`,
      eventTypes: ['transaction.card.captured'],
    });
    await t.query(
      `INSERT INTO events (id, type, merchant_id, resource_type, resource_id, occurred_at)
       VALUES (gen_random_uuid(), 'transaction.card.captured', $1, 'transaction', 'micro',
               date_trunc('millisecond', now()) + interval '123 microseconds')`,
      [other.id],
    );
    await t.drain();
    const deliveries = await t.query<{ status: string; attempts: number; locked_by: string | null; micros: number }>(
      `SELECT status, attempts, locked_by, (extract(microseconds FROM created_at)::int % 1000) AS micros
       FROM webhook_deliveries WHERE endpoint_id = $1`,
      [created.body.endpointId],
    );
    assert.deepEqual(deliveries, [{ status: 'Delivered', attempts: 1, locked_by: null, micros: 123 }]);
    assert.equal((await logsOf(other.token, `webhookId=${created.body.endpointId}`)).total, 1);
  });

  it("claims a delivery due later within the claim's own millisecond (a time with microseconds)", async () => {
    const other = await t.merchant();
    const created = await create(other.token, {
      name: 'Within the millisecond',
      endpointUrl: `${receiver.url}/within`,
      eventTypes: ['transaction.card.captured'],
    });
    // An hour ahead of the business clock, so no worker's claim takes it first; 500 µs into that millisecond.
    const at = new Date(t.ctx.clock.nowMs() + 3600_000);
    await t.query(
      `INSERT INTO events (id, type, merchant_id, resource_type, resource_id, occurred_at)
       VALUES (gen_random_uuid(), 'transaction.card.captured', $1, 'transaction', 'within',
               $2::timestamptz + interval '500 microseconds')`,
      [other.id, at],
    );
    const claimed = await claimDue(t.ctx.pool, {
      now: at,
      limit: 100,
      lockedBy: 'test-claim',
      leaseMs: 60_000,
      perEndpoint: 100,
      busy: new Map(),
    });
    await releaseLeases(
      t.ctx.pool,
      claimed.map((delivery) => delivery.id),
      'test-claim',
    );
    const mine = claimed.filter((delivery) => delivery.endpoint_id === created.body.endpointId);
    await t.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [created.body.endpointId]);
    assert.equal(mine.length, 1, 'due at the claim: it came due within the same millisecond');
  });

  it('ping: 200 with the outcome, logged, not retryable', async () => {
    const other = await t.merchant();
    const created = await create(other.token, {
      name: 'Ping me',
      endpointUrl: `${receiver.url}/ping`,
      eventTypes: ['transaction.card.voided'],
    });
    const endpointId = created.body.endpointId as string;
    receiver.state.answer = () => 200;
    const ok = await t.request('POST', `/v2/webhooks/endpoints/${endpointId}/ping`, { token: other.token });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.success, true);
    assert.equal(ok.body.statusCode, 200);
    receiver.state.answer = () => 500;
    const failed = await t.request('GET', `/v2/webhooks/endpoints/${endpointId}/ping`, { token: other.token });
    assert.equal(failed.status, 200, failed.text);
    assert.equal(failed.body.success, false);
    assert.equal(failed.body.statusCode, 500);
    receiver.state.answer = () => 200;
    const log = await t.request('GET', `/v2/webhooks/delivery-logs/${failed.body.deliveryLogId}`, {
      token: other.token,
    });
    assert.equal(log.body.eventType, 'ping');
    assert.equal(log.body.isPing, true);
    const retry = await t.request('POST', `/v2/webhooks/delivery-logs/${failed.body.deliveryLogId}/retry`, {
      token: other.token,
    });
    assert.equal(retry.status, 400, retry.text);
    assert.match(retry.text, /Ping/);
    // A closed port: the ping fails, it does not error.
    const closed = await create(other.token, {
      name: 'Nobody home',
      endpointUrl: 'http://127.0.0.1:9/x',
      eventTypes: ['transaction.card.voided'],
    });
    const refused = await t.request('POST', `/v2/webhooks/endpoints/${closed.body.endpointId}/ping`, {
      token: other.token,
    });
    assert.equal(refused.status, 200, refused.text);
    assert.equal(refused.body.success, false);
    assert.equal(refused.body.statusCode, null);
    assert.ok(refused.body.errorMessage);
  });

  it('deleting (or deactivating) an endpoint cancels its scheduled retries and keeps its logs', async () => {
    const other = await t.merchant();
    receiver.state.answer = () => 500;
    const endpoints = [];
    for (const name of ['Deleted', 'Deactivated']) {
      const created = await create(other.token, {
        name,
        endpointUrl: `${receiver.url}/${name}`,
        eventTypes: ['transaction.card.captured'],
      });
      endpoints.push(created.body.endpointId as string);
    }
    await sale(other.token);
    const firstLogs = await eventually(async () => {
      const logs = await logsOf(other.token, '');
      return logs.items.length >= 2 ? logs : undefined;
    }, 10_000);
    assert.ok(firstLogs.items.every((l: any) => l.nextRetryAt !== null));
    assert.equal(
      (await t.request('DELETE', `/v2/webhooks/endpoints/${endpoints[0]}`, { token: other.token })).status,
      200,
    );
    const patched = await t.request('PATCH', `/v2/webhooks/endpoints/${endpoints[1]}`, {
      token: other.token,
      body: { status: 'Inactive' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.status, 'Inactive');
    assert.equal(patched.body.webhookName, 'Deactivated');
    await advance(120, other);
    await t.drain();
    const after = await logsOf(other.token, '');
    assert.equal(after.total, 2, 'no further attempts');
    const gone = await t.request('GET', `/v2/webhooks/endpoints/${endpoints[0]}`, { token: other.token });
    assert.equal(gone.status, 404);
    const statuses = await t.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE endpoint_id = ANY($1)',
      [endpoints],
    );
    assert.deepEqual(
      statuses.map((s) => s.status),
      ['Cancelled', 'Cancelled'],
    );
    const retry = await t.request('POST', `/v2/webhooks/delivery-logs/${after.items[0].deliveryLogId}/retry`, {
      token: other.token,
    });
    assert.equal(retry.status, 400, retry.text);
    // PUT replaces: name, URL and event types are required.
    const put = await t.request('PUT', `/v2/webhooks/endpoints/${endpoints[1]}`, {
      token: other.token,
      body: { name: 'Back', endpointUrl: `${receiver.url}/back`, eventTypes: ['payment.card.voided'] },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.status, 'Active');
    assert.deepEqual(put.body.eventTypes, ['payment.card.voided']);
    const incomplete = await t.request('PUT', `/v2/webhooks/endpoints/${endpoints[1]}`, {
      token: other.token,
      body: { name: 'Back' },
    });
    assert.equal(incomplete.status, 400, incomplete.text);
    receiver.state.answer = () => 200;
  });

  it('partners get their merchants events; merchants and partners see only their own endpoints and logs', async () => {
    receiver.state.answer = () => 200;
    const partner = await t.partner();
    const partnered = await t.merchant({ partnerId: partner.id });
    const stranger = await t.merchant();
    const partnerEndpoint = await create(partner.token, {
      name: 'Partner hook',
      endpointUrl: `${receiver.url}/partner`,
      eventTypes: ['merchant.created', 'transaction.card.captured', 'api_key.created'],
    });
    assert.equal(partnerEndpoint.status, 200, partnerEndpoint.text);
    const merchantEndpoint = await create(partnered.token, {
      name: 'Merchant hook',
      endpointUrl: `${receiver.url}/merchant`,
      eventTypes: ['transaction.card.captured', 'api_key.created'],
    });
    const before = receiver.hits.length;
    const transactionId = await sale(partnered.token);
    await t.merchant({ partnerId: partner.id });
    await t.admin('POST', '/admin/v1/api-keys', { merchantId: partnered.id });
    await eventually(async () => ((await logsOf(partner.token, '')).items.length >= 4 ? true : undefined), 10_000);
    await eventually(async () => ((await logsOf(partnered.token, '')).items.length >= 1 ? true : undefined), 10_000);
    // A wrongly routed delivery would have been attempted once everything due has run.
    await t.drain();
    const partnerLogs = await logsOf(partner.token, '');
    const partnerTypes = partnerLogs.items.map((l) => l.eventType).sort();
    // The second merchant's creation and its key, the first merchant's new key, the sale.
    assert.deepEqual(partnerTypes, [
      'api_key.created',
      'api_key.created',
      'merchant.created',
      'transaction.card.captured',
    ]);
    const merchantLogs = await logsOf(partnered.token, '');
    // api_key.* about a partner's merchant go to the partner only.
    assert.deepEqual(
      merchantLogs.items.map((l) => l.eventType),
      ['transaction.card.captured'],
    );
    assert.ok(merchantLogs.items[0].webhookEndpointId === merchantEndpoint.body.endpointId);
    assert.ok(partnerLogs.items.some((l) => l.eventType === 'transaction.card.captured'));
    assert.ok(receiver.hits.slice(before).some((h) => h.body.includes(transactionId)));

    // Cross-tenant: 404 for endpoints and logs, empty lists.
    for (const token of [stranger.token, partnered.token]) {
      const res = await t.request('GET', `/v2/webhooks/endpoints/${partnerEndpoint.body.endpointId}`, { token });
      assert.equal(res.status, 404);
      const log = await t.request('GET', `/v2/webhooks/delivery-logs/${partnerLogs.items[0].deliveryLogId}`, { token });
      assert.equal(log.status, 404);
    }
    const strangerLogs = await logsOf(stranger.token, '');
    assert.equal(strangerLogs.total, 0);
    const partnerView = await t.request('GET', `/v2/webhooks/endpoints/${merchantEndpoint.body.endpointId}`, {
      token: partner.token,
    });
    assert.equal(partnerView.status, 404);
  });

  it('exports the log as CSV and JSON with the filters', async () => {
    const other = await t.merchant();
    receiver.state.answer = () => 200;
    await create(other.token, {
      name: '=HYPERLINK("x")',
      endpointUrl: `${receiver.url}/export`,
      eventTypes: ['transaction.card.authorized', 'transaction.card.captured'],
    });
    await sale(other.token);
    await sale(other.token);
    await eventually(async () => ((await logsOf(other.token, '')).items.length >= 4 ? true : undefined), 10_000);
    const json = await t.request(
      'GET',
      '/v2/webhooks/delivery-logs/export?format=JSON&eventType=payment.card.captured',
      {
        token: other.token,
      },
    );
    assert.equal(json.status, 200, json.text);
    assert.match(String(json.headers['content-type']), /application\/json/);
    assert.equal(json.body.length, 2);
    assert.ok(json.body.every((l: any) => l.eventType === 'transaction.card.captured'));
    const csv = await t.request('GET', '/v2/webhooks/delivery-logs/export', { token: other.token });
    assert.equal(csv.status, 200, csv.text);
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines.length, 5);
    assert.ok(lines[0]!.startsWith('deliveryLogId,webhookEndpointId,webhookName'));
    assert.ok(
      lines.slice(1).every((line) => line.includes(`"'=HYPERLINK(""x"")"`)),
      csv.text,
    );
    const bad = await t.request('GET', '/v2/webhooks/delivery-logs/export?format=xml', { token: other.token });
    assert.equal(bad.status, 400);
  });
});

describe('webhooks: the connection guard', () => {
  it('refuses loopback at connect time when it is not allowed, before any byte is sent', async () => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({ allowLoopback: false }, 2000);
    try {
      const port = new URL(receiver.url).port;
      const urls = [`http://localhost:${port}/x`, receiver.url, `http://[::1]:${port}/x`];
      // Twice each: the second post of a URL is decided by what the sender remembers of it.
      for (const url of [...urls, ...urls]) {
        const outcome = await sender.post(url, { 'content-type': 'application/json' }, '{}');
        assert.equal(outcome.delivered, false);
        assert.match(outcome.errorMessage ?? '', /Blocked/, url);
      }
      assert.equal(receiver.hits.length, 0);
      const allowed = new WebhookSender({ allowLoopback: true }, 2000);
      for (let i = 0; i < 2; i++) {
        const outcome = await allowed.post(`http://localhost:${port}/x`, {}, '{}');
        assert.equal(outcome.delivered, true, outcome.errorMessage ?? '');
      }
      assert.equal(receiver.hits.length, 2);
      await allowed.close();
    } finally {
      await sender.close();
      await receiver.close();
    }
  });

  it('does not follow redirects, and reads at most 16 KiB of an answer', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const server = http.createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: '/elsewhere' }).end();
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' }).end(big);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sender = new WebhookSender({ allowLoopback: true }, 2000);
    try {
      const redirected = await sender.post(`${base}/redirect`, {}, '{}');
      assert.equal(redirected.delivered, false);
      assert.equal(redirected.statusCode, 302);
      const large = await sender.post(`${base}/large`, {}, '{}');
      assert.equal(large.delivered, true);
      assert.equal(large.responseBody?.length, 16 * 1024);
    } finally {
      await sender.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('a worker that may not reach loopback blocks a delivery to an endpoint saved where it could', async () => {
    const receiver = await startReceiver();
    const api = await startNode({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    const worker = await startNode({ database: api.database, workers: true });
    try {
      const merchant = await api.merchant();
      const created = await api.request('POST', '/v2/webhooks/endpoints', {
        token: merchant.token,
        body: { name: 'x', endpointUrl: receiver.url, eventTypes: ['transaction.card.captured'] },
      });
      assert.equal(created.status, 200, created.text);
      const sold = await api.request('POST', '/pay-api/v1/transactions/sale', { token: merchant.token, body: SALE });
      assert.equal(sold.status, 200, sold.text);
      const log = await eventually(async () => {
        const res = await api.request('GET', '/v2/webhooks/delivery-logs', { token: merchant.token });
        return res.body.items[0];
      }, 10_000);
      assert.equal(log.deliveryAttemptStatus, 'Failure');
      assert.match(log.errorMessage, /Blocked/);
      assert.equal(receiver.hits.length, 0);
    } finally {
      await worker.stop();
      await api.stop();
      await receiver.close();
    }
  });
});

describe('webhooks: a slow endpoint', () => {
  it('does not hold up deliveries to the others', async () => {
    const receiver = await startReceiver();
    // Every answer on /slow takes 1.5 s; with 4 attempts in flight and at most 2 per endpoint, /fast keeps moving.
    receiver.state.delayMs = 0;
    const slowServer = http.createServer((_request, response) => {
      setTimeout(() => response.writeHead(200).end('late'), 1500);
    });
    await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
    const slowUrl = `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/slow`;
    const t = await startNode({
      workers: true,
      env: {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
      },
    });
    try {
      const merchant = await t.merchant();
      for (const [name, endpointUrl] of [
        ['slow', slowUrl],
        ['fast', `${receiver.url}/fast`],
      ]) {
        await t.expectOk(
          t.request('POST', '/v2/webhooks/endpoints', {
            token: merchant.token,
            body: { name, endpointUrl, eventTypes: ['transaction.card.captured'] },
          }),
        );
      }
      const started = Date.now();
      for (let i = 0; i < 6; i++) {
        await t.expectOk(
          t.request('POST', '/pay-api/v1/transactions/sale', {
            token: merchant.token,
            body: { ...SALE, referenceId: randomUUID() },
          }),
        );
      }
      const lastSale = Date.now();
      // Six slow deliveries two at a time take 4.5 s. Without the per-endpoint share the slow ones would fill all
      // four slots by the fourth sale and the last fast ones would wait 1.5 s for a slot; with it they go at once.
      await eventually(async () => receiver.hits.length >= 6, 3000);
      assert.ok(Date.now() - lastSale < 1000, `fast endpoint waited ${Date.now() - lastSale} ms after the last sale`);
      assert.ok(Date.now() - started < 3000);
      const [slow] = await t.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.name = 'slow' AND d.status = 'Delivered'",
      );
      assert.ok(slow!.n < 6, 'the slow endpoint was still being served');
    } finally {
      await t.stop();
      slowServer.closeAllConnections();
      slowServer.close();
      await receiver.close();
    }
  });
});
