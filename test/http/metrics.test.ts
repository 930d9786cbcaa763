// What /metrics tells an operator (docs/operations.md, "Metrics"): card operations by connector and outcome with
// their latency and the outcomes left unknown, webhook attempts and how late they started, job queues, ACH files by
// state and the long-polls a node holds. Each figure is read after the thing it counts happened.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';

const SALE = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};
const DECLINED = '4000000010050005';

/** One sample's value from the text format, 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('operator metrics', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let receiver: Receiver;
  const metrics = async () => {
    const res = await t.request('GET', '/metrics');
    assert.equal(res.status, 200);
    return res.text;
  };

  before(async () => {
    t = await startNode({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    m = await t.merchant();
    receiver = await startReceiver();
  });
  after(async () => {
    await t.stop();
    await receiver.close();
  });

  it('counts card operations by connector and outcome, with their latency', async () => {
    const before = await metrics();
    const labels = { connector: 'sandbox-card', operation: 'sale' };
    await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { ...SALE, amount: 10, referenceId: randomUUID() });
    await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { ...SALE, amount: 11, referenceId: randomUUID() });
    const declined = await t.call(m, 'POST', '/pay-api/v1/transactions/sale', {
      ...SALE,
      accountNumber: DECLINED,
      amount: 12,
      referenceId: randomUUID(),
    });
    assert.ok(declined.status < 500, declined.text);
    const now = await metrics();
    const delta = (name: string, extra: Record<string, string> = {}) =>
      sample(now, name, { ...labels, ...extra }) - sample(before, name, { ...labels, ...extra });
    assert.equal(delta('tessera_payments_total', { outcome: 'approved' }), 2);
    assert.equal(delta('tessera_payments_total', { outcome: 'declined' }), 1);
    assert.equal(delta('tessera_connector_call_duration_seconds_count'), 3);
    assert.equal(delta('tessera_connector_unknown_outcomes_total'), 0);
  });

  it('counts an operation whose answer came too late as unknown', async () => {
    const slow = await startNode({
      database: t.database,
      env: { SANDBOX_CARD_LATENCY_MS: '2000', CONNECTOR_TIMEOUT_MS: '500' },
    });
    try {
      const tenant = await slow.merchant();
      await slow.call(tenant, 'POST', '/pay-api/v1/transactions/sale', {
        ...SALE,
        amount: 13,
        referenceId: randomUUID(),
      });
      const text = (await slow.request('GET', '/metrics')).text;
      const labels = { connector: 'sandbox-card', operation: 'sale' };
      assert.equal(sample(text, 'tessera_payments_total', { ...labels, outcome: 'timeout' }), 1);
      assert.equal(sample(text, 'tessera_connector_unknown_outcomes_total', labels), 1);
    } finally {
      await slow.stop();
    }
  });

  it('counts webhook attempts and how late they started', async () => {
    const endpoint = await t.request('POST', '/v2/webhooks/endpoints', {
      token: m.token,
      body: { name: 'metrics', endpointUrl: receiver.url, eventTypes: ['transaction.card.captured'] },
    });
    assert.ok(endpoint.status < 300, endpoint.text);
    const before = await metrics();
    await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { ...SALE, amount: 14, referenceId: randomUUID() });
    await t.drain();
    const now = await metrics();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(now, name, labels) - sample(before, name, labels);
    assert.equal(delta('tessera_webhook_attempts_total', { outcome: 'delivered' }), 1);
    assert.equal(delta('tessera_webhook_delivery_lag_seconds_count'), 1);
    assert.equal(sample(now, 'tessera_webhook_deliveries_due'), 0);
  });

  it('reads the job queues, ACH files and long-polls at each scrape', async () => {
    await t.query("INSERT INTO jobs (queue, run_at) VALUES ('test.metrics', now() - interval '90 seconds')");
    await t.query(
      "INSERT INTO jobs (queue, run_at, failed_at, last_error) VALUES ('test.metrics', now(), now(), 'gave up')",
    );
    try {
      const text = await metrics();
      assert.equal(sample(text, 'tessera_jobs_due', { queue: 'test.metrics' }), 1);
      assert.ok(sample(text, 'tessera_jobs_oldest_due_seconds', { queue: 'test.metrics' }) >= 90);
      assert.equal(sample(text, 'tessera_jobs_failed', { queue: 'test.metrics' }), 1);
      assert.match(text, /# TYPE tessera_ach_files_by_state gauge/);
      assert.match(text, /^tessera_pos_long_polls_held 0$/m);
    } finally {
      await t.query("DELETE FROM jobs WHERE queue = 'test.metrics'");
    }
  });
});
