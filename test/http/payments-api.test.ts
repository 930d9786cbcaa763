// The internal payments API that payment sources call (PaymentsService): a source's payments are transactions like
// the API's own, they show their source, and `GET /pay-api/v1/transactions?createMethodId=` finds them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import type { PaymentsService } from '../../src/modules/payments/payments.service.js';
import { CardDataSource, CreateMethod } from '../../src/modules/payments/transactions.model.js';
import { normalizeAddress } from '../../src/modules/reference/address.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const PAYER = {
  billingAddress: normalizeAddress(ACH_PAYER.billingAddress, 'billingAddress'),
  contactInfo: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    companyName: null,
    email: null,
    mobilePhoneNumber: '+12125550100',
    smsNotification: null,
  },
};
const CARD = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
const DECLINE = '4000000010050005';

describe('payments API for payment sources', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let payments: PaymentsService;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
    payments = t.ctx.services.payments;
  });
  after(() => t.stop());

  const subscription = () => ({ typeId: CreateMethod.Subscription, id: randomUUID() });
  const get = async (id: string) => (await t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token })).body;

  it('charges a raw card for a source: the transaction shows the source and the createMethodId filter finds it', async () => {
    const source = subscription();
    const result = await payments.charge({
      merchantId: m.id,
      source,
      instrument: { kind: 'card', ...CARD },
      amount: { baseCents: 1999 },
      initiator: 'merchant',
      cardDataSource: CardDataSource.Internet,
      billingAddress: normalizeAddress({ line1: '123 Test St', postalCode: '10001' }, 'billingAddress'),
    });
    assert.equal(result.outcome, 'approved');
    assert.equal(result.processedCents, 1999);
    const view = await get(result.transaction.id);
    assert.equal(view.status, 'Captured');
    assert.deepEqual(view.source, { typeId: 7, type: 'Subscription', id: source.id, name: 'Subscription' });
    const listed = await t.request('GET', `/pay-api/v1/transactions?createMethodId=${CreateMethod.Subscription}`, {
      token: m.token,
    });
    assert.deepEqual(
      listed.body.items.map((item: { transactionId?: string; id?: string }) => item.transactionId ?? item.id),
      [result.transaction.id],
    );
    const api = await t.request('GET', `/pay-api/v1/transactions?createMethodId=${CreateMethod.ApiToken}`, {
      token: m.token,
    });
    assert.equal(api.body.total, 0);
  });

  it('charges vaulted and orphan cards, authorizes and verifies, and reports declines', async () => {
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { firstName: 'Ada' } }),
    );
    const method = await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
        token: m.token,
        body: { pan: CARD.accountNumber, expirationMonth: 12, expirationYear: 2031 },
      }),
    );
    const orphan = await t.expectOk(
      t.request('POST', '/pay-api/v1/payment-methods/cards', {
        token: m.token,
        body: { pan: CARD.accountNumber, expirationMonth: 11, expirationYear: 2032 },
      }),
    );
    const base = {
      merchantId: m.id,
      source: subscription(),
      initiator: 'merchant' as const,
      cardDataSource: CardDataSource.Internet,
    };
    const vaulted = await payments.charge({
      ...base,
      instrument: { kind: 'vaulted', customerId: customer.id },
      amount: { baseCents: 500 },
    });
    assert.equal(vaulted.outcome, 'approved');
    assert.equal(vaulted.transaction.customerId, customer.id);
    assert.equal(vaulted.transaction.paymentMethodId, method.id);
    assert.equal(vaulted.transaction.customerInitiated, false);
    const held = await payments.charge({
      ...base,
      operation: 'authorize',
      instrument: { kind: 'orphan', paymentMethodId: orphan.id },
      amount: { baseCents: 700 },
    });
    assert.equal((await get(held.transaction.id)).status, 'Authorized');
    const verified = await payments.charge({
      ...base,
      operation: 'verify',
      instrument: { kind: 'card', ...CARD },
      amount: { baseCents: 0 },
    });
    assert.equal((await get(verified.transaction.id)).status, 'Verified');
    const declined = await payments.charge({
      ...base,
      instrument: { kind: 'card', ...CARD, accountNumber: DECLINE },
      amount: { baseCents: 300 },
    });
    assert.equal(declined.outcome, 'declined');
    assert.equal(declined.processedCents, 0);

    const refund = await payments.refund({ merchantId: m.id, transactionId: vaulted.transaction.id, amountCents: 200 });
    assert.equal(refund.outcome, 'approved');
    assert.equal(refund.transaction.originalTransactionId, vaulted.transaction.id);
    assert.equal(refund.processedCents, 200);
    assert.deepEqual((await verifyLedger(t.ctx.pool)).problems, []);
  });

  it('debits and credits a bank account for a source', async () => {
    const source = { typeId: CreateMethod.Invoice, id: randomUUID() };
    const debit = await payments.achDebit({
      merchantId: m.id,
      source,
      instrument: {
        kind: 'bank-account',
        accountNumber: '123456789',
        routingNumber: '021000021',
        accountHolderType: 2,
      },
      amount: { baseCents: 4200 },
      secCode: 2,
      requesterIp: '203.0.113.7',
      ...PAYER,
    });
    assert.equal(debit.outcome, 'approved');
    const view = await get(debit.transaction.id);
    assert.equal(view.status, 'Scheduled');
    assert.deepEqual(view.source, { typeId: 4, type: 'Invoice', id: source.id, name: 'Invoice' });
    const credit = await payments.achCredit({
      merchantId: m.id,
      source: { typeId: CreateMethod.Portal },
      instrument: {
        kind: 'bank-account',
        accountNumber: '987654321',
        routingNumber: '021000021',
        accountHolderType: 1,
      },
      amount: { baseCents: 1000 },
      secCode: 2,
      requesterIp: '203.0.113.7',
      ...PAYER,
    });
    assert.equal((await get(credit.transaction.id)).transactionType, 'AchCredit');
  });
});
