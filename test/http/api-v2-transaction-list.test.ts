// GET /v2/transactions as the published "V2 Beta" document pages and filters it: `pageIndex`/`pageSize`/`sortBy`/
// `sortOrder`, both envelopes (`pageInfo` and the older `total`), the default page size by the request's terms,
// paged to its end with hasMore false on the last page and no items past it; each of the document's filters
// narrowing what it says; pageSize over 100 refused; the older `page` still paging.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = {
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

describe('GET /v2/transactions, published paging and filters', () => {
  let t: TestNode;
  let m: MerchantTenant;
  const ids: Record<string, string> = Object.create(null);
  before(async () => {
    t = await startNode();
    m = await t.merchant();
    for (const [name, amount, pan, ref] of [
      ['small', 5, '4111111111111111', 'REF-SMALL'],
      ['mid', 25, '4111111111111111', 'REF-MID'],
      ['big', 125, '4111111111111111', 'REF-BIG'],
      ['declined', 9, '4000000010050005', 'REF-DECL'],
    ] as const) {
      const res = await t.request('POST', '/pay-api/v1/transactions/sale', {
        token: m.token,
        body: { amount, accountNumber: pan, referenceId: ref, ...CARD },
      });
      ids[name] = res.body.transactionId;
    }
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Ach', lastName: 'Payer' });
    const bank = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/ach`, {
      accountNumber: '100000099',
      routingNumber: '021000021',
      accountType: 1,
      accountHolderType: 2,
    });
    ids.customer = customer.id;
    ids.ach = (
      await t.ok(m, 'POST', '/pay-api/v1/transactions/ach/payment', {
        amount: 40,
        customerId: customer.id,
        paymentMethodId: bank.id,
        requesterIPaddress: '198.51.100.7',
      })
    ).transactionId;
  });
  after(() => t.stop());

  const list = async (query: string) => {
    const res = await t.request('GET', `/v2/transactions?${query}`, { token: m.token });
    assert.equal(res.status, 200, res.text);
    return res.body as {
      items: Array<{ transactionId: string; processedAmount: number; referenceId: string }>;
      total: number;
      pageInfo: { pageIndex: number; pageSize: number; totalItems: number; totalPages: number; hasMore: boolean };
    };
  };
  const idsOf = (body: Awaited<ReturnType<typeof list>>) => body.items.map((i) => i.transactionId).sort();

  it('pages to the end with pageInfo, and answers nothing past it', async () => {
    const seen: string[] = [];
    for (let pageIndex = 0; ; pageIndex++) {
      const page = await list(`pageIndex=${pageIndex}&pageSize=2`);
      assert.equal(page.pageInfo.pageIndex, pageIndex);
      assert.equal(page.pageInfo.totalItems, 5);
      assert.equal(page.pageInfo.totalPages, 3);
      assert.equal(page.total, 5, 'the older envelope beside');
      seen.push(...page.items.map((i) => i.transactionId));
      if (!page.pageInfo.hasMore) {
        assert.equal(pageIndex, 2);
        break;
      }
    }
    assert.equal(new Set(seen).size, 5);
    const past = await list('pageIndex=7&pageSize=2');
    assert.deepEqual(past.items, []);
    assert.equal((await t.request('GET', '/v2/transactions?pageSize=101', { token: m.token })).status, 400);
    const older = await list('page=1&pageSize=2');
    assert.equal(older.items.length, 2, 'the older `page` still pages');
    assert.deepEqual([older.total, older.pageInfo.pageIndex], [5, 1], 'both envelopes');
    const plain = await list('');
    assert.deepEqual([plain.pageInfo.pageSize, plain.items.length], [20, 5], 'no paging at all: the published terms');
    const olderDefault = await t.request('GET', '/v2/transactions?page=0', { token: m.token });
    assert.equal(olderDefault.body.pageInfo.pageSize, 15, 'the older terms: 15 a page');
  });

  it('sorts by processedAmount both ways, and ignores a sortOrder without sortBy', async () => {
    const asc = await list('sortBy=processedAmount&sortOrder=asc&pageSize=100');
    const amounts = asc.items.map((i) => i.processedAmount);
    assert.deepEqual(
      amounts,
      [...amounts].sort((a, b) => a - b),
    );
    const desc = await list('sortBy=processedAmount&sortOrder=desc&pageSize=100');
    assert.deepEqual(
      desc.items.map((i) => i.processedAmount),
      [...amounts].reverse(),
    );
    const newest = await list('pageSize=100');
    const ignored = await list('sortOrder=asc&pageSize=100');
    assert.deepEqual(
      ignored.items.map((i) => i.transactionId),
      newest.items.map((i) => i.transactionId),
    );
    assert.equal((await t.request('GET', '/v2/transactions?sortBy=nope', { token: m.token })).status, 400);
  });

  it('filters as the document says', async () => {
    assert.deepEqual(idsOf(await list('minAmount=20&maxAmount=50')), [ids.ach, ids.mid].sort());
    assert.deepEqual(idsOf(await list('referenceId=REF-BIG')), [ids.big]);
    assert.deepEqual(idsOf(await list('paymentMethodType=ACH')), [ids.ach]);
    assert.deepEqual(idsOf(await list('paymentMethodType=Cash')), []);
    assert.deepEqual(idsOf(await list('transactionStatus=Declined')), [ids.declined]);
    assert.deepEqual(idsOf(await list(`customerId=${ids.customer}`)), [ids.ach]);
    assert.deepEqual(idsOf(await list('sourceType=ApiKey&pageSize=100')).length, 5);
    assert.deepEqual(idsOf(await list('sourceType=Portal')), []);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    assert.deepEqual(idsOf(await list(`fromDate=${encodeURIComponent(future)}`)), []);
    assert.equal((await list('batchId=null&pageSize=100')).items.length <= 5, true);
    assert.equal((await list('merchantId=notauuid')).total, 5, 'merchantId is not bound');
    assert.equal((await list('pageIndex=0&transactionStatus=Declined')).pageInfo.totalItems, 1);
    assert.equal((await t.request('GET', '/v2/transactions?customerId=notauuid', { token: m.token })).status, 400);
    assert.equal((await t.request('GET', '/v2/transactions?batchId=nope', { token: m.token })).status, 400);
  });
});
