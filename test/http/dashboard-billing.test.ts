// Subscriptions, invoices and payment links in the dashboard: a subscription suspended and resumed (and refused a
// second suspension with the service's reason), an invoice made from the form, published, marked paid, with its PDF;
// a payment link created and deactivated; each move in the audit log; another merchant's objects 404; an analyst sees
// them but cannot move them (no form, and a forged post refused).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { customerWithSubscription, dashboardSession, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard subscriptions, invoices and links', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('suspends and resumes a subscription, refusing what its status does not allow', async () => {
    const { subscription } = await customerWithSubscription(t, m, {
      firstName: 'Sub',
      lastName: 'Scriber',
      amount: 15,
      startInDays: 30,
      numberOfPayments: 6,
    });
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const list = await owner.get('/dashboard/subscriptions?statusId=1');
    assert.equal(list.status, 200);
    assert.match(list.text, /Sub Scriber/);
    const url = `/dashboard/subscriptions/${subscription.id}`;
    const before = await owner.get(url);
    assert.match(before.text, /Active/);
    assert.match(before.text, /\$15\.00/);
    const csrf = field(before.text, 'csrf');
    assert.equal((await owner.post(`${url}/suspend`, { csrf })).status, 400, 'unconfirmed');
    const suspended = await owner.post(`${url}/suspend`, { csrf, confirm: 'yes' });
    assert.equal(suspended.status, 303);
    assert.equal((await t.ok(m, 'GET', `/sub-api/v1/subscriptions/${subscription.id}`)).statusId, 3);
    const again = await owner.post(`${url}/suspend`, { csrf, confirm: 'yes' });
    assert.equal(again.status, 409);
    assert.match(again.text, /role="alert"/);
    assert.equal((await owner.post(`${url}/resume`, { csrf, confirm: 'yes' })).status, 303);
    assert.equal((await t.ok(m, 'GET', `/sub-api/v1/subscriptions/${subscription.id}`)).statusId, 1);

    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const seen = await analyst.get(url);
    assert.equal(seen.status, 200);
    assert.doesNotMatch(seen.text, /\/suspend"/);
    assert.equal(
      (await analyst.post(`${url}/suspend`, { csrf: field(seen.text, 'csrf'), confirm: 'yes' })).status,
      403,
    );
    const stranger = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    assert.equal((await stranger.get(url)).status, 404);
    assert.equal(
      (
        await stranger.post(`${url}/suspend`, {
          csrf: field((await stranger.get('/dashboard')).text, 'csrf'),
          confirm: 'yes',
        })
      ).status,
      404,
    );
    assert.equal((await t.ok(m, 'GET', `/sub-api/v1/subscriptions/${subscription.id}`)).statusId, 1);
    const audit = await owner.get('/dashboard/audit');
    assert.match(audit.text, /subscription\.suspend/);
    assert.match(audit.text, /subscription\.resume/);
  });

  it('creates an invoice from the form, publishes it, marks it paid, and shows its PDF', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const form = await owner.get('/dashboard/invoices/new');
    assert.equal(form.status, 200);
    const csrf = field(form.text, 'csrf');
    const bad = await owner.post('/dashboard/invoices', {
      csrf,
      firstName: 'Ada',
      product0: 'Consulting',
      price0: 'lots',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /unit price is not an amount/);
    assert.match(bad.text, /value="Consulting"/, 'the form keeps what was typed');
    const created = await owner.post('/dashboard/invoices', {
      csrf,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      product0: 'Consulting',
      quantity0: '2',
      price0: '150.10',
      product1: 'Travel',
      price1: '0.07',
    });
    assert.equal(created.status, 303, created.text);
    const url = String(created.headers.location).split('?')[0]!;
    const draft = await owner.get(url);
    assert.match(draft.text, /Draft/);
    const invoiceId = url.split('/').pop()!;
    const api = await t.ok(m, 'GET', `/pay-int-api/invoices/${invoiceId}`);
    assert.equal(api.subtotalAmount, 300.27);
    assert.deepEqual(
      api.lineItems.map((l: { productName: string; quantity: number; unitPrice: number }) => [
        l.productName,
        l.quantity,
        l.unitPrice,
      ]),
      [
        ['Consulting', 2, 150.1],
        ['Travel', 1, 0.07],
      ],
    );
    assert.equal((await owner.post(`${url}/publish`, { csrf, confirm: 'yes' })).status, 303);
    const published = await owner.get(url);
    assert.match(published.text, /Published/);
    assert.match(published.text, /\/invoices\/[\w-]+">Its payment page/);
    const pdf = await owner.get(`${url}/invoice.pdf`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal((await owner.post(`${url}/mark-paid`, { csrf, confirm: 'yes', note: 'Cash' })).status, 303);
    assert.equal((await t.ok(m, 'GET', `/pay-int-api/invoices/${invoiceId}`)).status, 3);
    const twice = await owner.post(`${url}/cancel`, { csrf, confirm: 'yes' });
    assert.equal(twice.status, 409, 'a paid invoice cannot be canceled');
    const list = await owner.get('/dashboard/invoices?statusId=3');
    assert.match(list.text, new RegExp(api.number));
    const stranger = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    assert.equal((await stranger.get(url)).status, 404);
    assert.equal((await stranger.get(`${url}/invoice.pdf`)).status, 404);
  });

  it('creates a payment link and deactivates it', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const listPage = await owner.get('/dashboard/links');
    const csrf = field(listPage.text, 'csrf');
    assert.equal((await owner.post('/dashboard/links', { csrf, name: 'Donation', amount: '1.2.3' })).status, 400);
    const created = await owner.post('/dashboard/links', { csrf, name: 'Donation', amount: '', singleUse: 'no' });
    assert.equal(created.status, 303, created.text);
    const links = await t.ok(m, 'GET', '/v2/payment-links');
    const link = (links.items ?? links.data ?? []).find((l: { name: string }) => l.name === 'Donation');
    assert.ok(link, JSON.stringify(links));
    const shown = await owner.get('/dashboard/links');
    assert.match(shown.text, /Payer chooses/);
    assert.match(shown.text, /\/l\/[\w-]+/);
    assert.equal(
      (await owner.post(`/dashboard/links/${link.paymentLinkId}/deactivate`, { csrf, confirm: 'yes' })).status,
      303,
    );
    const after = await t.ok(m, 'GET', `/v2/payment-links/${link.paymentLinkId}`);
    assert.match(JSON.stringify(after), /Inactive/);
    const stranger = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    const strangerCsrf = field((await stranger.get('/dashboard/links')).text, 'csrf');
    assert.equal(
      (await stranger.post(`/dashboard/links/${link.paymentLinkId}/deactivate`, { csrf: strangerCsrf, confirm: 'yes' }))
        .status,
      404,
    );
  });

  it('creates a subscription for a customer once per form, and changes its payment method', async () => {
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Nina', lastName: 'Newsub' });
    const first = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      pan: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
    });
    const second = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      pan: '5555555555554444',
      expirationMonth: 11,
      expirationYear: 2034,
    });
    const owner = await dashboardSession(t, { merchantId: m.id }, 'admin');
    assert.match((await owner.get(`/dashboard/customers/${customer.id}`)).text, /New subscription/);
    const form = await owner.get(`/dashboard/subscriptions/new?customerId=${customer.id}`);
    assert.equal(form.status, 200);
    const fields = {
      csrf: field(form.text, 'csrf'),
      formId: field(form.text, 'formId'),
      customerId: customer.id,
      paymentMethodId: first.id,
      amount: '12.50',
      unit: '1',
      frequency: '10',
      payments: '3',
      confirm: 'yes',
    };
    const badDays = await owner.post('/dashboard/subscriptions/new', fields);
    assert.equal(badDays.status, 400, 'a day interval is 7, 15 or 30 (the API’s rule)');
    assert.match(badDays.text, /7, 15 or 30/);
    const created = await owner.post('/dashboard/subscriptions/new', { ...fields, unit: '3', frequency: '1' });
    assert.equal(created.status, 303, created.text);
    const again = await owner.post('/dashboard/subscriptions/new', { ...fields, unit: '3', frequency: '1' });
    assert.equal(again.headers.location, created.headers.location, 'the same form creates one subscription');
    const id = String(created.headers.location).split('/').pop()!.split('?')[0]!;
    const api = await t.ok(m, 'GET', `/sub-api/v1/subscriptions/${id}`);
    assert.deepEqual([api.statusId, api.numberOfPayments, api.paymentFrequencyUnit], [1, 3, 'Monthly']);
    const page = await owner.get(`/dashboard/subscriptions/${id}`);
    assert.match(page.text, /Change the payment method/);
    const changed = await owner.post(`/dashboard/subscriptions/${id}/method`, {
      csrf: field(page.text, 'csrf'),
      paymentMethodId: second.id,
    });
    assert.equal(changed.status, 303, changed.text);
    assert.equal((await t.ok(m, 'GET', `/sub-api/v1/subscriptions/${id}`)).paymentMethodId, second.id);
    const stranger = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    assert.equal((await stranger.get(`/dashboard/subscriptions/new?customerId=${customer.id}`)).status, 404);
  });

  it('keeps a catalog, and bills a catalog item with its price and tax', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const catalog = await owner.get('/dashboard/invoices/catalog');
    assert.equal(catalog.status, 200);
    const csrf = field(catalog.text, 'csrf');
    assert.equal(
      (await owner.post('/dashboard/invoices/catalog', { csrf, productName: 'Tune-up', unitPrice: 'x' })).status,
      400,
    );
    assert.equal(
      (
        await owner.post('/dashboard/invoices/catalog', {
          csrf,
          productName: 'Tune-up',
          unitPrice: '80',
          taxRate: '150',
        })
      ).status,
      400,
    );
    const added = await owner.post('/dashboard/invoices/catalog', {
      csrf,
      productName: 'Tune-up',
      unitPrice: '80.00',
      taxRate: '10',
      sku: 'TU-1',
    });
    assert.equal(added.status, 303, added.text);
    const items = await t.ok(m, 'GET', '/pay-int-api/line-items');
    const item = (items.items as Array<{ id: string; productName: string }>).find((i) => i.productName === 'Tune-up')!;
    assert.ok(item, JSON.stringify(items));
    const form = await owner.get('/dashboard/invoices/new');
    assert.match(form.text, /Tune-up \(\$80\.00\)/);
    const created = await owner.post('/dashboard/invoices', {
      csrf,
      firstName: 'Cat',
      lastName: 'Alog',
      item0: item.id,
      quantity0: '1.5',
    });
    assert.equal(created.status, 303, created.text);
    const invoiceId = String(created.headers.location).split('?')[0]!.split('/').pop()!;
    const invoice = await t.ok(m, 'GET', `/pay-int-api/invoices/${invoiceId}`);
    assert.deepEqual(
      [
        invoice.lineItems[0].productName,
        invoice.lineItems[0].unitPrice,
        invoice.lineItems[0].taxRate,
        invoice.totalAmount,
      ],
      ['Tune-up', 80, 10, 132],
    );
    const stranger = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    const strangerCsrf = field((await stranger.get('/dashboard/invoices/catalog')).text, 'csrf');
    assert.equal(
      (await stranger.post(`/dashboard/invoices/catalog/${item.id}/delete`, { csrf: strangerCsrf })).status,
      404,
    );
    assert.equal((await owner.post(`/dashboard/invoices/catalog/${item.id}/delete`, { csrf })).status, 303);
    assert.doesNotMatch((await owner.get('/dashboard/invoices/catalog')).text, /Tune-up/);
  });

  it('lists quick payments beside links, activates one, and shares it with consent', async () => {
    const quick = await t.ok(m, 'POST', '/pay-int-api/quick-payments/reusable', { amount: 25, name: 'Class pass' });
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const list = await owner.get('/dashboard/links');
    assert.match(list.text, /Class pass<\/td><td>Quick payment<\/td><td>Created/);
    const csrf = field(list.text, 'csrf');
    assert.equal((await owner.post(`/dashboard/links/${quick.id}/activate`, { csrf, confirm: 'yes' })).status, 303);
    assert.equal((await t.ok(m, 'GET', `/pay-int-api/quick-payments/reusable/${quick.id}`)).statusId, 2);
    const sharePage = await owner.get(`/dashboard/links/${quick.id}/share`);
    assert.equal(sharePage.status, 200);
    const noConsent = await owner.post(`/dashboard/links/${quick.id}/share`, {
      csrf,
      shareBy: 'Email',
      recipient: 'pat@example.com',
    });
    assert.equal(noConsent.status, 400);
    assert.match(noConsent.text, /consent/);
    const shared = await owner.post(`/dashboard/links/${quick.id}/share`, {
      csrf,
      shareBy: 'Email',
      recipient: 'pat@example.com',
      consent: 'yes',
    });
    assert.equal(shared.status, 303, shared.text);
    const outbox = await t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}&channel=email`);
    assert.ok(
      (outbox.body.items as Array<{ to: string; text: string }>).some(
        (x) => x.to === 'pat@example.com' && /Class pass/.test(x.text),
      ),
    );
    assert.equal((await owner.post(`/dashboard/links/${quick.id}/deactivate`, { csrf, confirm: 'yes' })).status, 303);
    assert.equal((await t.ok(m, 'GET', `/pay-int-api/quick-payments/reusable/${quick.id}`)).statusId, 3);
    const stranger = await dashboardSession(t, { merchantId: (await t.merchant()).id }, 'owner');
    assert.equal((await stranger.get(`/dashboard/links/${quick.id}/share`)).status, 404);
  });
});
