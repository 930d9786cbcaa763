// The hosted checkout page and the elements example in a real browser: Debian's chromium driven by playwright-core.
// Everything stays on loopback: Tessera on one port, a small "merchant site" (return pages and examples/) on another.
// Each test saves a screenshot under test-results/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { projectRoot } from '../../src/platform/paths.js';
import { launchChromium, RESULTS } from '../browser-session.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

/** The merchant's site: a thank-you page for return URLs and the elements example, on its own origin. */
function merchantSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const example = readFileSync(path.join(projectRoot(), 'examples', 'elements.html'));
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith('/elements.html')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(example);
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<h1>Thanks from the shop</h1>`);
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    }),
  );
}

describe('checkout in a real browser', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let browser: Browser;
  let shop: { url: string; close: () => Promise<void> };
  let context: BrowserContext;

  before(async () => {
    t = await startNode({ listen: true, workers: true });
    m = await t.merchant();
    shop = await merchantSite();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await t?.stop();
  });

  async function newPage(viewport = { width: 480, height: 900 }): Promise<Page> {
    context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }
  async function finish(page: Page, name: string) {
    await page.screenshot({ path: path.join(RESULTS, `${name}.png`), fullPage: true });
    await context.close();
  }
  async function session(body: Record<string, unknown>, url = '/v2/payment-sessions') {
    return t.expectOk(t.request('POST', url, { token: m.token, body }));
  }
  const view = (id: string) => t.expectOk(t.request('GET', `/v2/payment-sessions/${id}`, { token: m.token }));

  /** On the checkout page or inside the elements frame: the same form. */
  async function fillCard(form: Page | FrameLocator, number: string) {
    await form.getByLabel('Name on card').fill('Ada Lovelace');
    await form.getByLabel('Card number').fill(number);
    await form.getByLabel('Expiry (MM/YY)').fill('12/30');
    await form.getByLabel('Security code').fill('123');
  }
  /** The example merchant page (examples/elements.html) with the session's fields mounted; returns the frame. */
  async function openExample(page: Page, sessionId: string): Promise<FrameLocator> {
    await page.goto(`${shop.url}/elements.html?tessera=${encodeURIComponent(t.baseUrl)}&session=${sessionId}`);
    await page.getByText('Enter your payment details.').waitFor();
    return page.frameLocator('iframe[title="Secure payment form"]');
  }
  async function fillAddress(page: Page) {
    await page.getByLabel('Street address').fill('123 Test St');
    await page.getByLabel('City').fill('New York');
    await page.getByLabel('State').selectOption('NY');
    await page.getByLabel('ZIP code').fill('10001');
  }

  it('pays a session by card at 320 px wide and lands on the return URL', async () => {
    const s = await session({
      amount: 19.99,
      pageName: 'Example Shop',
      returnUrl: `${shop.url}/thanks/{{paymentSessionId}}`,
    });
    const page = await newPage({ width: 320, height: 900 });
    await page.goto(s.checkoutUrl);
    assert.equal(await page.locator('h1').textContent(), 'Example Shop');
    assert.ok(await page.getByText('$19.99').first().isVisible());
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `no horizontal scrolling at 320 px (${overflow})`);
    // With both methods offered, the script shows only the chosen method's fields.
    assert.equal(await page.getByLabel('Routing number').isVisible(), false);
    await fillCard(page, '4111 1111 1111 1111');
    await fillAddress(page);
    await page.screenshot({ path: path.join(RESULTS, 'card-form-320px.png'), fullPage: true });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(`${shop.url}/thanks/${s.id}`);
    assert.equal(await page.locator('h1').textContent(), 'Thanks from the shop');
    const v = await view(s.id);
    assert.equal(v.status, 'Completed');
    assert.equal(v.transactionDetails.transactionStatus, 'Captured');
    await finish(page, 'card-paid');
  });

  it('pays a session by ACH', async () => {
    const s = await session({ amount: 42, afterCompletionMessage: 'We will ship when the debit clears.' });
    const page = await newPage();
    await page.goto(s.checkoutUrl);
    await page.getByLabel('Bank account (ACH)').check();
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Routing number').fill('021000021');
    await page.getByLabel('Account number').fill('123456789');
    await page.getByLabel('Account type').selectOption('2');
    await page.getByLabel('Phone').fill('212 555 0100');
    await fillAddress(page);
    await page.getByLabel('I authorize this debit').check();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByText('We will ship when the debit clears.').waitFor();
    const v = await view(s.id);
    assert.equal(v.status, 'Completed');
    assert.equal(v.transactionDetails.paymentMethodType, 'ACH');
    assert.equal(v.achAccountLast2, '89');
    await finish(page, 'ach-paid');
  });

  it('shows a declined card next to the form, then pays with another card', async () => {
    const s = await session({ amount: 15, paymentMethods: { card: { enabled: true } } });
    const page = await newPage();
    await page.goto(s.checkoutUrl);
    await fillCard(page, '4000000010050005');
    await fillAddress(page);
    await page.getByRole('button', { name: 'Pay now' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent())!, /declined: Do not honor.*another card/);
    await page.screenshot({ path: path.join(RESULTS, 'card-declined.png'), fullPage: true });
    // The card number and code are not kept; the rest is.
    assert.equal(await page.getByLabel('Card number').inputValue(), '');
    assert.equal(await page.getByLabel('Name on card').inputValue(), 'Ada Lovelace');
    await page.getByLabel('Card number').fill('4111111111111111');
    await page.getByLabel('Security code').fill('321');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByText('Payment complete').waitFor();
    const v = await view(s.id);
    assert.deepEqual(
      v.transactionDetails.history.map((h: { status: string }) => h.status),
      ['Declined', 'Captured'],
    );
    await finish(page, 'card-declined-then-paid');
  });

  it('saves a card (SaveMethod) and reports the vaulted method', async () => {
    const s = await session({ mode: 2, pageName: 'Save your card' }, '/pay-int-api/payment-sessions');
    const page = await newPage();
    await page.goto(s.checkoutUrl);
    await page.getByLabel('Card', { exact: true }).check();
    await fillCard(page, '4111111111111111');
    await fillAddress(page);
    await page.getByRole('button', { name: 'Save payment method' }).click();
    await page.getByText('Payment method saved').waitFor();
    const v = await view(s.id);
    assert.equal(v.status, 'Completed');
    assert.ok(v.vaultedPaymentMethodId);
    await finish(page, 'save-method');
  });

  it('takes a flexible amount typed by the payer', async () => {
    const s = await session({
      amount: null,
      paymentMethods: { card: { enabled: true } },
      skipAddressVerification: true,
    });
    const page = await newPage();
    await page.goto(s.checkoutUrl);
    await page.getByLabel('Amount to pay (USD)').fill('7.25');
    await fillCard(page, '4111111111111111');
    assert.equal(await page.getByLabel('Street address').count(), 0, 'no address when AVS is skipped');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByText('$7.25').waitFor();
    const v = await view(s.id);
    assert.equal(v.transactionDetails.amount.totalAmount, 7.25);
    await finish(page, 'flexible-amount');
  });

  it('shows an expired session as expired, with no form', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const s = await session({ amount: 5, expiresAt: new Date(now.getTime() + 60_000).toISOString() });
    await t.advanceClock(120, m);
    const page = await newPage();
    await page.goto(s.checkoutUrl);
    await page.getByText('This payment page has expired.').waitFor();
    assert.equal(await page.locator('form').count(), 0);
    await finish(page, 'expired');
  });

  it('pays through the elements example page (iframe, postMessage events)', async () => {
    const s = await session({ amount: 12, paymentMethods: { card: { enabled: true } } });
    const page = await newPage();
    const frame = await openExample(page, s.id);
    await fillCard(frame, '4111111111111111');
    await frame.getByLabel('Street address').fill('123 Test St');
    await frame.getByLabel('ZIP code').fill('10001');
    // The merchant page cannot read the card number: the frame is another origin.
    const leaked = await page.evaluate<string | null>(
      `(() => { try { return document.querySelector('iframe').contentDocument?.body?.innerHTML ?? null; } catch { return null; } })()`,
    );
    assert.equal(leaked, null);
    await page.getByRole('button', { name: 'Pay with the form above' }).click();
    await page.getByText('Thank you! Payment Completed.').waitFor();
    const events = await page.locator('#log li').evaluateAll((items) => items.map((i) => i.getAttribute('data-event')));
    assert.equal(events[0], 'ready');
    assert.ok(events.includes('change'));
    assert.equal(events.at(-1), 'complete');
    assert.equal((await view(s.id)).status, 'Completed');
    await finish(page, 'elements-example');
  });

  it('reports a decline to the merchant page as an error event', async () => {
    const s = await session({ amount: 13, paymentMethods: { card: { enabled: true } }, skipAddressVerification: true });
    const page = await newPage();
    const frame = await openExample(page, s.id);
    await fillCard(frame, '4000000010510008');
    await frame.getByRole('button', { name: 'Pay now' }).click();
    await page.locator('#status', { hasText: 'Declined: Insufficient funds' }).waitFor();
    assert.equal((await view(s.id)).status, 'Created');
    await finish(page, 'elements-declined');
  });

  it('completes a payment with the keyboard alone', async () => {
    const s = await session({ amount: 9, paymentMethods: { card: { enabled: true } }, skipAddressVerification: true });
    const page = await newPage();
    await page.goto(s.checkoutUrl);
    const typeInto = async (label: string, text: string) => {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<string | undefined>('document.activeElement.labels?.[0]?.textContent');
      assert.equal(focused, label, 'Tab moves through the fields in order');
      await page.keyboard.type(text);
    };
    await typeInto('Name on card', 'Ada Lovelace');
    await typeInto('Card number', '4111111111111111');
    await typeInto('Expiry (MM/YY)', '12/30');
    await typeInto('Security code', '123');
    await typeInto('Email for the receipt (optional)', 'ada@example.com');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate<string>('document.activeElement.textContent'), 'Pay now');
    await page.keyboard.press('Enter');
    await page.getByText('Payment complete').waitFor();
    assert.equal((await view(s.id)).status, 'Completed');
    await finish(page, 'keyboard-only');
  });
});
