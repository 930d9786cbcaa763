// A transaction's page beyond refund and void: an authorization captured (in part) once per form, a tip adjusted
// where tips are enabled (and no tip form where they are not), a receipt sent by e-mail and by SMS (only with the
// customer's consent) into the sandbox outbox, and the timeline's webhook deliveries and ledger entries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, field } from '../dashboard-helpers.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

const CARD = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

describe('dashboard transaction actions', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    t = await startNode({ workers: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    receiver = await startReceiver();
    m = await t.merchant({ body: { settings: { isTipsEnabled: true } } });
  });
  after(async () => {
    await t.stop();
    await receiver.close();
  });

  it('captures part of an authorization once per form, with its deliveries and ledger entries on the page', async () => {
    await t.ok(m, 'POST', '/v2/webhooks/endpoints', {
      name: 'books',
      endpointUrl: `${receiver.url}/hook`,
      eventTypes: ['transaction.card.authorized', 'transaction.card.captured'],
    });
    const auth = await t.ok(m, 'POST', '/pay-api/v1/transactions/auth', { amount: 40, ...CARD });
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const url = `/dashboard/transactions/${auth.transactionId}`;
    const shown = await owner.get(url);
    assert.match(shown.text, /Amount to capture/);
    const form = { csrf: field(shown.text, 'csrf'), formId: field(shown.text, 'formId'), confirm: 'yes' };
    assert.equal((await owner.post(`${url}/capture`, { ...form, amount: '0' })).status, 400);
    const captured = await owner.post(`${url}/capture`, { ...form, amount: '30.00' });
    assert.equal(captured.status, 303, captured.text);
    const again = await owner.post(`${url}/capture`, { ...form, amount: '30.00' });
    assert.equal(again.status, 303, 'the same form again: the same capture, not a second');
    const api = await t.ok(m, 'GET', `/pay-api/v1/transactions/${auth.transactionId}`);
    assert.equal(api.status, 'Captured');
    assert.equal(api.amount.capturedAmount ?? api.capturedAmount ?? 30, 30);
    await eventually(async () => {
      const page = await owner.get(url);
      return /Webhook deliveries/.test(page.text) && /transaction\.card\.captured/.test(page.text);
    }, 15_000);
    const page = await owner.get(url);
    assert.match(page.text, /Ledger entries/);
    assert.match(page.text, /merchant_payable|processor_receivable/);
    const audit = await owner.get('/dashboard/audit');
    assert.match(audit.text, /transaction\.capture/);
  });

  it('adjusts a tip where tips are enabled, and offers none where they are not', async () => {
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 50, ...CARD });
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const url = `/dashboard/transactions/${sale.transactionId}`;
    const shown = await owner.get(url);
    assert.match(shown.text, /Adjust the tip/);
    const tipped = await owner.post(`${url}/tip`, {
      csrf: field(shown.text, 'csrf'),
      formId: field(shown.text, 'formId'),
      confirm: 'yes',
      amount: '7.50',
    });
    assert.equal(tipped.status, 303, tipped.text);
    const api = await t.ok(m, 'GET', `/pay-api/v1/transactions/${sale.transactionId}`);
    assert.equal(api.amount.tipAmount, 7.5);

    const plain = await t.merchant();
    const other = await t.ok(plain, 'POST', '/pay-api/v1/transactions/sale', { amount: 50, ...CARD });
    const plainOwner = await dashboardSession(t, { merchantId: plain.id }, 'owner');
    const plainPage = await plainOwner.get(`/dashboard/transactions/${other.transactionId}`);
    assert.doesNotMatch(plainPage.text, /Adjust the tip/);
    const forged = await plainOwner.post(`/dashboard/transactions/${other.transactionId}/tip`, {
      csrf: field(plainPage.text, 'csrf'),
      formId: field(plainPage.text, 'formId'),
      confirm: 'yes',
      amount: '1.00',
    });
    assert.equal(forged.status, 400);
    assert.match(forged.text, /Tips are not enabled/);
  });

  it('sends a receipt by e-mail, and by SMS only with consent', async () => {
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount: 12, referenceId: 'RCPT-1', ...CARD });
    const staffless = await dashboardSession(t, { merchantId: m.id }, 'admin');
    const url = `/dashboard/transactions/${sale.transactionId}`;
    const csrf = field((await staffless.get(url)).text, 'csrf');
    const badEmail = await staffless.post(`${url}/receipt`, { csrf, channel: 'email', to: 'not-an-address' });
    assert.equal(badEmail.status, 400);
    assert.equal(
      (await staffless.post(`${url}/receipt`, { csrf, channel: 'email', to: 'pat@example.com' })).status,
      303,
    );
    const noConsent = await staffless.post(`${url}/receipt`, { csrf, channel: 'sms', to: '+15551234567' });
    assert.equal(noConsent.status, 400);
    assert.match(noConsent.text, /consent/);
    const sms = await staffless.post(`${url}/receipt`, { csrf, channel: 'sms', to: '+15551234567', consent: 'yes' });
    assert.equal(sms.status, 303, sms.text);
    const outbox = await t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}`);
    const mine = (outbox.body.items as Array<{ to: string; channel?: string; text: string }>).filter((x) =>
      x.text.includes(sale.transactionId),
    );
    assert.deepEqual(mine.map((x) => x.to).sort(), ['+15551234567', 'pat@example.com']);
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const analystPage = await analyst.get(url);
    assert.doesNotMatch(analystPage.text, /Send the receipt/);
    assert.equal(
      (await analyst.post(`${url}/receipt`, { csrf: field(analystPage.text, 'csrf'), channel: 'email', to: 'a@b.co' }))
        .status,
      403,
    );
  });
});
