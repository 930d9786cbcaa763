// The virtual terminal: a keyed card sale or authorization made as the Portal source by the signed-in user, through
// the payments core; once per form; declines and bad fields shown on the form; staff charge and see only what they
// took; an analyst cannot charge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard virtual terminal', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { companyName: 'Phone Orders Inc' } });
  });
  after(() => t.stop());

  const card = (extra: Record<string, string> = {}) => ({
    kind: 'sale',
    amount: '42.10',
    accountNumber: '4111 1111 1111 1111',
    expirationMonth: '12',
    expirationYear: '2035',
    securityCode: '123',
    line1: '123 Test St',
    postalCode: '10001',
    referenceId: 'PHONE-1',
    ...extra,
  });
  const charge = async (session: Awaited<ReturnType<typeof dashboardSession>>, fields: Record<string, string>) => {
    const form = await session.get('/dashboard/terminal');
    assert.equal(form.status, 200, form.text);
    const posted = { csrf: field(form.text, 'csrf'), formId: field(form.text, 'formId'), ...fields };
    return { res: await session.post('/dashboard/terminal', posted), posted };
  };

  it('takes a keyed sale as the Portal source, once per form, and opens its page', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const { res, posted } = await charge(owner, card());
    assert.equal(res.status, 303, res.text);
    const id = /\/dashboard\/transactions\/([0-9a-f-]{36})/.exec(String(res.headers.location))![1]!;
    const again = await owner.post('/dashboard/terminal', posted);
    assert.equal(again.status, 303);
    assert.equal(again.headers.location, res.headers.location, 'the same form answers the same payment');
    const api = await t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token });
    assert.equal(api.body.statusId, 2);
    assert.equal(api.body.referenceId, 'PHONE-1');
    const [row] = await t.query<{ create_method_id: number; source_id: string }>(
      'SELECT create_method_id, source_id FROM transactions WHERE id = $1',
      [id],
    );
    assert.equal(row!.create_method_id, 1, 'Portal');
    assert.equal(row!.source_id, owner.user.id, 'taken by the signed-in user');
    const count = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE reference_id = 'PHONE-1'`,
    );
    assert.equal(count[0]!.n, 1);
    const page = await owner.get(String(res.headers.location));
    assert.match(page.text, /Approved\./);
    assert.match(page.text, /\$42\.10/);
    assert.doesNotMatch(page.text, /4111111111111111|4111 1111 1111 1111/, 'the card number is never shown');
  });

  it('shows a decline and bad fields on the form, without the card number or code', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const declined = await charge(owner, card({ accountNumber: '4000000010050005', referenceId: 'PHONE-2' }));
    assert.equal(declined.res.status, 402);
    assert.match(declined.res.text, /role="alert">Declined/);
    assert.doesNotMatch(declined.res.text, /4000000010050005/);
    const bad = await charge(owner, card({ amount: '12.345', accountNumber: '12', expirationMonth: '13' }));
    assert.equal(bad.res.status, 400);
    for (const name of ['amount', 'accountNumber', 'expirationMonth']) {
      assert.match(bad.res.text, new RegExp(`id="${name}-error"`), name);
    }
  });

  it('lets staff charge and see only what they took; an analyst may not charge', async () => {
    const staff = await dashboardSession(t, { merchantId: m.id }, 'staff');
    const { res } = await charge(staff, card({ referenceId: 'STAFF-1', amount: '7.00' }));
    assert.equal(res.status, 303, res.text);
    const list = await staff.get('/dashboard/transactions');
    assert.match(list.text, /STAFF-1/);
    assert.doesNotMatch(list.text, /PHONE-1/, 'not what others took');
    const mine = /\/dashboard\/transactions\/([0-9a-f-]{36})/.exec(String(res.headers.location))![1]!;
    const page = await staff.get(`/dashboard/transactions/${mine}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /\/refund"/, 'staff do not refund');
    const others = await t.query<{ id: string }>(`SELECT id FROM transactions WHERE reference_id = 'PHONE-1'`);
    assert.equal((await staff.get(`/dashboard/transactions/${others[0]!.id}`)).status, 404);
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.equal((await analyst.get('/dashboard/terminal')).status, 403);
  });
});
