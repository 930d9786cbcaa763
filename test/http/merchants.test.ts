import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, eventually, startNode, type TestNode } from '../harness.js';

const LIST = '/pay-api/v1/merchants';

describe('partner merchant list (GET /pay-api/v1/merchants)', () => {
  let t: TestNode;
  let partner: Awaited<ReturnType<TestNode['partner']>>;
  const names = ['alpha Bakery', 'Beta Books', 'Gamma Garage', 'delta Diner', 'Epsilon Eats'];
  const ids: string[] = [];
  before(async () => {
    t = await startNode();
    partner = await t.partner();
    for (const [i, name] of names.entries()) {
      const m = await t.expectOk(
        t.admin('POST', '/admin/v1/merchants', {
          companyName: name,
          partnerId: partner.id,
          mccCode: i % 2 === 0 ? '5812' : '5942',
          email: `owner${i}@example.com`,
        }),
      );
      ids.push(m.id);
      // Spread creation times apart on the business clock.
      await t.admin('POST', '/admin/v1/clock/advance', { seconds: 3600 });
    }
    // Another partner's merchants must never show up.
    const other = await t.partner();
    await t.merchant({ partnerId: other.id });
    await t.admin('PATCH', `/admin/v1/merchants/${ids[1]}`, { status: 'Suspended' });
    // Five hours of business time went by: the first token has expired, as it should.
    partner.token = (await t.token(partner.clientId, partner.clientSecret)).access_token;
  });
  after(() => t.stop());

  const list = (query = '') => t.request('GET', `${LIST}${query}`, { token: partner.token });

  it('pages with page (0-based) and pageSize, newest first by default', async () => {
    const all = await list();
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 5);
    assert.deepEqual(
      all.body.items.map((m: any) => m.merchantId),
      [...ids].reverse(),
    );
    for (const item of all.body.items) assert.ok(item.merchantId && item.companyName);
    const page1 = await list('?page=1&pageSize=2');
    assert.deepEqual(
      page1.body.items.map((m: any) => m.merchantId),
      [ids[2], ids[1]],
    );
    assert.equal(page1.body.total, 5);
    const last = await list('?page=2&pageSize=2');
    assert.equal(last.body.items.length, 1);
  });

  it('answers a page past the end with no items and the right total', async () => {
    const past = await list('?page=7&pageSize=2');
    assert.equal(past.status, 200);
    assert.deepEqual(past.body.items, []);
    assert.equal(past.body.total, 5);
  });

  it('rejects bad paging and sorting parameters, naming them', async () => {
    for (const [query, field] of [
      ['?pageSize=101', 'pageSize'],
      ['?pageSize=0', 'pageSize'],
      ['?page=-1', 'page'],
      ['?page=abc', 'page'],
      ['?orderBy=password', 'orderBy'],
      ['?asc=maybe', 'asc'],
      ['?statusId=9', 'statusId'],
      ['?createdFrom=yesterday', 'createdFrom'],
    ] as const) {
      const res = await list(query);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.ok(res.body.errors[field], `${query} names ${field}: ${res.text}`);
    }
    const pageSize100 = await list('?pageSize=100');
    assert.equal(pageSize100.status, 200);
  });

  it('sorts by an allow-listed field, case-insensitively, in either direction', async () => {
    const asc = await list('?orderBy=companyName&asc=true');
    assert.deepEqual(
      asc.body.items.map((m: any) => m.companyName),
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    const desc = await list('?orderBy=CompanyName');
    assert.deepEqual(
      desc.body.items.map((m: any) => m.companyName),
      asc.body.items.map((m: any) => m.companyName).reverse(),
    );
  });

  it('searches case-insensitively and filters by status, MCC and dates', async () => {
    const search = await list('?search=BAKE');
    assert.deepEqual(
      search.body.items.map((m: any) => m.companyName),
      ['alpha Bakery'],
    );
    assert.equal((await list('?search=owner3@')).body.items[0].companyName, 'delta Diner');
    assert.equal((await list('?search=%25')).body.total, 0, 'LIKE wildcards are literal');
    const suspended = await list('?statusId=2');
    assert.deepEqual(
      suspended.body.items.map((m: any) => m.merchantId),
      [ids[1]],
    );
    assert.equal(suspended.body.items[0].status, 'Suspended');
    const mcc = await list('?mccCodeId=5942');
    assert.equal(mcc.body.total, 2);
    assert.ok(mcc.body.items.every((m: any) => m.mccCodeId === 5942 && m.mccCode === '5942'));

    const third = (await t.admin('GET', `/admin/v1/merchants/${ids[2]}`)).body;
    const created = new Date(third.createdOn);
    const from = new Date(created.getTime() - 1000).toISOString();
    const to = new Date(created.getTime() + 1000).toISOString();
    const range = await list(`?createdFrom=${from}&createdTo=${to}`);
    assert.deepEqual(
      range.body.items.map((m: any) => m.merchantId),
      [ids[2]],
    );
    const fromOnly = await list(`?createdFrom=${from}`);
    assert.deepEqual(
      fromOnly.body.items.map((m: any) => m.merchantId),
      [ids[4], ids[3], ids[2]],
    );
    const inverted = await list(`?createdFrom=${to}&createdTo=${from}`);
    assert.equal(inverted.status, 400);
    const modified = await list(`?modifiedFrom=${new Date(Date.parse(third.modifiedOn) + 1).toISOString()}`);
    assert.ok(
      modified.body.items.some((m: any) => m.merchantId === ids[1]),
      'the later status change counts as a modification',
    );
  });
});

