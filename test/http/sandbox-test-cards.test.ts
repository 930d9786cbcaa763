// The vendor's sandbox test-card table (wire-notes, from its test harness), card by card, with Tessera's outcome for
// each (docs/sandbox.md lists the same): its numbers are recognised before the checksum in the sandbox (the
// CVV-mismatch card fails Luhn), and a production deployment still refuses a number that fails it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ENCRYPTION_KEY, type MerchantTenant, startNode, type TestNode } from '../harness.js';

/** [number, statusId of the sale, hostResponseCode, message]: 2 Captured, 91 Declined, 92 Failed, 24 Pending. */
const VENDOR_TABLE: Array<[string, number, string, string]> = [
  ['4111111111111111', 2, '00', 'Approved'],
  ['4000000030010005', 2, '00', 'Approved'],
  ['4000000010050005', 91, '05', 'Do not honor'],
  ['4000000010510008', 91, '51', 'Insufficient funds'],
  ['4000000010140004', 91, '14', 'Invalid card number'],
  ['4000000010540005', 91, '54', 'Expired card'],
  ['4000000010040006', 91, '04', 'Pickup card (lost)'],
  ['4000000010430009', 91, '43', 'Stolen card'],
  ['4000000010620005', 91, '62', 'Card restricted'],
  ['4000000010570002', 91, '57', 'Transaction not permitted'],
  ['4000000010990008', 91, '05', 'CVV mismatch'],
  ['4000000020910008', 24, '91', 'Timeout'],
  ['4000000020960003', 24, '96', 'System error'],
  ['4000000020010007', 91, '01', 'Referral required'],
  ['4000000020190007', 92, '19', 'Re-enter transaction'],
  ['4012000098765439', 2, '00', 'Approved'],
  ['5555555555554444', 91, 'BN', 'DeclineBinNotFound'],
];

describe('the vendor sandbox test cards', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('answers each card of the vendor table as docs/sandbox.md says', async () => {
    for (const [pan, statusId, code, message] of VENDOR_TABLE) {
      const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
        token: m.token,
        body: {
          amount: 7.5,
          accountNumber: pan,
          expirationMonth: 12,
          expirationYear: 2031,
          securityCode: pan === '4012000098765439' ? '999' : '123',
          referenceId: randomUUID().slice(0, 20),
        },
      });
      assert.equal(sale.status, 200, `${pan}: ${sale.text}`);
      assert.equal(sale.body.statusId, statusId, `${pan}: ${sale.text}`);
      if (statusId !== 24) {
        assert.equal(sale.body.details.hostResponseCode, code, pan);
        assert.equal(sale.body.details.hostResponseMessage ?? sale.body.details.message, message, pan);
      }
    }
  });

  it('vaults the off-checksum test card in the sandbox', async () => {
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Cvv' });
    const card = await t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      token: m.token,
      body: { pan: '4000000010990008', expirationMonth: 12, expirationYear: 2031 },
    });
    assert.equal(card.status, 200, card.text);
    // Any other number that fails the checksum is still a 400 naming the field.
    const bad = await t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      token: m.token,
      body: { pan: '4000000010990009', expirationMonth: 12, expirationYear: 2031 },
    });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors.pan, bad.text);
  });
});

describe('test card numbers in production', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode({
      env: { TESSERA_ENV: 'production', PUBLIC_BASE_URL: 'https://pay.example.test', ENCRYPTION_KEY },
    });
  });
  after(() => t.stop());

  it('refuses the off-checksum number like any number that fails the checksum', async () => {
    const m = await t.merchant();
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Prod' });
    const card = await t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      token: m.token,
      body: { pan: '4000000010990008', expirationMonth: 12, expirationYear: 2031 },
    });
    assert.equal(card.status, 400, card.text);
    assert.match(card.body.errors.pan[0], /checksum/);
  });
});
