// Version 2 merchant API keys (`/v2/api-keys`): a partner creates, lists and revokes its merchants' keys under the
// document's names; the key works at the token endpoint until it is revoked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startNode, type Tenant, type TestNode } from '../harness.js';

describe('version 2: merchant API keys', () => {
  let t: TestNode;
  let partner: Tenant;
  let merchantId: string;

  before(async () => {
    t = await startNode();
    partner = await t.partner();
    merchantId = (await t.merchant({ partnerId: partner.id })).id;
  });
  after(() => t?.stop());

  const call = (method: string, path: string, body?: unknown, token = partner.token) =>
    t.request(method, path, { token, ...(body === undefined ? {} : { body }) });

  it('creates a key that works, lists it, and revokes it once', async () => {
    const created = await call('POST', '/v2/api-keys', { merchantId, name: 'Web shop' });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['clientId', 'clientSecret']);
    const token = await t.token(created.body.clientId, created.body.clientSecret);
    const config = await t.request('GET', '/v2/settings/payment-config', { token: token.access_token });
    assert.equal(config.status, 200, 'the new key acts as the merchant');

    const listed = await call('GET', `/v2/api-keys?merchantId=${merchantId}`);
    assert.equal(listed.status, 200);
    const mine = listed.body.apiKeys.find((k: { clientId: string }) => k.clientId === created.body.clientId);
    assert.deepEqual(mine, { clientId: created.body.clientId, merchantId, name: 'Web shop', apiKeyName: 'Web shop' });
    assert.ok(!JSON.stringify(listed.body).includes(created.body.clientSecret), 'the secret is never shown again');

    const revoked = await call('DELETE', `/v2/api-keys/${created.body.clientId}?merchantId=${merchantId}`);
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.text, '');
    const again = await call('DELETE', `/v2/api-keys/${created.body.clientId}?merchantId=${merchantId}`);
    assert.equal(again.status, 404);
    const refused = await t.tokenRequest({
      grant_type: 'client_credentials',
      client_id: created.body.clientId,
      client_secret: created.body.clientSecret,
    });
    assert.equal(refused.status, 401);
  });

  it('takes the published apiKeyName, and deletes by the key alone (no merchantId), only within the caller’s scope', async () => {
    const created = await call('POST', '/v2/api-keys', { merchantId, apiKeyName: 'Published' });
    assert.equal(created.status, 200, created.text);
    const listed = await call('GET', '/v2/api-keys');
    const mine = listed.body.apiKeys.find((k: { clientId: string }) => k.clientId === created.body.clientId);
    assert.deepEqual([mine.apiKeyName, mine.name], ['Published', 'Published']);
    const other = await t.partner();
    const foreign = await call('DELETE', `/v2/api-keys/${created.body.clientId}`, undefined, other.token);
    assert.equal(foreign.status, 404, 'another partner’s key is not found');
    const deleted = await call('DELETE', `/v2/api-keys/${created.body.clientId}`);
    assert.deepEqual([deleted.status, deleted.text], [200, '']);
    assert.equal((await call('DELETE', `/v2/api-keys/${created.body.clientId}`)).status, 404);

    const merchant = await t.merchant();
    const own = await call('POST', '/v2/api-keys', { merchantId: merchant.id, apiKeyName: 'Own' }, merchant.token);
    assert.equal(own.status, 200, own.text);
    const gone = await call('DELETE', `/v2/api-keys/${own.body.clientId}`, undefined, merchant.token);
    assert.equal(gone.status, 200, gone.text);
    const two = await call('POST', '/v2/api-keys', { merchantId, name: 'a', apiKeyName: 'b' });
    assert.equal(two.status, 400, 'two different names');
  });

  it('refuses a name missing, and another partner’s merchant as not found', async () => {
    assert.equal((await call('POST', '/v2/api-keys', { merchantId })).status, 400);
    const other = await t.partner();
    const foreign = await call('POST', '/v2/api-keys', { merchantId, name: 'x' }, other.token);
    assert.equal(foreign.status, 404);
  });
});
