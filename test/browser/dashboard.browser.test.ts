// The dashboard in a real browser (Debian's chromium through playwright-core): signing in with e-mail, password and
// an authenticator's code, found by their labels; the home page with today's figures; keyboard-only sign-in; a
// phone-sized window; and axe-core's accessibility check on every page visited. A screenshot per journey.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { totpCode } from '../../src/modules/dashboard/accounts/totp.js';
import { launchChromium, openPage } from '../browser-session.js';
import { expectAccessible } from '../dashboard-browser.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

describe('the dashboard in a real browser', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let browser: Browser;
  let owner: { email: string; password: string; totpSecret: string };
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    t = await startNode({ listen: true, workers: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    receiver = await startReceiver();
    m = await t.merchant({ body: { companyName: 'Browser Bistro' } });
    const password = 'a long and careful passphrase';
    const created = await t.ctx.services.dashboard.accounts.create({
      email: 'owner@bistro.example',
      name: 'Bistro Owner',
      ownerKind: 'merchant',
      merchantId: m.id,
      role: 'owner',
      password,
    });
    owner = { email: created.user.email, password, totpSecret: created.totpSecret };
    // Something to show: two sales and a decline today.
    for (const [card, amount] of [
      ['4111111111111111', 25],
      ['4111111111111111', 14.5],
      ['4000000010050005', 9],
    ] as const) {
      await t.request('POST', '/pay-api/v1/transactions/sale', {
        token: m.token,
        body: {
          amount,
          accountNumber: card,
          expirationMonth: 12,
          expirationYear: 2035,
          securityCode: '123',
          billingAddress: { line1: '123 Test St', postalCode: '10001' },
        },
      });
    }
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.close();
  });

  const accessible = expectAccessible;
  /**
   * The current code. Each sign-in takes its step (a code is good once), and these sign-ins come faster than steps
   * pass: the user's last step is forgotten first, as if 30 seconds had gone by.
   */
  const nextCode = async () => {
    await t.query('UPDATE dashboard_users SET totp_last_step = NULL WHERE lower(email) = $1', [owner.email]);
    return totpCode(owner.totpSecret);
  };

  it('signs in with email, password and the one-time code, and shows the home page', async () => {
    const { page, done } = await openPage(browser, { width: 1200, height: 900 });
    await page.goto(`${t.baseUrl}/dashboard`);
    assert.match(page.url(), /\/dashboard\/sign-in\?next=/);
    await accessible(page, 'the sign-in page');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel(/code/).fill(await nextCode());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /not right/);
    await accessible(page, 'the sign-in page with its error');

    await page.getByLabel('Password').fill(owner.password);
    await page.getByLabel(/code/).fill(await nextCode());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Browser Bistro' }).waitFor();
    const today = page.getByRole('region', { name: 'Today', exact: true });
    assert.match(await today.innerText(), /\$39\.50/);
    assert.match(await today.innerText(), /Declined\s*1/);
    await accessible(page, 'the home page');
    await done('dashboard-home');
  });

  it('works by keyboard alone, on a phone-sized window', async () => {
    const { page, done } = await openPage(browser, { width: 320, height: 800 });
    await page.goto(`${t.baseUrl}/dashboard/sign-in`);
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Tab');
    await page.keyboard.type(await nextCode());
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Browser Bistro' }).waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    assert.equal(overflow, false, 'nothing wider than the screen');
    await accessible(page, 'the home page at 320 px');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await done('dashboard-phone');
  });

  it('takes a sale in the virtual terminal, finds it in the list and refunds part of it; the webhook arrives', async () => {
    const endpoint = await t.request('POST', '/v2/webhooks/endpoints', {
      token: m.token,
      body: { name: 'refunds', endpointUrl: `${receiver.url}/hook`, eventTypes: ['transaction.card.refunded'] },
    });
    assert.equal(endpoint.status, 200, endpoint.text);
    const { page, done } = await openPage(browser, { width: 1200, height: 1000 });
    await page.goto(`${t.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByLabel(/code/).fill(await nextCode());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Virtual terminal' }).click();
    await accessible(page, 'the virtual terminal');
    await page.getByLabel('Amount').fill('64.00');
    await page.getByLabel('Reference').fill('PHONE-ORDER-7');
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry month').fill('12');
    await page.getByLabel('Expiry year').fill('2035');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Street address').fill('123 Test St');
    await page.getByLabel('ZIP code').fill('10001');
    await page.getByRole('button', { name: 'Charge card' }).click();
    await page.getByRole('status').waitFor();
    assert.match(await page.getByRole('status').innerText(), /Approved/);

    await page.getByRole('link', { name: 'Transactions', exact: true }).click();
    await page.getByLabel('Search').fill('PHONE-ORDER-7');
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByRole('table', { name: 'Transactions' }).getByRole('row');
    assert.equal(await rows.count(), 2, 'the header and the sale');
    await accessible(page, 'the transactions list');
    await rows.nth(1).getByRole('link').click();
    await page.getByRole('heading', { name: 'Refund' }).waitFor();
    await accessible(page, 'a transaction page');
    await page.getByLabel('Amount to refund').fill('14.00');
    const before = page.url();
    await page.getByRole('button', { name: 'Refund' }).click();
    // Unconfirmed, the browser keeps the form (the box is required; the server refuses it too: the HTTP tests).
    assert.equal(page.url(), before);
    assert.equal(await page.getByRole('status').count(), 0, 'not refunded unconfirmed');
    await page.getByLabel('I confirm this refund').check();
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('status').waitFor();
    assert.match(await page.getByRole('status').innerText(), /Refunded/);
    assert.match(await page.locator('#amount-help').innerText(), /\$50\.00/);
    await accessible(page, 'a refunded transaction');
    await done('dashboard-refund');
    await eventually(async () => receiver.hits.some((h) => /transaction\.card\.refunded/.test(h.body)), 15_000);
  });
  it('creates an API key whose secret is shown once', async () => {
    const { page, done } = await openPage(browser, { width: 1200, height: 900 });
    await page.goto(`${t.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByLabel(/code/).fill(await nextCode());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Kitchen display');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.locator('#new-client-secret').innerText();
    assert.ok(secret.length >= 20);
    await accessible(page, 'the API keys page with a new key');
    await done('dashboard-api-key');
    const { page: later, done: laterDone } = await openPage(browser, { width: 1200, height: 900 });
    await later.goto(`${t.baseUrl}/dashboard/sign-in`);
    await later.getByLabel('Email').fill(owner.email);
    await later.getByLabel('Password').fill(owner.password);
    await later.getByLabel(/code/).fill(await nextCode());
    await later.getByRole('button', { name: 'Sign in' }).click();
    await later.goto(`${t.baseUrl}/dashboard/keys`);
    await later.getByRole('cell', { name: 'Kitchen display', exact: true }).waitFor();
    assert.equal((await later.content()).includes(secret), false, 'never shown again');
    await laterDone('dashboard-api-keys');
  });

  it('resets a forgotten password through the e-mail in the outbox, then signs in with it', async () => {
    const { page, done } = await openPage(browser, { width: 480, height: 900 });
    await page.goto(`${t.baseUrl}/dashboard/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await accessible(page, 'the forgotten password page');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('status').waitFor();
    const outbox = await t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}&channel=email`);
    const mail = (outbox.body.items as Array<{ to: string; subject: string; text: string }>).find(
      (x) => x.to === owner.email && /password/.test(x.subject),
    );
    assert.ok(mail, 'the reset e-mail is in the outbox');
    const link = /https?:\/\/\S+\/dashboard\/reset\?token=[\w-]+/.exec(mail.text)![0];
    await page.goto(`${t.baseUrl}${new URL(link).pathname}${new URL(link).search}`);
    await accessible(page, 'the new password page');
    owner.password = 'my brand new passphrase';
    await page.getByLabel('New password').fill(owner.password);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByLabel(/code/).fill(await nextCode());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Browser Bistro' }).waitFor();
    await done('dashboard-password-reset');
  });
});
