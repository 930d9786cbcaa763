// More of the dashboard's journeys in a real browser (Debian's chromium through playwright-core), each ending in a
// screenshot and checked by axe-core on every page visited: an invoice created, published, paid on its hosted page
// and then seen Paid; a subscription suspended and resumed; a failed webhook delivery retried; an analyst with no
// refund button whose forged refund is refused; a partner opening its merchant; another merchant's transaction 404;
// a form posted without its CSRF token (or from another site) refused; a session that went idle sent to sign in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Role } from '../../src/modules/dashboard/accounts/roles.js';
import { launchChromium, openPage } from '../browser-session.js';
import { expectAccessible, signedInPage } from '../dashboard-browser.js';
import { customerWithSubscription } from '../dashboard-helpers.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

const SALE = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

describe('the dashboard’s journeys in a real browser', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    t = await startNode({ listen: true, workers: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    receiver = await startReceiver();
    m = await t.merchant({ body: { companyName: 'Journey Goods' } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.close();
  });

  const accessible = expectAccessible;
  const signedIn = (owner: { merchantId?: string; partnerId?: string }, role: Role, width = 1200) =>
    signedInPage(t, browser, owner, role, { width, height: 1000 });

  it('creates an invoice, publishes it, pays it on its page, and sees it Paid', async () => {
    const { page, done } = await signedIn({ merchantId: m.id }, 'owner');
    await page.getByRole('link', { name: 'Invoices' }).click();
    await accessible(page, 'the invoices list');
    await page.getByRole('link', { name: 'New invoice' }).click();
    await accessible(page, 'the new invoice form');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Line 1 product').fill('Engine tuning');
    await page.getByLabel('Line 1 quantity').fill('2');
    await page.getByLabel('Line 1 unit price').fill('40.25');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByRole('status').waitFor();
    await page.getByLabel('I confirm publishing and sending this invoice').check();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').waitFor();
    assert.match(await page.getByRole('status').innerText(), /Published/);
    await accessible(page, 'a published invoice');
    const payUrl = await page.getByRole('link', { name: 'Its payment page' }).getAttribute('href');
    const invoiceUrl = page.url().split('?')[0]!;

    const payer = await openPage(browser, { width: 480, height: 1000 });
    await payer.page.goto(payUrl!);
    await payer.page.getByRole('button', { name: /^Pay \$80\.50/ }).click();
    await payer.page.getByLabel('Name on card').fill('Ada Lovelace');
    await payer.page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await payer.page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await payer.page.getByLabel('Security code').fill('123');
    await payer.page.getByLabel('Street address').fill('123 Test St');
    await payer.page.getByLabel('City').fill('New York');
    await payer.page.getByLabel('State').selectOption('NY');
    await payer.page.getByLabel('ZIP code').fill('10001');
    await payer.page.getByRole('button', { name: 'Pay now' }).click();
    await payer.page.getByRole('heading', { name: 'Paid' }).waitFor();
    await payer.done('dashboard-invoice-paid-by-customer');

    await page.goto(invoiceUrl);
    const status = page.locator('dt:text-is("Status") + dd');
    assert.equal(await status.innerText(), 'Paid');
    assert.equal(await page.getByRole('link', { name: 'Payment', exact: true }).count(), 1, 'the payment is linked');
    await accessible(page, 'a paid invoice');
    await done('dashboard-invoice-paid');
  });

  it('suspends a subscription and resumes it', async () => {
    const { subscription } = await customerWithSubscription(t, m, {
      firstName: 'Sam',
      lastName: 'Subscriber',
      amount: 29,
      startInDays: 7,
      numberOfPayments: 12,
    });
    const { page, done } = await signedIn({ merchantId: m.id }, 'admin');
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await accessible(page, 'the subscriptions list');
    await page.getByRole('link', { name: 'Sam Subscriber' }).click();
    await page.getByLabel('I confirm suspending this subscription').check();
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('status').waitFor();
    assert.match(await page.getByRole('status').innerText(), /Suspended/);
    assert.equal((await t.ok(m, 'GET', `/sub-api/v1/subscriptions/${subscription.id}`)).statusId, 3);
    await accessible(page, 'a suspended subscription');
    await page.getByLabel('I confirm resuming this subscription').check();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('status').filter({ hasText: 'Resumed.' }).waitFor();
    assert.equal((await t.ok(m, 'GET', `/sub-api/v1/subscriptions/${subscription.id}`)).statusId, 1);
    await done('dashboard-subscription');
  });

  it('retries a failed webhook delivery', async () => {
    receiver.state.answer = () => 503;
    await t.ok(m, 'POST', '/v2/webhooks/endpoints', {
      name: 'warehouse',
      endpointUrl: `${receiver.url}/hook`,
      eventTypes: ['transaction.card.captured'],
    });
    await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 12, ...SALE });
    await eventually(async () => receiver.hits.length >= 1, 15_000);
    const { page, done } = await signedIn({ merchantId: m.id }, 'developer');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await eventually(async () => {
      await page.reload();
      return (await page.getByRole('button', { name: /^Retry the transaction\.card\.captured/ }).count()) > 0;
    }, 15_000);
    await accessible(page, 'the webhooks page');
    receiver.state.answer = () => 200;
    const before = receiver.hits.length;
    await page
      .getByRole('button', { name: /^Retry the transaction\.card\.captured/ })
      .first()
      .click();
    await page.getByRole('status').waitFor();
    assert.match(await page.getByRole('status').innerText(), /Success \(200\)/);
    assert.ok(receiver.hits.length > before, 'the receiver got the retry');
    await done('dashboard-webhook-retry');
  });

  it('shows an analyst no refund, and refuses the analyst’s forged refund', async () => {
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 33, ...SALE });
    const { page, done } = await signedIn({ merchantId: m.id }, 'analyst');
    await page.goto(`${t.baseUrl}/dashboard/transactions/${sale.transactionId}`);
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Refund' }).count(), 0, 'no refund button');
    await accessible(page, 'a transaction seen by an analyst');
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const forged = await page.request.post(`${t.baseUrl}/dashboard/transactions/${sale.transactionId}/refund`, {
      form: { csrf: csrf!, confirm: 'yes', amount: '33.00', formId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5ca0' },
      headers: { origin: t.baseUrl },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    const after = await t.ok(m, 'GET', `/pay-api/v1/transactions/${sale.transactionId}`);
    assert.equal(after.refundedAmount ?? 0, 0, JSON.stringify(after));
    await done('dashboard-analyst');
  });

  it('opens a partner’s merchant from its portfolio', async () => {
    const partner = await t.partner();
    const merchant = await t.merchant({ partnerId: partner.id, body: { companyName: 'Partnered Pasta' } });
    await t.ok(merchant, 'POST', '/pay-api/v1/transactions/sale', { amount: 21, referenceId: 'PASTA-1', ...SALE });
    const { page, done } = await signedIn({ partnerId: partner.id }, 'admin');
    await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
    await accessible(page, 'the portfolio');
    await page.getByRole('button', { name: 'Open Partnered Pasta' }).click();
    await page.getByRole('heading', { name: 'Partnered Pasta' }).waitFor();
    await page.getByRole('link', { name: 'Transactions', exact: true }).click();
    await page.getByRole('cell', { name: 'PASTA-1' }).waitFor();
    await accessible(page, 'a merchant’s transactions seen by its partner');
    await page.getByRole('button', { name: 'Back to portfolio' }).click();
    await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
    await done('dashboard-partner');
  });

  it('answers 404 for another merchant’s transaction and refuses a form without its CSRF token', async () => {
    const other = await t.merchant();
    const theirs = await t.ok(other, 'POST', '/pay-api/v1/transactions/sale', { amount: 44, ...SALE });
    const { page, done } = await signedIn({ merchantId: m.id }, 'owner');
    const answer = await page.goto(`${t.baseUrl}/dashboard/transactions/${theirs.transactionId}`);
    assert.equal(answer?.status(), 404);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await accessible(page, 'the not found page');
    const mine = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 45, ...SALE });
    const refund = (form: Record<string, string>, origin: string) =>
      page.request.post(`${t.baseUrl}/dashboard/transactions/${mine.transactionId}/refund`, {
        form: { confirm: 'yes', amount: '45.00', formId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5ca1', ...form },
        headers: { origin },
        maxRedirects: 0,
      });
    await page.goto(`${t.baseUrl}/dashboard/transactions/${mine.transactionId}`);
    const csrf = (await page.locator('input[name=csrf]').first().getAttribute('value'))!;
    assert.equal((await refund({}, t.baseUrl)).status(), 403, 'no token');
    assert.equal((await refund({ csrf: 'x'.repeat(43) }, t.baseUrl)).status(), 403, 'a wrong token');
    assert.equal((await refund({ csrf }, 'https://evil.example')).status(), 403, 'another site');
    const after = await t.ok(m, 'GET', `/pay-api/v1/transactions/${mine.transactionId}`);
    assert.equal(after.refundedAmount ?? 0, 0, JSON.stringify(after));
    await page.goto(`${t.baseUrl}/dashboard/audit`);
    assert.match(await page.locator('main').innerText(), /csrf/);
    await done('dashboard-refusals');
  });

  it('sends a user whose session went idle back to sign in, and back where they were after', async () => {
    const { page, done } = await signedIn({ merchantId: m.id }, 'owner');
    await page.goto(`${t.baseUrl}/dashboard/transactions`);
    await t.query(`UPDATE dashboard_sessions SET last_seen_at = now() - interval '2 hours' WHERE revoked_at IS NULL`);
    await page.goto(`${t.baseUrl}/dashboard/settlements`);
    assert.match(page.url(), /\/dashboard\/sign-in\?next=%2Fdashboard%2Fsettlements/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await accessible(page, 'the sign-in page after an idle session');
    await done('dashboard-session-expired');
  });
});
