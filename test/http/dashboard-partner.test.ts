// A partner's users: the portfolio of the partner's merchants, a merchant's dashboard opened with the user's own role
// (an analyst of the partner reads but cannot refund), another partner's merchant answered 404, and the way back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard for a partner', () => {
  let t: TestNode;
  let mine: MerchantTenant;
  let theirs: MerchantTenant;
  let partnerId: string;
  before(async () => {
    t = await startNode();
    const partner = await t.partner();
    partnerId = partner.id;
    mine = await t.merchant({ partnerId, body: { companyName: 'Portfolio Pizza' } });
    const otherPartner = await t.partner();
    theirs = await t.merchant({ partnerId: otherPartner.id, body: { companyName: 'Somebody Else Cafe' } });
    await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: mine.token,
      body: {
        amount: 18,
        referenceId: 'PIZZA-1',
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
        securityCode: '123',
        billingAddress: { line1: '123 Test St', postalCode: '10001' },
      },
    });
  });
  after(() => t.stop());

  it('opens its merchant’s dashboard with its own role, and only its merchants', async () => {
    const analyst = await dashboardSession(t, { partnerId }, 'analyst');
    const home = await analyst.get('/dashboard');
    assert.equal(home.status, 303);
    assert.equal(home.headers.location, '/dashboard/partner');
    await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${mine.id}/compliance`, {
        status: 'non_compliant',
        recordedAt: '2026-09-01T00:00:00Z',
        saq: { type: 'A', statusDate: '2026-08-20', dueDate: '2026-10-01', remediation: 'Complete the SAQ' },
      }),
    );
    const portfolio = await analyst.get('/dashboard/partner');
    assert.match(portfolio.text, /Portfolio Pizza/);
    assert.doesNotMatch(portfolio.text, /Somebody Else Cafe/);
    assert.match(portfolio.text, /Not compliant<\/td><td>2026-10-01/, 'its compliance and SAQ due date');
    assert.match((await analyst.get('/dashboard/partner?pci=non_compliant')).text, /Portfolio Pizza/);
    assert.doesNotMatch((await analyst.get('/dashboard/partner?pci=compliant')).text, /Portfolio Pizza/);
    const csrf = field(portfolio.text, 'csrf');
    assert.equal((await analyst.post('/dashboard/partner/open', { csrf, merchantId: theirs.id })).status, 404);
    const opened = await analyst.post('/dashboard/partner/open', { csrf, merchantId: mine.id });
    assert.equal(opened.status, 303);
    const merchantHome = await analyst.get('/dashboard');
    assert.equal(merchantHome.status, 200);
    assert.match(merchantHome.text, /<h1>Portfolio Pizza<\/h1>/);
    assert.match(merchantHome.text, /Back to portfolio/);
    const list = await analyst.get('/dashboard/transactions');
    assert.match(list.text, /PIZZA-1/);
    const id = /\/dashboard\/transactions\/([0-9a-f-]{36})/.exec(list.text)![1]!;
    const detail = await analyst.get(`/dashboard/transactions/${id}`);
    assert.doesNotMatch(detail.text, /\/refund"/, 'an analyst does not refund, in any merchant');
    assert.equal(
      (
        await analyst.post(`/dashboard/transactions/${id}/refund`, {
          csrf,
          formId: field(detail.text, 'formId'),
          amount: '1.00',
          confirm: 'yes',
        })
      ).status,
      403,
    );
    // The merchant leaves the partner: the session no longer acts in it.
    await t.query('UPDATE merchants SET partner_id = $2 WHERE id = $1', [mine.id, theirs.partnerId ?? null]);
    assert.equal((await analyst.get('/dashboard')).headers.location, '/dashboard/partner');
    await t.query('UPDATE merchants SET partner_id = $2 WHERE id = $1', [mine.id, partnerId]);
    const back = await analyst.post('/dashboard/partner/close', { csrf });
    assert.equal(back.status, 303);
    assert.equal((await analyst.get('/dashboard')).headers.location, '/dashboard/partner');
    const audit = await t.query<{ action: string; partner_id: string }>(
      `SELECT action, partner_id FROM dashboard_audit WHERE action = 'partner.open-merchant' AND target = $1`,
      [mine.id],
    );
    assert.equal(audit[0]?.partner_id, partnerId);
  });
});
