// The virtual terminal's saved methods and bank accounts: a customer's saved card charged (the Portal source, the
// staff user as its source), their saved bank account debited by ACH with SEC code TEL, a bank account keyed in and
// debited after the holder's consent (never echoed back), each once per form; another customer's method refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const ROUTING = '021000021';

describe('dashboard virtual terminal: saved methods and ACH', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  const rowOf = async (id: string) =>
    (
      await t.query<{ create_method_id: number; source_id: string; type_id: number; total_cents: string }>(
        'SELECT create_method_id, source_id, type_id, total_cents FROM transactions WHERE id = $1',
        [id],
      )
    )[0]!;

  it('charges a saved card and debits a saved bank account, once per form', async () => {
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Sally', lastName: 'Saved' });
    const card = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      pan: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
    });
    const bank = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/ach`, {
      accountNumber: '100000099',
      routingNumber: ROUTING,
      accountType: 1,
      accountHolderType: 2,
    });
    const staff = await dashboardSession(t, { merchantId: m.id }, 'staff');
    const found = await staff.get('/dashboard/terminal/saved?search=Saved');
    assert.match(found.text, new RegExp(`customerId=${customer.id}`));
    const form = await staff.get(`/dashboard/terminal/saved?customerId=${customer.id}`);
    assert.match(form.text, /0099/);
    assert.doesNotMatch(form.text, /100000099/, 'the account number is masked');
    const fields = { csrf: field(form.text, 'csrf'), formId: field(form.text, 'formId'), customerId: customer.id };
    const charged = await staff.post('/dashboard/terminal/saved', {
      ...fields,
      paymentMethodId: card.id,
      kind: 'sale',
      amount: '19.99',
    });
    assert.equal(charged.status, 303, charged.text);
    const again = await staff.post('/dashboard/terminal/saved', {
      ...fields,
      paymentMethodId: card.id,
      kind: 'sale',
      amount: '19.99',
    });
    assert.equal(again.headers.location, charged.headers.location, 'the same form charges once');
    const saleId = String(charged.headers.location).split('/').pop()!.split('?')[0]!;
    const sale = await rowOf(saleId);
    assert.deepEqual([sale.create_method_id, sale.source_id, Number(sale.total_cents)], [1, staff.user.id, 1999]);
    assert.equal((await staff.get(`/dashboard/transactions/${saleId}`)).status, 200, 'staff see what they took');

    const form2 = await staff.get(`/dashboard/terminal/saved?customerId=${customer.id}`);
    const debited = await staff.post('/dashboard/terminal/saved', {
      csrf: field(form2.text, 'csrf'),
      formId: field(form2.text, 'formId'),
      customerId: customer.id,
      paymentMethodId: bank.id,
      amount: '42.00',
    });
    assert.equal(debited.status, 303, debited.text);
    const debitId = String(debited.headers.location).split('/').pop()!.split('?')[0]!;
    const debit = await rowOf(debitId);
    assert.equal(debit.type_id, 11, 'an ACH debit');
    const [entry] = await t.query<{ sec_code: number }>('SELECT sec_code FROM ach_entries WHERE transaction_id = $1', [
      debitId,
    ]);
    assert.equal(entry!.sec_code, 4, 'authorized by telephone');

    const other = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Other' });
    const form3 = await staff.get(`/dashboard/terminal/saved?customerId=${other.id}`);
    const refused = await staff.post('/dashboard/terminal/saved', {
      csrf: field(form3.text, 'csrf'),
      formId: field(form3.text, 'formId'),
      customerId: other.id,
      paymentMethodId: card.id,
      amount: '5.00',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /not this customer/);
  });

  it('debits a keyed bank account only with consent, never echoing the account number', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const form = await owner.get('/dashboard/terminal/saved');
    const fields = {
      csrf: field(form.text, 'csrf'),
      formId: field(form.text, 'formId'),
      amount: '15.00',
      firstName: 'Ada',
      lastName: 'Lovelace',
      routingNumber: ROUTING,
      accountNumber: '987654321',
      accountType: '1',
      phone: '+1 212 555 0100',
      line1: '1 Main St',
      postalCode: '10001',
    };
    const noConsent = await owner.post('/dashboard/terminal/ach', fields);
    assert.equal(noConsent.status, 400);
    assert.doesNotMatch(noConsent.text, /987654321/);
    const debited = await owner.post('/dashboard/terminal/ach', { ...fields, consent: 'yes' });
    assert.equal(debited.status, 303, debited.text);
    const id = String(debited.headers.location).split('/').pop()!.split('?')[0]!;
    const row = await rowOf(id);
    assert.deepEqual([row.type_id, Number(row.total_cents), row.create_method_id], [11, 1500, 1]);
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.equal((await analyst.get('/dashboard/terminal/saved')).status, 403);
  });
});
