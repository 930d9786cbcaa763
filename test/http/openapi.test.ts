import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileAllSerializers } from '../../src/platform/http/server.js';
import { startNode, type TestNode } from '../harness.js';

function hasExample(media: any): boolean {
  return media?.example !== undefined || media?.examples !== undefined || media?.schema?.examples !== undefined;
}

describe('OpenAPI document and reference', () => {
  let t: TestNode;
  let doc: any;
  before(async () => {
    t = await startNode();
    const res = await t.request('GET', '/openapi.json');
    assert.equal(res.status, 200);
    doc = res.body;
  });
  after(() => t.stop());

  it('has a response schema that compiles for every status of every route (serializers are built on first use)', async () => {
    const unbuilt = compileAllSerializers(t.app);
    // Hundreds of routes with several statuses each; only the ones answered so far were built.
    assert.ok(unbuilt > 500, `${unbuilt} serializers were still to build`);
    assert.equal(compileAllSerializers(t.app), 0);
    // Built ahead of their first use, they serialize by their schema.
    const ping = await t.request('GET', '/pay-int-api/ping');
    assert.equal(ping.status, 200);
    assert.deepEqual(Object.keys(ping.body).sort(), ['environment', 'status', 'timestamp']);
  });

  it('is OpenAPI 3.1 with security schemes', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.components.securitySchemes.bearer);
    assert.ok(doc.info.title);
  });

  it('describes every route with schemas and an example', () => {
    const operations: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        operations.push(name);
        assert.ok(op.summary, `${name} has a summary`);
        const success = op.responses?.['200'];
        // 204: the spec's own no-content answers (payment link delete and share).
        const empty = op.responses?.['204'];
        assert.ok(success || empty || op.responses?.['405'], `${name} documents its success response`);
        if (empty) assert.equal(empty.content, undefined, `${name} 204 has no content`);
        if (success) {
          const media = Object.values<any>(success.content ?? {})[0];
          assert.ok(media?.schema, `${name} has a response schema`);
          assert.ok(hasExample(media), `${name} has a response example`);
        }
        if (op.requestBody) {
          const media = Object.values<any>(op.requestBody.content)[0];
          assert.ok(media?.schema, `${name} has a request schema`);
          assert.ok(hasExample(media), `${name} has a request example`);
        }
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (status === '200' || status === '204') continue;
          const media = Object.values<any>(response.content ?? {})[0];
          assert.ok(media?.schema && hasExample(media), `${name} ${status} has a schema and example`);
        }
      }
    }
    for (const expected of [
      'POST /oauth2/token',
      'GET /pay-api/v1/merchants',
      'GET /pay-api/v1/merchants/tokens',
      'POST /pay-api/v1/merchants/tokens',
      'DELETE /pay-api/v1/merchants/tokens/{clientId}',
      'GET /pay-api/v1/configurations/payments',
      'GET /pay-api/v1/configurations/contact-infos',
      'GET /pay-api/v1/configurations/states',
      'POST /admin/v1/partners',
      'GET /admin/v1/partners/{id}',
      'POST /admin/v1/merchants',
      'GET /admin/v1/merchants/{id}',
      'PATCH /admin/v1/merchants/{id}',
      'POST /admin/v1/api-keys',
      'DELETE /admin/v1/api-keys/{clientId}',
      'GET /admin/v1/clock',
      'POST /admin/v1/clock/advance',
      'GET /healthz',
      'GET /readyz',
      'GET /metrics',
    ]) {
      assert.ok(operations.includes(expected), `${expected} is documented`);
    }
  });

  it('serves a readable reference at /docs', async () => {
    const res = await t.request('GET', '/docs');
    const html = res.status === 302 ? await t.request('GET', String(res.headers.location)) : res;
    assert.equal(html.status, 200);
    assert.match(String(html.headers['content-type']), /text\/html/);
    assert.match(html.text, /swagger/i);
  });

  it('exposes health, readiness and Prometheus metrics', async () => {
    assert.deepEqual((await t.request('GET', '/healthz')).body, { status: 'ok' });
    assert.deepEqual((await t.request('GET', '/readyz')).body, { status: 'ready' });
    const metrics = await t.request('GET', '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /tessera_http_request_duration_seconds_bucket/);
  });
});
