// Devices and Tap to Pay: create-or-update by a case-insensitive id, the contactless states (request, operator
// approval or denial, the sandbox's own approval after 5 minutes, Active with the first token), device tokens bound
// to merchant and device, and NFC sales that need one (recorded with source 9 TapToPay).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('devices and Tap to Pay', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let other: MerchantTenant;
  const base = '/pay-api/v1/devices';
  const save = (deviceId: string, deviceName = 'Till', tenant = m) =>
    t.request('POST', base, { token: tenant.token, body: { deviceId, deviceName } });
  const device = (deviceId: string, tenant = m) =>
    t.expectOk(t.request('GET', `${base}/${deviceId}`, { token: tenant.token }));
  const activate = (deviceId: string, tenant = m) =>
    t.request('POST', `${base}/${deviceId}/tap-to-pay/activate`, { token: tenant.token });
  const decide = (merchantId: string, deviceId: string, verb: 'approve' | 'deny') =>
    t.admin('POST', `/admin/v1/merchants/${merchantId}/devices/${deviceId}/tap-to-pay/${verb}`);
  const jwt = (deviceId: string, tenant = m) =>
    t.request('POST', `${base}/tap-to-pay/jwt`, { token: tenant.token, body: { deviceId } });
  const nfcSale = (headers: Record<string, string>, tenant = m) =>
    t.request('POST', '/pay-api/v1/transactions/sale', {
      token: tenant.token,
      headers,
      body: {
        amount: 4.5,
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2031,
        cardDataSource: 3,
      },
    });

  before(async () => {
    t = await startNode();
    m = await t.merchant();
    other = await t.merchant();
  });
  after(() => t.stop());

  it('creates or updates by a lower-cased id, with the key name and last login; wire fields exactly', async () => {
    const created = await t.expectOk(save('iPhone-ABC', 'Front till'));
    assert.deepEqual(Object.keys(created).sort(), [
      'apiKeyName',
      'deviceId',
      'deviceName',
      'id',
      'lastLoginAt',
      'tapToPayEnabled',
      'tapToPayStatus',
      'tapToPayStatusId',
      'userProfiles',
    ]);
    assert.equal(created.deviceId, 'iphone-abc');
    assert.equal(created.tapToPayStatus, 'Inactive');
    assert.equal(created.tapToPayStatusId, 1);
    assert.equal(created.tapToPayEnabled, false);
    assert.equal(typeof created.apiKeyName, 'string');
    assert.deepEqual(created.userProfiles, []);
    const renamed = await t.expectOk(save('IPHONE-abc', 'Back till'));
    assert.equal(renamed.deviceName, 'Back till');
    assert.deepEqual((await t.expectOk(t.request('GET', base, { token: m.token }))).devices, [renamed]);
    assert.equal((await device('IPHONE-ABC')).deviceName, 'Back till');
    const missing = await t.request('POST', base, { token: m.token, body: { deviceId: 'x' } });
    assert.equal(missing.status, 400);
    assert.ok(missing.body.errors.deviceName);
  });

  it('request, deny, request again, approve, Active with the first token; refusals name the state', async () => {
    await t.expectOk(save('dev-states'));
    assert.equal((await jwt('dev-states')).status, 400, 'no token while Inactive');
    const requested = await activate('dev-states');
    assert.equal(requested.status, 200);
    assert.equal(requested.text, '');
    assert.equal((await device('dev-states')).tapToPayStatus, 'Requested');
    assert.equal((await activate('dev-states')).status, 200, 'asking again changes nothing');
    assert.equal((await t.expectOk(decide(m.id, 'dev-states', 'deny'))).tapToPayStatus, 'Denied');
    assert.equal((await decide(m.id, 'dev-states', 'approve')).status, 400, 'only a Requested device is decided');
    await t.expectOk(activate('dev-states'));
    assert.equal((await t.expectOk(decide(m.id, 'dev-states', 'approve'))).tapToPayStatus, 'Approved');
    assert.equal((await device('dev-states')).tapToPayEnabled, true);
    // The business clock read on both sides of the issue: a second may turn between them.
    const clockSecond = async () =>
      Math.floor(new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now).getTime() / 1000) * 1000;
    const before = await clockSecond();
    const issued = await t.expectOk(jwt('DEV-STATES'));
    const after = await clockSecond();
    assert.deepEqual(Object.keys(issued).sort(), ['expiresAt', 'jwtToken']);
    const issuedAt = Date.parse(issued.expiresAt) - 15 * 60_000;
    assert.ok(issuedAt >= before && issuedAt <= after, `expires 15 minutes after it was issued: ${issued.expiresAt}`);
    assert.equal((await device('dev-states')).tapToPayStatus, 'Active');
    const again = await activate('dev-states');
    assert.equal(again.status, 400);
    assert.match(again.body.errors.deviceId[0], /Active/);
  });

  it('the sandbox approves a request by itself five minutes later on the business clock', async () => {
    await t.expectOk(save('dev-auto'));
    await t.expectOk(activate('dev-auto'));
    await t.advanceClock(240, m, other);
    await t.drain();
    assert.equal((await device('dev-auto')).tapToPayStatus, 'Requested');
    await t.advanceClock(61, m, other);
    await t.drain();
    assert.equal((await device('dev-auto')).tapToPayStatus, 'Approved');
  });

  it('an NFC sale needs a valid token of an enabled device of this merchant, and records source 9', async () => {
    await t.expectOk(save('dev-pay'));
    await t.expectOk(activate('dev-pay'));
    await t.expectOk(decide(m.id, 'dev-pay', 'approve'));
    const { jwtToken } = await t.expectOk(jwt('dev-pay'));

    const none = await nfcSale({});
    assert.equal(none.status, 400);
    assert.ok(none.body.errors['x-device-token']);
    const garbage = await nfcSale({ 'x-device-token': 'not-a-token' });
    assert.equal(garbage.status, 400);
    const accessToken = await nfcSale({ 'x-device-token': m.token });
    assert.equal(accessToken.status, 400, 'an access token is not a device token');
    const foreign = await nfcSale({ 'x-device-token': jwtToken }, other);
    assert.equal(foreign.status, 400, "another merchant's device");

    const paid = await t.expectOk(nfcSale({ 'x-device-token': jwtToken }));
    assert.equal(paid.status, 'Captured');
    const [row] = await t.query('SELECT create_method_id, card_data_source_id FROM transactions WHERE id = $1', [
      paid.transactionId,
    ]);
    assert.deepEqual(row, { create_method_id: 9, card_data_source_id: 3 });
    // The device that read the card is the payment's source: the `id` of its device record.
    const recorded = await t.expectOk(
      t.request('GET', `/pay-api/v1/transactions/${paid.transactionId}`, { token: m.token }),
    );
    const devices = await t.expectOk(t.request('GET', '/pay-api/v1/devices', { token: m.token }));
    const reader = devices.devices.find((d: { id: string }) => d.id === recorded.source.id);
    assert.ok(reader, `source ${JSON.stringify(recorded.source)} is one of the merchant's devices`);
    assert.equal(recorded.source.typeId, 9);

    // A card-not-present sale is untouched by the header rules.
    const internet = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      body: { amount: 1, accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
    });
    assert.equal(internet.status, 200);

    await t.advanceClock(15 * 60 + 1, m, other);
    const expired = await nfcSale({ 'x-device-token': jwtToken });
    assert.equal(expired.status, 400, 'expired after 15 minutes');
  });

  it("another merchant's device is a 404 on every route", async () => {
    await t.expectOk(save('dev-private'));
    assert.equal((await t.request('GET', `${base}/dev-private`, { token: other.token })).status, 404);
    assert.equal((await activate('dev-private', other)).status, 404);
    assert.equal((await jwt('dev-private', other)).status, 404);
    assert.equal((await decide(other.id, 'dev-private', 'approve')).status, 404);
    assert.deepEqual((await t.expectOk(t.request('GET', base, { token: other.token }))).devices, []);
  });
});
