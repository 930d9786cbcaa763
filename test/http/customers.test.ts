import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('customers and payment methods', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  const req = (method: string, path: string, body?: unknown) =>
    t.request(method, `/pay-api/v1/customers${path}`, { token: m.token, ...(body !== undefined ? { body } : {}) });

  it('creates, reads, replaces (PUT wipes omitted fields, empty 200) and deletes (then 404)', async () => {
    const created = await req('POST', '', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ADA@example.com',
      mobileNumber: '+1 212 555 0100',
      billingAddress: { line1: '123 Test St', city: 'New York', stateCode: 'NY', postalCode: '10001' },
      useBillingAsShippingAddress: true,
      smsNotification: true,
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id;
    const got = await req('GET', `/${id}`);
    assert.equal(got.body.email, 'ada@example.com');
    assert.equal(got.body.mobilePhoneNumber, '+1 212 555 0100');
    assert.equal(got.body.isMobileNumberSmsNotificationsEnabled, true);
    assert.equal(got.body.billingAddress.state.code, 'NY');
    assert.equal(got.body.billingAddress.zip, '10001');
    assert.deepEqual(got.body.shippingAddress, got.body.billingAddress);
    assert.equal(got.body.transactionsCount, 0);
    const put = await req('PUT', `/${id}`, { firstName: 'Augusta' });
    assert.equal(put.status, 200);
    assert.equal(put.text, '');
    const replaced = await req('GET', `/${id}`);
    assert.equal(replaced.body.firstName, 'Augusta');
    assert.equal(replaced.body.lastName, null);
    assert.equal(replaced.body.billingAddress, null);
    assert.equal((await req('DELETE', `/${id}`)).status, 200);
    assert.equal((await req('DELETE', `/${id}`)).status, 404);
    assert.equal((await req('GET', `/${id}`)).status, 404);
  });

  it('validates: unknown fields, bad email, bad state', async () => {
    assert.equal((await req('POST', '', { nickname: 'x' })).status, 400);
    const email = await req('POST', '', { email: 'not-an-email' });
    assert.equal(email.status, 400);
    const state = await req('POST', '', { billingAddress: { stateCode: 'ZZ' } });
    assert.ok(state.body.errors['billingAddress.stateCode']);
  });

  it("vaults a new merchant's first cards concurrently: one data key, every card stored and readable", async () => {
    // The first card creates the merchant's data key inside its transaction; the others wait for it, never use it
    // before it is committed.
    for (let round = 0; round < 4; round++) {
      const fresh = await t.merchant();
      const results = await Promise.all(
        Array.from({ length: 16 }, async () => {
          const customer = await t.expectOk(
            t.request('POST', '/pay-api/v1/customers', { token: fresh.token, body: { firstName: 'Par' } }),
          );
          return t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
            token: fresh.token,
            body: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
          });
        }),
      );
      assert.deepEqual(
        results.filter((r) => r.status !== 200).map((r) => r.text),
        [],
      );
      const keys = await t.query<{ n: number }>('SELECT count(*)::int AS n FROM data_keys WHERE merchant_id = $1', [
        fresh.id,
      ]);
      assert.equal(keys[0]!.n, 1);
      // Every stored card opens with the key (a sale with it decrypts the number).
      const methods = await t.query<{ id: string }>('SELECT id FROM payment_methods WHERE merchant_id = $1', [
        fresh.id,
      ]);
      for (const { id } of methods.slice(0, 3)) {
        assert.equal((await t.ctx.services.vault.usableCard(fresh.id, id)).pan, '4111111111111111');
      }
    }
  });

  it('vaults cards and bank accounts: masked, first is default, make-default, update, delete moves the default', async () => {
    const { id } = (await req('POST', '', { firstName: 'Card' })).body;
    const first = await req('POST', `/${id}/payment-methods/cards`, {
      name: 'Visa',
      pan: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2031,
      securityCode: '123',
    });
    assert.equal(first.status, 200, first.text);
    const second = (
      await req('POST', `/${id}/payment-methods/cards`, {
        pan: '5555555555554444',
        expirationMonth: 1,
        expirationYear: 2032,
      })
    ).body;
    const bad = await req('POST', `/${id}/payment-methods/cards`, {
      pan: '4111111111111112',
      expirationMonth: 1,
      expirationYear: 2032,
    });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors.pan);
    const expired = await req('POST', `/${id}/payment-methods/cards`, {
      pan: '4111111111111111',
      expirationMonth: 1,
      expirationYear: 2020,
    });
    assert.equal(expired.status, 400);
    const ach = await req('POST', `/${id}/payment-methods/ach`, {
      accountNumber: '000123456789',
      routingNumber: '021000021',
      accountType: 2,
    });
    assert.equal(ach.status, 200, ach.text);
    const badRouting = await req('POST', `/${id}/payment-methods/ach`, {
      accountNumber: '000123456789',
      routingNumber: '021000022',
    });
    assert.ok(badRouting.body.errors.routingNumber);

    let record = (await req('GET', `/${id}`)).body;
    assert.equal(record.defaultPaymentMethodId, first.body.id);
    assert.equal(record.defaultAchPaymentMethodId, ach.body.id);
    assert.equal(record.cards.length, 2);
    assert.equal(record.cards[0].panMask, '411111******1111');
    assert.equal(record.cards[0].cardType, 1);
    assert.equal(record.cards[1].cardType, 2);
    assert.equal(record.achAccounts[0].accountNumber, '********6789');
    assert.equal(record.achAccounts[0].accountType, 'Savings');

    assert.equal((await req('POST', `/${id}/payment-methods/${second.id}/make-default`)).status, 200);
    assert.equal((await req('GET', `/${id}`)).body.defaultPaymentMethodId, second.id);
    assert.equal(
      (await req('PUT', `/${id}/payment-methods/${second.id}`, { name: 'MC', expirationYear: 2033 })).status,
      200,
    );
    const methods = (await req('GET', `/${id}/payment-methods`)).body;
    assert.equal(methods.total, 3);
    const mc = methods.items.find((pm: any) => pm.id === second.id);
    assert.deepEqual([mc.name, mc.expirationYear, mc.isDefault], ['MC', 2033, true]);

    assert.equal((await req('DELETE', `/${id}/payment-methods/${second.id}`)).status, 200);
    record = (await req('GET', `/${id}`)).body;
    assert.equal(record.defaultPaymentMethodId, first.body.id);
    assert.equal((await req('DELETE', `/${id}/payment-methods/${second.id}`)).status, 404);
  });

  it('lists with search, ids, order and paging; statistics follow the transactions', async () => {
    const merchant = await t.merchant();
    const mk = async (body: Record<string, unknown>) =>
      (await t.request('POST', '/pay-api/v1/customers', { token: merchant.token, body })).body.id as string;
    const a = await mk({ firstName: 'Zed', lastName: 'Alpha', email: 'zed@example.com' });
    const b = await mk({ firstName: 'Amy', lastName: 'Beta', companyName: 'Beta Co' });
    await mk({ firstName: 'Bob', lastName: 'Gamma' });
    const list = (q: string) => t.request('GET', `/pay-api/v1/customers${q}`, { token: merchant.token });
    assert.equal((await list('')).body.total, 3);
    assert.deepEqual(
      (await list('?search=beta')).body.items.map((c: any) => c.id),
      [b],
    );
    assert.equal((await list(`?customerIds=${a},${b}`)).body.total, 2);
    assert.deepEqual(
      (await list('?orderBy=firstName&asc=true')).body.items.map((c: any) => c.firstName),
      ['Amy', 'Bob', 'Zed'],
    );
    assert.equal((await list('?page=1&pageSize=2')).body.items.length, 1);
    assert.equal((await list('?orderBy=nope')).status, 400);
    const pm = await t.request('POST', `/pay-api/v1/customers/${a}/payment-methods/cards`, {
      token: merchant.token,
      body: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
    });
    for (const [amount, ref] of [
      [10, 'c1'],
      [15.5, 'c2'],
    ] as const) {
      await t.request('POST', '/pay-api/v1/transactions/sale', {
        token: merchant.token,
        body: { amount, customerId: a, paymentMethodId: pm.body.id, referenceId: ref },
      });
    }
    const item = (await list(`?customerIds=${a}`)).body.items[0];
    assert.equal(item.paymentMethodsCount, 1);
    assert.equal(item.lastTransactionAmount, 15.5);
    const record = (await t.request('GET', `/pay-api/v1/customers/${a}`, { token: merchant.token })).body;
    assert.equal(record.transactionsCount, 2);
    assert.equal(record.transactionsVolume, 25.5);
    // Deleting the customer keeps its transactions.
    await t.request('DELETE', `/pay-api/v1/customers/${a}`, { token: merchant.token });
    const txs = await t.request('GET', `/pay-api/v1/transactions?customerId=${a}`, { token: merchant.token });
    assert.equal(txs.body.total, 2);
  });
});
