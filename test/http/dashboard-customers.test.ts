// Customers in the dashboard: found by name, a customer's page with the vaulted methods masked (never a full
// number), another merchant's customer 404, and no customers page for staff.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard customers', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('finds a customer and shows the vaulted methods masked', async () => {
    const created = await t.request('POST', '/pay-api/v1/customers', {
      token: m.token,
      body: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id as string;
    const card = await t.request('POST', `/pay-api/v1/customers/${id}/payment-methods/cards`, {
      token: m.token,
      body: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2035 },
    });
    assert.equal(card.status, 200, card.text);
    await t.request('POST', '/pay-api/v1/customers', {
      token: m.token,
      body: { firstName: 'Grace', lastName: 'Hopper' },
    });
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const found = await analyst.get('/dashboard/customers?search=lovelace');
    assert.equal(found.status, 200);
    assert.match(found.text, /Ada Lovelace/);
    assert.doesNotMatch(found.text, /Grace Hopper/);
    const page = await analyst.get(`/dashboard/customers/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /1111/);
    assert.doesNotMatch(page.text, /4111111111111111/);
    const other = await t.merchant();
    const stranger = await dashboardSession(t, { merchantId: other.id }, 'owner');
    assert.equal((await stranger.get(`/dashboard/customers/${id}`)).status, 404);
    const staff = await dashboardSession(t, { merchantId: m.id }, 'staff');
    assert.equal((await staff.get('/dashboard/customers')).status, 403);
  });
});
