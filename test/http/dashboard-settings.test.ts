// Settings and the request log in the dashboard: the payment configuration and invoice defaults saved through the
// same rules as the API (a bad time zone or a tip over 100% refused with the API's reason, what was typed kept), seen
// through the API after; an analyst reads but cannot save; the request log shows the merchant's API requests to a
// developer, filtered by status class, and is no analyst's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard settings and request log', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('saves the payment configuration and invoice defaults through the API’s rules', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const shown = await owner.get('/dashboard/settings');
    assert.equal(shown.status, 200);
    assert.match(shown.text, /America\/New_York/);
    const csrf = field(shown.text, 'csrf');
    const payments = {
      csrf,
      timeZone: 'America/Chicago',
      maxTransactionAmount: '2500.00',
      tipOptions: '15, 18.5, 20',
      retryDays: '2, 4',
      isTipsEnabled: 'yes',
      avsEnabled: 'yes',
    };
    const badZone = await owner.post('/dashboard/settings/payments', { ...payments, timeZone: 'Mars/Olympus_Mons' });
    assert.equal(badZone.status, 400);
    assert.match(badZone.text, /not an IANA time zone/);
    assert.match(badZone.text, /value="Mars\/Olympus_Mons"/, 'what was typed is kept');
    const badTip = await owner.post('/dashboard/settings/payments', { ...payments, tipOptions: '150' });
    assert.equal(badTip.status, 400);
    const badDays = await owner.post('/dashboard/settings/payments', { ...payments, retryDays: '4, 2' });
    assert.equal(badDays.status, 400);
    assert.match(badDays.text, /must increase/);
    assert.equal((await owner.post('/dashboard/settings/payments', payments)).status, 303);
    const configuration = (await t.ctx.services.merchants.getConfiguration(m.id)).settings;
    assert.equal(configuration.timeZone, 'America/Chicago');
    assert.equal(configuration.isTipsEnabled, true);
    assert.deepEqual(configuration.defaultTipsOptionsMpct, [15_000, 18_500, 20_000]);
    assert.equal(configuration.maxTransactionAmountCents, 250_000);
    assert.deepEqual(configuration.subscriptionRetryDays, [2, 4]);

    const invoices = {
      csrf,
      dueDateAfterDays: '14',
      taxPercentage: '8.875',
      discountPercentage: '',
      shippingFeeAmount: '4.99',
      feesPercentage: '',
      notes: 'Thank you!',
      isShippingFeeEnabled: 'yes',
    };
    const badTax = await owner.post('/dashboard/settings/invoices', { ...invoices, taxPercentage: 'lots' });
    assert.equal(badTax.status, 400);
    assert.equal((await owner.post('/dashboard/settings/invoices', invoices)).status, 303);
    const api = await t.ok(m, 'GET', `/pay-int-api/merchants/${m.id}/invoices/settings`);
    assert.deepEqual(
      [api.dueDateAfterDays, api.taxPercentage, api.shippingFeeAmount, api.isShippingFeeEnabled, api.isDiscountEnabled],
      [14, 8.875, 4.99, true, false],
    );
    assert.equal(api.notes, 'Thank you!');

    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const seen = await analyst.get('/dashboard/settings');
    assert.equal(seen.status, 200);
    assert.doesNotMatch(seen.text, /<button type="submit">Save<\/button>/);
    assert.equal(
      (await analyst.post('/dashboard/settings/invoices', { ...invoices, csrf: field(seen.text, 'csrf') })).status,
      403,
    );
  });

  it('shows the merchant’s request log to a developer, filtered by status class', async () => {
    await t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token });
    await t.request('GET', `/pay-api/v1/transactions/${'0'.repeat(8)}-0000-4000-8000-000000000000`, {
      token: m.token,
    });
    const developer = await dashboardSession(t, { merchantId: m.id }, 'developer');
    // Request logs are written behind the response, each on its own: wait for both rows.
    await eventually(async () => {
      const all = (await developer.get('/dashboard/logs')).text;
      return /\/pay-api\/v1\/configurations\/payments/.test(all) && /\/pay-api\/v1\/transactions\//.test(all);
    }, 10_000);
    const notFound = await developer.get('/dashboard/logs?status=4xx');
    assert.match(notFound.text, /\/pay-api\/v1\/transactions\//);
    assert.doesNotMatch(notFound.text, /configurations\/payments/);
    const other = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    assert.doesNotMatch((await other.get('/dashboard/logs')).text, /configurations\/payments/);
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.equal((await analyst.get('/dashboard/logs')).status, 403);
  });
});
