// The Adyen connector end to end, offline and honest: a sandbox node with an Adyen processor pointed at a stateful
// fake of Adyen on loopback, which checks every request Tessera sends and every answer and notification it gives
// against Adyen's published contract. Each card operation through version 1 and version 2 ends in its true state
// after its notification; the ledger verifies; the merchant's webhooks arrive.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { cardFields, submitCheckout } from '../checkout-form.js';
import { eventually } from '../harness.js';
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

  it('records a chargeback Adyen notifies: ChargedBack with its reason, an event and the merchant’s webhook', async () => {
    const s = await sale({ amount: 44 });
    const payment = w.fake.paymentByReference(s.transactionId.replaceAll('-', ''))!;
    await w.fake.notifier.notify({
      amount: { currency: 'USD', value: 4400 },
      eventCode: 'CHARGEBACK',
      eventDate: new Date().toISOString(),
      merchantAccountCode: w.fake.account.merchantAccount,
      merchantReference: payment.reference,
      originalReference: payment.psp,
      paymentMethod: 'visa',
      pspReference: 'CB00000000000001',
      reason: 'Fraudulent transaction',
      success: 'true',
      additionalData: { chargebackReasonCode: '10.4', chargebackSchemeCode: 'visa' },
    });
    const tx = await transactionWhen(w, s.transactionId, (x) => status(x) === 'ChargedBack');
    assert.match(JSON.stringify(tx), /Fraudulent transaction/);
    await webhooksFor(w, s.transactionId, ['transaction.card.charged_back']);
    await assertClean(w);
  });

  it('closes an Adyen batch without calling Adyen: what was captured in it is recorded', async () => {
    const s = await sale({ amount: 21 });
    const calls = w.fake.requests.length;
    const closed = await post('settle', { paymentProcessorId: w.processorId });
    assert.equal(closed.status, 200, closed.text);
    await transactionWhen(w, s.transactionId, (x) => status(x) === 'Settled');
    assert.equal(w.fake.requests.length, calls, 'no call to Adyen');
    await assertClean(w);
  });

  it('refuses a POS sale before asking for a card: Adyen takes no card-present payments here', async () => {
    const terminal = await w.t.expectOk(
      w.t.admin('POST', `/admin/v1/merchants/${w.m.id}/terminals`, {
        serialNumber: `ADYEN-${Date.now()}`,
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP2',
        terminalModeId: 2,
      }),
    );
    const pos = await w.t.request('POST', '/pos-api/v1/pos-transactions', {
      token: w.m.token,
      body: { terminalId: terminal.id, transactionTypeId: 2, amount: 4.25 },
    });
    assert.equal(pos.status, 400, pos.text);
    assert.match(pos.body.errors.paymentProcessorId[0], /does not take card-present payments/);
    assert.equal((await w.t.query('SELECT 1 FROM pos_transactions')).length, 0);
  });

  it('pays through every payment source: a subscription installment, a hosted checkout, an invoice', async () => {
    const charged = (reference: string) =>
      w.fake.requests.some((r) => r.path === '/v71/payments' && r.body.reference === reference.replaceAll('-', ''));

    // A subscription bills its first installment through its processor.
    const customer = await w.t.ok(w.m, 'POST', '/pay-api/v1/customers', { firstName: 'Subscriber' });
    const method = await w.t.ok(w.m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      pan: CARD.accountNumber,
      expirationMonth: 12,
      expirationYear: 2031,
    });
    const subscription = await w.t.ok(w.m, 'POST', '/sub-api/v1/subscriptions', {
      customerId: customer.id,
      paymentMethodId: method.id,
      amount: 15,
      currencyId: 1,
      paymentFrequencyUnit: 3,
      paymentFrequency: 1,
      numberOfPayments: 3,
      transactionType: 2,
      requesterIpAddress: '203.0.113.7',
      paymentProcessorId: w.processorId,
    });
    const installment = await eventually(async () => {
      await w.t.drain();
      const [row] = await w.t.query<{ id: string }>(
        `SELECT id FROM transactions WHERE source_id = $1 AND status_id = 2`,
        [subscription.id],
      );
      return row;
    }, 15_000);
    assert.ok(charged(installment.id), 'the installment went to Adyen');

    // A payment session paid on the hosted checkout.
    const session = await w.t.ok(w.m, 'POST', '/v2/payment-sessions', {
      amount: 12,
      returnUrl: 'https://shop.example.com/done',
    });
    const paid = await submitCheckout(w.t, session.id, cardFields());
    // Paid: the payer goes back to the merchant's page.
    assert.equal(paid.status, 303, paid.text);
    assert.match(String(paid.headers.location), /^https:\/\/shop\.example\.com\/done/);
    const [fromCheckout] = await w.t.query<{ id: string }>('SELECT id FROM transactions WHERE source_id = $1', [
      session.id,
    ]);
    assert.ok(fromCheckout && charged(fromCheckout.id), 'the checkout payment went to Adyen');

    // An invoice paid by card through the API, on the merchant's default processor.
    const invoice = await w.t.ok(w.m, 'POST', '/pay-int-api/invoices', {
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      lineItems: [{ productName: 'Work', quantity: 1, unitPrice: 30 }],
    });
    await w.t.ok(w.m, 'POST', '/pay-int-api/invoices/publish', { invoiceId: invoice.id });
    const settled = await w.t.ok(w.m, 'POST', `/pay-int-api/invoices/${invoice.id}/submit`, CARD);
    assert.equal(settled.invoice.statusName, 'Paid');
    assert.ok(charged(settled.transaction.transactionId), 'the invoice payment went to Adyen');
    await assertClean(w);
  });

  it('reverses an approval the AVS profile refuses: Adyen gets a reversal of that payment, nothing stays charged', async () => {
    const billingAddress = { line1: '9 Nowhere Rd', city: 'Austin', stateCode: 'TX', postalCode: '99999' };
    const s = await sale({ amount: 19, billingAddress });
    assert.equal(s.status, 'Declined', JSON.stringify(s));
    assert.equal(s.avsResponse.responseCode, 'N');
    const payment = w.fake.paymentByReference(s.transactionId.replaceAll('-', ''))!;
    await eventually(async () => {
      await w.t.drain();
      const [row] = await w.t.query<{ reversed_at: Date | null }>(
        'SELECT reversed_at FROM card_avs_reversals WHERE transaction_id = $1',
        [s.transactionId],
      );
      return row?.reversed_at ? row : undefined;
    }, 15_000);
    assert.ok(w.fake.requests.some((r) => r.path === `/v71/payments/${payment.psp}/reversals`));
    await eventually(async () => {
      await w.fake.notifier.settled();
      return payment.state === 'cancelled' && payment.refundedCents === payment.capturedCents;
    }, 15_000);
    await assertClean(w);
  });

  it('settles a capture and a refund Adyen reports failed: nothing captured or refunded, the operation ends', async () => {
    const failedInstead = async (eventCode: 'CAPTURE_FAILED' | 'REFUND_FAILED') => {
      const [held] = w.fake.notifier.held.splice(0);
      assert.ok(held, 'the notification Adyen would have sent');
      w.fake.notifier.hold = false;
      const { additionalData: _, ...item } = held;
      await w.fake.notifier.notify({ ...item, eventCode, success: 'true', reason: 'Declined by the issuer' });
    };
    const auth = await post('auth', { amount: 27, ...CARD, referenceId: randomUUID().slice(0, 20) });
    w.fake.notifier.hold = true;
    await post('capture', { transactionId: auth.body.transactionId, amount: 27 });
    await failedInstead('CAPTURE_FAILED');
    const still = await transactionWhen(w, auth.body.transactionId, (x) => x.availableOperations?.length > 0);
    assert.equal(status(still), 'Authorized', 'the capture failed: still only authorized');

    const s = await sale({ amount: 28 });
    w.fake.notifier.hold = true;
    const refund = await post('return', { transactionId: s.transactionId, amount: 8 });
    await failedInstead('REFUND_FAILED');
    await transactionWhen(w, refund.body.transactionId, (x) => status(x) === 'Failed');
    const original = await transactionWhen(w, s.transactionId, (x) => status(x) === 'Captured');
    assert.ok(JSON.stringify(original.availableOperations).includes('Refund'), 'its amount is refundable again');
    await assertClean(w);
  });
});
