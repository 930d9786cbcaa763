// Version 2 customers and payment methods as the SDK names them: one create with cards and accounts (all or
// nothing), the detail and the list with its filters, a full replacement, and the payment-method operations.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const VISA = {
  name: 'Visa',
  cardNumber: '4111111111111111',
  securityCode: '123',
  expirationMonth: 12,
  expirationYear: 2030,
};
const CHECKING = {
  name: 'Checking',
  routingNumber: '021000021',
  accountNumber: '123456789',
  taxId: '12-3456789',
  accountHolderType: 'Personal',
  accountType: 'Checking',
};
const ADDRESS = { city: 'New York', countryCode: 'US', line1: '123 Main Street', postalCode: '10001', stateCode: 'NY' };

describe('version 2: customers and payment methods', () => {
  let t: TestNode;
  let m: MerchantTenant;

  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t?.stop());

  const call = (method: string, path: string, body?: unknown) => t.call(m, method, path, body);
  const ok = (method: string, path: string, body?: unknown) => t.ok(m, method, path, body);
  const customerCount = async () =>
    Number((await t.query('SELECT count(*) AS n FROM customers WHERE merchant_id = $1', [m.id]))[0]!.n);

  it('creates a customer with a card and a bank account, and shows them masked', async () => {
    const { customerId } = await ok('POST', '/v2/customers', {
      firstName: 'Grace',
      lastName: 'Hopper',
      companyName: 'Navy Labs',
      email: 'grace@example.com',
      mobileNumber: '+1-555-123-4567',
      hasSmsConsent: true,
      shouldUseBillingAsShippingAddress: true,
      billingAddress: ADDRESS,
      shippingAddress: null,
      paymentMethodsCards: [VISA],
      paymentMethodsAchAccounts: [CHECKING],
    });
    const c = await ok('GET', `/v2/customers/${customerId}`);
    assert.equal(c.id, customerId);
    assert.equal(c.externalId, null);
    assert.equal(c.firstName, 'Grace');
    assert.equal(c.hasSmsConsent, true);
    assert.equal(c.shouldUseBillingAsShippingAddress, true);
    assert.deepEqual(c.billingAddress, { ...ADDRESS, line2: null, addressLine1: ADDRESS.line1, addressLine2: null });
    assert.deepEqual([c.customerId, c.mobilePhoneNumber], [c.id, c.mobileNumber], 'the published names beside');
    assert.equal(c.transactionsCount, 0);
    assert.equal(c.numberOfSubscriptions, 0);
    assert.equal(c.cards.length, 1);
    assert.equal(c.cards[0].isDefault, true);
    assert.ok(c.cards[0].cardMask.endsWith('1111') && !c.cards[0].cardMask.includes('411111111111'));
    assert.equal(c.cards[0].cardType, 'Visa');
    assert.equal(c.achAccounts[0].isDefault, true);
    assert.equal(c.achAccounts[0].accountType, 'Checking');
    assert.equal(c.achAccounts[0].accountHolderType, 'Personal');
    assert.equal(c.achAccounts[0].taxId, '***-**-6789');
    assert.ok(!JSON.stringify(c).includes('123456789'), 'the account number only masked');

    const sale = await ok('POST', '/v2/transactions', {
      baseAmount: 20,
      referenceId: `v2-customer-${randomUUID()}`,
      transactionDetails: { cardData: { paymentMethodId: c.cards[0].id } },
    });
    assert.equal(sale.transactionStatus, 'Approved');
    const after = await ok('GET', `/v2/customers/${customerId}`);
    assert.equal(after.transactionsCount, 1);
    assert.equal(after.transactionsVolume, 20);
    assert.equal(after.lastTransactionAmount, 20);
  });

  it('creates nothing when one of the payment methods is refused', async () => {
    const before = await customerCount();
    const bad = await call('POST', '/v2/customers', {
      firstName: 'Half',
      paymentMethodsCards: [VISA, { ...VISA, cardNumber: '4111111111111112' }],
    });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(await customerCount(), before);
    const expired = await call('POST', '/v2/customers', {
      firstName: 'Old',
      paymentMethodsCards: [{ ...VISA, expirationYear: 2020 }],
    });
    assert.equal(expired.status, 400);
    assert.equal(await customerCount(), before);
  });

  it('lists with the document filters, and replaces a customer whole', async () => {
    const tag = randomUUID().slice(0, 8);
    const ids: string[] = [];
    for (const [first, company] of [
      ['Alan', `Bletchley ${tag}`],
      ['Alan', `Manchester ${tag}`],
      ['Joan', `Bletchley ${tag}`],
    ] as const) {
      ids.push(
        (
          await ok('POST', '/v2/customers', {
            firstName: first,
            lastName: 'Turing',
            companyName: company,
            email: `${first.toLowerCase()}.${tag}@example.com`,
          })
        ).customerId,
      );
    }
    const byCompany = await ok('GET', `/v2/customers?companyName=bletchley%20${tag}&asc=true&orderBy=firstName`);
    assert.deepEqual(
      byCompany.items.map((i: { firstName: string }) => i.firstName),
      ['Alan', 'Joan'],
    );
    assert.equal(byCompany.total, 2);
    const byName = await ok('GET', `/v2/customers?fullName=alan%20turing&email=${tag}`);
    assert.equal(byName.total, 2);
    const paged = await ok('GET', `/v2/customers?email=${tag}&pageSize=2&page=1`);
    assert.equal(paged.items.length, 1);
    assert.equal(paged.total, 3);
    assert.equal((await call('GET', '/v2/customers?orderBy=shoeSize')).status, 400);

    const replaced = await call('PUT', `/v2/customers/${ids[0]}`, {
      firstName: 'Alan M.',
      shouldUseBillingAsShippingAddress: false,
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.text, '');
    const shown = await ok('GET', `/v2/customers/${ids[0]}`);
    assert.equal(shown.firstName, 'Alan M.');
    assert.equal(shown.lastName, null, 'a full replacement clears what it leaves out');
    assert.equal(shown.companyName, null);
  });

  it('adds, lists, renames, defaults and deletes payment methods; deletes the customer', async () => {
    const { customerId } = await ok('POST', '/v2/customers', { firstName: 'Katherine' });
    const first = await ok('POST', `/v2/customers/${customerId}/payment-methods`, { card: VISA, ach: null });
    const second = await ok('POST', `/v2/customers/${customerId}/payment-methods`, {
      card: { ...VISA, name: 'Spare', cardNumber: '5500000000000004' },
    });
    const account = await ok('POST', `/v2/customers/${customerId}/payment-methods`, { ach: CHECKING });
    const both = await call('POST', `/v2/customers/${customerId}/payment-methods`, { card: VISA, ach: CHECKING });
    assert.equal(both.status, 400);
    const neither = await call('POST', `/v2/customers/${customerId}/payment-methods`, {});
    assert.equal(neither.status, 400);

    const list = await ok('GET', `/v2/customers/${customerId}/payment-methods?orderBy=name&asc=true`);
    assert.equal(list.total, 3);
    assert.deepEqual(
      list.items.map((i: { name: string }) => i.name),
      ['Checking', 'Spare', 'Visa'],
    );
    const ach = list.items.find((i: { id: string }) => i.id === account.paymentMethodId);
    assert.equal(ach.type, 'ElectronicCheck');
    assert.equal(ach.card, null);
    assert.equal(ach.ach.taxId, '***-**-6789');
    const visa = list.items.find((i: { id: string }) => i.id === first.paymentMethodId);
    assert.equal(visa.isDefault, true);
    assert.equal(visa.card.cardTokenType, 'Local');
    const paged = await ok('GET', `/v2/customers/${customerId}/payment-methods?pageSize=2&page=1`);
    assert.equal(paged.items.length, 1);
    assert.equal(paged.total, 3);
    const searched = await ok('GET', `/v2/customers/${customerId}/payment-methods?search=spare`);
    assert.deepEqual(
      searched.items.map((i: { id: string }) => i.id),
      [second.paymentMethodId],
    );

    assert.equal(
      (await call('PUT', `/v2/customers/${customerId}/payment-methods/${second.paymentMethodId}`, { name: 'Backup' }))
        .status,
      200,
    );
    const defaulted = await call(
      'PUT',
      `/v2/customers/${customerId}/payment-methods/${second.paymentMethodId}/set-default`,
    );
    assert.equal(defaulted.status, 200, defaulted.text);
    const detail = await ok('GET', `/v2/customers/${customerId}`);
    const byId = Object.fromEntries(detail.cards.map((c: { id: string }) => [c.id, c]));
    assert.equal(byId[second.paymentMethodId].name, 'Backup');
    assert.equal(byId[second.paymentMethodId].isDefault, true);
    assert.equal(byId[first.paymentMethodId].isDefault, false);
    assert.equal(detail.achAccounts[0].isDefault, true, 'the bank-account default is its own');

    const removed = await call('DELETE', `/v2/customers/${customerId}/payment-methods/${second.paymentMethodId}`);
    assert.equal(removed.status, 200, removed.text);
    const afterRemoval = await ok('GET', `/v2/customers/${customerId}`);
    assert.equal(afterRemoval.cards.length, 1);
    assert.equal(afterRemoval.cards[0].isDefault, true, 'the default moved to the remaining card');

    assert.equal((await call('DELETE', `/v2/customers/${customerId}`)).status, 200);
    assert.equal((await call('GET', `/v2/customers/${customerId}`)).status, 404);
    assert.equal((await call('DELETE', `/v2/customers/${customerId}`)).status, 404);
  });
});
