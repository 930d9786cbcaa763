// OpenTelemetry traces as a collector receives them: a real OTLP/HTTP receiver on loopback, a node exporting to it
// (OTEL_EXPORTER_OTLP_ENDPOINT), and the exported spans read back. A request's server span carries its route and
// correlation id and continues the caller's trace; the database statements and the card connector call nest under
// it; jobs and webhook attempts have spans of their own; and no card number, security code, secret or token is in
// anything exported.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: OtlpValue }>;
}

function attribute(span: ExportedSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  return value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue);
}

/** A minimal OTLP/HTTP collector: keeps every export request's raw body. */
async function startCollector() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const spans = (): ExportedSpan[] =>
    bodies.flatMap((body) =>
      (JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: ExportedSpan[] }> }> }).resourceSpans
        .flatMap((r) => r.scopeSpans)
        .flatMap((s) => s.spans),
    );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const PAN = '4111111111111111';
const CVV = '737';

describe('OpenTelemetry traces', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let receiver: Receiver;

  before(async () => {
    collector = await startCollector();
    receiver = await startReceiver();
    t = await startNode({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    m = await t.merchant();
  });
  after(async () => {
    await collector.close();
    await receiver.close();
  });

  it('exports a sale as one trace: its request, statements and card call, with no card data or secret', async () => {
    const endpoint = await t.request('POST', '/v2/webhooks/endpoints', {
      token: m.token,
      body: { name: 'traces', endpointUrl: receiver.url, eventTypes: ['transaction.card.captured'] },
    });
    assert.ok(endpoint.status < 300, endpoint.text);
    const traceId = randomUUID().replaceAll('-', '');
    const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      headers: { 'idempotency-key': randomUUID(), traceparent: `00-${traceId}-${'1'.repeat(16)}-01` },
      body: {
        amount: 25,
        accountNumber: PAN,
        expirationMonth: 12,
        expirationYear: 2035,
        securityCode: CVV,
        billingAddress: { line1: '1 Trace St', postalCode: '10001' },
        referenceId: randomUUID(),
      },
    });
    assert.equal(sale.status, 200, sale.text);
    const correlationId = sale.headers['x-correlation-id'];
    await t.drain();
    // Ten minutes on: the maintenance sweep is due, and runs as a job.
    await t.advanceClock(601);
    await t.drain();
    await t.stop(); // flushes what the exporter still holds

    const spans = collector.spans();
    const server = spans.find((s) => s.name === 'POST /pay-api/v1/transactions/sale');
    assert.ok(server, `a server span among ${[...new Set(spans.map((s) => s.name))].join(', ')}`);
    assert.equal(server.traceId, traceId, "it continues the caller's trace (traceparent)");
    assert.equal(server.parentSpanId, '1'.repeat(16));
    assert.equal(attribute(server, 'tessera.correlation_id'), correlationId);
    assert.equal(attribute(server, 'http.response.status_code'), 200);
    const inTrace = spans.filter((s) => s.traceId === traceId);
    const card = inTrace.find((s) => s.name === 'card sale');
    assert.ok(card, 'the card call is in the trace');
    assert.equal(attribute(card, 'tessera.connector'), 'sandbox-card');
    assert.equal(attribute(card, 'tessera.outcome'), 'approved');
    const statements = inTrace.filter((s) => s.name.startsWith('db '));
    assert.ok(statements.length >= 3, `${statements.length} statements in the trace`);
    assert.ok(statements.every((s) => typeof attribute(s, 'db.query.text') === 'string'));
    const job = spans.find((s) => s.name === 'job platform.maintenance');
    assert.ok(job, `the maintenance job has a span among ${[...new Set(spans.map((s) => s.name))].join(', ')}`);
    assert.equal(attribute(job, 'tessera.job.queue'), 'platform.maintenance');
    assert.ok(
      spans.some((s) => s.traceId === job.traceId && s.parentSpanId === job.spanId && s.name.startsWith('db ')),
      "the job's statements nest under it",
    );
    const attempt = spans.find((s) => s.name === 'webhook attempt');
    assert.ok(attempt, 'the webhook attempt has a span');
    assert.equal(attribute(attempt, 'tessera.webhook.delivered'), true);

    const exported = collector.bodies.join('\n');
    for (const secret of [PAN, m.token, m.clientSecret]) {
      assert.ok(!exported.includes(secret), 'no card number, token or client secret in any span');
    }
    assert.doesNotMatch(exported, /securityCode|accountNumber/, 'no request body in any span');
    assert.ok(
      !statements.some((s) => s.attributes.some((a) => a.value.stringValue === CVV)),
      'no statement carries a value',
    );
  });
});
