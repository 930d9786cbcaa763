import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

export const CARD = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2031,
  securityCode: '123',
};
export const AVS_OK = { line1: '123 Test St', postalCode: '10001' };

describe('card transactions', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  const post = (path: string, body: unknown) =>
    t.request('POST', `/pay-api/v1/transactions/${path}`, { token: m.token, body });
  const get = (id: string) => t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token });

  it('approves a raw-card sale: Captured, in the open batch, with authorized then captured events', async () => {
    const sale = await post('sale', { amount: 25.5, ...CARD, billingAddress: AVS_OK, referenceId: 'r-1' });
    assert.equal(sale.status, 200, sale.text);
    assert.equal(sale.body.status, 'Captured');
    assert.equal(sale.body.statusId, 2);
    assert.equal(sale.body.typeId, 2);
    assert.equal(sale.body.type, 'Sale');
    assert.equal(sale.body.processedAmount, 25.5);
    assert.equal(sale.body.details.code, 'Approve');
    assert.equal(sale.body.details.maskedPan, '411111******1111');
    assert.equal(sale.body.avsResponse.responseCode, 'Y');
    assert.equal(sale.body.avsResponse.result, 'Passed');
    const status = await get(sale.body.transactionId);
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.amount.totalAmount, 25.5);
    assert.ok(status.body.batchId);
    assert.deepEqual(
      status.body.availableOperations.map((o: any) => o.type),
      ['Void', 'Refund'],
    );
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      sale.body.transactionId,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['transaction.card.authorized', 'transaction.card.captured'],
    );
  });

  it('declines with HTTP 200, statusId 91 and details', async () => {
    const sale = await post('sale', { amount: 10, ...CARD, accountNumber: '4000000010050005' });
    assert.equal(sale.status, 200, sale.text);
    assert.equal(sale.body.statusId, 91);
    assert.equal(sale.body.status, 'Declined');
    assert.equal(sale.body.details.code, 'Decline');
    assert.equal(sale.body.details.message, 'Do not honor');
    assert.equal(sale.body.processedAmount, 0);
  });

  it('refuses a Luhn-invalid card number with 400 on accountNumber', async () => {
    const sale = await post('sale', { amount: 10, ...CARD, accountNumber: '4111111111111112' });
    assert.equal(sale.status, 400);
    assert.ok(sale.body.errors.accountNumber);
  });

  it('authorizes, captures partially, and refuses a second capture', async () => {
    const auth = await post('auth', { amount: 40, ...CARD, referenceId: 'auth-1' });
    assert.equal(auth.body.status, 'Authorized', auth.text);
    const over = await post('capture', { transactionId: auth.body.transactionId, amount: 40.01 });
    assert.equal(over.status, 400);
    const capture = await post('capture', { transactionId: auth.body.transactionId, amount: 30 });
    assert.equal(capture.status, 200, capture.text);
    assert.equal(capture.body.status, 'Captured');
    assert.equal(capture.body.type, 'Capture');
    assert.equal(capture.body.processedAmount, 30);
    const again = await post('capture', { transactionId: auth.body.transactionId });
    assert.equal(again.status, 400);
  });
});
