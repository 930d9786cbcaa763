// The typed client (packages/client) against a running server: its generated files are those of the current
// OpenAPI document (stale ones fail here, and so in CI), tokens come from client credentials and are renewed and
// retried once after a real 401, operations that honour an idempotency key get one (the same on the retry), and
// webhook signatures verify.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTesseraClient, verifyWebhook, WebhookVerificationError } from '@tessera/client';
import { generatedFiles } from '../../packages/client/generate/from-document.js';
import { newSigningSecret, signMessage } from '../../src/modules/webhooks/signing.js';
import { projectRoot } from '../../src/platform/paths.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

interface Sent {
  method: string;
  url: string;
  authorization: string | null;
  idempotencyKey: string | null;
  status: number;
}

describe('typed client', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  before(async () => {
    t = await startNode({ listen: true });
    m = await t.merchant();
  });
  after(() => t.stop());

  /** A client whose fetch records what went out; `spoil` replaces the bearer token of the next API call. */
  function recordingClient() {
    const sent: Sent[] = [];
    let spoilNext = false;
    const fetchImpl: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const headers = new Headers(request.headers);
      if (spoilNext && headers.has('authorization')) {
        spoilNext = false;
        headers.set('authorization', 'Bearer not-a-token');
      }
      const res = await fetch(new Request(request, { headers }));
      sent.push({
        method: request.method,
        url: request.url,
        authorization: headers.get('authorization'),
        idempotencyKey: headers.get('idempotency-key'),
        status: res.status,
      });
      return res;
    };
    const client = createTesseraClient({
      baseUrl: t.baseUrl,
      clientId: m.clientId,
      clientSecret: m.clientSecret,
      fetch: fetchImpl,
    });
    return { client, sent, spoil: () => (spoilNext = true) };
  }

  it('has generated files equal to what the current OpenAPI document generates', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const dir = path.join(projectRoot(), 'packages', 'client', 'src', 'generated');
    for (const [name, content] of Object.entries(await generatedFiles(doc))) {
      const committed = readFileSync(path.join(dir, name), 'utf8');
      assert.ok(committed === content, `packages/client/src/generated/${name} is stale: run npm run client:generate`);
    }
  });

  it('takes a token once, then renews it after a 401 and retries the call once', async () => {
    const { client, sent, spoil } = recordingClient();
    const first = await client.api.GET('/pay-api/v1/request-logs', { params: { query: { limit: 1 } } });
    assert.equal(first.response.status, 200);
    const again = await client.api.GET('/pay-api/v1/request-logs', { params: { query: { limit: 1 } } });
    assert.equal(again.response.status, 200);
    assert.equal(sent.filter((s) => s.url.endsWith('/oauth2/token')).length, 1, 'the token is reused');

    spoil();
    const retried = await client.api.GET('/pay-api/v1/request-logs', { params: { query: { limit: 1 } } });
    assert.equal(retried.response.status, 200);
    const calls = sent.filter((s) => !s.url.endsWith('/oauth2/token'));
    assert.deepEqual(
      calls.slice(-2).map((s) => s.status),
      [401, 200],
      'the server refused the spoiled token; the retry went through',
    );
    assert.equal(sent.filter((s) => s.url.endsWith('/oauth2/token')).length, 2, 'one renewal');
  });

  it('sends an idempotency key where the operation honours one (the same on its retry), and none elsewhere', async () => {
    const { client, sent, spoil } = recordingClient();
    spoil();
    const sale = await client.api.POST('/pay-api/v1/transactions/sale', {
      body: {
        amount: 12.34,
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
        cardDataSource: 1,
      },
    });
    assert.equal(sale.response.status, 200, JSON.stringify(sale.error));
    const attempts = sent.filter((s) => s.url.endsWith('/transactions/sale'));
    assert.deepEqual(
      attempts.map((s) => s.status),
      [401, 200],
    );
    assert.ok(attempts[0]!.idempotencyKey);
    assert.equal(attempts[1]!.idempotencyKey, attempts[0]!.idempotencyKey, 'one key for the call');
    await client.api.GET('/pay-api/v1/request-logs', { params: { query: { limit: 1 } } });
    assert.equal(sent.at(-1)!.idempotencyKey, null);
  });

  it('verifies a delivery signed as the server signs, and refuses a changed body or another secret', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({
      id: 'msg_1',
      type: 'transaction.card.captured',
      created: Math.floor(Date.now() / 1000),
      apiVersion: 'v2',
      data: { object: { id: 'tx_1', resourceType: 'transaction' } },
    });
    const signed = signMessage('Tessera', secret, 'msg_1', body);
    const event = verifyWebhook(secret, signed.body, signed.headers);
    assert.equal(event.type, 'transaction.card.captured');
    assert.equal(event.data.object.id, 'tx_1');
    assert.throws(
      () => verifyWebhook(secret, signed.body.replace('tx_1', 'tx_2'), signed.headers),
      WebhookVerificationError,
    );
    assert.throws(
      () => verifyWebhook(newSigningSecret(), signed.body, new Headers(signed.headers)),
      WebhookVerificationError,
    );
  });
});
