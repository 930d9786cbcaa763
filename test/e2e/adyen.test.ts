// The Adyen connector end to end, offline and honest: a sandbox node with an Adyen processor pointed at a stateful
// fake of Adyen on loopback, which checks every request Tessera sends and every answer and notification it gives
// against Adyen's published contract. Each card operation through version 1 and version 2 ends in its true state
// after its notification; the ledger verifies; the merchant's webhooks arrive.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type AdyenWorld,
  assertClean,
  CARD,
  chargesAtAdyen,
  startAdyenWorld,
  transactionWhen,
  webhooksFor,
} from './adyen-helpers.js';

const status = (tx: Record<string, any>) => (tx.transactionStatus ?? tx.status) as string;

describe('Adyen connector (against the fake of Adyen)', () => {
  let w: AdyenWorld;
  before(async () => {
    w = await startAdyenWorld();
  });
  after(() => w.stop());

  const post = (path: string, body: Record<string, unknown>) =>
    w.t.request('POST', `/pay-api/v1/transactions/${path}`, { token: w.m.token, body });
  const sale = async (body: Record<string, unknown> = {}) => {
    const res = await post('sale', { amount: 25, ...CARD, referenceId: randomUUID().slice(0, 20), ...body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  it('takes a sale: Captured at once, one payment at Adyen, with our reference and an idempotency key', async () => {
    const s = await sale({
      billingAddress: { line1: '1 Main St', city: 'Austin', stateCode: 'TX', postalCode: '78701', countryCode: 'US' },
    });
    assert.equal(s.status, 'Captured', JSON.stringify(s));
    // Adyen's AVS result ("7 Both postal code and address match") as Tessera's Y, which the profile allows.
    assert.equal(s.avsResponse.responseCode, 'Y');
    assert.equal(s.avsResponse.action, 'Allow');
    assert.match(s.details.authCode, /^\d{6}$/);
    const request = w.fake.requests.find(
      (r) => r.path === '/v71/payments' && r.body.reference === s.transactionId.replaceAll('-', ''),
    );
    assert.ok(request, 'Adyen got the payment under our reference');
    assert.equal(request.body.captureDelayHours, 0);
    assert.equal((request.body.amount as { value: number }).value, 2500);
    assert.match(request.idempotencyKey!, /^[0-9a-f]{64}$/);
    assert.equal(chargesAtAdyen(w, s.transactionId), 1);
    await transactionWhen(w, s.transactionId, (x) => status(x) === 'Captured');
    await webhooksFor(w, s.transactionId, ['transaction.card.authorized', 'transaction.card.captured']);
    await assertClean(w);
  });

  it('authorizes, then captures only once Adyen notifies the capture', async () => {
    const auth = await post('auth', { amount: 40, ...CARD, referenceId: randomUUID().slice(0, 20) });
    assert.equal(auth.body.status, 'Authorized', auth.text);
    w.fake.notifier.hold = true;
    const capture = await post('capture', { transactionId: auth.body.transactionId, amount: 30 });
    assert.equal(capture.status, 200, capture.text);
    assert.equal(capture.body.status, 'Authorized', 'nothing is shown as captured before Adyen says so');
    assert.equal(capture.body.details.code, 'Pending');
    const again = await post('capture', { transactionId: auth.body.transactionId, amount: 30 });
    assert.equal(again.status, 409, 'the capture is in flight');
    await w.fake.notifier.release();
    const tx = await transactionWhen(w, auth.body.transactionId, (x) => status(x) === 'Captured');
    assert.equal(tx.amount.totalAmount, 40);
    assert.equal(w.fake.paymentByReference(auth.body.transactionId.replaceAll('-', ''))!.capturedCents, 3000);
    await webhooksFor(w, auth.body.transactionId, ['transaction.card.captured']);
    await assertClean(w);
  });

  it('voids an authorization and a captured sale by reversal, each once Adyen notifies it', async () => {
    const auth = await post('auth', { amount: 12, ...CARD, referenceId: randomUUID().slice(0, 20) });
    const s = await sale({ amount: 13 });
    for (const id of [auth.body.transactionId as string, s.transactionId as string]) {
      const voided = await post('void', { transactionId: id });
      assert.equal(voided.status, 200, voided.text);
      assert.notEqual(voided.body.status, 'Voided', 'not before the notification');
      await transactionWhen(w, id, (x) => status(x) === 'Voided');
      await webhooksFor(w, id, ['transaction.card.voided']);
    }
    const reversals = w.fake.requests.filter((r) => r.path.endsWith('/reversals'));
    assert.ok(reversals.length >= 2);
    await assertClean(w);
  });

  it('refunds partially and fully: the refund is Pending until Adyen notifies it', async () => {
    const s = await sale({ amount: 50 });
    const first = await post('return', { transactionId: s.transactionId, amount: 20 });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.type, 'Refund');
    assert.equal(first.body.details.code, 'Pending');
    await transactionWhen(w, first.body.transactionId, (x) => status(x) === 'Refunded');
    const rest = await post('return', { transactionId: s.transactionId });
    await transactionWhen(w, rest.body.transactionId, (x) => status(x) === 'Refunded');
    await transactionWhen(w, s.transactionId, (x) => status(x) === 'Refunded');
    const payment = w.fake.paymentByReference(s.transactionId.replaceAll('-', ''))!;
    assert.equal(payment.refundedCents, 5000);
    await webhooksFor(w, s.transactionId, ['transaction.card.refunded']);
    await assertClean(w);
  });

  it('adjusts a tip before capture (an amount update), and refuses one after capture with a clear 400', async () => {
    const auth = await post('auth', { amount: 30, ...CARD, referenceId: randomUUID().slice(0, 20) });
    const tip = await post('tip-adjustment', { transactionId: auth.body.transactionId, tipAmount: 5 });
    assert.equal(tip.status, 200, tip.text);
    const adjusted = await transactionWhen(w, auth.body.transactionId, (x) => x.amount?.tipAmount === 5);
    assert.equal(status(adjusted), 'Authorized');
    assert.equal(w.fake.paymentByReference(auth.body.transactionId.replaceAll('-', ''))!.authorisedCents, 3500);

    const s = await sale({ amount: 10 });
    const late = await post('tip-adjustment', { transactionId: s.transactionId, tipAmount: 2 });
    assert.equal(late.status, 400);
    assert.match(late.text, /only before the payment is captured/);
    await assertClean(w);
  });

  it('verifies a card for zero, declines with Adyen’s reason, and refuses a refund without reference', async () => {
    const verified = await post('verify', { ...CARD, referenceId: randomUUID().slice(0, 20) });
    assert.equal(verified.body.status, 'Verified', verified.text);
    const zero = w.fake.requests.at(-1)!;
    assert.equal((zero.body.amount as { value: number }).value, 0);

    const declined = await sale({ accountNumber: '4000000000009995' });
    assert.equal(declined.status, 'Declined');
    assert.equal(declined.details.hostResponseCode, '51');
    assert.equal(declined.details.hostResponseMessage, 'Not enough balance');
    await webhooksFor(w, declined.transactionId, ['transaction.card.declined']);

    const refund = await post('refund-without-reference', { amount: 5, ...CARD, referenceId: 'rwr-1' });
    assert.equal(refund.status, 400);
    assert.match(refund.text, /does not support refunds without reference/);
    await assertClean(w);
  });

  it('serves version 2 the same way: sale, manual capture, reversal', async () => {
    const v2 = (method: string, path: string, body?: unknown) => w.t.request(method, path, { token: w.m.token, body });
    const card = { cardNumber: CARD.accountNumber, securityCode: '737', expirationMonth: 12, expirationYear: 2031 };
    const created = await v2('POST', '/v2/transactions', {
      baseAmount: 18,
      transactionDetails: { cardData: { captureMethod: 'Manual', paymentMethodDetails: card } },
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.transactionId as string;
    const captured = await v2('POST', `/v2/transactions/${id}/capture`, { amount: 18 });
    assert.equal(captured.status, 200, captured.text);
    await transactionWhen(w, id, (x) => status(x) === 'Captured');
    const reversed = await v2('POST', `/v2/transactions/${id}/reversal`, {});
    assert.equal(reversed.status, 200, reversed.text);
    await transactionWhen(w, id, (x) => status(x) === 'Voided');
    await assertClean(w);
  });

  it('takes a vaulted card: a saved payment method pays through Adyen', async () => {
    const customer = await w.t.ok(w.m, 'POST', '/pay-api/v1/customers', { firstName: 'Vaulted' });
    const method = await w.t.ok(w.m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      pan: CARD.accountNumber,
      expirationMonth: 12,
      expirationYear: 2031,
    });
    const s = await post('sale', {
      amount: 9,
      customerId: customer.id,
      paymentMethodId: method.id,
      referenceId: 'vault-1',
    });
    assert.equal(s.body.status, 'Captured', s.text);
    const sent = w.fake.requests.find((r) => r.body.reference === s.body.transactionId.replaceAll('-', ''))!;
    assert.equal((sent.body.paymentMethod as { number: string }).number, CARD.accountNumber);
    assert.equal((sent.body.paymentMethod as { cvc?: string }).cvc, undefined, 'no CVV is stored, so none is sent');
    await assertClean(w);
  });
});
