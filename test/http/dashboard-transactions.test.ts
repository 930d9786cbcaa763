// The dashboard's transactions: the list and its filters, a transaction's page with its timeline, and refund and void
// through the payments core, each confirmed, done once per form, refused to a role without the right (the form is
// absent and a forged post is refused), and another merchant's transaction answered 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard transactions', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let other: MerchantTenant;
  const sale = async (merchant: MerchantTenant, amount: number, referenceId: string) => {
    const res = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: merchant.token,
      body: {
        amount,
        referenceId,
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
        securityCode: '123',
        billingAddress: { line1: '123 Test St', postalCode: '10001' },
      },
    });
    assert.equal(res.status, 200, res.text);
    return res.body.transactionId as string;
  };
  before(async () => {
    t = await startNode({ workers: true });
    m = await t.merchant({ body: { companyName: 'Ledger Lane' } });
    other = await t.merchant();
  });
  after(() => t.stop());

  it('lists and filters the merchant’s transactions, and only its own', async () => {
    await sale(m, 12.5, 'ORDER-1001');
    await sale(m, 80, 'ORDER-1002');
    await sale(other, 99.99, 'OTHER-1');
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const all = await owner.get('/dashboard/transactions');
    assert.equal(all.status, 200);
    assert.match(all.text, /ORDER-1001/);
    assert.match(all.text, /ORDER-1002/);
    assert.doesNotMatch(all.text, /OTHER-1/);
    const big = await owner.get('/dashboard/transactions?min=50');
    assert.doesNotMatch(big.text, /ORDER-1001/);
    assert.match(big.text, /ORDER-1002/);
    const searched = await owner.get('/dashboard/transactions?search=1001');
    assert.match(searched.text, /ORDER-1001/);
    assert.doesNotMatch(searched.text, /ORDER-1002/);
    assert.match((await owner.get('/dashboard/transactions?statusId=91')).text, /No transactions match/);
  });

  it('pages the list by keyset, 25 at a time, without skipping rows of the same millisecond', async () => {
    const shop = await t.merchant();
    const made = new Set<string>();
    for (let n = 0; n < 27; n++) made.add(await sale(shop, 1 + n, `PAGE-${n}`));
    // All in one millisecond, microseconds apart: a cursor cut to the millisecond would skip some.
    await t.query(
      `UPDATE transactions SET created_at = timestamptz '2026-11-20 12:00:00.123' + make_interval(secs => (abs(hashtext(id::text)) % 900) / 1e6)
       WHERE merchant_id = $1`,
      [shop.id],
    );
    const owner = await dashboardSession(t, { merchantId: shop.id }, 'owner');
    const seen: string[] = [];
    let url: string | undefined = '/dashboard/transactions';
    let pages = 0;
    while (url && pages++ < 5) {
      const listed = await owner.get(url);
      assert.equal(listed.status, 200);
      seen.push(...[...listed.text.matchAll(/href="\/dashboard\/transactions\/([0-9a-f-]{36})"/g)].map((x) => x[1]!));
      url = /href="([^"]*)" rel="next">Older/.exec(listed.text)?.[1]?.replaceAll('&amp;', '&');
    }
    assert.equal(pages, 2);
    assert.equal(seen.length, 27);
    assert.deepEqual(new Set(seen), made);
  });

  it('refunds from the transaction page once per form, after confirmation', async () => {
    const id = await sale(m, 40, 'ORDER-2001');
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const page = await owner.get(`/dashboard/transactions/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /transaction\.card\.captured|payment\.card\.captured/);
    const form = { csrf: field(page.text, 'csrf'), formId: field(page.text, 'formId'), amount: '15.00' };
    const unconfirmed = await owner.post(`/dashboard/transactions/${id}/refund`, form);
    assert.equal(unconfirmed.status, 400);
    assert.match(unconfirmed.text, /confirm/);
    const done = await owner.post(`/dashboard/transactions/${id}/refund`, { ...form, confirm: 'yes' });
    assert.equal(done.status, 303, done.text);
    const again = await owner.post(`/dashboard/transactions/${id}/refund`, { ...form, confirm: 'yes' });
    assert.equal(again.status, 303, 'the same form again answers as done');
    const refunds = await t.query<{ total_cents: string }>(
      `SELECT total_cents FROM transactions WHERE original_transaction_id = $1`,
      [id],
    );
    assert.deepEqual(
      refunds.map((r) => Number(r.total_cents)),
      [1500],
      'one refund of $15.00, not two',
    );
    const after = await owner.get(`/dashboard/transactions/${id}?done=Refunded.`);
    assert.match(after.text, /Up to \$25\.00/);
    // The request log is written in batches, a moment later.
    await eventually(async () => {
      const logged = await t.query(`SELECT 1 FROM request_logs WHERE merchant_id = $1 AND path = $2`, [
        m.id,
        `/dashboard/transactions/${id}/refund`,
      ]);
      return logged.length >= 1;
    }, 10_000);
    const audit = await t.query<{ action: string; outcome: string }>(
      `SELECT action, outcome FROM dashboard_audit WHERE target = $1 ORDER BY at`,
      [id],
    );
    assert.deepEqual(
      audit.map((a) => `${a.action} ${a.outcome}`),
      ['transaction.refund ok', 'transaction.refund ok'],
    );
  });

  it('shows an analyst no refund and refuses a forged one; a forged CSRF token is refused', async () => {
    const id = await sale(m, 30, 'ORDER-3001');
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const page = await analyst.get(`/dashboard/transactions/${id}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /\/refund"/, 'no refund form');
    const forged = await analyst.post(`/dashboard/transactions/${id}/refund`, {
      csrf: field(page.text, 'csrf'),
      formId: '01936f6e-3f5b-7a21-9c3e-000000000001',
      amount: '30.00',
      confirm: 'yes',
    });
    assert.equal(forged.status, 403);
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const ownerPage = await owner.get(`/dashboard/transactions/${id}`);
    const csrfForged = await owner.post(`/dashboard/transactions/${id}/refund`, {
      csrf: 'not-the-token',
      formId: field(ownerPage.text, 'formId'),
      amount: '30.00',
      confirm: 'yes',
    });
    assert.equal(csrfForged.status, 403);
    const crossSite = await owner.post(
      `/dashboard/transactions/${id}/refund`,
      { csrf: field(ownerPage.text, 'csrf'), formId: field(ownerPage.text, 'formId'), amount: '30.00', confirm: 'yes' },
      { origin: 'https://evil.example' },
    );
    assert.equal(crossSite.status, 403);
    const refunds = await t.query(`SELECT 1 FROM transactions WHERE original_transaction_id = $1`, [id]);
    assert.equal(refunds.length, 0);
  });

  it('voids an authorization, and answers 404 for another merchant’s transaction', async () => {
    const auth = await t.request('POST', '/pay-api/v1/transactions/auth', {
      token: m.token,
      body: {
        amount: 20,
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
        securityCode: '123',
        billingAddress: { line1: '123 Test St', postalCode: '10001' },
      },
    });
    assert.equal(auth.status, 200, auth.text);
    const id = auth.body.transactionId as string;
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const page = await owner.get(`/dashboard/transactions/${id}`);
    const voided = await owner.post(`/dashboard/transactions/${id}/void`, {
      csrf: field(page.text, 'csrf'),
      formId: field(page.text, 'formId'),
      confirm: 'yes',
    });
    assert.equal(voided.status, 303, voided.text);
    const status = await t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token });
    assert.equal(status.body.statusId, 3);

    const theirs = await sale(other, 5, 'THEIRS');
    assert.equal((await owner.get(`/dashboard/transactions/${theirs}`)).status, 404);
    assert.equal((await owner.get('/dashboard/transactions/not-an-id')).status, 404);
    const refund = await owner.post(`/dashboard/transactions/${theirs}/refund`, {
      csrf: field(page.text, 'csrf'),
      formId: field(page.text, 'formId'),
      amount: '5.00',
      confirm: 'yes',
    });
    assert.equal(refund.status, 404);
  });

  it('shows the audit log to an owner and refuses it to an analyst', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const log = await owner.get('/dashboard/audit');
    assert.equal(log.status, 200);
    assert.match(log.text, /transaction\.refund/);
    assert.match(log.text, /sign-in/);
    assert.doesNotMatch(log.text, /OTHER-1/);
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.equal((await analyst.get('/dashboard/audit')).status, 403);
    assert.doesNotMatch((await analyst.get('/dashboard')).text, /Audit log/, 'not in its navigation');
  });

  it('exports the filtered list as CSV, exactly, to a reader; not to staff', async () => {
    await sale(m, 1234.05, '=HYPERLINK("http://evil.example")');
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const list = await analyst.get('/dashboard/transactions?min=1000');
    assert.match(list.text, /export\.csv\?min=1000/);
    const csv = await analyst.get('/dashboard/transactions/export.csv?min=1000');
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines[0], 'id,createdAt,type,status,amount,card,reference,customer');
    assert.equal(lines.length, 2, 'only what the filter takes');
    assert.match(lines[1]!, /,Sale,Captured,1234\.05,/);
    assert.match(lines[1]!, /"'=HYPERLINK/, 'a formula is kept as text');
    const staff = await dashboardSession(t, { merchantId: m.id }, 'staff');
    assert.equal((await staff.get('/dashboard/transactions/export.csv')).status, 403);
  });

  it('shows the settlement batches with their totals to a reader', async () => {
    const settled = await t.request('POST', '/pay-api/v1/transactions/settle', { token: m.token });
    assert.equal(settled.status, 200, settled.text);
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const page = await analyst.get('/dashboard/settlements');
    assert.equal(page.status, 200);
    assert.match(page.text, /Net settled, last 1 batches/);
    assert.match(page.text, /<td>Settled<\/td>/);
    const staff = await dashboardSession(t, { merchantId: m.id }, 'staff');
    assert.equal((await staff.get('/dashboard/settlements')).status, 403);
  });
});
