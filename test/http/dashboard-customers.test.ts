// Customers in the dashboard: found by name, a customer's page with the vaulted methods masked (never a full
// number), another merchant's customer 404, and no customers page for staff.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
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

  it('adds, edits and deletes a customer and removes a saved method, with the API’s rules', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'admin');
    const form = await owner.get('/dashboard/customers/new');
    assert.equal(form.status, 200);
    const csrf = field(form.text, 'csrf');
    const bad = await owner.post('/dashboard/customers', { csrf, firstName: 'Bad', email: 'not-an-email' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /email/);
    const created = await owner.post('/dashboard/customers', {
      csrf,
      firstName: 'Edith',
      lastName: 'Clarke',
      email: 'edith@example.com',
      phone: '+12125550100',
      line1: '1 Grid Way',
      city: 'Austin',
      stateCode: 'TX',
      postalCode: '78701',
    });
    assert.equal(created.status, 303, created.text);
    const id = String(created.headers.location).split('?')[0]!.split('/').pop()!;
    const api = await t.ok(m, 'GET', `/pay-api/v1/customers/${id}`);
    assert.equal(api.email, 'edith@example.com');
    const edit = await owner.get(`/dashboard/customers/${id}/edit`);
    assert.match(edit.text, /value="TX"/);
    const saved = await owner.post(`/dashboard/customers/${id}`, {
      csrf,
      firstName: 'Edith',
      lastName: 'Clarke',
      companyName: 'General Electric',
      email: 'edith@example.com',
      line1: '1 Grid Way',
      city: 'Austin',
      stateCode: 'TX',
      postalCode: '78701',
    });
    assert.equal(saved.status, 303, saved.text);
    assert.equal((await t.ok(m, 'GET', `/pay-api/v1/customers/${id}`)).companyName, 'General Electric');
    const card = await t.ok(m, 'POST', `/pay-api/v1/customers/${id}/payment-methods/cards`, {
      pan: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
    });
    assert.equal(
      (await owner.post(`/dashboard/customers/${id}/methods/${card.id}/delete`, { csrf, confirm: 'yes' })).status,
      303,
    );
    assert.doesNotMatch((await owner.get(`/dashboard/customers/${id}`)).text, /1111/);
    const other = await t.merchant();
    const stranger = await dashboardSession(t, { merchantId: other.id }, 'owner');
    const strangerCsrf = field((await stranger.get('/dashboard/customers')).text, 'csrf');
    assert.equal(
      (await stranger.post(`/dashboard/customers/${id}`, { csrf: strangerCsrf, firstName: 'X' })).status,
      404,
    );
    assert.equal(
      (await stranger.post(`/dashboard/customers/${id}/delete`, { csrf: strangerCsrf, confirm: 'yes' })).status,
      404,
    );
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.doesNotMatch((await analyst.get(`/dashboard/customers/${id}`)).text, /Delete customer/);
    assert.equal((await owner.post(`/dashboard/customers/${id}/delete`, { csrf, confirm: 'yes' })).status, 303);
    assert.equal((await t.request('GET', `/pay-api/v1/customers/${id}`, { token: m.token })).status, 404);
  });
});
