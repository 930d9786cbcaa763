// Version 2 ACH and receipts, as the SDK calls them: hold and release, reversal (a void before the file, a whole
// refund after clearing), credits with achData, and the receipt by SMS through the sandbox outbox.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const PAYER = {
  contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550123' },
  billingAddress: { line1: '1 Analytical Way', city: 'New York', stateCode: 'NY', postalCode: '10001' },
};
const ACCOUNT = {
  routingNumber: '021000021',
  accountNumber: '123456789',
  accountHolderType: 'Personal',
  accountType: 'Checking',
};

describe('version 2: ACH holds, reversals and credits, and receipts by SMS', () => {
  let t: TestNode;
  let m: MerchantTenant;

  const call = (method: string, path: string, body?: unknown, key?: string) => t.call(m, method, path, body, key);
  const ok = (method: string, path: string, body?: unknown) => t.ok(m, method, path, body);
  const debit = (baseAmount: number) =>
    ok('POST', '/v2/transactions', {
      baseAmount,
      referenceId: `ach-${randomUUID()}`,
      ...PAYER,
      transactionDetails: {
        achData: { paymentMethodDetails: ACCOUNT, secCode: 'PPD', requesterIpAddress: '203.0.113.7' },
      },
    });
  const statusOf = async (id: string) => (await ok('GET', `/v2/transactions/${id}`)).status as string;

  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { companyName: 'Acme Widgets' } });
  });
  after(() => t?.stop());

  it('holds a Scheduled debit, releases it, and voids it before its file', async () => {
    const d = await debit(20);
    assert.equal(d.transactionStatus, 'Pending');
    const held = await ok('POST', '/v2/transactions/hold', { transactionId: d.transactionId });
    assert.deepEqual(
      { transactionId: held.transactionId, type: held.type, transactionStatus: held.transactionStatus },
      { transactionId: d.transactionId, type: 'Hold', transactionStatus: 'Approved' },
    );
    assert.equal(held.processorResponse.processorName, 'SandboxAch');
    assert.equal(await statusOf(d.transactionId), 'Held');
    const again = await call('POST', '/v2/transactions/hold', { transactionId: d.transactionId });
    assert.equal(again.status, 400, 'a Held debit cannot be held again');
    const released = await ok('POST', '/v2/transactions/release-hold', { transactionId: d.transactionId });
    assert.equal(released.type, 'UnHold');
    assert.equal(await statusOf(d.transactionId), 'Scheduled');

    const voided = await ok('POST', `/v2/transactions/${d.transactionId}/reversal`, {});
    assert.equal(voided.transactionId, d.transactionId, 'a void names the debit itself');
    assert.equal(voided.transactionStatus, 'Approved');
    assert.equal(voided.processedAmount, 20);
    assert.equal(await statusOf(d.transactionId), 'Cancelled');
    const twice = await call('POST', `/v2/transactions/${d.transactionId}/reversal`, {});
    assert.equal(twice.status, 400, 'a cancelled debit has nothing left to reverse');
  });

  it('refunds a cleared debit whole, with its own transaction', async () => {
    const d = await debit(33.33);
    await t.advanceClock(7 * 86_400, m);
    await t.drain();
    assert.equal(await statusOf(d.transactionId), 'Cleared');
    const partial = await call('POST', `/v2/transactions/${d.transactionId}/reversal`, { amount: 10 });
    assert.equal(partial.status, 400, partial.text);
    assert.ok(partial.body.errors.amount);
    const refund = await ok('POST', `/v2/transactions/${d.transactionId}/reversal`, { amount: 33.33 });
    assert.notEqual(refund.transactionId, d.transactionId);
    assert.equal(refund.transactionStatus, 'Pending', 'the credit waits for its file');
    assert.equal(refund.processedAmount, 33.33);
    assert.equal(await statusOf(d.transactionId), 'Refunded');
    const shown = await ok('GET', `/v2/transactions/${d.transactionId}`);
    assert.deepEqual(shown.achDetails, {
      maskedAccountNumber: shown.achDetails.maskedAccountNumber,
      maskedRoutingNumber: '****0021',
      accountHolderType: 'Personal',
      accountType: 'Checking',
      secCode: 'PPD',
      // The published revision's names beside them.
      paymentMethodId: null,
      accountRoutingNumber: '021000021',
      isSameDayProcessing: false,
      requesterIpAddress: shown.achDetails.requesterIpAddress,
    });
    assert.ok(shown.achDetails.maskedAccountNumber.endsWith('6789'));
    assert.ok(!JSON.stringify(shown).includes('123456789'), 'never the account number');
    assert.deepEqual(
      shown.transactionEvents.map((e: { type: string; status: string; amount: number }) => [
        e.type,
        e.status,
        e.amount,
      ]),
      [
        ['Sale', 'Approved', 33.33],
        ['Refund', 'Pending', 33.33],
      ],
    );
    assert.equal((await ok('GET', `/v2/transactions/${refund.transactionId}`)).paymentMethodType, 'ACH');
  });

  it('reads InProgress once its NACHA file went out, and refuses a reversal then', async () => {
    const d = await debit(12);
    const [entry] = await t.query<{ processor_id: string; window_at: Date }>(
      'SELECT processor_id, window_at FROM ach_entries WHERE transaction_id = $1',
      [d.transactionId],
    );
    assert.ok(await t.ctx.services.ach.cutoff(entry!.processor_id, entry!.window_at), 'a file was written');
    assert.equal(await statusOf(d.transactionId), 'InProgress');
    const reversal = await call('POST', `/v2/transactions/${d.transactionId}/reversal`, {});
    assert.equal(reversal.status, 400, 'neither voidable nor refundable while the bank has it');
  });

  it('credits a bank account with achData, and refuses holds of card transactions', async () => {
    const credit = await ok('POST', '/v2/transactions/credit', {
      baseAmount: 15,
      currencyCode: 'USD',
      referenceId: 'ach-credit-1',
      ...PAYER,
      creditDetails: {
        achData: { paymentMethodDetails: ACCOUNT, secCode: 'PPD', requesterIpAddress: '2001:db8::7' },
      },
    });
    assert.equal(credit.transactionStatus, 'Pending');
    assert.equal(credit.processedAmount, 15);
    const shown = await ok('GET', `/v2/transactions/${credit.transactionId}`);
    assert.equal(shown.referenceId, 'ach-credit-1');
    assert.equal(shown.status, 'Scheduled');
    const noIp = await call('POST', '/v2/transactions/credit', {
      baseAmount: 15,
      creditDetails: { achData: { paymentMethodDetails: ACCOUNT, requesterIpAddress: '10.1' } },
    });
    assert.equal(noIp.status, 400);
    assert.ok(noIp.body.errors['creditDetails.achData.requesterIpAddress']);

    const sale = await ok('POST', '/v2/transactions', {
      baseAmount: 5,
      referenceId: `card-${randomUUID()}`,
      transactionDetails: {
        cardData: {
          paymentMethodDetails: { cardNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2035 },
        },
      },
    });
    const cardHold = await call('POST', '/v2/transactions/hold', { transactionId: sale.transactionId });
    assert.equal(cardHold.status, 400);
    assert.ok(cardHold.body.errors.transactionId);
    const unknown = await call('POST', '/v2/transactions/release-hold', { transactionId: randomUUID() });
    assert.equal(unknown.status, 404);
  });

  it('sends the receipt by SMS once, with consent, through the outbox', async () => {
    const sale = await ok('POST', '/v2/transactions', {
      baseAmount: 12.34,
      referenceId: 'receipt-1',
      transactionDetails: {
        cardData: {
          paymentMethodDetails: { cardNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2035 },
        },
      },
    });
    const path = `/v2/transactions/${sale.transactionId}/send-receipt`;
    const refused = await call('POST', path, { mobileNumber: '+15551234567', customerConsent: false });
    assert.equal(refused.status, 400);
    assert.ok(refused.body.errors.customerConsent);
    const badNumber = await call('POST', path, { mobileNumber: '12', customerConsent: true });
    assert.equal(badNumber.status, 400);
    const key = randomUUID();
    for (let attempt = 0; attempt < 2; attempt++) {
      const sent = await call('POST', path, { mobileNumber: '+1 (555) 123-4567', customerConsent: true }, key);
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.text, '');
    }
    await t.drain();
    const outbox = (await t.expectOk(t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}&channel=sms`)))
      .items as Array<{ to: string; text: string; relatedId: string; status: string }>;
    const receipts = outbox.filter((o) => o.relatedId === sale.transactionId);
    assert.equal(receipts.length, 1, 'the retry with the same key sent nothing more');
    assert.equal(receipts[0]!.to, '+15551234567');
    assert.match(receipts[0]!.text, /Acme Widgets receipt: Sale of USD 12\.34, Captured, card \*{4}1111/);
    assert.ok(!receipts[0]!.text.includes('4111111111111111'), 'never the card number');
    assert.equal(receipts[0]!.status, 'sent');
    const missing = await call('POST', `/v2/transactions/${randomUUID()}/send-receipt`, {
      mobileNumber: '+15551234567',
      customerConsent: true,
    });
    assert.equal(missing.status, 404);
  });
});
