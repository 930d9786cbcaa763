// API keys in the dashboard, under the API's rules: created with the secret shown once (and working at the token
// endpoint), listed without it, revoked after confirmation (the token endpoint refuses it then); a merchant of a
// partner sees that its partner manages its keys; an analyst has no keys page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard API keys', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { companyName: 'Key Makers' } });
  });
  after(() => t.stop());

  it('creates a key whose secret is shown once, and revokes it', async () => {
    const dev = await dashboardSession(t, { merchantId: m.id }, 'developer');
    const page = await dev.get('/dashboard/keys');
    assert.equal(page.status, 200);
    const created = await dev.post('/dashboard/keys', { csrf: field(page.text, 'csrf'), name: 'Shop backend' });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.headers['cache-control'], 'no-store');
    const clientId = /id="new-client-id">([^<]+)</.exec(created.text)![1]!;
    const secret = /id="new-client-secret">([^<]+)</.exec(created.text)![1]!;
    assert.ok((await t.token(clientId, secret)).access_token, 'the new key works at the token endpoint');
    const listed = await dev.get('/dashboard/keys');
    assert.match(listed.text, /Shop backend/);
    assert.doesNotMatch(listed.text, new RegExp(secret), 'the secret is never shown again');

    const unconfirmed = await dev.post('/dashboard/keys/revoke', { csrf: field(listed.text, 'csrf'), clientId });
    assert.equal(unconfirmed.status, 400);
    const revoked = await dev.post('/dashboard/keys/revoke', {
      csrf: field(listed.text, 'csrf'),
      clientId,
      confirm: 'yes',
    });
    assert.equal(revoked.status, 303, revoked.text);
    await assert.rejects(t.token(clientId, secret));
    const audit = await t.query<{ action: string }>(
      `SELECT action FROM dashboard_audit WHERE target = $1 ORDER BY at`,
      [clientId],
    );
    assert.deepEqual(
      audit.map((a) => a.action),
      ['keys.create', 'keys.revoke'],
    );
  });

  it('leaves a partner’s merchant’s keys to the partner, and gives an analyst no keys page', async () => {
    const partner = await t.partner();
    const managed = await t.merchant({ partnerId: partner.id });
    const owner = await dashboardSession(t, { merchantId: managed.id }, 'owner');
    const page = await owner.get('/dashboard/keys');
    assert.equal(page.status, 200);
    assert.match(page.text, /managed by its partner/);
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.equal((await analyst.get('/dashboard/keys')).status, 403);
    assert.doesNotMatch((await analyst.get('/dashboard')).text, /API keys/);
  });
});
