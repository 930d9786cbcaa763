import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startNode, type TestNode } from '../harness.js';

const TOKENS = '/pay-api/v1/merchants/tokens';
const CONFIG = '/pay-api/v1/configurations/payments';

describe('merchant API keys (/pay-api/v1/merchants/tokens)', () => {
  let t: TestNode;
  let partner: Awaited<ReturnType<TestNode['partner']>>;
  before(async () => {
    t = await startNode();
    partner = await t.partner();
  });
  after(() => t.stop());

  it('lets a partner create, list and delete keys of its merchants', async () => {
    const merchant = await t.merchant({ partnerId: partner.id });
    const created = await t.request('POST', TOKENS, {
      token: partner.token,
      body: { merchantId: merchant.id, tokenName: 'Web shop' },
    });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['clientId', 'clientSecret']);

    // The new key works, as a merchant key of that merchant.
    const token = await t.token(created.body.clientId, created.body.clientSecret);
    assert.equal((await t.request('GET', CONFIG, { token: token.access_token })).status, 200);

    const list = await t.request('GET', `${TOKENS}?merchantId=${merchant.id}`, { token: partner.token });
    assert.equal(list.status, 200);
    const names = list.body.tokens.map((k: any) => k.tokenName);
    assert.ok(names.includes('Web shop'));
    for (const key of list.body.tokens) {
      assert.deepEqual(Object.keys(key).sort(), ['clientId', 'creationDate', 'merchantId', 'tokenName']);
      assert.equal(key.merchantId, merchant.id);
      assert.ok(!JSON.stringify(key).includes(created.body.clientSecret));
    }
    const all = await t.request('GET', TOKENS, { token: partner.token });
    assert.ok(all.body.tokens.length >= list.body.tokens.length);

    const deleted = await t.request('DELETE', `${TOKENS}/${created.body.clientId}?merchantId=${merchant.id}`, {
      token: partner.token,
    });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted, true);
    const again = await t.request('DELETE', `${TOKENS}/${created.body.clientId}?merchantId=${merchant.id}`, {
      token: partner.token,
    });
    assert.equal(again.status, 404);
    const after = await t.request('GET', `${TOKENS}?merchantId=${merchant.id}`, { token: partner.token });
    assert.ok(!after.body.tokens.some((k: any) => k.clientId === created.body.clientId));
  });

  it('requires merchantId to delete (400) and to create with a partner token', async () => {
    const merchant = await t.merchant({ partnerId: partner.id });
    const noMerchant = await t.request('DELETE', `${TOKENS}/${merchant.clientId}`, { token: partner.token });
    assert.equal(noMerchant.status, 400);
    assert.ok(noMerchant.body.errors.merchantId);
    const create = await t.request('POST', TOKENS, { token: partner.token, body: { tokenName: 'x' } });
    assert.equal(create.status, 400);
    assert.ok(create.body.errors.merchantId);
    const noName = await t.request('POST', TOKENS, { token: partner.token, body: { merchantId: merchant.id } });
    assert.equal(noName.status, 400);
    assert.ok(noName.body.errors.tokenName);
  });

  it("answers 404 for another partner's merchants and their keys", async () => {
    const other = await t.partner();
    const theirs = await t.merchant({ partnerId: other.id });
    const create = await t.request('POST', TOKENS, {
      token: partner.token,
      body: { merchantId: theirs.id, tokenName: 'x' },
    });
    assert.equal(create.status, 404);
    const list = await t.request('GET', `${TOKENS}?merchantId=${theirs.id}`, { token: partner.token });
    assert.equal(list.status, 404);
    const del = await t.request('DELETE', `${TOKENS}/${theirs.clientId}?merchantId=${theirs.id}`, {
      token: partner.token,
    });
    assert.equal(del.status, 404);
    // The key is untouched.
    assert.equal((await t.request('GET', CONFIG, { token: theirs.token })).status, 200);
    // A key of the partner's own merchant cannot be deleted under a different merchant id either.
    const mine = await t.merchant({ partnerId: partner.id });
    const mismatched = await t.request('DELETE', `${TOKENS}/${theirs.clientId}?merchantId=${mine.id}`, {
      token: partner.token,
    });
    assert.equal(mismatched.status, 404);
  });

  it('lets a standalone merchant manage its own keys, but not a partner-managed one', async () => {
    const standalone = await t.merchant();
    const created = await t.request('POST', TOKENS, { token: standalone.token, body: { tokenName: 'Second key' } });
    assert.equal(created.status, 200, created.text);
    const list = await t.request('GET', TOKENS, { token: standalone.token });
    assert.equal(list.body.tokens.length, 2);
    const other = await t.merchant();
    const foreign = await t.request('POST', TOKENS, {
      token: standalone.token,
      body: { merchantId: other.id, tokenName: 'x' },
    });
    assert.equal(foreign.status, 404);
    const del = await t.request('DELETE', `${TOKENS}/${created.body.clientId}?merchantId=${standalone.id}`, {
      token: standalone.token,
    });
    assert.equal(del.status, 200);

    const managed = await t.merchant({ partnerId: partner.id });
    for (const [method, url, body] of [
      ['POST', TOKENS, { tokenName: 'x' }],
      ['GET', TOKENS, undefined],
      ['DELETE', `${TOKENS}/${managed.clientId}?merchantId=${managed.id}`, undefined],
    ] as const) {
      const res = await t.request(method, url, { token: managed.token, ...(body ? { body } : {}) });
      assert.equal(res.status, 403, `${method} ${url}`);
      assert.equal(res.body.errorCode, 'F0000');
    }
  });

  it('records api_key.created and api_key.deleted with the owning merchant and partner', async () => {
    const merchant = await t.merchant({ partnerId: partner.id });
    const created = await t.expectOk(
      t.request('POST', TOKENS, { token: partner.token, body: { merchantId: merchant.id, tokenName: 'evented' } }),
    );
    await t.expectOk(
      t.request('DELETE', `${TOKENS}/${created.clientId}?merchantId=${merchant.id}`, { token: partner.token }),
    );
    const events = await t.query(
      'SELECT type, merchant_id, partner_id, data FROM events WHERE resource_id = $1 ORDER BY seq',
      [created.clientId],
    );
    assert.deepEqual(
      events.map((e: any) => [e.type, e.merchant_id, e.partner_id]),
      [
        ['api_key.created', merchant.id, partner.id],
        ['api_key.deleted', merchant.id, partner.id],
      ],
    );
    assert.ok(!JSON.stringify(events).includes(created.clientSecret), 'events never carry the secret');
  });

  it("refuses to delete a merchant's last active key, for the merchant, its partner and the operator, even in a race", async () => {
    const standalone = await t.merchant();
    const own = await t.request('DELETE', `${TOKENS}/${standalone.clientId}?merchantId=${standalone.id}`, {
      token: standalone.token,
    });
    assert.equal(own.status, 400, own.text);
    assert.match(own.body.errors.clientId[0], /last active API key/);
    const managed = await t.merchant({ partnerId: partner.id });
    const byPartner = await t.request('DELETE', `${TOKENS}/${managed.clientId}?merchantId=${managed.id}`, {
      token: partner.token,
    });
    assert.equal(byPartner.status, 400, byPartner.text);
    assert.equal((await t.admin('DELETE', `/admin/v1/api-keys/${managed.clientId}`)).status, 400);
    assert.equal((await t.request('GET', CONFIG, { token: managed.token })).status, 200, 'the key still works');

    // Two keys deleted at the same instant: exactly one goes, the merchant keeps the other.
    for (let round = 0; round < 5; round++) {
      const racer = await t.merchant();
      const second = await t.expectOk(t.admin('POST', '/admin/v1/api-keys', { merchantId: racer.id }));
      const answers = await Promise.all(
        [racer.clientId, second.clientId].map((clientId) => t.admin('DELETE', `/admin/v1/api-keys/${clientId}`)),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400], answers.map((a) => a.text).join('\n'));
      const [{ active }] = (await t.query(
        'SELECT count(*)::int AS active FROM api_keys WHERE merchant_id = $1 AND deleted_at IS NULL',
        [racer.id],
      )) as [{ active: number }];
      assert.equal(active, 1);
    }
  });

  it('revokes access and refresh tokens within one second of deletion', async () => {
    const merchant = await t.merchant({ partnerId: partner.id });
    // Its replacement first: a merchant keeps at least one active key.
    await t.expectOk(
      t.request('POST', TOKENS, { token: partner.token, body: { merchantId: merchant.id, tokenName: 'new' } }),
    );
    const withRefresh = await t.token(merchant.clientId, merchant.clientSecret, { scope: 'offline_access' });
    assert.equal((await t.request('GET', CONFIG, { token: merchant.token })).status, 200);
    await t.expectOk(
      t.request('DELETE', `${TOKENS}/${merchant.clientId}?merchantId=${merchant.id}`, { token: partner.token }),
    );
    await eventually(
      async () => (await t.request('GET', CONFIG, { token: merchant.token })).status === 401,
      1000,
      10,
    ).catch(() => assert.fail('the access token still worked one second after deletion'));
    const refresh = await t.tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: withRefresh.refresh_token,
      client_id: merchant.clientId,
      client_secret: merchant.clientSecret,
    });
    assert.equal(refresh.status, 401);
    assert.equal(refresh.body.error, 'invalid_client');
  });
});
