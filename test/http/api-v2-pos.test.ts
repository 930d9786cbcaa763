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
    m = await t.merchant({ body: { companyName: 'Corner Cafe' } });
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
    const list = await ok('GET', `/v2/terminals?serialNumber=${semi.serialNumber}`);
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
    assert.deepEqual(Object.keys(created).sort(), ['posTransactionId', 'status']);
    assert.equal(created.status, 'TransactionProcessing');
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
    assert.deepEqual(cancelled, { posTransactionId: pending.posTransactionId, status: 'CancelByPos' });
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
    assert.equal(unknownField.status, 400, 'tips are not part of the v2 POS create');
  });
});
