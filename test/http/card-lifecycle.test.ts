import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
let seq = 0;
const ref = () => `ref-${++seq}`;

describe('card transaction lifecycle', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode({ workers: true });
    m = await t.merchant({ body: { settings: { isTipsEnabled: true, defaultTipsOptions: [15, 20] } } });
  });
  after(() => t.stop());

  const post = (path: string, body: unknown, token = m.token) =>
    t.request('POST', `/pay-api/v1/transactions/${path}`, { token, body });
  const get = (id: string, token = m.token) => t.request('GET', `/pay-api/v1/transactions/${id}`, { token });
  const sale = async (body: Record<string, unknown> = {}, token = m.token) => {
    const res = await post('sale', { amount: 20, ...CARD, referenceId: ref(), ...body }, token);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  it('voids an unsettled sale on the same record: Voided, out of the batch, hold and capture reversed', async () => {
    const s = await sale();
    const voided = await post('void', { transactionId: s.transactionId });
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'Voided');
    assert.equal(voided.body.statusId, 3);
    assert.equal(voided.body.type, 'Void');
    assert.equal(voided.body.transactionId, s.transactionId);
    const status = await get(s.transactionId);
    assert.equal(status.body.transactionType, 'Sale');
    assert.equal(status.body.batchId, null);
    assert.deepEqual(status.body.availableOperations, []);
    const again = await post('void', { transactionId: s.transactionId });
    assert.equal(again.status, 400);
    assert.equal(again.body.errorCode, 'InvalidTransactionState');
  });

  it('refunds partially then fully; the sum never exceeds the capture; the original ends Refunded', async () => {
    const s = await sale({ amount: 30 });
    const first = await post('return', { transactionId: s.transactionId, amount: 10, cardDataSource: 1 });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.type, 'Refund');
    assert.equal(first.body.status, 'Refunded');
    assert.equal(first.body.processedAmount, 10);
    assert.notEqual(first.body.transactionId, s.transactionId);
    assert.equal((await get(s.transactionId)).body.status, 'Captured');
    const tooMuch = await post('return', { transactionId: s.transactionId, amount: 20.01 });
    assert.equal(tooMuch.status, 400);
    const rest = await post('return', { transactionId: s.transactionId });
    assert.equal(rest.body.processedAmount, 20);
    const original = await get(s.transactionId);
    assert.equal(original.body.status, 'Refunded');
    assert.equal(original.body.statusId, 4);
    assert.equal(original.body.refundedAmount, 30);
    const none = await post('return', { transactionId: s.transactionId, amount: 1 });
    assert.equal(none.status, 400);
    const voidAfterRefund = await post('void', { transactionId: s.transactionId });
    assert.equal(voidAfterRefund.status, 400);
  });

  it('adjusts the tip of a captured sale and refuses tips where they are disabled', async () => {
    const s = await sale({ amount: 50, tipAmount: 5 });
    assert.equal(s.processedAmount, 55);
    const adjusted = await post('tip-adjustment', { transactionId: s.transactionId, tipAmount: 7.5 });
    assert.equal(adjusted.status, 200, adjusted.text);
    assert.equal(adjusted.body.type, 'TipAdjustment');
    const status = await get(s.transactionId);
    assert.equal(status.body.amount.tipAmount, 7.5);
    assert.equal(status.body.amount.totalAmount, 57.5);
    assert.equal(status.body.capturedAmount, 57.5);

    const plain = await t.merchant();
    const refused = await post('sale', { amount: 10, ...CARD, tipAmount: 1, referenceId: ref() }, plain.token);
    assert.equal(refused.status, 400);
    assert.ok(refused.body.errors.tipAmount);
  });

  it('verifies a card (type 6, Verified) and refunds without reference (type 7)', async () => {
    const verify = await post('verify', { ...CARD });
    assert.equal(verify.status, 200, verify.text);
    assert.equal(verify.body.typeId, 6);
    assert.equal(verify.body.status, 'Verified');
    const credit = await post('refund-without-reference', { ...CARD, amount: 12.5 });
    assert.equal(credit.status, 200, credit.text);
    assert.equal(credit.body.typeId, 7);
    assert.equal(credit.body.status, 'Refunded');
    assert.equal(credit.body.processedAmount, 12.5);
  });

  it('declines the table cards, an expired card (54) and CVV 000', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ accountNumber: '4000000010510008' }, '51'],
      [{ accountNumber: '4000000010540005' }, '54'],
      [{ accountNumber: '4000000010570002' }, '57'],
      [{ expirationYear: 2020, expirationMonth: 1 }, '54'],
      [{ securityCode: '000' }, '05'],
    ];
    for (const [card, code] of cases) {
      const res = await post('sale', { amount: 9.99, ...CARD, ...card, referenceId: ref() });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.statusId, 91, JSON.stringify(card));
      assert.equal(res.body.details.hostResponseCode, code);
    }
    const error = await post('sale', { amount: 9.99, ...CARD, accountNumber: '4000000020190007', referenceId: ref() });
    assert.equal(error.body.status, 'Failed');
    assert.equal(error.body.statusId, 92);
  });

  it('records a timeout as Pending and the reconciler finds the approval; a system error ends Failed', async () => {
    const timeout = await post('sale', { amount: 15, ...CARD, accountNumber: '4000000020910008', referenceId: ref() });
    assert.equal(timeout.status, 200, timeout.text);
    assert.equal(timeout.body.statusId, 24);
    assert.equal(timeout.body.details.code, 'Pending');
    // A follow-up asks the processor first: the sale turns out approved, so the void applies to a Captured sale.
    const status = await eventually(async () => {
      const res = await get(timeout.body.transactionId);
      return res.body.statusId === 2 ? res.body : undefined;
    }, 10_000);
    assert.equal(status.status, 'Captured');
    const systemError = await post('sale', {
      amount: 15,
      ...CARD,
      accountNumber: '4000000020960003',
      referenceId: ref(),
    });
    assert.equal(systemError.body.statusId, 24);
    const failed = await eventually(async () => {
      const res = await get(systemError.body.transactionId);
      return res.body.statusId === 92 ? res.body : undefined;
    }, 10_000);
    assert.equal(failed.status, 'Failed');
    const captured = await t.query('SELECT count(*)::int AS n FROM ledger_entries WHERE transaction_id = $1', [
      systemError.body.transactionId,
    ]);
    assert.equal(captured[0]!.n, 0);
  });

  it('a void on a Pending sale resolves it first, then voids it', async () => {
    const timeout = await post('sale', { amount: 16, ...CARD, accountNumber: '4000000020910008', referenceId: ref() });
    const voided = await post('void', { transactionId: timeout.body.transactionId });
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'Voided');
  });

  it('refuses duplicates (same card, amount and referenceId within the window) with IsDuplicate', async () => {
    const body = { amount: 33.33, ...CARD, referenceId: 'dup-1' };
    assert.equal((await post('sale', body)).body.status, 'Captured');
    const dup = await post('sale', body);
    assert.equal(dup.status, 400);
    assert.equal(dup.body.errorCode, 'IsDuplicate');
    const other = await post('sale', { ...body, referenceId: 'dup-2' });
    assert.equal(other.body.status, 'Captured');
  });

  it('lets exactly one of several identical concurrent sales through; a decline gives the key up; the window ends', async () => {
    const body = { amount: 44.44, ...CARD, referenceId: 'dup-race' };
    const raced = await Promise.all(Array.from({ length: 6 }, () => post('sale', body)));
    assert.deepEqual(raced.map((res) => res.status).sort(), [200, 400, 400, 400, 400, 400]);
    assert.equal(raced.filter((res) => res.body.errorCode === 'IsDuplicate').length, 5);

    const declined = await post('sale', { ...body, referenceId: 'dup-decline', securityCode: '000' });
    assert.equal(declined.body.status, 'Declined');
    assert.equal((await post('sale', { ...body, referenceId: 'dup-decline' })).body.status, 'Captured');

    await t.admin('POST', '/admin/v1/clock/advance', { seconds: 10 * 60 + 1 });
    const later = await post('sale', body);
    assert.equal(later.status, 200, later.text);
    assert.equal(later.body.status, 'Captured');
    assert.equal((await post('sale', body)).body.errorCode, 'IsDuplicate');
  });

  it('applies merchant rules: maximum amount, dual pricing needs useCardPrice, surcharge on credit only', async () => {
    const capped = await t.merchant({ body: { settings: { maxTransactionAmount: 100 } } });
    const over = await post('sale', { amount: 100.01, ...CARD, referenceId: ref() }, capped.token);
    assert.equal(over.status, 400);
    assert.ok(over.body.errors.amount);
    const dual = await t.merchant({ body: { settings: { zeroCostProcessingOptionId: 3, defaultDualPricingRate: 4 } } });
    const missing = await post('sale', { amount: 10, ...CARD, referenceId: ref() }, dual.token);
    assert.equal(missing.status, 400);
    assert.ok(missing.body.errors.useCardPrice);
    const card = await post('sale', { amount: 10, ...CARD, useCardPrice: true, referenceId: ref() }, dual.token);
    assert.equal(card.body.processedAmount, 10.4);
    const surcharge = await t.merchant({
      body: { settings: { zeroCostProcessingOptionId: 4, defaultSurchargeRate: 3 } },
    });
    const calc = await t.request('GET', '/pay-api/v1/transactions/calculate-amount?amount=100&percentageOffRate=10', {
      token: surcharge.token,
    });
    assert.equal(calc.status, 200, calc.text);
    assert.equal(calc.body.creditCard.surchargeAmount, 2.7);
    assert.equal(calc.body.creditCard.totalAmount, 92.7);
    assert.equal(calc.body.debitCard.surchargeAmount, 0);
    assert.equal(calc.body.cash.totalAmount, 90);
  });

  it('answers inconsistent ways to pay with a 400 naming the field', async () => {
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { firstName: 'A' } }),
    );
    const both = await post('sale', { amount: 5, ...CARD, customerId: customer.id, referenceId: ref() });
    assert.equal(both.status, 400);
    assert.ok(both.body.errors.accountNumber);
    const nothing = await post('sale', { amount: 5, referenceId: ref() });
    assert.equal(nothing.status, 400);
    assert.ok(nothing.body.errors.paymentMethodId);
    const noDefault = await post('sale', { amount: 5, customerId: customer.id, referenceId: ref() });
    assert.equal(noDefault.status, 400);
    assert.ok(noDefault.body.errors.paymentMethodId);
  });

  it('pays with a vaulted card (the customer default) and an orphan card', async () => {
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { firstName: 'V' } }),
    );
    await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
        token: m.token,
        body: { pan: '4111 1111 1111 1111', expirationMonth: 12, expirationYear: 2031 },
      }),
    );
    const vaulted = await post('sale', { amount: 11, customerId: customer.id, referenceId: ref() });
    assert.equal(vaulted.body.status, 'Captured', vaulted.text);
    const orphan = await t.expectOk(
      t.request('POST', '/pay-api/v1/payment-methods/cards', {
        token: m.token,
        body: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
      }),
    );
    const byOrphan = await post('sale', { amount: 12, paymentMethodId: orphan.id, referenceId: ref() });
    assert.equal(byOrphan.body.status, 'Captured', byOrphan.text);
    const record = await t.expectOk(t.request('GET', `/pay-api/v1/customers/${customer.id}`, { token: m.token }));
    assert.equal(record.transactionsCount, 1);
    assert.equal(record.transactionsVolume, 11);
    assert.equal(record.lastTransactionAmount, 11);
  });

  it('AVS: the Strict profile refuses a partial match; Standard allows it and records the result', async () => {
    const strict = await t.merchant({ body: { settings: { avs: { isEnabled: true, profileId: 3 } } } });
    const partial = { line1: '1 Other Rd', postalCode: '10001' };
    const refused = await post(
      'sale',
      { amount: 8, ...CARD, billingAddress: partial, referenceId: ref() },
      strict.token,
    );
    assert.equal(refused.body.status, 'Declined', refused.text);
    assert.equal(refused.body.avsResponse.action, 'Deny');
    assert.equal(refused.body.avsResponse.responseCode, 'Z');
    const allowed = await post('sale', { amount: 8, ...CARD, billingAddress: partial, referenceId: ref() });
    assert.equal(allowed.body.status, 'Captured');
    assert.equal(allowed.body.avsResponse.result, 'Failed');
  });

  it('voids an authorization left uncaptured for 7 days, on the clock', async () => {
    const auth = await post('auth', { amount: 44, ...CARD, referenceId: ref() });
    assert.equal(auth.body.status, 'Authorized');
    await t.admin('POST', '/admin/v1/clock/advance', { seconds: 7 * 86_400 + 60 });
    m.token = (await t.token(m.clientId, m.clientSecret)).access_token;
    const expired = await eventually(async () => {
      const res = await get(auth.body.transactionId);
      return res.body.statusId === 3 ? res.body : undefined;
    }, 10_000);
    assert.equal(expired.details.message, 'Authorization expired');
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      auth.body.transactionId,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['transaction.card.authorized', 'transaction.card.voided'],
    );
  });

  it('settles the open batch on /settle: batch totals, transactions Settled, void refused, refund allowed', async () => {
    const merchant = await t.merchant();
    const a = await sale({ amount: 100 }, merchant.token);
    const b = await sale({ amount: 50 }, merchant.token);
    const refund = await post('return', { transactionId: b.transactionId, amount: 20 }, merchant.token);
    assert.equal(refund.status, 200);
    const settled = await post('settle', {}, merchant.token);
    assert.equal(settled.status, 200, settled.text);
    // The vendor's answer (its PHP SDK's regression suite and v1 CLI), with Tessera's fields beside it.
    assert.equal(settled.body.code, 0);
    assert.equal(settled.body.message, 'Batch settled successfully');
    assert.equal(settled.body.processorResponseCode, '00');
    assert.equal(settled.body.status, 'Settled');
    assert.equal(settled.body.processedAmount, 130);
    // Nothing left open: still a success (code 0), and the body may be left out (the vendor's CLI sends none).
    const again = await t.request('POST', '/pay-api/v1/transactions/settle', { token: merchant.token });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.code, 0);
    assert.equal(again.body.status, 'NothingToSettle');
    const batches = await t.request('GET', '/pay-api/v1/settlements/batches?statusId=2', { token: merchant.token });
    assert.equal(batches.body.total, 1);
    const batch = batches.body.items[0];
    assert.deepEqual(
      [batch.salesAmount, batch.refundsAmount, batch.netAmount, batch.transactionCount, batch.statusName],
      [150, 20, 130, 3, 'Settled'],
    );
    assert.equal((await get(a.transactionId, merchant.token)).body.status, 'Settled');
    const voidSettled = await post('void', { transactionId: a.transactionId }, merchant.token);
    assert.equal(voidSettled.status, 400);
    const refundSettled = await post('return', { transactionId: a.transactionId, amount: 100 }, merchant.token);
    assert.equal(refundSettled.body.status, 'Refunded');
    assert.equal((await get(a.transactionId, merchant.token)).body.status, 'Refunded');
    const list = await t.request('GET', `/pay-api/v1/transactions?batchId=${batch.id}`, { token: merchant.token });
    assert.equal(list.body.total, 3);
    const event = await t.query('SELECT resource_type, resource_id FROM events WHERE type = $1 AND merchant_id = $2', [
      'settlement.batch.completed',
      merchant.id,
    ]);
    // The specification names the resource of batch events `settlement`.
    assert.deepEqual(event, [{ resource_type: 'settlement', resource_id: batch.id }]);

    // This node remembers the batch it just settled as the open one; the next sale's compare-and-set finds it
    // closed and joins a new batch instead.
    const next = await sale({ amount: 7 }, merchant.token);
    assert.equal(next.status, 'Captured');
    const nextStatus = await get(next.transactionId, merchant.token);
    assert.ok(nextStatus.body.batchId);
    assert.notEqual(nextStatus.body.batchId, batch.id);
    const open = await t.request('GET', '/pay-api/v1/settlements/batches?statusId=1', { token: merchant.token });
    assert.deepEqual(
      [open.body.total, open.body.items[0].id, open.body.items[0].salesAmount],
      [1, nextStatus.body.batchId, 7],
    );
  });

  it('closes the batch by itself at the processor time slot (22:00 New York) on the clock', async () => {
    const merchant = await t.merchant();
    await sale({ amount: 5 }, merchant.token);
    const open = await t.request('GET', '/pay-api/v1/settlements/batches?statusId=1', { token: merchant.token });
    assert.equal(open.body.total, 1);
    const closesAt = new Date(open.body.items[0].closesAt);
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    }).format(closesAt);
    assert.equal(local, '22:00');
    const now = Date.parse((await t.admin('GET', '/admin/v1/clock')).body.now);
    await t.admin('POST', '/admin/v1/clock/advance', { seconds: Math.ceil((closesAt.getTime() - now) / 1000) + 5 });
    await eventually(async () => {
      const res = await t.request('GET', '/pay-api/v1/settlements/batches?statusId=2', {
        token: (await t.token(merchant.clientId, merchant.clientSecret)).access_token,
      });
      return res.body.total === 1;
    }, 10_000);
  });

  it('lists transactions with filters and search', async () => {
    const merchant = await t.merchant();
    const s = await sale({ amount: 3, referenceId: 'findme-123' }, merchant.token);
    await post('sale', { amount: 4, ...CARD, accountNumber: '4000000010050005', referenceId: ref() }, merchant.token);
    const all = await t.request('GET', '/pay-api/v1/transactions', { token: merchant.token });
    assert.equal(all.body.total, 2);
    const declined = await t.request('GET', '/pay-api/v1/transactions?statusId=91', { token: merchant.token });
    assert.equal(declined.body.total, 1);
    const found = await t.request('GET', '/pay-api/v1/transactions?search=findme', { token: merchant.token });
    assert.deepEqual(
      found.body.items.map((i: any) => i.id),
      [s.transactionId],
    );
    const noBatch = await t.request('GET', '/pay-api/v1/transactions?noBatch=true', { token: merchant.token });
    assert.equal(noBatch.body.total, 1);
    const post2 = await t.request('POST', `/pay-api/v1/transactions/${s.transactionId}`, { token: merchant.token });
    assert.equal(post2.body.transactionId, s.transactionId);
  });
});
