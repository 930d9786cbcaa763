// The operator's console: only the deployment's operator users see the files exchanged with banks, the merchants
// and partners; a merchant's processors with credentials only as set or unset, its terminals (acted on in the
// sandbox) and its Tap to Pay requests (approved here); the sandbox controls (the clock moved forward, the card
// network slowed, the outbox). A merchant's user gets 404; an operator analyst reads but cannot act.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { startNode, type TestNode } from '../harness.js';

describe('dashboard for the operator', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode();
  });
  after(() => t.stop());

  it('shows the bank files to an operator, and to nobody else', async () => {
    const operator = await dashboardSession(t, {}, 'analyst');
    const home = await operator.get('/dashboard');
    assert.equal(home.status, 200);
    assert.match(home.text, /Operator console/);
    assert.match(home.text, /href="\/dashboard\/operator\/bank-files"/);
    const files = await operator.get('/dashboard/operator/bank-files');
    assert.equal(files.status, 200);
    assert.match(files.text, /No files yet|Files \(/);
    const m = await t.merchant();
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    assert.equal((await owner.get('/dashboard/operator/bank-files')).status, 404);
    assert.doesNotMatch((await owner.get('/dashboard')).text, /Bank files/);
  });

  it('lists merchants and partners, shows a merchant’s processors, terminals and devices, and acts on them', async () => {
    const partner = await t.partner();
    const m = await t.merchant({ partnerId: partner.id, body: { companyName: 'Console Candles' } });
    const terminal = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP2',
        terminalModeId: 2,
        serialNumber: 'SN-OPS-1',
      }),
    );
    await t.ok(m, 'POST', '/pay-api/v1/devices', { deviceId: 'ops-phone', deviceName: 'Counter phone' });
    await t.request('POST', '/pay-api/v1/devices/ops-phone/tap-to-pay/activate', { token: m.token });
    const operator = await dashboardSession(t, {}, 'admin');
    const list = await operator.get('/dashboard/operator/merchants?search=candles');
    assert.equal(list.status, 200);
    assert.match(list.text, /Console Candles/);
    assert.match((await operator.get('/dashboard/operator/partners')).text, new RegExp(partner.id));
    const page = await operator.get(`/dashboard/operator/merchants/${m.id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Processors \(credentials only as set or unset\)/);
    assert.match(page.text, /SN-OPS-1/);
    assert.match(page.text, /Requested/);
    const csrf = field(page.text, 'csrf');
    const approved = await operator.post(`/dashboard/operator/merchants/${m.id}/devices/ops-phone/approve`, { csrf });
    assert.equal(approved.status, 303, approved.text);
    assert.equal((await t.ok(m, 'GET', '/pay-api/v1/devices/ops-phone')).tapToPayStatus, 'Approved');
    const acted = await operator.post(`/dashboard/operator/merchants/${m.id}/terminals/${terminal.id}/act`, {
      csrf,
      action: 'battery-low',
    });
    assert.equal(acted.status, 303, acted.text);
    const status = await t.ok(m, 'GET', `/pos-api/v1/terminals/${terminal.id}/status`);
    assert.equal(status.batteryLevel, 5);
    const other = await t.merchant();
    assert.equal(
      (
        await operator.post(`/dashboard/operator/merchants/${other.id}/terminals/${terminal.id}/act`, {
          csrf,
          action: 'decline',
        })
      ).status,
      404,
      'another merchant’s terminal',
    );

    const viewer = await dashboardSession(t, {}, 'analyst');
    const viewed = await viewer.get(`/dashboard/operator/merchants/${m.id}`);
    assert.equal(viewed.status, 200);
    assert.doesNotMatch(viewed.text, /Do it/);
    assert.equal(
      (
        await viewer.post(`/dashboard/operator/merchants/${m.id}/devices/ops-phone/deny`, {
          csrf: field(viewed.text, 'csrf'),
        })
      ).status,
      403,
    );
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    assert.equal((await owner.get('/dashboard/operator/merchants')).status, 404);
    assert.equal((await owner.get(`/dashboard/operator/merchants/${m.id}`)).status, 404);
  });

  it('moves the sandbox clock, slows the card network and shows the outbox', async () => {
    const operator = await dashboardSession(t, {}, 'owner');
    const page = await operator.get('/dashboard/operator/sandbox');
    assert.equal(page.status, 200);
    assert.match(page.text, /Outbox/);
    const csrf = field(page.text, 'csrf');
    const before = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now).getTime();
    assert.equal(
      (await operator.post('/dashboard/operator/sandbox/clock', { csrf, amount: '0', unit: 'days' })).status,
      400,
    );
    assert.equal(
      (await operator.post('/dashboard/operator/sandbox/clock', { csrf, amount: '2', unit: 'days' })).status,
      303,
    );
    const after = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now).getTime();
    assert.ok(after - before >= 2 * 86_400_000, 'moved two days forward');
    const slowed = await operator.post('/dashboard/operator/sandbox/card-network', {
      csrf,
      extraLatencyMs: '1500',
      seconds: '1',
    });
    assert.equal(slowed.status, 303);
    const network = await t.expectOk(t.admin('GET', '/admin/v1/sandbox/card-network'));
    assert.equal(network.extraLatencyMs, 1500);
    await operator.post('/dashboard/operator/sandbox/card-network', { csrf, extraLatencyMs: '0', seconds: '0' });
    const audit = await operator.get('/dashboard/audit');
    assert.match(audit.text, /operator\.clock-advance/);
  });

  it('gives a partner’s user a reset link, shown once to the operator, that works once', async () => {
    const partner = await t.partner();
    const { user } = await t.ctx.services.dashboard.accounts.create({
      email: 'lost@partner.example',
      name: 'Lost Password',
      role: 'admin',
      password: 'the password they forgot',
      ownerKind: 'partner',
      partnerId: partner.id,
    });
    const operator = await dashboardSession(t, {}, 'owner');
    const users = await operator.get('/dashboard/operator/users');
    assert.match(users.text, /lost@partner\.example/);
    const issued = await operator.post(`/dashboard/operator/users/${user.id}/reset`, {
      csrf: field(users.text, 'csrf'),
    });
    assert.equal(issued.status, 200);
    const url = /id="reset-link">([^<]+)</.exec(issued.text)![1]!.replaceAll('&amp;', '&');
    const token = new URL(url).searchParams.get('token')!;
    assert.doesNotMatch((await operator.get('/dashboard/operator/users')).text, new RegExp(token), 'shown once');
    const reset = () =>
      t.request('POST', '/dashboard/reset', {
        payload: new URLSearchParams({ token, password: 'a brand new long password' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal((await reset()).status, 200);
    assert.equal((await reset()).status, 400, 'the link works once');
    const m = await t.merchant();
    const merchantUser = await dashboardSession(t, { merchantId: m.id }, 'owner');
    assert.equal(
      (
        await operator.post(`/dashboard/operator/users/${merchantUser.user.id}/reset`, {
          csrf: field(users.text, 'csrf'),
        })
      ).status,
      404,
      'merchants’ users reset by e-mail',
    );
  });
});
