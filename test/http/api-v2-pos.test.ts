// Version 2 terminals and POS transactions as the SDK names them, on sandbox terminals driven by the operator's
// controls: list and status, a sale long-polled to Completed, a capture of a terminal authorization, cancel, reprint,
// and what the v2 enum lists but a terminal does not take.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 };

describe('version 2: terminals and POS transactions', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let serial = 0;

  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { companyName: 'Corner Cafe', settings: { isTipsEnabled: true } } });
  });
  after(() => t?.stop());

  const call = (method: string, path: string, body?: unknown) => t.call(m, method, path, body);
  const ok = (method: string, path: string, body?: unknown) => t.ok(m, method, path, body);
  async function terminal(modeId = 2): Promise<{ id: string; serialNumber: string }> {
    const serialNumber = `V2-${++serial}-${Date.now()}`;
    const created = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
        serialNumber,
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP2',
        terminalModeId: modeId,
      }),
    );
    return { id: created.id, serialNumber };
  }
  const act = (terminalId: string, action: Record<string, unknown>) =>
    t.expectOk(t.admin('POST', `/admin/v1/sandbox/terminals/${terminalId}/actions`, action));

  it('lists terminals with string enums and shows a status', async () => {
    const semi = await terminal();
    const standalone = await terminal(1);
    // The older terms (`page`): every terminal, in the older names.
    const list = await ok('GET', `/v2/terminals?page=0&serialNumber=${semi.serialNumber}`);
    assert.equal(list.total, 1);
    assert.deepEqual(list.items[0], {
      id: semi.id,
      merchantId: m.id,
      merchantCompanyName: 'Corner Cafe',
      serialNumber: semi.serialNumber,
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      deliveryStatus: list.items[0].deliveryStatus,
      terminalMode: 'SemiIntegrated',
      connectionStatus: 'Online',
      lastSeenTimestamp: list.items[0].lastSeenTimestamp,
    });
    const all = await ok('GET', '/v2/terminals?pageSize=100');
    assert.ok(all.items.some((i: { id: string; terminalMode: string }) => i.id === standalone.id));
    const byDelivery = await ok('GET', `/v2/terminals?deliveryStatus=${list.items[0].deliveryStatus}&pageSize=100`);
    assert.ok(
      byDelivery.items.every((i: { deliveryStatus: string }) => i.deliveryStatus === list.items[0].deliveryStatus),
    );
    assert.equal((await call('GET', '/v2/terminals?deliveryStatus=Lost')).status, 400);

    const status = await ok('GET', `/v2/terminals/${semi.id}/status`);
    assert.equal(status.terminalId, semi.id);
    assert.equal(status.connectionStatus, 'Online');
    assert.equal(status.terminalPosStatus, 'Active');
    assert.equal(status.availabilityStatus, 'Ready');
    assert.ok(Date.parse(status.timestamp) > 0);
    await act(semi.id, { action: 'connection', online: false });
    const offline = await ok('GET', `/v2/terminals/${semi.id}/status`);
    assert.equal(offline.connectionStatus, 'Offline');
    assert.equal(offline.terminalPosStatus, 'Offline');
    assert.equal(offline.batteryLevel, null);
  });

  it('sells on a terminal: created, long-polled to Completed, listed, reprinted', async () => {
    const { id: terminalId } = await terminal();
    const created = await ok('POST', '/v2/pos/transactions', {
      terminalId,
      transactionType: 'Sale',
      amount: 125.5,
      pricingType: 'Card',
      currencyCode: 'USD',
      posDeviceId: 'till-7',
      referenceId: 'order-7',
      shouldWaitForAcceptanceByTerminal: true,
      readingMethod: 'Reading',
      shouldRequestPaymentMethodStorageConsent: false,
    });
    assert.equal(created.status, 'TransactionProcessing');
    assert.equal(created.posTransactionStatus, 'InProgress', 'the published status beside the older one');
    assert.equal(created.linkedTransaction, null, 'no payment yet');
    const busy = await ok('GET', `/v2/terminals/${terminalId}/status`);
    assert.equal(busy.terminalPosStatus, 'Busy');
    const polled = ok('GET', `/v2/pos/transactions/${created.posTransactionId}?waitForTransactionProcessing=true`);
    await act(terminalId, { action: 'present-card', ...CARD, readingMethod: 'chip' });
    const done = await polled;
    assert.equal(done.status, 'Completed');
    assert.equal(done.transactionType, 'Sale');
    assert.equal(done.amount, 125.5);
    assert.equal(done.currencyCode, 'USD');
    assert.equal(done.merchantId, m.id);
    assert.equal(done.posDeviceId, 'till-7');
    assert.equal(done.referenceId, 'order-7');
    assert.ok(done.paymentProcessorId === null || typeof done.paymentProcessorId === 'string');
    const sale = await ok('GET', `/v2/transactions/${done.transactionId}`);
    assert.equal(sale.status, 'Captured');
    assert.equal(sale.processedAmount, 125.5);

    const list = await ok('GET', `/v2/pos/transactions?terminalId=${terminalId}`);
    assert.equal(list.total, 1);
    assert.equal(list.items[0].id, created.posTransactionId);
    assert.equal(list.items[0].status, 'Completed');
    assert.equal(list.items[0].transactionId, done.transactionId);

    const printed = await call('POST', `/v2/pos/transactions/${created.posTransactionId}/print-receipt`, {
      terminalId,
    });
    assert.equal(printed.status, 200, printed.text);
    assert.equal(printed.text, '');
  });

  it('captures a terminal authorization, and cancels before the card is read', async () => {
    const { id: terminalId } = await terminal();
    await act(terminalId, { action: 'present-card', ...CARD, readingMethod: 'tap' });
    const auth = await ok('POST', '/v2/pos/transactions', { terminalId, transactionType: 'Authorization', amount: 40 });
    const authorized = await ok(
      'GET',
      `/v2/pos/transactions/${auth.posTransactionId}?waitForTransactionProcessing=true`,
    );
    assert.equal(authorized.status, 'Completed');
    const capture = await ok('POST', '/v2/pos/transactions', {
      terminalId,
      transactionType: 'Capture',
      targetTransactionId: authorized.transactionId,
    });
    const captured = await ok(
      'GET',
      `/v2/pos/transactions/${capture.posTransactionId}?waitForTransactionProcessing=true`,
    );
    assert.equal(captured.status, 'Completed');
    assert.equal(captured.transactionType, 'Capture');
    assert.equal(captured.targetTransactionId, authorized.transactionId);
    assert.equal((await ok('GET', `/v2/transactions/${authorized.transactionId}`)).status, 'Captured');

    const pending = await ok('POST', '/v2/pos/transactions', { terminalId, amount: 2 });
    const cancelled = await ok('POST', `/v2/pos/transactions/${pending.posTransactionId}/cancel`);
    assert.deepEqual(
      [cancelled.posTransactionId, cancelled.status, cancelled.posTransactionStatus],
      [pending.posTransactionId, 'CancelByPos', 'Cancelled'],
    );
    assert.equal((await call('POST', `/v2/pos/transactions/${pending.posTransactionId}/cancel`)).status, 400);
  });

  it('refuses what a terminal does not take, naming the field', async () => {
    const { id: terminalId } = await terminal();
    for (const [body, field] of [
      [{ terminalId, amount: 5, transactionType: 'AchDebit' }, 'transactionType'],
      [{ terminalId, amount: 5, pricingType: 'Cash' }, 'pricingType'],
      [{ terminalId, amount: 5, currencyCode: 'EUR' }, 'currencyCode'],
    ] as const) {
      const res = await call('POST', '/v2/pos/transactions', body);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.errors[field], res.text);
    }
    const standalone = await terminal(1);
    const refused = await call('POST', '/v2/pos/transactions', { terminalId: standalone.id, amount: 5 });
    assert.equal(refused.status, 400);
    const unknownField = await call('POST', '/v2/pos/transactions', { terminalId, amount: 5, tipAmount: 1 });
    assert.equal(unknownField.status, 400, 'a tip goes in extraAmounts');
  });

  it('takes the published create and answers the published POS transaction, its payment linked; lists by pageIndex', async () => {
    const { id: terminalId } = await terminal();
    const customer = await t.ok(m, 'POST', '/v2/customers', { firstName: 'Pat', lastName: 'Published' });
    const created = await ok('POST', '/v2/pos/transactions', {
      posDeviceId: 'till-9',
      baseAmount: 50,
      currencyCode: 'USD',
      terminalId,
      waitForAcceptanceByTerminal: false,
      requestPaymentMethodStorageConsent: false,
      initiationChannel: 'Cloud',
      extraAmounts: { tipRate: 10 },
      referenceId: 'pub-1',
      customerId: customer.customerId,
      pricingType: 'Card',
      captureMethod: 'Manual',
      readingMethod: 'Regular',
    });
    assert.equal(created.posTransactionStatus, 'InProgress');
    assert.deepEqual(
      [created.captureMethod, created.baseAmount, created.extraAmounts.tipRate, created.customerId],
      ['Manual', 50, 10, customer.customerId],
    );
    const polled = ok('GET', `/v2/pos/transactions/${created.posTransactionId}?waitForTransactionProcessing=true`);
    await act(terminalId, { action: 'present-card', ...CARD, readingMethod: 'tap' });
    const done = await polled;
    assert.equal(done.posTransactionStatus, 'Completed');
    const linked = done.linkedTransaction;
    assert.equal(linked.transactionId, done.transactionId);
    assert.equal(linked.transactionStatus, 'Authorized', 'Manual: an authorization');
    assert.equal(linked.transactionType, 'Authorization');
    assert.equal(linked.amountBreakdown.tipAmount, 5, '10% of 50.00');
    assert.equal(done.processedAmount, linked.processedAmount);

    const page = await ok('GET', `/v2/pos/transactions?pageIndex=0&pageSize=1&terminalId=${terminalId}`);
    assert.deepEqual(page.pageInfo, { pageIndex: 0, pageSize: 1, totalItems: 1, totalPages: 1, hasMore: false });
    assert.equal(page.items[0].posTransactionId, created.posTransactionId);
    assert.equal('linkedTransaction' in page.items[0], false, 'a list item has no linked payment');
    const none = await ok(
      'GET',
      `/v2/pos/transactions?pageIndex=0&terminalId=${terminalId}&posTransactionStatus=Failed`,
    );
    assert.equal(none.pageInfo.totalItems, 0);
    const past = await ok('GET', `/v2/pos/transactions?pageIndex=5&terminalId=${terminalId}`);
    assert.deepEqual([past.items.length, past.pageInfo.hasMore], [0, false]);

    for (const body of [
      { terminalId, baseAmount: 5, initiationChannel: 'Deeplink' },
      { terminalId, baseAmount: 5, amount: 6 },
      { terminalId, baseAmount: 5, captureMethod: 'Manual', transactionType: 'Sale' },
      { terminalId, baseAmount: 5, extraAmounts: { tipAmount: 1, tipRate: 5 } },
      { terminalId, baseAmount: 5, readingMethod: 'Swiped' },
    ]) {
      assert.equal((await call('POST', '/v2/pos/transactions', body)).status, 400, JSON.stringify(body));
    }
  });

  it('lists active terminals in the published terms: terminalStatus computed, filtered, searched, sorted, paged', async () => {
    const shop = await t.merchant({ body: { companyName: 'Kiosk Co' } });
    const make = async (serialNumber: string, manufacturer: string, model: string) =>
      t.expectOk(
        t.admin('POST', `/admin/v1/merchants/${shop.id}/terminals`, {
          serialNumber,
          terminalManufacturer: manufacturer,
          terminalModel: model,
          terminalModeId: 2,
        }),
      );
    const stamp = Date.now();
    const a = await make(`PUB-A-${stamp}`, 'Verifone', 'VerifoneVictaMobile');
    const b = await make(`PUB-B-${stamp}`, 'Sunmi', 'SunmiP2');
    const list = (query: string) => t.ok(shop, 'GET', `/v2/terminals?pageIndex=0&${query}`);
    const all = await list('');
    assert.equal(all.pageInfo.totalItems, 2);
    assert.deepEqual(Object.keys(all.items[0]).sort(), [
      'connectionStatus',
      'deliveryStatus',
      'id',
      'lastSeenOn',
      'lastSeenTimestamp',
      'merchantCompanyName',
      'merchantId',
      'serialNumber',
      'terminalId',
      'terminalManufacturer',
      'terminalMode',
      'terminalModel',
      'terminalStatus',
    ]);
    assert.deepEqual(
      all.items.map((i: { terminalId: string; terminalStatus: string }) => [i.terminalId, i.terminalStatus]),
      [
        [b.id, 'Ready'],
        [a.id, 'Ready'],
      ],
      'newest first',
    );
    // One terminal taken by a POS transaction is Busy; one switched off is Offline.
    await t.ok(shop, 'POST', '/v2/pos/transactions', { terminalId: a.id, baseAmount: 3 });
    await act(b.id, { action: 'connection', online: false });
    assert.deepEqual(
      (await list('terminalStatus=Busy')).items.map((i: { terminalId: string }) => i.terminalId),
      [a.id],
    );
    assert.deepEqual(
      (await list('terminalStatus=Offline&connectionStatus=Offline')).items.map(
        (i: { terminalId: string }) => i.terminalId,
      ),
      [b.id],
    );
    assert.equal((await list('search=victa')).items[0].terminalId, a.id);
    assert.equal((await list(`serialNumber=PUB-B-${stamp}`)).items[0].terminalId, b.id);
    const sorted = await list('sortBy=terminalManufacturer&sortOrder=asc&pageSize=1');
    assert.deepEqual([sorted.items[0].terminalManufacturer, sorted.pageInfo.hasMore], ['Sunmi', true]);
    const last = await t.ok(shop, 'GET', '/v2/terminals?pageIndex=1&pageSize=1&sortBy=terminalManufacturer');
    assert.deepEqual([last.items[0].terminalManufacturer, last.pageInfo.hasMore], ['Verifone', false]);
    assert.equal((await t.call(shop, 'GET', '/v2/terminals?pageIndex=0&terminalStatus=Active')).status, 400);

    const status = await t.ok(shop, 'GET', `/v2/terminals/${a.id}/status`);
    assert.deepEqual([status.terminalStatus, status.merchantId], ['Busy', shop.id]);
    assert.equal((await t.ok(shop, 'GET', `/v2/terminals/${b.id}/status`)).terminalStatus, 'Offline');
  });
});
