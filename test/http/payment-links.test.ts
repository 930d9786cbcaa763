// Quick payments and version 2 payment links: create, read, lists, the state moves (table test), the hosted link page
// opening a checkout session whose source is the link, paying it (counts once), one-time and SingleUse races, expiry on
// the clock, merge-patch semantics, delete, share and SMS through the sandbox outbox.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cardFields, submitCheckout } from '../checkout-form.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const QUICK = '/pay-int-api/quick-payments';
const LINKS = '/v2/payment-links';

describe('quick payments and payment links', () => {
  let t: TestNode;
  let m: MerchantTenant;
  const req = (method: string, url: string, body?: unknown, tenant = m) =>
    t.request(method, url, { token: tenant.token, ...(body === undefined ? {} : { body }) });
  const ok = (method: string, url: string, body?: unknown, tenant = m) => t.expectOk(req(method, url, body, tenant));
  const codeOf = (url: string) => new URL(url).pathname;
  /** Opens the link's page: the checkout of a session just opened for it, or a page saying why not. */
  async function openLink(url: string) {
    const res = await t.request('GET', codeOf(url));
    const session = /action="\/checkout\/([0-9a-f-]{36})"/.exec(res.text)?.[1];
    return { status: res.status, session, html: res.text };
  }
  async function sessionOf(url: string) {
    const opened = await openLink(url);
    assert.equal(opened.status, 200, opened.html);
    assert.ok(opened.session, 'the page is the checkout form of a new session');
    return opened.session!;
  }

  before(async () => {
    t = await startNode({
      env: { PUBLIC_BASE_URL: 'https://pay.example.test', CHECKOUT_SUBMISSIONS_PER_SESSION_PER_MINUTE: '50' },
    });
    m = await t.merchant();
  });
  after(() => t.stop());

  it('creates one-time and reusable quick payments, Created until activated, each on its own path', async () => {
    const customer = await ok('POST', '/pay-api/v1/customers', { firstName: 'Ada', lastName: 'Lovelace' });
    const { id } = await ok('POST', `${QUICK}/one-time`, { amount: 12.5, referenceId: 'R-1', customerId: customer.id });
    const link = await ok('GET', `${QUICK}/one-time/${id}`);
    assert.equal(link.type, 'OneTime');
    assert.equal(link.status, 'Created');
    assert.equal(link.statusId, 1);
    assert.equal(link.amount, 12.5);
    assert.equal(link.customerFirstName, 'Ada');
    assert.match(link.url, /^https:\/\/pay\.example\.test\/l\/[A-Za-z0-9_-]{16}$/);
    assert.ok(link.expiresAt, 'a one-time link expires by default');
    assert.equal((await req('GET', `${QUICK}/reusable/${id}`)).status, 404);
    const reusable = await ok('POST', `${QUICK}/reusable`, { amount: null, name: 'Donations' });
    assert.equal((await ok('GET', `${QUICK}/reusable/${reusable.id}`)).amount, null);
    assert.equal((await req('GET', `${QUICK}/one-time/${reusable.id}`)).status, 404);
    assert.equal((await openLink(link.url)).status, 200, 'a Created link is not payable');
    assert.match((await openLink(link.url)).html, /not active yet/);

    const list = await ok('GET', `${QUICK}/one-time?statusId=1`);
    assert.ok(list.items.some((i: { id: string }) => i.id === id));
    assert.ok(list.items.every((i: { type: string }) => i.type === 'OneTime'));
    const events = await t.query<{ type: string; resource_type: string }>(
      'SELECT type, resource_type FROM events WHERE resource_id = $1',
      [id],
    );
    assert.deepEqual(events, [{ type: 'quick_payment.created', resource_type: 'quick_payment' }]);

    const refused = await req('POST', `${QUICK}/one-time`, { amount: 0 });
    assert.equal(refused.status, 400);
    const badExpiry = await req('POST', `${QUICK}/reusable`, { amount: 5, expiresAt: '2000-01-01T00:00:00Z' });
    assert.ok(badExpiry.body.errors.expiresAt);
  });

  it('allows exactly the moves of the state table', async () => {
    const oneTime = async () => (await ok('POST', `${QUICK}/one-time`, { amount: 5 })).id as string;
    const reusable = async () => (await ok('POST', `${QUICK}/reusable`, { amount: 5 })).id as string;
    const move = (id: string, verb: 'activate' | 'deactivate') => req('POST', `${QUICK}/${id}/${verb}`);
    const cases: Array<[string, () => Promise<string>, Array<'activate' | 'deactivate'>, number]> = [
      ['Created → activate', oneTime, ['activate'], 200],
      ['Created → deactivate', oneTime, ['deactivate'], 400],
      ['Active → deactivate', oneTime, ['activate', 'deactivate'], 200],
      ['Active → activate', oneTime, ['activate', 'activate'], 400],
      ['one-time Inactive → activate', oneTime, ['activate', 'deactivate', 'activate'], 400],
      ['reusable Inactive → activate', reusable, ['activate', 'deactivate', 'activate'], 200],
      ['Inactive → deactivate', reusable, ['activate', 'deactivate', 'deactivate'], 400],
    ];
    for (const [name, make, steps, expected] of cases) {
      const id = await make();
      let last = 0;
      for (const step of steps) last = (await move(id, step)).status;
      assert.equal(last, expected, name);
    }
  });

  it('pays a one-time link once: the page opens a checkout session for the link, the payment counts once', async () => {
    const { id } = await ok('POST', `${QUICK}/one-time`, { amount: 20, referenceId: 'R-2' });
    const link = await ok('POST', `${QUICK}/${id}/activate`);
    // Two payers open the page at once.
    const first = await sessionOf(link.url);
    const second = await sessionOf(link.url);
    assert.notEqual(first, second);
    const session = await ok('GET', `/v2/payment-sessions/${first}`);
    assert.equal(session.paymentLinkId, id);
    assert.equal(session.amount, 20);
    const paid = await submitCheckout(t, first, cardFields());
    assert.equal(paid.status, 200);
    assert.match(paid.text, /Payment complete/);
    const late = await submitCheckout(t, second, cardFields());
    assert.match(late.text, /no longer available|being paid or has been used/);
    const after = await ok('GET', `${QUICK}/one-time/${id}`);
    assert.equal(after.status, 'Inactive', 'used up');
    assert.equal(after.paymentsCount, 1);
    assert.equal(after.totalCollectedAmount, 20);
    assert.ok(after.lastPaymentOn);
    const tx = await t.query<{ create_method_id: number; source_id: string; total_cents: number }>(
      'SELECT create_method_id, source_id, total_cents FROM transactions WHERE source_id = $1',
      [id],
    );
    assert.deepEqual(
      tx,
      [{ create_method_id: 5, source_id: id, total_cents: 2000 }],
      'one payment, the link its source',
    );
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [id]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['quick_payment.created', 'quick_payment.paid'],
    );
    assert.match((await openLink(link.url)).html, /Already paid/);
  });

  it('two payers submit a SingleUse link at the same moment: one pays', async () => {
    const link = await ok('POST', LINKS, {
      paymentMethods: { card: { enabled: true } },
      currencyCode: 'USD',
      baseAmount: 8,
      linkType: 'SingleUse',
      name: 'Race',
    });
    const [a, b] = [await sessionOf(link.shortUrl), await sessionOf(link.shortUrl)];
    const results = await Promise.all([submitCheckout(t, a!, cardFields()), submitCheckout(t, b!, cardFields())]);
    assert.equal(results.filter((r) => /Payment complete/.test(r.text)).length, 1);
    const after = await ok('GET', `${LINKS}/${link.paymentLinkId}`);
    assert.equal(after.paymentLinkStatus, 'Completed');
    assert.equal(after.paymentCount, 1);
    assert.equal((await t.query('SELECT 1 FROM transactions WHERE source_id = $1', [link.paymentLinkId])).length, 1);
  });

  it('a MultiUse link with a payer-entered amount is paid twice and counts both', async () => {
    const link = await ok('POST', LINKS, {
      paymentMethods: { card: { enabled: true }, ach: { enabled: true } },
      currencyCode: 'usd',
      name: 'Tips',
    });
    assert.equal(link.paymentLinkStatus, 'Active');
    assert.equal(link.currencyCode, 'USD');
    assert.equal(link.baseAmount, null);
    for (const amount of ['5.25', '10.00']) {
      const session = await sessionOf(link.shortUrl);
      const paid = await submitCheckout(t, session, cardFields(undefined, { amount }));
      assert.match(paid.text, /Payment complete/);
      // A double submit of the same session pays nothing more.
      await submitCheckout(t, session, cardFields(undefined, { amount }));
    }
    const after = await ok('GET', `${LINKS}/${link.paymentLinkId}`);
    assert.equal(after.paymentCount, 2);
    assert.equal(after.totalCollectedAmount, 15.25);
    assert.equal(after.paymentLinkStatus, 'Active');
  });

  it('merge-patches: absent stays, null clears, name and currency cannot be cleared, currency frozen once paid', async () => {
    const link = await ok('POST', LINKS, {
      paymentMethods: { card: { enabled: true }, ach: { enabled: true } },
      currencyCode: 'USD',
      baseAmount: 3,
      name: 'Patch me',
      description: 'Old',
      referenceId: 'P-1',
    });
    const patch = (body: unknown, contentType = 'application/merge-patch+json') =>
      t.request('PATCH', `${LINKS}/${link.paymentLinkId}`, {
        token: m.token,
        payload: JSON.stringify(body),
        headers: { 'content-type': contentType },
      });
    const cleared = (await patch({ description: null, baseAmount: 4 })).body;
    assert.equal(cleared.description, null);
    assert.equal(cleared.baseAmount, 4);
    assert.equal(cleared.name, 'Patch me', 'absent: unchanged');
    assert.equal(cleared.referenceId, 'P-1');
    const methods = (await patch({ paymentMethods: { ach: null } }, 'application/json')).body;
    assert.deepEqual(methods.paymentMethods.ach, { enabled: false, processorId: null });
    assert.equal(methods.paymentMethods.card.enabled, true, 'card merged, unchanged');
    for (const body of [
      { name: null },
      { currencyCode: null },
      { currencyCode: 'EUR' },
      { paymentLinkStatus: 'Expired' },
    ]) {
      assert.equal((await patch(body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await patch({ unknownField: 1 })).status, 400);
    const inactive = (await patch({ paymentLinkStatus: 'Inactive' })).body;
    assert.equal(inactive.paymentLinkStatus, 'Inactive');
    assert.match((await openLink(link.shortUrl)).html, /no longer active/);
    await patch({ paymentLinkStatus: 'Active' });
    const session = await sessionOf(link.shortUrl);
    assert.match((await submitCheckout(t, session, cardFields())).text, /Payment complete/);
    assert.equal((await patch({ currencyCode: 'USD' })).status, 200, 'the same currency is fine');
    const updates = await t.query('SELECT 1 FROM events WHERE resource_id = $1 AND type = $2', [
      link.paymentLinkId,
      'payment_link.updated',
    ]);
    assert.ok(updates.length >= 4);

    assert.equal((await req('DELETE', `${LINKS}/${link.paymentLinkId}`)).status, 204);
    assert.equal((await req('GET', `${LINKS}/${link.paymentLinkId}`)).status, 404);
    assert.equal((await req('DELETE', `${LINKS}/${link.paymentLinkId}`)).status, 404);
    assert.equal((await openLink(link.shortUrl)).status, 404);
  });

  it('validates creates: currency, methods, amount', async () => {
    const create = (body: Record<string, unknown>) => req('POST', LINKS, body);
    const base = { paymentMethods: { card: { enabled: true } }, currencyCode: 'USD' };
    assert.ok((await create({ ...base, currencyCode: 'EUR' })).body.errors.currencyCode);
    assert.equal((await create({ paymentMethods: { card: { enabled: true } } })).status, 400, 'currencyCode required');
    assert.ok((await create({ ...base, paymentMethods: { card: { enabled: false } } })).body.errors.paymentMethods);
    assert.equal((await create({ ...base, baseAmount: 0 })).status, 400);
    assert.equal((await create({ ...base, linkType: 'Other' })).status, 400);
    const list = await ok('GET', `${LINKS}?pageSize=2&linkType=SingleUse`);
    assert.equal(list.pageInfo.pageSize, 2);
    assert.ok(list.items.every((i: { linkType: string }) => i.linkType === 'SingleUse'));
    // The published version 2 page description (wire-notes, Pagination).
    assert.deepEqual(Object.keys(list.pageInfo).sort(), [
      'hasMore',
      'pageIndex',
      'pageSize',
      'totalItems',
      'totalPages',
    ]);
    for (let n = 0; n < 3; n++) await ok('POST', LINKS, { ...base, name: `Page ${n}` });
    const all = await ok('GET', `${LINKS}?pageSize=100`);
    const total = all.pageInfo.totalItems;
    assert.ok(total >= 3, `${total} links`);
    const first = await ok('GET', `${LINKS}?pageSize=2&pageIndex=0`);
    assert.deepEqual(first.pageInfo, {
      pageIndex: 0,
      pageSize: 2,
      totalItems: total,
      totalPages: Math.ceil(total / 2),
      hasMore: true,
    });
    const last = await ok('GET', `${LINKS}?pageSize=2&pageIndex=${Math.ceil(total / 2) - 1}`);
    assert.equal(last.pageInfo.hasMore, false);
  });

  it('expires links on the business clock', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const expiresOn = new Date(now.getTime() + 3600_000).toISOString();
    const v2 = await ok('POST', LINKS, { paymentMethods: { card: { enabled: true } }, currencyCode: 'USD', expiresOn });
    const { id } = await ok('POST', `${QUICK}/reusable`, { amount: 5, expiresAt: expiresOn });
    await ok('POST', `${QUICK}/${id}/activate`);
    await t.drain(); // the expiry sweep's schedule starts from here
    await t.advanceClock(3700, m);
    await t.drain();
    assert.equal((await ok('GET', `${LINKS}/${v2.paymentLinkId}`)).paymentLinkStatus, 'Expired');
    assert.equal((await ok('GET', `${QUICK}/reusable/${id}`)).status, 'Inactive');
    assert.match((await openLink(v2.shortUrl)).html, /expired/);
    assert.equal((await req('POST', `${QUICK}/${id}/activate`)).status, 400, 'an expired link cannot be activated');
  });

  it('shares by email and SMS (consent required) and sends a quick payment by SMS, through the outbox', async () => {
    const link = await ok('POST', LINKS, {
      paymentMethods: { card: { enabled: true } },
      currencyCode: 'USD',
      baseAmount: 9.99,
      name: 'Share me',
    });
    const share = (body: unknown) => req('POST', `${LINKS}/${link.paymentLinkId}/share`, body);
    assert.equal(
      (await share({ shareBy: 'Email', recipient: 'ada@example.com', hasCustomerConsent: false })).status,
      400,
    );
    assert.equal((await share({ shareBy: 'Email', recipient: 'not-an-email', hasCustomerConsent: true })).status, 400);
    assert.equal(
      (await share({ shareBy: 'Email', recipient: 'ada@example.com', hasCustomerConsent: true })).status,
      204,
    );
    assert.equal((await share({ shareBy: 'Sms', recipient: '(212) 555-0100', hasCustomerConsent: true })).status, 204);
    const customer = await ok('POST', '/pay-api/v1/customers', {
      firstName: 'Grace',
      mobilePhoneNumber: '2125550199',
      smsNotification: true,
    });
    const { id } = await ok('POST', `${QUICK}/one-time`, { amount: 3, customerId: customer.id });
    const sms = await ok('POST', `${QUICK}/${id}/send-sms-notification`);
    assert.equal(sms.to, '+12125550199');
    await t.drain();
    const outbox = (await t.expectOk(t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}`))).items as Array<{
      channel: string;
      to: string;
      text: string;
      status: string;
      relatedType: string;
    }>;
    const shared = outbox.filter((o) => o.text.includes(link.shortUrl));
    assert.deepEqual(shared.map((o) => o.channel).sort(), ['email', 'sms']);
    assert.ok(shared.every((o) => o.status === 'sent' && o.relatedType === 'payment_link'));
    assert.ok(outbox.some((o) => o.to === '+12125550199' && o.relatedType === 'quick_payment'));
  });

  it('another merchant sees none of them', async () => {
    const other = await t.merchant();
    const { id } = await ok('POST', `${QUICK}/one-time`, { amount: 5 });
    const link = await ok('POST', LINKS, { paymentMethods: { card: { enabled: true } }, currencyCode: 'USD' });
    for (const [method, url] of [
      ['GET', `${QUICK}/one-time/${id}`],
      ['POST', `${QUICK}/${id}/activate`],
      ['GET', `${LINKS}/${link.paymentLinkId}`],
      ['DELETE', `${LINKS}/${link.paymentLinkId}`],
    ] as const) {
      assert.equal((await req(method, url, undefined, other)).status, 404, `${method} ${url}`);
    }
  });
});
