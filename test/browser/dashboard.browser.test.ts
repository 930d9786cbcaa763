// The dashboard in a real browser (Debian's chromium through playwright-core): signing in with e-mail, password and
// an authenticator's code, found by their labels; the home page with today's figures; keyboard-only sign-in; a
// phone-sized window; and axe-core's accessibility check on every page visited. A screenshot per journey.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { totpCode } from '../../src/modules/dashboard/accounts/totp.js';
import { launchChromium, openPage } from '../browser-session.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('the dashboard in a real browser', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let browser: Browser;
  let owner: { email: string; password: string; totpSecret: string };

  before(async () => {
    t = await startNode({ listen: true });
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
  });

  async function accessible(page: Page, what: string) {
    const results = await new AxeBuilder({ page: page as never }).analyze();
    assert.deepEqual(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `${what} has no accessibility violation`,
    );
  }
  /** A code for a step no sign-in of this test used yet (each sign-in takes one; the server allows one either side). */
  let offset = -1;
  const nextCode = () => totpCode(owner.totpSecret, new Date(Date.now() + offset++ * 30_000));

  it('signs in with email, password and the one-time code, and shows the home page', async () => {
    const { page, done } = await openPage(browser, { width: 1200, height: 900 });
    await page.goto(`${t.baseUrl}/dashboard`);
    assert.match(page.url(), /\/dashboard\/sign-in\?next=/);
    await accessible(page, 'the sign-in page');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel(/code/).fill(nextCode());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /not right/);
    await accessible(page, 'the sign-in page with its error');

    await page.getByLabel('Password').fill(owner.password);
    await page.getByLabel(/code/).fill(nextCode());
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
    await page.keyboard.type(nextCode());
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Browser Bistro' }).waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    assert.equal(overflow, false, 'nothing wider than the screen');
    await accessible(page, 'the home page at 320 px');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await done('dashboard-phone');
  });
});
