// Operations of the published revision ("V2 Beta") beside the older ones: GET /v2/ping; the transaction
// sub-resources with the id in the path (ach-hold and ach-release as bodyless POSTs, tip-adjustment by amount or
// rate, share-receipt with consent); capture and reversal by `captureAmount`/`reversalAmount`; closing a batch with
// `{batchStatus}`; the contact information in the published names.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

describe('the published revision’s operations', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let cardProcessor = '';
  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { settings: { isTipsEnabled: true } } });
    const configuration = await t.expectOk(t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token }));
    cardProcessor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
  });
  after(() => t.stop());

  const bodyless = (url: string) =>
    t.request('POST', url, { token: m.token, payload: '', headers: { 'content-length': '0' } });

  it('pings with a token', async () => {
    const ping = await t.request('GET', '/v2/ping', { token: m.token });
    assert.deepEqual([ping.status, ping.text], [200, '']);
    assert.equal((await t.request('GET', '/v2/ping')).status, 401);
  });

  it('holds and releases an ACH debit by its path, bodyless', async () => {
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Hal', lastName: 'Der' });
    const bank = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/ach`, {
      accountNumber: '100000099',
      routingNumber: '021000021',
      accountType: 1,
      accountHolderType: 2,
    });
    const debit = await t.ok(m, 'POST', '/pay-api/v1/transactions/ach/payment', {
      amount: 30,
      customerId: customer.id,
      paymentMethodId: bank.id,
      requesterIPaddress: '198.51.100.7',
    });
    const held = await bodyless(`/v2/transactions/${debit.transactionId}/ach-hold`);
    assert.equal(held.status, 200, held.text);
    assert.deepEqual([held.body.type, held.body.transactionStatus], ['Hold', 'Approved']);
    const released = await bodyless(`/v2/transactions/${debit.transactionId}/ach-release`);
    assert.equal(released.status, 200, released.text);
    assert.equal(released.body.type, 'UnHold');
  });

  it('adjusts a tip by amount or by rate, captures by captureAmount, reverses by reversalAmount', async () => {
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 40, ...CARD });
    const byRate = await t.request('POST', `/v2/transactions/${sale.transactionId}/tip-adjustment`, {
      token: m.token,
      body: { tipRate: 18.5 },
    });
    assert.equal(byRate.status, 200, byRate.text);
    const after = await t.ok(m, 'GET', `/pay-api/v1/transactions/${sale.transactionId}`);
    assert.equal(after.amount.tipAmount, 7.4, '18.5% of 40.00');
    const both = await t.request('POST', `/v2/transactions/${sale.transactionId}/tip-adjustment`, {
      token: m.token,
      body: { tipAmount: 1, tipRate: 5 },
    });
    assert.equal(both.status, 400);

    const auth = await t.ok(m, 'POST', '/pay-api/v1/transactions/auth', { amount: 50, ...CARD });
    const captured = await t.request('POST', `/v2/transactions/${auth.transactionId}/capture`, {
      token: m.token,
      body: { captureAmount: 20 },
    });
    assert.equal(captured.status, 200, captured.text);
    assert.equal((await t.ok(m, 'GET', `/v2/transactions/${auth.transactionId}`)).processedAmount, 20);
    const reversed = await t.request('POST', `/v2/transactions/${auth.transactionId}/reversal`, {
      token: m.token,
      body: { reversalAmount: 20 },
    });
    assert.equal(reversed.status, 200, reversed.text);
  });

  it('shares a receipt only with consent', async () => {
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 11, ...CARD });
    const url = `/v2/transactions/${sale.transactionId}/share-receipt`;
    const refused = await t.request('POST', url, {
      token: m.token,
      body: { shareBy: 'Email', recipient: 'ada@example.com', hasCustomerConsent: false },
    });
    assert.equal(refused.status, 400);
    const shared = await t.request('POST', url, {
      token: m.token,
      body: { shareBy: 'Email', recipient: 'ada@example.com', hasCustomerConsent: true },
    });
    assert.equal(shared.status, 200, shared.text);
    const outbox = await t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}&channel=email`);
    assert.ok(
      (outbox.body.items as Array<{ to: string; text: string }>).some(
        (x) => x.to === 'ada@example.com' && x.text.includes(sale.transactionId),
      ),
    );
    const other = await t.merchant();
    const foreign = await t.request('POST', url, {
      token: other.token,
      body: { shareBy: 'None', recipient: 'x', hasCustomerConsent: true },
    });
    assert.equal(foreign.status, 404);
  });

  it('closes a batch as {batchStatus}, and refuses closing none', async () => {
    await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 13, ...CARD });
    const closed = await t.request('POST', '/v2/settlements/batches/close', {
      token: m.token,
      body: { paymentProcessorId: cardProcessor },
    });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.batchStatus, 'Settled');
    const again = await t.request('POST', '/v2/settlements/batches/close', {
      token: m.token,
      body: { paymentProcessorId: cardProcessor },
    });
    assert.equal(again.status, 409);
  });

  it('answers the contact information in the published names', async () => {
    const contacts = await t.request('GET', '/v2/settings/contact-information', { token: m.token });
    assert.equal(contacts.status, 200, contacts.text);
    for (const entry of contacts.body.contactInfos as Array<Record<string, unknown>>) {
      assert.ok('contactInfoId' in entry && 'addressLine1' in entry && 'mobilePhoneNumber' in entry);
    }
  });

  it('merges a customer patch: left out keeps, null clears', async () => {
    const created = await t.ok(m, 'POST', '/v2/customers', {
      firstName: 'Mae',
      lastName: 'Jemison',
      email: 'mae@example.com',
      companyName: 'Endeavour',
      mobilePhoneNumber: '+12125550100',
    });
    const url = `/v2/customers/${created.customerId}`;
    const patched = await t.request('PATCH', url, { token: m.token, body: { companyName: 'NASA', email: null } });
    assert.equal(patched.status, 200, patched.text);
    const after = await t.ok(m, 'GET', url);
    assert.deepEqual(
      [after.firstName, after.lastName, after.companyName, after.email, after.mobileNumber ?? after.mobilePhoneNumber],
      ['Mae', 'Jemison', 'NASA', null, '+12125550100'],
    );
    const other = await t.merchant();
    assert.equal((await t.request('PATCH', url, { token: other.token, body: { companyName: 'X' } })).status, 404);
    assert.equal((await t.request('PATCH', url, { token: m.token, body: { nope: 1 } })).status, 400);
  });

  it('calculates amounts with percentages as given (POST), beside the older GET’s fractions', async () => {
    const posted = await t.request('POST', '/v2/transactions/calculate-amount', {
      token: m.token,
      body: { baseAmount: 100, tipRate: 18.5, discountRate: 10 },
    });
    assert.equal(posted.status, 200, posted.text);
    const older = await t.request(
      'GET',
      '/v2/transactions/calculate-amount?baseAmount=100&tipRate=0.185&discountRate=0.10',
      { token: m.token },
    );
    assert.equal(older.status, 200, older.text);
    assert.equal(posted.body.creditCard.totalAmount, older.body.creditCard.totalAmount, 'the same payment either way');
    assert.equal(posted.body.creditCard.tipRate, 18.5);
    assert.equal(posted.body.creditCard.discountRate, 10);
    assert.equal(posted.body.creditCard.discountAmount, 10);
    const fixed = await t.request('POST', '/v2/transactions/calculate-amount', {
      token: m.token,
      body: { baseAmount: 100, discountAmount: 5 },
    });
    assert.equal(fixed.status, 400);
  });

  it('lists customers in both revisions’ names and envelopes, ordered and paged by the request’s terms', async () => {
    const shop = await t.merchant();
    for (const [first, phone] of [
      ['Ann', '+12125550101'],
      ['Bob', '+12125550102'],
      ['Cy', '+12125550103'],
    ] as const) {
      await t.ok(shop, 'POST', '/v2/customers', {
        firstName: first,
        lastName: 'Listed',
        mobilePhoneNumber: phone,
        billingAddress: {
          addressLine1: '1 Main St',
          city: 'Austin',
          stateCode: 'TX',
          postalCode: '78701',
          countryCode: 'US',
        },
      });
    }
    const published = await t.ok(shop, 'GET', '/v2/customers?pageIndex=0&pageSize=2');
    assert.deepEqual(published.pageInfo, { pageIndex: 0, pageSize: 2, totalItems: 3, totalPages: 2, hasMore: true });
    assert.equal(published.total, 3, 'the older envelope beside');
    const item = published.items[0];
    assert.equal(item.firstName, 'Ann', 'oldest first: asc is true by default');
    assert.ok(item.customerId && item.id === item.customerId);
    assert.equal(item.mobilePhoneNumber, '+12125550101');
    assert.equal(item.billingAddress.addressLine1, '1 Main St');
    const last = await t.ok(shop, 'GET', '/v2/customers?pageIndex=1&pageSize=2');
    assert.equal(last.pageInfo.hasMore, false);
    assert.equal(last.items.length, 1);
    const older = await t.ok(shop, 'GET', '/v2/customers?page=0&pageSize=2');
    assert.equal(older.total, 3);
    assert.equal(older.items[0].firstName, 'Cy', 'the older terms: newest first');
    assert.equal(older.items[0].billingAddress.line1, '1 Main St');
    const plain = await t.ok(shop, 'GET', '/v2/customers');
    assert.deepEqual(
      [plain.items[0].firstName, plain.pageInfo.pageSize],
      ['Ann', 20],
      'no paging at all (the v2 CLI’s list): the published terms',
    );
    const olderSdk = await t.request('GET', '/v2/customers', {
      token: shop.token,
      headers: { 'x-api-version': '2.12' },
    });
    assert.deepEqual([olderSdk.body.items[0].firstName, olderSdk.body.pageInfo.pageSize], ['Cy', 15]);
    const byPhone = await t.ok(shop, 'GET', '/v2/customers?pageIndex=0&mobilePhoneNumber=0102');
    assert.deepEqual(
      byPhone.items.map((i: { firstName: string }) => i.firstName),
      ['Bob'],
    );
  });

  it('lists settlement batches in both revisions’ names and statuses', async () => {
    const shop = await t.merchant();
    const configuration = await t.expectOk(
      t.request('GET', '/pay-api/v1/configurations/payments', { token: shop.token }),
    );
    const processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
    await t.ok(shop, 'POST', '/pay-api/v1/transactions/sale', { amount: 20, ...CARD });
    await t.ok(shop, 'POST', '/v2/settlements/batches/close', { paymentProcessorId: processor });
    await t.ok(shop, 'POST', '/pay-api/v1/transactions/sale', { amount: 7, ...CARD });
    const published = await t.ok(shop, 'GET', `/v2/settlements/batches?pageIndex=0&paymentProcessorIds=${processor}`);
    assert.equal(published.pageInfo.totalItems, 2);
    const [open, settled] = published.items;
    assert.deepEqual(
      [open.batchStatus, open.createdOn],
      ['Open', null],
      'newest first; an open batch has no createdOn',
    );
    assert.equal(settled.batchStatus, 'Settled');
    assert.equal(settled.totalNetAmount, 20);
    assert.ok(settled.batchId && settled.id === settled.batchId);
    assert.deepEqual([open.status, settled.status], ['Open', 'Settled'], 'the older status beside');
    const onlySettled = await t.ok(shop, 'GET', '/v2/settlements/batches?pageIndex=0&batchStatus=Settled');
    assert.deepEqual(
      onlySettled.items.map((b: { batchId: string }) => b.batchId),
      [settled.batchId],
    );
    const declined = await t.ok(shop, 'GET', '/v2/settlements/batches?pageIndex=0&batchStatus=Declined');
    assert.equal(declined.pageInfo.totalItems, 0);
    const older = await t.ok(shop, 'GET', '/v2/settlements/batches');
    assert.equal(older.total, 2);
    assert.ok(older.items[0].id && older.items[0].batchStatus === 'Open');
    const ascending = await t.ok(
      shop,
      'GET',
      '/v2/settlements/batches?pageIndex=0&sortBy=totalNetAmount&sortOrder=asc',
    );
    assert.deepEqual(
      ascending.items.map((b: { totalNetAmount: number }) => b.totalNetAmount),
      [7, 20],
    );
  });

  it('records the top-level customerId on a payment with raw card data, and refuses another merchant’s customer', async () => {
    const customer = await t.ok(m, 'POST', '/v2/customers', { firstName: 'Raw', lastName: 'Card' });
    const raw = {
      paymentProcessorId: cardProcessor,
      baseAmount: 17,
      referenceId: 'raw-with-customer',
      customerId: customer.customerId,
      transactionDetails: {
        cardData: {
          paymentMethodDetails: { cardNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2035 },
        },
      },
    };
    const sale = await t.ok(m, 'POST', '/v2/transactions', raw);
    const shown = await t.ok(m, 'GET', `/v2/transactions/${sale.transactionId}`);
    assert.deepEqual([shown.customerId, shown.cardDetails.paymentMethodId], [customer.customerId, null], 'not saved');
    const credit = await t.ok(m, 'POST', '/v2/transactions/credit', {
      paymentProcessorId: cardProcessor,
      baseAmount: 2,
      referenceId: 'raw-credit-with-customer',
      customerId: customer.customerId,
      creditDetails: { cardData: { paymentMethodDetails: raw.transactionDetails.cardData.paymentMethodDetails } },
    });
    assert.equal((await t.ok(m, 'GET', `/v2/transactions/${credit.transactionId}`)).customerId, customer.customerId);

    const other = await t.merchant();
    const foreign = await t.ok(other, 'POST', '/v2/customers', { firstName: 'Not', lastName: 'Yours' });
    const refused = await t.request('POST', '/v2/transactions', {
      token: m.token,
      body: { ...raw, referenceId: 'foreign-customer', customerId: foreign.customerId },
    });
    assert.equal(refused.status, 404, refused.text);
    const saved = await t.ok(m, 'POST', '/v2/payment-methods/cards', {
      cardNumber: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
    });
    const mismatch = await t.request('POST', '/v2/transactions', {
      token: m.token,
      body: {
        ...raw,
        referenceId: 'orphan-with-customer',
        transactionDetails: { cardData: { paymentMethodId: saved.paymentMethodId } },
      },
    });
    assert.equal(mismatch.status, 400, mismatch.text);
    assert.ok(mismatch.body.errors.customerId);
  });
});