describe('merchant configuration', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode();
  });
  after(() => t.stop());

  it('returns every field of the payment configuration', async () => {
    const merchant = await t.merchant({
      body: {
        mccCode: '5812',
        mccCodeDescription: 'Restaurants',
        settings: {
          isTipsEnabled: true,
          defaultTipsOptions: [15, 20],
          zeroCostProcessingOptionId: 3,
          defaultDualPricingRate: 3.5,
          maxTransactionAmount: 5000,
          isCustomerCardSavingByTerminalEnabled: true,
        },
      },
    });
    const res = await t.request('GET', '/pay-api/v1/configurations/payments', { token: merchant.token });
    assert.equal(res.status, 200);
    const c = res.body;
    assert.deepEqual(
      Object.keys(c).sort(),
      [
        'availableCardTypes',
        'availableCurrencies',
        'availablePaymentProcessors',
        'availableTransactionTypes',
        'avs',
        'companyName',
        'currencyId',
        'currencyIsoCode',
        'defaultCashDiscountRate',
        'defaultDualPricingRate',
        'defaultSurchargeRate',
        'defaultTipsOptions',
        'isCustomerCardSavingByTerminalEnabled',
        'isTipsEnabled',
        'maxTransactionAmount',
        'mccCode',
        'mccCodeDescription',
        'zeroCostProcessingOption',
        'zeroCostProcessingOptionId',
      ].sort(),
    );
    assert.equal(c.zeroCostProcessingOption, 'DualPricing');
    assert.equal(c.defaultDualPricingRate, 3.5);
    assert.deepEqual(c.defaultTipsOptions, [15, 20]);
    assert.equal(c.maxTransactionAmount, 5000);
    assert.equal(c.currencyIsoCode, 'USD');
    assert.deepEqual(c.availableCurrencies, [{ id: 1, name: 'USD' }]);
    assert.deepEqual(
      c.availableCardTypes.map((x: any) => x.id),
      [0, 1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(
      c.availableTransactionTypes.map((x: any) => x.id),
      [2, 3, 4, 5, 6, 7, 8],
    );
    assert.equal(c.availablePaymentProcessors.length, 2);
    for (const p of c.availablePaymentProcessors) {
      assert.deepEqual(Object.keys(p).sort(), [
        'id',
        'isDefault',
        'name',
        'settlementBatchTimeSlots',
        'supports',
        'type',
        'typeId',
      ]);
      // What each processor can do (docs/connectors.md): the simulated card network everything, ACH nothing of cards.
      if (p.typeId === 1) {
        assert.deepEqual(p.supports, {
          transactionTypes: [
            'Sale',
            'Authorization',
            'CardAuthentication',
            'Capture',
            'Void',
            'Refund',
            'RefundWORef',
            'TipAdjustment',
          ],
          cardPresent: true,
          tipAdjustment: 'until-settled',
          asynchronousModifications: false,
        });
      } else assert.equal(p.supports, null);
      for (const slot of p.settlementBatchTimeSlots) {
        assert.deepEqual(Object.keys(slot).sort(), ['hours', 'minutes', 'timezoneName']);
      }
    }
    assert.deepEqual(c.avs, { isEnabled: true, profileId: 2, profile: 'Standard' });

    const noTips = await t.merchant();
    const plain = await t.request('GET', '/pay-api/v1/configurations/payments', { token: noTips.token });
    assert.ok(!plain.body.availableTransactionTypes.some((x: any) => x.id === 8), 'no tip adjustment without tips');
  });

  it("returns the merchant's contact infos, never another merchant's", async () => {
    const a = await t.merchant({
      body: {
        email: 'a@a.example',
        phone: '+12125550123',
        address: { line1: '5 Elm St', city: 'Boston', stateId: 22, postalCode: '02108' },
      },
    });
    await t.merchant({ body: { email: 'b@b.example' } });
    const res = await t.request('GET', '/pay-api/v1/configurations/contact-infos', { token: a.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.contactInfos.length, 1);
    const info = res.body.contactInfos[0];
    assert.equal(info.email, 'a@a.example');
    assert.equal(info.mobileNumber, '+12125550123');
    assert.equal(info.stateCode, 'MA');
    assert.equal(info.countryCode, 'US');
    assert.equal(info.isMainAddress, true);
  });

  it('publishes the numeric state table', async () => {
    const m = await t.merchant();
    const res = await t.request('GET', '/pay-api/v1/configurations/states', { token: m.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, res.body.items.length);
    assert.deepEqual(res.body.items[0], { id: 1, code: 'AL', name: 'Alabama', countryId: 1 });
    assert.ok(res.body.items.some((s: any) => s.code === 'NY' && s.id === 33));
  });

  it('ignores the operator token on merchant routes', async () => {
    const res = await t.request('GET', '/pay-api/v1/configurations/payments', { token: ADMIN_TOKEN });
    assert.equal(res.status, 401);
  });
});

describe('configuration cache across nodes', () => {
  let a: TestNode;
  let b: TestNode;
  before(async () => {
    a = await startNode();
    b = await startNode({ database: a.database });
  });
  after(async () => {
    await b.stop();
    await a.stop();
  });

  it('shows an operator change on every node at once, not after the cache lifetime', async () => {
    const merchant = await a.merchant({ body: { settings: { isTipsEnabled: false } } });
    const read = () => b.request('GET', '/pay-api/v1/configurations/payments', { token: merchant.token });
    assert.equal((await read()).body.isTipsEnabled, false); // now cached on node b
    await a.admin('PATCH', `/admin/v1/merchants/${merchant.id}`, { settings: { isTipsEnabled: true } });
    const changedAt = Date.now();
    let seenAfter: number | undefined;
    while (Date.now() - changedAt < 1000) {
      if ((await read()).body.isTipsEnabled === true) {
        seenAfter = Date.now() - changedAt;
        break;
      }
    }
    assert.ok(seenAfter !== undefined && seenAfter < 500, `node b saw the change after ${seenAfter} ms`);
  });
});

describe('contacts cached with the configuration', () => {
  let a: TestNode;
  let b: TestNode;
  // A lifetime far longer than the test: only the change's notification can make a node read the contacts again.
  const env = { CONFIG_CACHE_TTL_MS: '60000' };
  before(async () => {
    a = await startNode({ env });
    b = await startNode({ env, database: a.database });
  });
  after(async () => {
    await b.stop();
    await a.stop();
  });

  it("shows a change of the merchant's address on the node that made it and on every other node", async () => {
    const merchant = await a.merchant({ body: { address: { line1: '1 Old Rd', postalCode: '10001' } } });
    const line1 = async (node: TestNode) =>
      (await node.expectOk(node.request('GET', '/pay-api/v1/configurations/contact-infos', { token: merchant.token })))
        .contactInfos[0].line1;
    assert.equal(await line1(a), '1 Old Rd'); // cached on both nodes from here
    assert.equal(await line1(b), '1 Old Rd');
    await a.expectOk(
      a.admin('PATCH', `/admin/v1/merchants/${merchant.id}`, { address: { line1: '2 New Rd', postalCode: '10001' } }),
    );
    assert.equal(await line1(a), '2 New Rd', 'the node that made the change reads it at once');
    await eventually(async () => (await line1(b)) === '2 New Rd', 5000, 20);
  });
});
