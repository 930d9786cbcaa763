// List query parameters in every documented form: the parameter repeated (`?ids=a&ids=b`, what OpenAPI's default
// array style and generated clients send), comma-separated (`?ids=a,b`), and both at once. Every list parameter of
// /openapi.json is exercised here, so a new one cannot be added without its forms being tried.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('list query parameters', () => {
  let t: TestNode;
  let m: MerchantTenant;
  const get = (url: string) => t.request('GET', url, { token: m.token });
  const exercised = new Set<string>();
  const forms = (name: string, values: string[]) => {
    exercised.add(name);
    const repeated = values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');
    const comma = `${name}=${values.map(encodeURIComponent).join(',')}`;
    const both = `${name}=${values.slice(0, 1).map(encodeURIComponent).join(',')}&${name}=${values.slice(1).join(',')}`;
    return { repeated, comma, both };
  };

  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('customerIds on customers: repeated, comma-separated and both select the same customers', async () => {
    const ids: string[] = [];
    for (const name of ['Ada', 'Grace', 'Edsger']) {
      ids.push((await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: name })).id);
    }
    const wanted = ids.slice(0, 2).sort();
    for (const [form, query] of Object.entries(forms('customerIds', wanted))) {
      const listed = await get(`/pay-api/v1/customers?${query}`);
      assert.equal(listed.status, 200, `${form}: ${listed.text}`);
      assert.deepEqual(listed.body.items.map((c: { id: string }) => c.id).sort(), wanted, form);
    }
    const bad = await get(`/pay-api/v1/customers?customerIds=${ids[0]}&customerIds=nope`);
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.errors), ['customerIds']);
  });

  it('customerIds on subscriptions: one value in any form; two different values are refused as unsupported', async () => {
    const id = randomUUID();
    for (const query of [`customerIds=${id}`, `customerIds=${id}&customerIds=${id}`]) {
      const listed = await get(`/sub-api/v1/subscriptions?${query}`);
      assert.equal(listed.status, 200, `${query}: ${listed.text}`);
    }
    for (const query of Object.values(forms('customerIds', [id, randomUUID()]))) {
      const refused = await get(`/sub-api/v1/subscriptions?${query}`);
      assert.equal(refused.status, 400, query);
      assert.match(refused.body.errors.customerIds[0], /Only one/);
    }
  });

  it('settlement batches, terminals and webhook delivery logs take their lists in every form', async () => {
    const urls: string[] = [];
    for (const base of ['/pay-api/v1/settlements/batches', '/v2/settlements/batches']) {
      for (const name of ['batchIds', 'paymentProcessorIds']) {
        for (const query of Object.values(forms(name, [randomUUID(), randomUUID()]))) urls.push(`${base}?${query}`);
      }
    }
    for (const name of ['manufacturerIds', 'modelIds']) {
      for (const query of Object.values(forms(name, ['1', '2']))) urls.push(`/pos-api/v1/terminals?${query}`);
    }
    for (const query of Object.values(forms('eventType', ['transaction.card.captured', 'ping']))) {
      urls.push(`/v2/webhooks/delivery-logs?${query}`);
    }
    for (const url of urls) {
      const listed = await get(url);
      assert.equal(listed.status, 200, `${url}: ${listed.text}`);
    }
  });

  it('every list parameter of the OpenAPI document is documented as an array and exercised above', async () => {
    exercised.add('types'); // The event stream's filter (a stream never ends; event-stream.test.ts covers it).
    const doc = (await t.request('GET', '/openapi.json')).body;
    const lists = new Set<string>();
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const parameter of op.parameters ?? []) {
          if (parameter.in === 'query' && parameter.schema?.type === 'array') lists.add(parameter.name);
        }
      }
    }
    assert.deepEqual(
      [...lists].filter((name) => !exercised.has(name)),
      [],
    );
    assert.ok(lists.has('customerIds') && lists.has('batchIds'), [...lists].join(', '));
  });
});
