// Every operation of /openapi.json, with a valid token of its kind, fed malformed values (test/fuzz/openapi-fuzz.ts):
// the answer is never a 5xx, an error is always the standard error body, and the server is healthy afterwards.
// FUZZ_SEED=<n> replays a run; the seed is printed when a request fails.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dictionary } from '../../src/platform/dictionary.js';
import { type FuzzRequest, LOOPBACK_URL, operations, requestsFor } from '../fuzz/openapi-fuzz.js';
import { ADMIN_TOKEN, type MerchantTenant, startNode, type Tenant, type TestNode } from '../harness.js';
import { seeded } from '../random.js';

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ERROR_FIELDS = ['errors', 'details', 'statusCode', 'errorCode', 'title', 'correlationId'];

describe(`fuzzing every operation of the OpenAPI document (FUZZ_SEED=${SEED})`, () => {
  let t: TestNode;
  let merchant: MerchantTenant;
  let partner: Tenant;
  const ids: Record<string, string> = dictionary();
  before(async () => {
    t = await startNode({
      env: {
        RATE_LIMIT_PER_MINUTE: '10000000',
        RATE_LIMIT_BURST_PER_10S: '10000000',
        // Webhook URLs in the examples are replaced by a loopback one (no name lookups, no traffic beyond loopback).
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        LOG_LEVEL: 'fatal',
      },
    });
    partner = await t.partner();
    merchant = await t.merchant({ partnerId: partner.id, body: { settings: { isTipsEnabled: true } } });
    const other = await t.merchant();
    const card = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', {
        token: merchant.token,
        body: { firstName: 'Fuzz', lastName: 'Target', email: 'fuzz@example.com' },
      }),
    );
    const method = await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
        token: merchant.token,
        body: { pan: card.accountNumber, expirationMonth: 12, expirationYear: 2031 },
      }),
    );
    const sale = await t.expectOk(
      t.request('POST', '/pay-api/v1/transactions/auth', { token: merchant.token, body: { amount: 5, ...card } }),
    );
    const session = await t.expectOk(
      t.request('POST', '/v2/payment-sessions', { token: merchant.token, body: { amount: 3 } }),
    );
    const endpoint = await t.expectOk(
      t.request('POST', '/v2/webhooks/endpoints', {
        token: merchant.token,
        body: { name: 'fuzz', endpointUrl: LOOPBACK_URL, eventTypes: ['transaction.card.captured'] },
      }),
    );
    const configuration = await t.expectOk(
      t.request('GET', '/pay-api/v1/configurations/payments', { token: merchant.token }),
    );
    Object.assign(ids, {
      customerId: customer.id,
      paymentMethodId: method.id,
      transactionId: sale.transactionId,
      paymentSessionId: session.id,
      endpointId: endpoint.id,
      // Operator routes act on another merchant, so that changing or deleting it leaves the fuzzing tenant alone.
      id: other.id,
      processorId: configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 2)?.id,
    });
  });
  after(() => t.stop());

  it('answers every malformed request with a 4xx in the standard error body (or a 2xx), never a 5xx', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const rand = seeded(SEED);
    // Reads first, then writes, deletes and the clock last: a deleted customer or a moved clock would end the
    // requests after it at a 404 or an expired token.
    const rank = (method: string, path: string) =>
      path.includes('/clock') ? 4 : method === 'GET' ? 0 : method === 'DELETE' ? 3 : 1;
    // A stream answers a good request by never ending; event-stream.test.ts covers what it refuses.
    const streams = (operation: { op: any }) => operation.op.responses?.['200']?.content?.['text/event-stream'];
    const ordered = operations(doc)
      .filter((operation) => !streams(operation))
      .sort((a, b) => rank(a.method, a.path) - rank(b.method, b.path));
    const tokenFor = (security: Array<Record<string, string[]>>): string | undefined => {
      if (security.length === 0) return undefined;
      if (security.some((s) => s.operator)) return ADMIN_TOKEN;
      const kinds = security.flatMap((s) => s.bearer ?? []);
      return kinds.includes('merchant') ? merchant.token : partner.token;
    };

    const failures: string[] = [];
    let sent = 0;
    for (const operation of ordered) {
      const token = tokenFor(operation.op.security ?? []);
      for (const request of requestsFor(operation, rand, ids, token)) {
        sent++;
        const problem = await check(request);
        if (problem) failures.push(problem);
        if (failures.length >= Number(process.env.FUZZ_MAX_FAILURES ?? 20)) break;
      }
    }
    assert.deepEqual(failures, [], `FUZZ_SEED=${SEED}: ${failures.length} bad answers`);
    assert.ok(sent > 1000, `sent ${sent} requests`);

    // Healthy afterwards: ready, and an ordinary request still works.
    assert.equal((await t.request('GET', '/readyz')).status, 200);
    const list = await t.request('GET', '/pay-api/v1/transactions', { token: merchant.token });
    assert.equal(list.status, 200, list.text);
  });

  it('documents a bound for every numeric query and path parameter', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const numeric = (schema: any): any => {
      if (!schema) return undefined;
      const types = [schema.type ?? []].flat();
      if (types.includes('integer') || types.includes('number')) return schema;
      return (schema.anyOf ?? schema.oneOf ?? []).map(numeric).find(Boolean);
    };
    const unbounded: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      for (const parameter of op.parameters ?? []) {
        const schema = numeric(parameter.schema);
        if (schema && schema.maximum === undefined && schema.exclusiveMaximum === undefined) {
          unbounded.push(`${method} ${path} ${parameter.in} ${parameter.name}`);
        }
      }
    }
    assert.deepEqual(unbounded, []);
  });

  async function check(request: FuzzRequest): Promise<string | undefined> {
    const describeIt = `${request.operation} [${request.change}]`;
    let response: Awaited<ReturnType<TestNode['app']['inject']>>;
    try {
      response = await t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      });
    } catch (error) {
      return `${describeIt}: the request could not be sent (${(error as Error).message})`;
    }
    if (response.statusCode >= 500) return `${describeIt}: ${response.statusCode} ${response.body.slice(0, 300)}`;
    if (response.statusCode < 400) return undefined;
    let body: any;
    try {
      body = JSON.parse(response.body);
    } catch {
      return `${describeIt}: ${response.statusCode} without a JSON error body`;
    }
    if (request.bodyMayBeAbsent && response.statusCode === 400) {
      // Another refusal (a field the service needs in this state, say) is fine; one about the body itself is not.
      const about = Object.keys(body.errors ?? {}).filter((field) => field === 'body' || field === '');
      if (about.length > 0) return `${describeIt}: 400 about the absent body: ${response.body.slice(0, 200)}`;
    }
    // The standard error body, or what the operation documents for this status instead (the token endpoint answers
    // with OAuth's {error, error_description}, the partner API with its {data, meta, errors} envelope).
    const documented = request.errorFields?.[String(response.statusCode)];
    const own = documented?.includes('error') || documented?.includes('meta') ? documented : undefined;
    const missing = (own ?? ERROR_FIELDS).filter((field) => !(field in body));
    if (own) {
      return missing.length > 0 ? `${describeIt}: ${response.statusCode} lacks ${missing.join(', ')}` : undefined;
    }
    if (missing.length > 0 || body.statusCode !== response.statusCode) {
      return `${describeIt}: ${response.statusCode} error body lacks ${missing.join(', ')}: ${response.body.slice(0, 200)}`;
    }
    return undefined;
  }
});
