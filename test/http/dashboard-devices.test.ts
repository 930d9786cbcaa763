// Devices and terminals in the dashboard: a user who signs in through the sign-in page opened by the device's app
// (`?device=`) is in the device's `userProfiles` (the API's) and on the devices page; signing in with another
// merchant's device id records nothing; Tap to Pay requested from the page; the merchant's terminals listed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/modules/dashboard/accounts/totp.js';
import { dashboardSession, FORM, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard devices', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('lists who signed in on a device, in the API and on the page, and requests Tap to Pay', async () => {
    await t.ok(m, 'POST', '/pay-api/v1/devices', { deviceId: 'Till-Phone-1', deviceName: 'Front counter' });
    const other = await t.merchant();
    await t.ok(other, 'POST', '/pay-api/v1/devices', { deviceId: 'their-phone', deviceName: 'Not yours' });
    await t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      terminalModeId: 2,
      serialNumber: 'SN-DASH-1',
    });
    const { user, totpSecret } = await t.ctx.services.dashboard.accounts.create({
      email: 'grace@example.com',
      name: 'Grace Brewster Hopper',
      role: 'staff',
      password: 'a sufficiently long password',
      ownerKind: 'merchant',
      merchantId: m.id,
    });
    const form = await t.request('GET', '/dashboard/sign-in?device=till-phone-1');
    assert.match(form.text, /name="device" value="till-phone-1"/);
    for (const device of ['till-phone-1', 'their-phone']) {
      await t.query('UPDATE dashboard_users SET totp_last_step = NULL WHERE id = $1', [user.id]);
      const signedIn = await t.request('POST', '/dashboard/sign-in', {
        payload: new URLSearchParams({
          email: 'grace@example.com',
          password: 'a sufficiently long password',
          code: totpCode(totpSecret),
          device,
        }).toString(),
        headers: FORM,
      });
      assert.equal(signedIn.status, 303, signedIn.text);
    }
    const device = await t.ok(m, 'GET', '/pay-api/v1/devices/Till-Phone-1');
    assert.deepEqual(device.userProfiles, [
      { id: user.id, firstName: 'Grace', lastName: 'Brewster Hopper', email: 'grace@example.com' },
    ]);
    const theirs = await t.ok(other, 'GET', '/pay-api/v1/devices/their-phone');
    assert.deepEqual(theirs.userProfiles, [], 'another merchant’s device records nothing');

    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const shown = await owner.get('/dashboard/devices');
    assert.equal(shown.status, 200);
    assert.match(shown.text, /Front counter/);
    assert.match(shown.text, /Grace Brewster Hopper/);
    assert.match(shown.text, /SN-DASH-1/);
    const requested = await owner.post('/dashboard/devices/till-phone-1/tap-to-pay', {
      csrf: field(shown.text, 'csrf'),
    });
    assert.equal(requested.status, 303, requested.text);
    assert.equal((await t.ok(m, 'GET', '/pay-api/v1/devices/till-phone-1')).tapToPayStatus, 'Requested');
    const stranger = await dashboardSession(t, { merchantId: other.id }, 'owner');
    const strangerPage = await stranger.get('/dashboard/devices');
    assert.doesNotMatch(strangerPage.text, /Front counter/);
    assert.equal(
      (await stranger.post('/dashboard/devices/till-phone-1/tap-to-pay', { csrf: field(strangerPage.text, 'csrf') }))
        .status,
      404,
    );
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.doesNotMatch((await analyst.get('/dashboard/devices')).text, /Request Tap to Pay/);
  });
});
