// /v2/payment-methods (the published revision): cards and bank accounts saved for a customer or as orphans, listed
// (customer's only, or all with orphans; paged with pageInfo; searched), read, renamed, made the customer's default
// (an orphan cannot be), deleted (a customer's through the customer: its default moves); another merchant's 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('/v2/payment-methods', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('saves, lists, reads, renames, defaults and deletes customers’ and orphan methods', async () => {
    const customer = await t.ok(m, 'POST', '/v2/customers', { firstName: 'Pay', lastName: 'Methods' });
    const customerId = customer.customerId as string;
    const first = await t.ok(m, 'POST', '/v2/payment-methods/cards', {
      cardNumber: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2031,
      customerId,
      paymentName: 'First',
    });
    const second = await t.ok(m, 'POST', '/v2/payment-methods/cards', {
      cardNumber: '5555555555554444',
      expirationMonth: 11,
      expirationYear: 2032,
      customerId,
    });
    const bank = await t.ok(m, 'POST', '/v2/payment-methods/ach', {
      routingNumber: '021000021',
      accountNumber: '123456789',
      accountHolderType: 'Personal',
      accountType: 'Checking',
      customerId,
    });
    const orphan = await t.ok(m, 'POST', '/v2/payment-methods/cards', {
      cardNumber: '4111111111111111',
      expirationMonth: 1,
      expirationYear: 2030,
    });

    const mine = await t.ok(m, 'GET', `/v2/payment-methods?customerId=${customerId}`);
    assert.deepEqual(
      mine.items.map((i: { paymentMethodId: string }) => i.paymentMethodId),
      [first.paymentMethodId, second.paymentMethodId, bank.paymentMethodId],
    );
    assert.equal(mine.items[0].isDefault, true, 'the first card is the default');
    assert.equal(mine.items[2].type, 'ElectronicCheck');
    assert.match(mine.items[2].ach.accountNumber, /6789$/);
    assert.doesNotMatch(JSON.stringify(mine), /123456789/);
    const all = await t.ok(m, 'GET', '/v2/payment-methods?pageIndex=0&pageSize=3');
    assert.deepEqual(all.pageInfo, { pageIndex: 0, pageSize: 3, totalItems: 4, totalPages: 2, hasMore: true });
    const rest = await t.ok(m, 'GET', '/v2/payment-methods?pageIndex=1&pageSize=3');
    assert.equal(rest.items[0].paymentMethodId, orphan.paymentMethodId);
    assert.equal(rest.items[0].customerId, null);
    assert.equal(rest.items[0].isDefault, false);
    assert.equal((await t.ok(m, 'GET', '/v2/payment-methods?search=First')).items.length, 1);

    const renamed = await t.request('PATCH', `/v2/payment-methods/${orphan.paymentMethodId}`, {
      token: m.token,
      body: { paymentName: 'Spare' },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await t.ok(m, 'GET', `/v2/payment-methods/${orphan.paymentMethodId}`)).name, 'Spare');

    const setDefault = await t.request(
      'POST',
      `/v2/payment-methods/${second.paymentMethodId}/set-default?customerId=${customerId}`,
      { token: m.token, payload: '', headers: { 'content-length': '0' } },
    );
    assert.equal(setDefault.status, 200, setDefault.text);
    assert.equal((await t.ok(m, 'GET', `/v2/payment-methods/${second.paymentMethodId}`)).isDefault, true);
    assert.equal((await t.ok(m, 'GET', `/v2/payment-methods/${first.paymentMethodId}`)).isDefault, false);
    const orphanDefault = await t.request(
      'POST',
      `/v2/payment-methods/${orphan.paymentMethodId}/set-default?customerId=${customerId}`,
      { token: m.token, payload: '', headers: { 'content-length': '0' } },
    );
    assert.equal(orphanDefault.status, 400);

    assert.equal(
      (await t.request('DELETE', `/v2/payment-methods/${second.paymentMethodId}`, { token: m.token })).status,
      200,
    );
    assert.equal(
      (await t.ok(m, 'GET', `/v2/payment-methods/${first.paymentMethodId}`)).isDefault,
      true,
      'the default moved',
    );
    assert.equal(
      (await t.request('DELETE', `/v2/payment-methods/${orphan.paymentMethodId}`, { token: m.token })).status,
      200,
    );
    assert.equal(
      (await t.request('GET', `/v2/payment-methods/${orphan.paymentMethodId}`, { token: m.token })).status,
      404,
    );

    const other = await t.merchant();
    assert.equal(
      (await t.request('GET', `/v2/payment-methods/${first.paymentMethodId}`, { token: other.token })).status,
      404,
    );
    assert.equal(
      (await t.request('GET', `/v2/payment-methods?customerId=${customerId}`, { token: other.token })).status,
      404,
    );
    assert.equal(
      (
        await t.request('POST', '/v2/payment-methods/cards', {
          token: other.token,
          body: { cardNumber: '4111111111111111', expirationMonth: 1, expirationYear: 2030, customerId },
        })
      ).status,
      404,
    );
  });

  it('keeps an orphan Business account’s companyName, the receiver of a CCD debit that names no company', async () => {
    const account = await t.ok(m, 'POST', '/v2/payment-methods/ach', {
      routingNumber: '021000021',
      accountNumber: '700000001',
      accountHolderType: 'Business',
      accountType: 'Checking',
      companyName: 'Orphan Holdings LLC',
    });
    const read = await t.ok(m, 'GET', `/v2/payment-methods/${account.paymentMethodId}`);
    assert.deepEqual([read.customerId, read.ach.companyName], [null, 'Orphan Holdings LLC']);
    const personal = await t.call(m, 'POST', '/v2/payment-methods/ach', {
      routingNumber: '021000021',
      accountNumber: '700000002',
      accountHolderType: 'Personal',
      accountType: 'Checking',
      companyName: 'Not a company',
    });
    assert.equal(personal.status, 400);
    assert.ok(personal.body.errors.companyName);

    const debit = await t.ok(m, 'POST', '/v2/transactions', {
      paymentProcessorId: null,
      baseAmount: 21,
      referenceId: 'ccd-orphan',
      transactionDetails: {
        achData: { secCode: 'CCD', requesterIpAddress: '198.51.100.9', paymentMethodId: account.paymentMethodId },
      },
    });
    assert.equal(debit.transactionStatus, 'Pending', JSON.stringify(debit));
    const [entry] = await t.query<{ receiver_name: string; company_name: string }>(
      'SELECT receiver_name, company_name FROM ach_entries WHERE transaction_id = $1',
      [debit.transactionId],
    );
    assert.deepEqual([entry?.receiver_name, entry?.company_name], ['Orphan Holdings LLC', 'Orphan Holdings LLC']);
  });
});
