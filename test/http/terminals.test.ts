// Terminals: the operator registers, changes and deactivates them (events, a secret shown once and stored hashed);
// merchants list them with every filter and read their status (online through the sandbox's virtual terminal here,
// offline when switched off, with what it cannot know as null); another merchant's terminal is a 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('terminals', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let other: MerchantTenant;
  const register = (merchantId: string, body: Record<string, unknown>) =>
    t.admin('POST', `/admin/v1/merchants/${merchantId}/terminals`, {
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      terminalModeId: 2,
      ...body,
    });

  before(async () => {
    t = await startNode();
    m = await t.merchant();
    other = await t.merchant();
  });
  after(() => t.stop());

  it('registers a terminal with a secret shown once and stored hashed, and records terminal.added', async () => {
    const created = await t.expectOk(register(m.id, { serialNumber: 'SN-REG-1' }));
    assert.equal(created.serialNumber, 'SN-REG-1');
    assert.equal(created.terminalManufacturer, 'Sunmi');
    assert.equal(created.terminalModel, 'SunmiP2');
    assert.equal(created.terminalModeName, 'SemiIntegrated');
    assert.equal(created.deliveryStatusName, 'PendingShipment');
    assert.equal(created.merchantId, m.id);
    assert.ok(created.terminalSecret.length >= 40);
    const stored = await t.query('SELECT secret_hash FROM terminals WHERE id = $1', [created.id]);
    assert.ok(!JSON.stringify(stored).includes(created.terminalSecret));
    const events = await t.query('SELECT type, resource_type, merchant_id FROM events WHERE resource_id = $1', [
      created.id,
    ]);
    assert.deepEqual(events, [{ type: 'terminal.added', resource_type: 'terminal', merchant_id: m.id }]);
    const read = await t.expectOk(t.request('GET', `/pos-api/v1/terminals?serialNumber=SN-REG-1`, { token: m.token }));
    assert.equal(read.items[0].terminalSecret, undefined);
  });

  it('refuses a taken serial number, a model of another manufacturer and unknown names, naming the field', async () => {
    await t.expectOk(register(m.id, { serialNumber: 'SN-DUP' }));
    const dup = await register(other.id, { serialNumber: 'SN-DUP' });
    assert.equal(dup.status, 400);
    assert.ok(dup.body.errors.serialNumber);
    const mismatch = await register(m.id, { serialNumber: 'SN-MIX', terminalModel: 'VerifoneVictaMobile' });
    assert.equal(mismatch.status, 400);
    assert.ok(mismatch.body.errors.terminalModel);
    const unknown = await register(m.id, { serialNumber: 'SN-UNK', terminalModel: 'Nokia3310' });
    assert.equal(unknown.status, 400);
    const noMerchant = await register('01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c99', { serialNumber: 'SN-NOM' });
    assert.equal(noMerchant.status, 404);
  });

  it('lists with filters, search and paging', async () => {
    const tenant = await t.merchant();
    await t.expectOk(register(tenant.id, { serialNumber: 'LST-A' }));
    await t.expectOk(
      register(tenant.id, {
        serialNumber: 'LST-B',
        terminalManufacturer: 'Verifone',
        terminalModel: 'VerifoneVictaPortable',
        deliveryStatusId: 3,
      }),
    );
    await t.expectOk(register(tenant.id, { serialNumber: 'LST-C', terminalModel: 'SunmiP3H' }));
    const list = (query: string) =>
      t.expectOk(t.request('GET', `/pos-api/v1/terminals${query}`, { token: tenant.token }));
    const all = await list('');
    assert.equal(all.total, 3);
    assert.deepEqual(
      all.items.map((i: { serialNumber: string }) => i.serialNumber),
      ['LST-C', 'LST-B', 'LST-A'],
    );
    assert.equal(all.items[0].merchantCompanyName.length > 0, true);
    assert.equal(all.items[0].connectionStatus, 'Online', 'the sandbox virtual terminal is on');
    assert.deepEqual(
      (await list('?manufacturerIds=2')).items.map((i: { serialNumber: string }) => i.serialNumber),
      ['LST-B'],
    );
    assert.equal((await list('?modelIds=1,5')).total, 2);
    assert.equal((await list('?deliveryStatusId=3')).total, 1);
    assert.equal((await list('?search=st-c')).items[0].serialNumber, 'LST-C');
    const paged = await list('?pageSize=2&page=1&orderBy=serialNumber&asc=true');
    assert.equal(paged.total, 3);
    assert.deepEqual(
      paged.items.map((i: { serialNumber: string }) => i.serialNumber),
      ['LST-C'],
    );
    const bad = await t.request('GET', '/pos-api/v1/terminals?modelIds=9', { token: tenant.token });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors.modelIds);
  });

  it('reports status: online (virtual terminal), offline with nulls when switched off', async () => {
    const created = await t.expectOk(register(m.id, { serialNumber: 'SN-STATUS' }));
    const status = await t.expectOk(t.request('GET', `/pos-api/v1/terminals/${created.id}/status`, { token: m.token }));
    assert.equal(status.terminalId, created.id);
    assert.equal(status.connectionStatus, 'Online');
    assert.equal(status.terminalPosStatus, 'Active');
    assert.equal(status.availabilityStatus, 'Ready');
    assert.equal(status.batteryLevel, 100);
    assert.equal(status.printerStatus, 'Normal');
    await t.query('INSERT INTO sandbox_terminals (terminal_id, online, modified_at) VALUES ($1, false, now())', [
      created.id,
    ]);
    const offline = await t.expectOk(
      t.request('GET', `/pos-api/v1/terminals/${created.id}/status`, { token: m.token }),
    );
    assert.equal(offline.connectionStatus, 'Offline');
    assert.equal(offline.terminalPosStatus, 'Offline');
    assert.equal(offline.batteryLevel, null);
    assert.equal(offline.printerStatus, null);
    assert.equal(offline.connectionType, null);
    assert.equal(offline.availabilityStatus, null);
  });

  it('changes mode and delivery status, deactivates once (terminal.deactivated), and 404s for other tenants', async () => {
    const created = await t.expectOk(register(m.id, { serialNumber: 'SN-LIFE' }));
    const changed = await t.expectOk(
      t.admin('PATCH', `/admin/v1/terminals/${created.id}`, { terminalModeId: 1, deliveryStatusId: 2 }),
    );
    assert.equal(changed.terminalModeName, 'Standalone');
    assert.equal(changed.deliveryStatusName, 'Shipping');
    assert.equal((await t.admin('PATCH', `/admin/v1/terminals/${created.id}`, {})).status, 400);
    const deactivated = await t.expectOk(t.admin('POST', `/admin/v1/terminals/${created.id}/deactivate`));
    assert.equal(deactivated.deliveryStatusName, 'Inactive');
    assert.equal(deactivated.connectionStatus, 'Offline');
    await t.expectOk(t.admin('POST', `/admin/v1/terminals/${created.id}/deactivate`));
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      created.id,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['terminal.added', 'terminal.deactivated'],
    );
    const reactivate = await t.admin('PATCH', `/admin/v1/terminals/${created.id}`, { deliveryStatusId: 3 });
    assert.equal(reactivate.status, 400);

    const foreign = await t.request('GET', `/pos-api/v1/terminals/${created.id}/status`, { token: other.token });
    assert.equal(foreign.status, 404);
    const listed = await t.expectOk(t.request('GET', '/pos-api/v1/terminals?search=SN-LIFE', { token: other.token }));
    assert.equal(listed.total, 0);
  });
});
