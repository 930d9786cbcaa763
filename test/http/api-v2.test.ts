// The version 2 surface the vendor's official SDK speaks, used the way its quickstart does: an OAuth token, JSON
// bodies with idempotency keys, and the SDK's own calls (settings.getPaymentSettings, transactions.sale / authorize /
// capture / void / refund / list / retrieve / calculateAmount). Same payments core as v1.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { cardNumber: '4111111111111111', securityCode: '123', expirationMonth: 12, expirationYear: 2035 };

describe('version 2: settings and transactions as the SDK calls them', () => {
  let t: TestNode;
  let merchant: MerchantTenant;

  const call = (method: string, path: string, body?: unknown) => t.call(merchant, method, path, body);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    assert.equal(res.status, 200, `${method} ${path}: ${res.text}`);
    assert.ok(res.headers['x-request-id'], 'every answer carries x-request-id');
    return res.body;
  };
  const create = (captureMethod: 'Auto' | 'Manual', baseAmount: number, extra: Record<string, unknown> = {}) =>
    ok('POST', '/v2/transactions', {
      baseAmount,
      currencyCode: 'USD',
      referenceId: `ref-${randomUUID()}`,
      transactionDetails: { cardData: { captureMethod, paymentMethodDetails: CARD } },
      ...extra,
    });

  before(async () => {
    t = await startNode();
    merchant = await t.merchant({ body: { settings: { isTipsEnabled: true, defaultTipsOptions: [15, 20] } } });
  });
  after(() => t?.stop());

  it('answers ping without a token, and x-request-id on every answer', async () => {
    const ping = await t.request('GET', '/pay-int-api/ping');
    assert.equal(ping.status, 200);
    assert.equal(ping.body.status, 'ok');
    const missing = await t.request('GET', '/v2/transactions/01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c99', {
      token: merchant.token,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['x-request-id'], missing.headers['x-correlation-id']);
  });

  it('reads the payment settings and contact info', async () => {
    const settings = await ok('GET', '/v2/settings/payment-config');
    assert.equal(settings.zeroCostProcessingOption, 'None');
    assert.deepEqual(settings.defaultTipsOptions, [15, 20]);
    assert.deepEqual(settings.availableCurrencies, ['USD']);
    assert.ok(settings.availableCardTypes.includes('Visa'));
    assert.ok(settings.availableTransactionTypes.includes('TipAdjustment'));
    assert.equal(settings.avsOptions.profile, 'Moderate');
    assert.equal(settings.currency, 'USD');
    assert.deepEqual(settings.availablePaymentProcessors.map((p: { type: string }) => p.type).sort(), [
      'SandboxAch',
      'SandboxCard',
    ]);
    const contacts = await ok('GET', '/v2/settings/contact-info');
    assert.equal(contacts.contactInfos[0].isMainAddress, true);
  });

  it('sells, authorizes and captures, and shows the transaction', async () => {
    const sale = await create('Auto', 100, { extraAmounts: { tipAmount: 15 } });
    assert.equal(sale.transactionStatus, 'Approved');
    assert.equal(sale.processedAmount, 115);
    assert.deepEqual(sale.amountDetails, {
      baseAmount: 100,
      tipAmount: 15,
      surchargeAmount: 0,
      discountAmount: 0,
      tipRate: 0,
      discountRate: 0,
    });
    assert.equal(sale.processorResponse.processorName, 'SandboxCard');
    assert.equal(sale.processorResponse.responseCode, '00');
    const shown = await ok('GET', `/v2/transactions/${sale.transactionId}`);
    assert.equal(shown.status, 'Captured');
    assert.equal(shown.paymentMethodType, 'Card');
    assert.equal(shown.processedAmount, 115);
    // The published revision's `cardType` is credit or debit, its `cardBrand` the brand; the older revision's
    // `cardType` is the brand, for a request naming it (x-api-version 2.12).
    assert.deepEqual([shown.cardDetails.cardType, shown.cardDetails.cardBrand], ['Credit', 'Visa']);
    assert.match(shown.cardDetails.maskedCardNumber, /1111$/);
    const older = await t.request('GET', `/v2/transactions/${sale.transactionId}`, {
      token: merchant.token,
      headers: { 'x-api-version': '2.12' },
    });
    assert.deepEqual([older.body.cardDetails.cardType, older.body.cardDetails.cardBrand], ['Visa', undefined]);

    const auth = await create('Manual', 80);
    assert.equal(auth.transactionStatus, 'Approved');
    assert.equal((await ok('GET', `/v2/transactions/${auth.transactionId}`)).status, 'Authorized');
    const captured = await ok('POST', `/v2/transactions/${auth.transactionId}/capture`, { amount: 50 });
    assert.equal(captured.transactionStatus, 'Approved');
    assert.equal(captured.processedAmount, 50);
    assert.equal((await ok('GET', `/v2/transactions/${auth.transactionId}`)).status, 'Captured');
    // A second capture of the same authorization moves nothing more.
    const again = await call('POST', `/v2/transactions/${auth.transactionId}/capture`, {});
    assert.equal(again.status, 400, again.text);
    assert.equal(again.body.errorCode, 'InvalidTransactionState');

    const list = await ok('GET', '/v2/transactions?page=0&pageSize=10');
    assert.ok(list.total >= 2);
    assert.ok(list.items.some((i: { transactionId: string }) => i.transactionId === sale.transactionId));
  });

  it('reverses: a void before settlement, a refund after', async () => {
    const unsettled = await create('Auto', 30);
    const voided = await ok('POST', `/v2/transactions/${unsettled.transactionId}/reversal`, {});
    assert.equal(voided.transactionStatus, 'Approved');
    assert.equal((await ok('GET', `/v2/transactions/${unsettled.transactionId}`)).status, 'Voided');

    const settled = await create('Auto', 40);
    const settings = await ok('GET', '/v2/settings/payment-config');
    const card = settings.availablePaymentProcessors.find((p: { type: string }) => p.type === 'SandboxCard');
    const closed = await ok('POST', '/v2/settlements/settle', { paymentProcessorId: card.id });
    assert.equal(closed.status, 'Approve');
    assert.equal((await ok('GET', `/v2/transactions/${settled.transactionId}`)).status, 'Settled');
    const refunded = await ok('POST', `/v2/transactions/${settled.transactionId}/reversal`, { amount: 15 });
    assert.equal(refunded.transactionStatus, 'Approved');
    assert.equal(refunded.processedAmount, 15);
    assert.notEqual(refunded.transactionId, settled.transactionId, 'a refund is a transaction of its own');
    const rest = await ok('POST', `/v2/transactions/${settled.transactionId}/reversal`, null);
    assert.equal(rest.processedAmount, 25);

    const history = await ok('GET', `/v2/transactions/${settled.transactionId}`);
    assert.deepEqual(
      history.transactionEvents.map((e: { type: string; status: string; amount: number }) => [
        e.type,
        e.status,
        e.amount,
      ]),
      [
        ['Sale', 'Approved', 40],
        ['Refund', 'Approved', 15],
        ['Refund', 'Approved', 25],
      ],
    );
    assert.equal(history.transactionEvents[0].processorResponse.responseCode, '00');
    const voidHistory = await ok('GET', `/v2/transactions/${unsettled.transactionId}`);
    assert.deepEqual(
      voidHistory.transactionEvents.map((e: { type: string }) => e.type),
      ['Sale', 'Void'],
    );
    const listed = await ok('GET', '/v2/transactions?pageIndex=0&pageSize=100');
    const inList = listed.items.find((i: { transactionId: string }) => i.transactionId === settled.transactionId);
    assert.deepEqual(inList.transactionEvents, history.transactionEvents, 'the list shows the same history');
  });

  it('adjusts a tip and credits a card without an original transaction', async () => {
    const auth = await create('Manual', 20, { extraAmounts: { tipAmount: 2 } });
    const adjusted = await ok('POST', '/v2/transactions/tip-adjustment', {
      transactionId: auth.transactionId,
      tipAmount: 4,
    });
    assert.equal(adjusted.transactionStatus, 'Approved');
    assert.equal(adjusted.amountDetails.tipAmount, 4);
    const credit = await ok('POST', '/v2/transactions/credit', {
      baseAmount: 12.5,
      currencyCode: 'USD',
      referenceId: 'credit-1',
      creditDetails: { cardData: { paymentMethodDetails: CARD } },
    });
    assert.equal(credit.transactionStatus, 'Approved');
    assert.equal(credit.processedAmount, 12.5);
    const shown = await ok('GET', `/v2/transactions/${credit.transactionId}`);
    assert.equal(shown.referenceId, 'credit-1');
    const both = await call('POST', '/v2/transactions/credit', {
      baseAmount: 1,
      creditDetails: { cardData: { paymentMethodDetails: CARD }, achData: { requesterIpAddress: '127.0.0.1' } },
    });
    assert.equal(both.status, 400);
    const unknownProcessor = await call('POST', '/v2/settlements/settle', {
      paymentProcessorId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c98',
    });
    assert.equal(unknownProcessor.status, 404);
  });

  it('reports a decline as 200 Declined, and refuses what it does not process', async () => {
    const declined = await ok('POST', '/v2/transactions', {
      baseAmount: 10,
      transactionDetails: {
        cardData: { paymentMethodDetails: { ...CARD, cardNumber: '4000000010510008' } },
      },
    });
    assert.equal(declined.transactionStatus, 'Declined');
    assert.equal(declined.responseDetails.code, '51');
    assert.equal(declined.processorResponse.responseMessage, 'Insufficient funds');

    const cash = await call('POST', '/v2/transactions', {
      baseAmount: 10,
      pricingType: 'Cash',
      transactionDetails: { cardData: { paymentMethodDetails: CARD } },
    });
    assert.equal(cash.status, 400);
    assert.ok(cash.body.errors.pricingType);
    const euro = await call('POST', '/v2/transactions', {
      baseAmount: 10,
      currencyCode: 'EUR',
      transactionDetails: { cardData: { paymentMethodDetails: CARD } },
    });
    assert.equal(euro.status, 400);
    assert.ok(euro.body.errors.currencyCode);
    const nothing = await call('POST', '/v2/transactions', { baseAmount: 10, transactionDetails: {} });
    assert.equal(nothing.status, 400);
    const badIp = await call('POST', '/v2/transactions', {
      baseAmount: 10,
      transactionDetails: { achData: { requesterIpAddress: 'not-an-ip' } },
    });
    assert.equal(badIp.status, 400);
    assert.ok(badIp.body.errors['transactionDetails.achData.requesterIpAddress']);
  });

  it('debits a bank account with achData: Pending until the bank clears it', async () => {
    const debit = await ok('POST', '/v2/transactions', {
      baseAmount: 42.5,
      referenceId: 'ach-v2-1',
      contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550123' },
      billingAddress: { line1: '1 Analytical Way', city: 'New York', stateCode: 'NY', postalCode: '10001' },
      transactionDetails: {
        achData: {
          paymentMethodDetails: {
            routingNumber: '021000021',
            accountNumber: '123456789',
            accountHolderType: 'Personal',
            accountType: 'Checking',
          },
          secCode: 'Web',
          requesterIpAddress: '203.0.113.7',
        },
      },
    });
    assert.equal(debit.transactionStatus, 'Pending', JSON.stringify(debit));
    assert.equal(debit.processedAmount, 42.5);
    assert.equal(debit.processorResponse.processorName, 'SandboxAch');
    const shown = await ok('GET', `/v2/transactions/${debit.transactionId}`);
    assert.equal(shown.paymentMethodType, 'ACH', 'the published name; ElectronicCheck for x-api-version 2.12');
    assert.equal(shown.referenceId, 'ach-v2-1');
  });

  it('calculates amounts with the document’s rates (fractions for discount and tip)', async () => {
    const calc = await ok('GET', '/v2/transactions/calculate-amount?baseAmount=100&tipRate=0.15&discountRate=0.10');
    assert.equal(calc.currencyCode, 'USD');
    assert.equal(calc.pricingType, 'Card');
    assert.equal(calc.creditCard.baseAmount, 100);
    assert.equal(calc.creditCard.discountAmount, 10);
    assert.equal(calc.creditCard.tipAmount, 13.5);
    assert.equal(calc.creditCard.totalAmount, 103.5);
    const bad = await call('GET', '/v2/transactions/calculate-amount?baseAmount=100&tipRate=15');
    assert.equal(bad.status, 400);
  });

  it('keeps tenants apart', async () => {
    const sale = await create('Auto', 5);
    const other = await t.merchant();
    const res = await t.request('GET', `/v2/transactions/${sale.transactionId}`, { token: other.token });
    assert.equal(res.status, 404);
    const reversal = await t.request('POST', `/v2/transactions/${sale.transactionId}/reversal`, {
      token: other.token,
      body: {},
    });
    assert.equal(reversal.status, 404);
  });
});
