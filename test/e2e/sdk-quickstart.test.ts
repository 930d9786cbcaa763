// The vendor SDK's quickstart flows, end to end over HTTP, by a client that works the way the SDK does
// (test/v2-sdk-client.ts): settings, calculate-amount, a sale, an authorization captured, a reversal that voids and
// one that refunds, the list, an ACH debit, a token gone stale on the business clock (refreshed after one 401, the
// request retried with its idempotency key), and a POS sale on a terminal simulator connected over the terminal
// channel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TerminalSimulator } from '../../src/modules/terminals/simulator/terminal-simulator.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { V2ApiError, V2SdkClient } from '../v2-sdk-client.js';

const CARD = { cardNumber: '4111111111111111', securityCode: '123', expirationMonth: 12, expirationYear: 2030 };
const card = (baseAmount: number, referenceId: string) => ({
  baseAmount,
  currencyCode: 'USD',
  referenceId,
  transactionDetails: { cardData: { paymentMethodDetails: CARD } },
});

describe('the SDK quickstart flows against Tessera', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let flute: V2SdkClient;
  let simulator: TerminalSimulator | undefined;

  before(async () => {
    t = await startNode({ listen: true });
    m = await t.merchant({ body: { companyName: 'Quickstart Coffee', settings: { isTipsEnabled: true } } });
    flute = new V2SdkClient(t.baseUrl, m.clientId, m.clientSecret);
  });
  after(async () => {
    simulator?.stop();
    await t?.stop();
  });

  it('reads the settings and calculates an amount', async () => {
    const settings = await flute.settings.getPaymentSettings();
    assert.equal(settings.companyName, 'Quickstart Coffee');
    assert.ok(settings.availablePaymentProcessors.length >= 2);
    const totals = await flute.transactions.calculateAmount({ baseAmount: 100, tipRate: 0.18 });
    assert.equal(totals.creditCard.totalAmount, 118);
    assert.equal(totals.debitCard.tipAmount, 18);
    assert.equal(flute.stats.tokensFetched, 1, 'one token, cached');
  });

  it('sells, authorizes and captures, voids and refunds, and lists them', async () => {
    const sold = await flute.transactions.sale(card(25, 'qs-sale'));
    assert.equal(sold.transactionStatus, 'Approved');
    const authorization = await flute.transactions.authorize(card(100, 'qs-auth'));
    assert.equal(authorization.transactionStatus, 'Approved');
    assert.equal((await flute.transactions.retrieve(authorization.transactionId)).status, 'Authorized');
    const captured = await flute.transactions.capture(authorization.transactionId);
    assert.equal(captured.transactionStatus, 'Approved');
    assert.equal(captured.processedAmount, 100);
    assert.equal((await flute.transactions.retrieve(authorization.transactionId)).status, 'Captured');

    const voided = await flute.transactions.void(sold.transactionId);
    assert.equal(voided.transactionId, sold.transactionId);
    assert.equal((await flute.transactions.retrieve(sold.transactionId)).status, 'Voided');

    const settings = await flute.settings.getPaymentSettings();
    const cardProcessor = settings.availablePaymentProcessors.find((p: { type: string }) => p.type === 'SandboxCard');
    await flute.request('POST', '/v2/settlements/settle', { body: { paymentProcessorId: cardProcessor.id } });
    const refund = await flute.transactions.refund(authorization.transactionId, { amount: 40 });
    assert.equal(refund.transactionStatus, 'Approved');
    assert.equal(refund.processedAmount, 40);
    assert.notEqual(refund.transactionId, authorization.transactionId);

    const page = await flute.transactions.list({ page: 0, pageSize: 10 });
    const ids = page.items.map((i: { transactionId: string }) => i.transactionId);
    for (const id of [sold.transactionId, authorization.transactionId, refund.transactionId])
      assert.ok(ids.includes(id));
    assert.ok(page.total >= 3);
  });

  it('debits a bank account, Pending until it clears', async () => {
    const debit = await flute.request('POST', '/v2/transactions', {
      body: {
        baseAmount: 19.99,
        currencyCode: 'USD',
        referenceId: 'qs-ach',
        billingAddress: { line1: '1 Main St', city: 'New York', stateCode: 'NY', postalCode: '10001' },
        contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550100' },
        transactionDetails: {
          achData: {
            paymentMethodDetails: {
              routingNumber: '021000021',
              accountNumber: '123456789',
              accountHolderType: 'Personal',
              accountType: 'Checking',
            },
            secCode: 'Web',
            requesterIpAddress: '203.0.113.50',
          },
        },
      },
    });
    assert.equal(debit.transactionStatus, 'Pending');
    assert.equal((await flute.transactions.retrieve(debit.transactionId)).paymentMethodType, 'ElectronicCheck');
  });

  it('refreshes a token gone stale once, after one 401, and the SDK error carries x-request-id', async () => {
    const before = { ...flute.stats };
    await t.advanceClock(16 * 60);
    const sold = await flute.transactions.sale(card(5, 'qs-after-expiry'));
    assert.equal(sold.transactionStatus, 'Approved');
    assert.equal(flute.stats.retriedAfter401, before.retriedAfter401 + 1);
    assert.equal(flute.stats.tokensFetched, before.tokensFetched + 1);
    const missing = await flute.transactions.retrieve('01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c99').catch((e) => e);
    assert.ok(missing instanceof V2ApiError);
    assert.equal(missing.status, 404);
    assert.ok(missing.requestId, 'the error carries the request id');
  });

  it('sells on a terminal simulator connected over the terminal channel', async () => {
    const serialNumber = `QS-SIM-${Date.now()}`;
    const terminal = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
        serialNumber,
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP3H',
        terminalModeId: 2,
      }),
    );
    simulator = new TerminalSimulator({ baseUrl: t.baseUrl, serialNumber, secret: terminal.terminalSecret });
    simulator.start();
    await eventually(async () => {
      const status = await flute.request('GET', `/v2/terminals/${terminal.id}/status`);
      return status.connectionStatus === 'Online' && status.ariseTerminalVersion === 'sim-1';
    }, 10_000);

    const created = await flute.request('POST', '/v2/pos/transactions', {
      body: {
        terminalId: terminal.id,
        transactionType: 'Sale',
        amount: 8.25,
        currencyCode: 'USD',
        posDeviceId: 'register-1',
        shouldWaitForAcceptanceByTerminal: true,
      },
    });
    assert.equal(created.status, 'TransactionProcessing');
    const polled = flute.request('GET', `/v2/pos/transactions/${created.posTransactionId}`, {
      query: { waitForTransactionProcessing: true },
    });
    await t.expectOk(
      t.admin('POST', `/admin/v1/sandbox/terminals/${terminal.id}/actions`, {
        action: 'present-card',
        pan: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2031,
        readingMethod: 'chip',
      }),
    );
    const done = await polled;
    assert.equal(done.status, 'Completed');
    const sale = await flute.transactions.retrieve(done.transactionId);
    assert.equal(sale.status, 'Captured');
    assert.equal(sale.processedAmount, 8.25);
  });
});
