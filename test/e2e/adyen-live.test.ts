// A smoke test against Adyen's own test environment, run only where its credentials are given (never in CI, which
// has no internet): ADYEN_TEST_API_KEY and ADYEN_TEST_MERCHANT_ACCOUNT, optionally ADYEN_TEST_BASE_URL (default
// https://checkout-test.adyen.com). It checks that Adyen takes what Tessera sends: a sale and a verification are
// answered at once, an authorization's capture is received. Notifications need Adyen to reach this machine: configure
// them in the Customer Area (docs/connectors.md) to see the capture settle. See docs/connectors.md, "Live smoke test".
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const apiKey = process.env.ADYEN_TEST_API_KEY;
const merchantAccount = process.env.ADYEN_TEST_MERCHANT_ACCOUNT;
const baseUrl = process.env.ADYEN_TEST_BASE_URL ?? 'https://checkout-test.adyen.com';
const live = Boolean(apiKey && merchantAccount);
// Adyen's documented test card (Visa, any future expiry, CVC 737).
const CARD = { accountNumber: '4111111111111111', expirationMonth: 3, expirationYear: 2030, securityCode: '737' };

describe('Adyen test environment (live smoke test)', { skip: live ? false : 'ADYEN_TEST_API_KEY is not set' }, () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
    await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/processors`, {
        name: 'Adyen test',
        typeId: 1,
        connector: 'adyen',
        isDefault: true,
        settings: { merchantAccount, baseUrl },
        credentials: {
          apiKey,
          hmacKey: process.env.ADYEN_TEST_HMAC_KEY ?? '0'.repeat(64),
          notificationUsername: process.env.ADYEN_TEST_NOTIFICATION_USERNAME ?? 'tessera',
          notificationPassword: process.env.ADYEN_TEST_NOTIFICATION_PASSWORD ?? 'not-configured-here',
        },
      }),
    );
  });
  after(() => t?.stop());

  const post = (path: string, body: Record<string, unknown>) =>
    t.request('POST', `/pay-api/v1/transactions/${path}`, { token: m.token, body });

  it('takes a sale and a zero-amount verification', async () => {
    const sale = await post('sale', { amount: 1, ...CARD, referenceId: randomUUID().slice(0, 20) });
    assert.equal(sale.status, 200, sale.text);
    assert.equal(sale.body.status, 'Captured', sale.text);
    const verified = await post('verify', { ...CARD, referenceId: randomUUID().slice(0, 20) });
    assert.equal(verified.body.status, 'Verified', verified.text);
  });

  it("has an authorization's capture received (its notification decides)", async () => {
    const auth = await post('auth', { amount: 2, ...CARD, referenceId: randomUUID().slice(0, 20) });
    assert.equal(auth.body.status, 'Authorized', auth.text);
    const capture = await post('capture', { transactionId: auth.body.transactionId });
    assert.equal(capture.status, 200, capture.text);
    assert.equal(capture.body.details.code, 'Pending', capture.text);
  });
});
