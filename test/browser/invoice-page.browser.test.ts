// The hosted invoice page in a real browser (Debian's chromium through playwright-core): paying an invoice by card at
// 320 px and by bank account through the hosted checkout, and the pages of a paid and an expired invoice. Loopback
// only; each test saves a screenshot under test-results/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, RESULTS } from '../browser-session.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const base = '/pay-int-api/invoices';

describe('the hosted invoice page in a real browser', () => {
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
  async function publishedInvoice(extra: Record<string, unknown> = {}) {
    const invoice = await api('POST', base, {
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      lineItems: [
        { productName: 'Engine tuning', quantity: 1.5, unitPrice: 80, taxRate: 10 },
        { productName: 'Punch cards', description: 'A box of 500', quantity: 2, unitPrice: 9.99 },
      ],
      notes: 'Thank you!',
      ...extra,
    });
    return api('POST', `${base}/publish`, { invoiceId: invoice.id });
  }
  async function newPage(viewport?: { width: number; height: number }): Promise<Page> {
    const opened = await openPage(browser, viewport);
    done = opened.done;
    return opened.page;
  }
  const finish = (_page: Page, name: string) => done(name);
  async function fillAddress(page: Page) {
    await page.getByLabel('Street address').fill('123 Test St');
    await page.getByLabel('City').fill('New York');
    await page.getByLabel('State').selectOption('NY');
    await page.getByLabel('ZIP code').fill('10001');
  }

  it('pays an invoice by card from its page at 320 px and shows it paid', async () => {
    const invoice = await publishedInvoice();
    const page = await newPage({ width: 320, height: 900 });
    await page.goto(invoice.payUrl);
    assert.equal(await page.locator('h1').textContent(), `Invoice ${invoice.number}`);
    assert.ok(await page.getByText('$151.98 due').isVisible());
    assert.ok(await page.getByText('A box of 500').isVisible());
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `no horizontal scrolling at 320 px (${overflow})`);
    const pdf = await page.request.get(
      await page
        .getByRole('link', { name: /Download the invoice/ })
        .getAttribute('href')
        .then((href) => new URL(href!, invoice.payUrl).href),
    );
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');
    await page.screenshot({ path: join(RESULTS, 'invoice-page-320px.png'), fullPage: true });

    await page.getByRole('button', { name: 'Pay $151.98' }).click();
    await page.waitForURL(/\/checkout\/[0-9a-f-]{36}$/);
    assert.equal(await page.locator('h1').textContent(), `Invoice ${invoice.number}`);
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await fillAddress(page);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(invoice.payUrl);
    await page.getByRole('heading', { name: 'Paid' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Pay/ }).count(), 0, 'no form on a paid invoice');

    const paid = await api('GET', `${base}/${invoice.id}`);
    assert.equal(paid.statusName, 'Paid');
    assert.equal(paid.amountPaid, 151.98);
    assert.equal(paid.transactionIds.length, 1);
    const [payment] = await t.query<{ create_method_id: number; source_id: string }>(
      'SELECT create_method_id, source_id FROM transactions WHERE id = $1',
      [paid.transactionIds[0]],
    );
    assert.deepEqual(payment, { create_method_id: 4, source_id: invoice.id }, 'the invoice is the source');
    const [row] = await t.query<{ checkout_session_id: string }>(
      'SELECT checkout_session_id FROM invoices WHERE id = $1',
      [invoice.id],
    );
    const session = await api('GET', `/v2/payment-sessions/${row!.checkout_session_id}`);
    assert.equal(session.status, 'Completed');
    assert.equal(session.transactionDetails.transactionId, paid.transactionIds[0]);
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      invoice.id,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['invoice.created', 'invoice.paid'],
    );
    await finish(page, 'invoice-card-paid');
  });

  it('pays an invoice by bank account: processing on its page until the debit clears', async () => {
    const invoice = await publishedInvoice();
    const page = await newPage();
    await page.goto(invoice.payUrl);
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/checkout\//);
    await page.getByLabel('Bank account (ACH)').check();
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Routing number').fill('021000021');
    await page.getByLabel('Account number').fill('100000099');
    await page.getByLabel('Account type').selectOption('1');
    await page.getByLabel('Phone').fill('212 555 0100');
    await fillAddress(page);
    await page.getByLabel('I authorize this debit').check();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(invoice.payUrl);
    await page.getByRole('heading', { name: 'Payment in progress' }).waitFor();
    assert.equal((await api('GET', `${base}/${invoice.id}`)).statusName, 'ProcessingPayment');

    const start = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now).getTime();
    for (let day = 1; day <= 6; day++) {
      await t.advanceClockTo(new Date(start + day * 86_400_000), m);
      await t.drain();
      if ((await api('GET', `${base}/${invoice.id}`)).statusName === 'Paid') break;
    }
    assert.equal((await api('GET', `${base}/${invoice.id}`)).statusName, 'Paid');
    await page.reload();
    await page.getByRole('heading', { name: 'Paid' }).waitFor();
    await finish(page, 'invoice-ach-paid');
  });

  it('shows an expired invoice without a form, and an unknown link as not found', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const invoice = await publishedInvoice({
      issueDate: now.toISOString(),
      dueDate: new Date(now.getTime() + 86_400_000).toISOString(),
    });
    await t.advanceClock(32 * 86_400, m);
    await t.drain();
    assert.equal((await api('GET', `${base}/${invoice.id}`)).statusName, 'Expired');
    const page = await newPage();
    await page.goto(invoice.payUrl);
    await page.getByRole('heading', { name: 'Expired' }).waitFor();
    assert.equal(await page.getByRole('button').count(), 0);
    const forced = await page.request.post(`${invoice.payUrl}/pay`, { maxRedirects: 0 });
    assert.equal(forced.status(), 200, 'no checkout for an expired invoice');
    assert.match(await forced.text(), /cannot be paid now/);
    const missing = await page.goto(`${t.baseUrl}/invoices/${'x'.repeat(32)}`);
    assert.equal(missing?.status(), 404);
    await finish(page, 'invoice-expired');
  });
});
