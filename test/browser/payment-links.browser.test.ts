// Payment links in a real browser (Debian's chromium through playwright-core): a one-time quick payment paid once, a
// MultiUse link paid twice with amounts the payers enter, and an expired link. Loopback only; screenshots in
// test-results/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage } from '../browser-session.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('payment links in a real browser', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let browser: Browser;
  let done: (name: string) => Promise<void>;

  before(async () => {
    t = await startNode({ listen: true, workers: true });
    m = await t.merchant();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  const api = (method: string, url: string, body?: unknown) =>
    t.expectOk(t.request(method, url, { token: m.token, ...(body === undefined ? {} : { body }) }));
  async function newPage(viewport?: { width: number; height: number }): Promise<Page> {
    const opened = await openPage(browser, viewport);
    done = opened.done;
    return opened.page;
  }
  const finish = (_page: Page, name: string) => done(name);
  async function payByCard(page: Page) {
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Street address').fill('123 Test St');
    await page.getByLabel('City').fill('New York');
    await page.getByLabel('State').selectOption('NY');
    await page.getByLabel('ZIP code').fill('10001');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByText('Payment complete').waitFor();
  }

  it('pays a one-time quick payment at 320 px, once', async () => {
    const { id } = await api('POST', '/pay-int-api/quick-payments/one-time', { amount: 42.5, referenceId: 'B-1' });
    const link = await api('POST', `/pay-int-api/quick-payments/${id}/activate`);
    const page = await newPage({ width: 320, height: 900 });
    await page.goto(link.url.replace(/^https?:\/\/[^/]+/, t.baseUrl));
    assert.ok(await page.getByText('$42.50').first().isVisible());
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `no horizontal scrolling at 320 px (${overflow})`);
    await payByCard(page);
    const after = await api('GET', `/pay-int-api/quick-payments/one-time/${id}`);
    assert.equal(after.status, 'Inactive');
    assert.equal(after.paymentsCount, 1);
    await page.goto(link.url.replace(/^https?:\/\/[^/]+/, t.baseUrl));
    await page.getByRole('heading', { name: 'Already paid' }).waitFor();
    await finish(page, 'link-one-time-paid');
  });

  it('pays a MultiUse link twice with amounts the payers enter', async () => {
    const link = await api('POST', '/v2/payment-links', {
      paymentMethods: { card: { enabled: true } },
      currencyCode: 'USD',
      linkType: 'MultiUse',
      name: 'Tip jar',
      description: 'Thank you!',
    });
    const url = link.shortUrl.replace(/^https?:\/\/[^/]+/, t.baseUrl);
    for (const amount of ['7.50', '12.25']) {
      const page = await newPage();
      await page.goto(url);
      assert.equal(await page.locator('h1').textContent(), 'Tip jar');
      await page.getByLabel('Amount to pay (USD)').fill(amount);
      await payByCard(page);
      await finish(page, `link-multi-use-${amount}`);
    }
    const after = await api('GET', `/v2/payment-links/${link.paymentLinkId}`);
    assert.equal(after.paymentCount, 2);
    assert.equal(after.totalCollectedAmount, 19.75);
    assert.equal(after.paymentLinkStatus, 'Active');
  });

  it('shows an expired link without a form', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const link = await api('POST', '/v2/payment-links', {
      paymentMethods: { card: { enabled: true } },
      currencyCode: 'USD',
      baseAmount: 5,
      expiresOn: new Date(now.getTime() + 600_000).toISOString(),
    });
    await t.drain();
    await t.advanceClock(900, m);
    await t.drain();
    assert.equal((await api('GET', `/v2/payment-links/${link.paymentLinkId}`)).paymentLinkStatus, 'Expired');
    const page = await newPage();
    await page.goto(link.shortUrl.replace(/^https?:\/\/[^/]+/, t.baseUrl));
    await page.getByRole('heading', { name: 'Link expired' }).waitFor();
    assert.equal(await page.locator('form').count(), 0);
    await finish(page, 'link-expired');
  });
});
