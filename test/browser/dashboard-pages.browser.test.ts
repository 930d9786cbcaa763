// Every page of the dashboard in a real browser, for each kind of user: a merchant's owner (every page of the
// navigation, every detail page one link away, every form page), the operator (the console) and a partner (the
// portfolio). On each: axe-core finds no accessibility violation, and at 320 px nothing is wider than the screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { Role } from '../../src/modules/dashboard/accounts/roles.js';
import { launchChromium } from '../browser-session.js';
import { signedInPage } from '../dashboard-browser.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

const CARD = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};
/** Detail pages one link away from a list: the first link of each kind is followed. */
const DETAIL =
  /^\/dashboard\/(transactions|customers|subscriptions|invoices|webhooks\/endpoints|webhooks\/logs|operator\/merchants)\/[0-9a-f-]{36}$/;

describe('every dashboard page in a real browser', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let customerId = '';
  let linkId = '';
  let partnerId = '';

  before(async () => {
    t = await startNode({ listen: true, workers: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    receiver = await startReceiver();
    const partner = await t.partner();
    partnerId = partner.id;
    m = await t.merchant({
      partnerId,
      body: { companyName: 'Every Page Emporium', settings: { isTipsEnabled: true } },
    });
    await t.ok(m, 'POST', '/v2/webhooks/endpoints', {
      name: 'books',
      endpointUrl: `${receiver.url}/hook`,
      eventTypes: ['transaction.card.captured'],
    });
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Paige', lastName: 'Turner' });
    customerId = customer.id;
    const card = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      pan: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
    });
    await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 42, referenceId: 'PAGE-1', ...CARD });
    await t.ok(m, 'POST', '/pay-api/v1/transactions/auth', { amount: 17, ...CARD });
    const configuration = await t.expectOk(t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token }));
    await t.ok(m, 'POST', '/sub-api/v1/subscriptions', {
      customerId: customer.id,
      paymentMethodId: card.id,
      amount: 9,
      paymentFrequencyUnit: 3,
      paymentFrequency: 1,
      transactionType: 2,
      requesterIpAddress: '198.51.100.4',
      paymentProcessorId: configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id,
      paymentStartDateTime: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    await t.ok(m, 'POST', '/pay-int-api/invoices', {
      customerId: customer.id,
      lineItems: [{ productName: 'Pages', quantity: 3, unitPrice: 12.5 }],
    });
    await t.ok(m, 'POST', '/pay-int-api/line-items', { productName: 'Binding', unitPrice: 7 });
    linkId = (await t.ok(m, 'POST', '/pay-int-api/quick-payments/reusable', { amount: 5, name: 'Tips jar' })).id;
    await t.ok(m, 'POST', `/pay-int-api/quick-payments/${linkId}/activate`, undefined);
    await t.ok(m, 'POST', '/pay-api/v1/devices', { deviceId: 'page-phone', deviceName: 'Till phone' });
    await t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      terminalModeId: 2,
      serialNumber: 'SN-PAGES-1',
    });
    await eventually(async () => receiver.hits.length >= 1, 15_000);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.close();
  });

  const signedIn = (owner: { merchantId?: string; partnerId?: string }, role: Role) =>
    signedInPage(t, browser, owner, role, { width: 320, height: 900 });

  /** Visits each page (and the detail pages one link away): axe finds nothing, nothing is wider than 320 px. */
  async function visitAll(page: Page, start: string[]) {
    const seen = new Set<string>();
    const failures: string[] = [];
    const queue = [...start];
    const kinds = new Set<string>();
    while (queue.length > 0 && seen.size < 80) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const answer = await page.goto(`${t.baseUrl}${path}`);
      if (!answer || answer.status() !== 200) {
        failures.push(`${path}: ${answer?.status()}`);
        continue;
      }
      const results = await new AxeBuilder({ page: page as never }).analyze();
      for (const v of results.violations) {
        failures.push(`${path}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      }
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      if (overflow > 0) {
        // Name the widest element outside a scrolling box, so the failure says what to fix.
        const culprit = await page.evaluate<string>(`(() => {
          let worst = null; let right = window.innerWidth;
          for (const el of document.querySelectorAll('main *')) {
            if (el.closest('.scroll')) continue;
            const r = el.getBoundingClientRect().right;
            if (r > right) { right = r; worst = el; }
          }
          return worst ? worst.tagName.toLowerCase() + (worst.id ? '#' + worst.id : '') + (worst.className ? '.' + String(worst.className).split(' ').join('.') : '') : '?';
        })()`);
        failures.push(`${path}: ${overflow} px wider than the screen (${culprit})`);
      }
      const hrefs = await page.$$eval('main a[href^="/dashboard/"], nav a[href^="/dashboard"]', (links) =>
        links.map((a) => a.getAttribute('href') ?? ''),
      );
      for (const href of hrefs) {
        const bare = href.split('?')[0]!.split('#')[0]!;
        if (bare.endsWith('.csv') || bare.endsWith('.pdf')) continue;
        const kind = DETAIL.exec(bare)?.[1];
        if (kind) {
          if (!kinds.has(kind)) {
            kinds.add(kind);
            queue.push(bare);
          }
        } else if (/^\/dashboard(\/[a-z-]+)*$/.test(bare)) queue.push(href.split('#')[0]!);
      }
    }
    assert.deepEqual(failures, [], `pages visited: ${[...seen].join(', ')}`);
    return seen;
  }

  it('a merchant owner’s every page', async () => {
    const { page, done } = await signedIn({ merchantId: m.id }, 'owner');
    const seen = await visitAll(page, [
      '/dashboard',
      '/dashboard/invoices/new',
      '/dashboard/customers/new',
      `/dashboard/customers/${customerId}/edit`,
      `/dashboard/terminal/saved?customerId=${customerId}`,
      `/dashboard/subscriptions/new?customerId=${customerId}`,
      `/dashboard/links/${linkId}/share`,
    ]);
    for (const expected of [
      '/dashboard/settings',
      '/dashboard/devices',
      '/dashboard/logs',
      '/dashboard/invoices/catalog',
    ]) {
      assert.ok(seen.has(expected), `${expected} was visited`);
    }
    assert.ok(
      [...seen].some((p) => /\/dashboard\/webhooks\/logs\//.test(p)),
      'a delivery page was visited',
    );
    await done('dashboard-pages-merchant');
  });

  it('the operator’s console', async () => {
    const { page, done } = await signedIn({}, 'owner');
    const seen = await visitAll(page, ['/dashboard']);
    for (const expected of [
      '/dashboard/operator/merchants',
      '/dashboard/operator/sandbox',
      '/dashboard/operator/users',
    ]) {
      assert.ok(seen.has(expected), `${expected} was visited`);
    }
    await done('dashboard-pages-operator');
  });

  it('a partner’s portfolio', async () => {
    const { page, done } = await signedIn({ partnerId }, 'admin');
    await visitAll(page, ['/dashboard/partner', '/dashboard/team', '/dashboard/audit']);
    await done('dashboard-pages-partner');
  });
});
