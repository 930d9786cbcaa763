// The published version 2 revision's contract, from the facts (published-v2-facts.ts, transcribed from the
// specification's `published-v2-facts.md`): every one of its 61 operations called with a valid request built from the
// published names, its status code checked and its answer validated field by field against the facts; every
// operation with a body refuses an unknown field; every list paged to its end (hasMore false on the last page).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type Tenant, type TestNode } from '../harness.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';
import {
  PUBLISHED_OPERATIONS,
  type PublishedOperation,
  publishedErrors,
  publishedName,
  publishedOperation,
} from './published-v2-facts.js';

const CARD = { cardNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2035, securityCode: '123' };
/** The sandbox network's matching address (AVS Y). */
const ADDRESS = {
  addressLine1: '123 Test St',
  addressLine2: null,
  city: 'New York',
  postalCode: '10001',
  stateCode: 'NY',
  countryCode: 'US',
};

describe('the published version 2 revision, operation by operation', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let partner: Tenant;
  let receiver: Receiver;
  let cardProcessor = '';
  const called = new Set<string>();
  const refusedUnknown = new Set<string>();
  const pagedToEnd = new Set<string>();

  before(async () => {
    t = await startNode({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    partner = await t.partner();
    m = await t.merchant({ partnerId: partner.id, body: { settings: { isTipsEnabled: true } } });
    receiver = await startReceiver();
    const config = await t.ok(m, 'GET', '/v2/settings/payment-config');
    cardProcessor = config.availablePaymentProcessors.find(
      (p: { type: string }) => p.type === 'SandboxCard',
    ).paymentProcessorId;
  });
  after(async () => {
    await t?.stop();
    await receiver?.close();
  });

  /**
   * One call of an operation of the facts: the status it documents, and the answer in its schema. `body: null` is a
   * bodyless POST as the vendor's clients send it (an empty body, Content-Length 0).
   */
  async function call(
    method: PublishedOperation['method'],
    template: string,
    url: string,
    options: { body?: unknown; token?: string } = {},
  ) {
    const operation = publishedOperation(method, template);
    const res = await t.request(method, url, {
      token: options.token ?? m.token,
      ...(options.body === null
        ? { payload: '', headers: { 'content-length': '0', 'content-type': 'application/json' } }
        : options.body === undefined
          ? {}
          : { body: options.body }),
    });
    assert.equal(res.status, operation.status, `${method} ${url}: ${res.text}`);
    if (operation.answer) {
      assert.deepEqual(publishedErrors(operation, res.body), [], `${method} ${url}: ${res.text.slice(0, 3000)}`);
    } else if (!template.endsWith('/export')) {
      assert.equal(res.text, '', `${method} ${url} answers with no body`);
    }
    called.add(publishedName(operation));
    return res.body;
  }

  /** The same request with a field the published document does not name: a 400 naming it. */
  async function refusesUnknown(method: PublishedOperation['method'], template: string, url: string, body: object) {
    const res = await t.request(method, url, { token: m.token, body: { ...body, notAPublishedField: 1 } });
    assert.equal(res.status, 400, `${method} ${url} with an unknown field: ${res.text}`);
    assert.match(res.text, /notAPublishedField/);
    refusedUnknown.add(`${method} ${template}`);
  }

  /** A list paged to its end two items at a time: every page valid, the last one with hasMore false. */
  async function pageToEnd(template: string, query = '', token = m.token) {
    const seen: unknown[] = [];
    let totalItems = -1;
    for (let pageIndex = 0; ; pageIndex++) {
      const sep = query ? `&${query}` : '';
      const body = await call('GET', template, `${template}?pageIndex=${pageIndex}&pageSize=2${sep}`, { token });
      if (totalItems === -1) totalItems = body.pageInfo.totalItems;
      assert.equal(body.pageInfo.pageIndex, pageIndex);
      assert.equal(body.pageInfo.totalPages, Math.ceil(totalItems / 2));
      seen.push(...body.items);
      if (!body.pageInfo.hasMore) {
        assert.equal(seen.length, totalItems, `${template}: every item once`);
        break;
      }
      assert.equal(body.items.length, 2);
      assert.ok(pageIndex < 50, `${template} ends`);
    }
    const past = await call(
      'GET',
      template,
      `${template}?pageIndex=${Math.ceil(totalItems / 2) + 1}${query ? `&${query}` : ''}`,
      {
        token,
      },
    );
    assert.deepEqual([past.items.length, past.pageInfo.hasMore], [0, false], `${template}: past the end, no items`);
    pagedToEnd.add(`GET ${template}`);
    return { seen, totalItems };
  }

  it('auth and ping', async () => {
    const token = await t.tokenRequest({
      grant_type: 'client_credentials',
      client_id: m.clientId,
      client_secret: m.clientSecret,
      scope: 'offline_access',
    });
    assert.equal(token.status, 200, token.text);
    assert.deepEqual(publishedErrors(publishedOperation('POST', '/oauth2/token'), token.body), []);
    called.add('POST /oauth2/token');
    await call('GET', '/v2/ping', '/v2/ping');
  });

  it('api-keys, with a partner token for its merchant', async () => {
    const body = { merchantId: m.id, apiKeyName: 'Contract key' };
    const created = await call('POST', '/v2/api-keys', '/v2/api-keys', { body, token: partner.token });
    await refusesUnknown('POST', '/v2/api-keys', '/v2/api-keys', body);
    const listed = await call('GET', '/v2/api-keys', `/v2/api-keys?merchantId=${m.id}`, { token: partner.token });
    assert.ok(listed.apiKeys.some((k: { clientId: string }) => k.clientId === created.clientId));
    await call('DELETE', '/v2/api-keys/{clientId}', `/v2/api-keys/${created.clientId}`, { token: partner.token });
  });

  it('customers', async () => {
    const body = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Engines',
      email: 'ada@example.com',
      mobilePhoneNumber: '+12125550100',
      hasSmsConsent: true,
      shouldUseBillingAsShippingAddress: true,
      billingAddress: ADDRESS,
      paymentMethodsCards: [{ paymentName: 'Visa', ...CARD }],
      paymentMethodsAchAccounts: [
        {
          paymentName: 'Checking',
          routingNumber: '021000021',
          accountNumber: '123456789',
          accountHolderType: 'Personal',
          accountType: 'Checking',
        },
      ],
    };
    const created = await call('POST', '/v2/customers', '/v2/customers', { body });
    await refusesUnknown('POST', '/v2/customers', '/v2/customers', body);
    for (const first of ['Bo', 'Cy'])
      await call('POST', '/v2/customers', '/v2/customers', { body: { firstName: first, lastName: 'X' } });
    const id = created.customerId;
    const shown = await call('GET', '/v2/customers/{customerId}', `/v2/customers/${id}`);
    assert.deepEqual([shown.cards.length, shown.achAccounts.length], [1, 1]);
    assert.equal(shown.billingAddress.addressLine1, '123 Test St');
    const patch = { companyName: 'Analytical Engines', email: null };
    await call('PATCH', '/v2/customers/{customerId}', `/v2/customers/${id}`, { body: patch });
    await refusesUnknown('PATCH', '/v2/customers/{customerId}', `/v2/customers/${id}`, patch);
    const { totalItems } = await pageToEnd('/v2/customers');
    assert.ok(totalItems >= 3);
    const gone = await call('POST', '/v2/customers', '/v2/customers', { body: { firstName: 'Del', lastName: 'Eted' } });
    await call('DELETE', '/v2/customers/{customerId}', `/v2/customers/${gone.customerId}`);
  });

  it('payment-methods: a customer’s and orphans', async () => {
    const customer = await t.ok(m, 'POST', '/v2/customers', { firstName: 'Pay', lastName: 'Methods' });
    const card = { ...CARD, customerId: customer.customerId, paymentName: 'Main card' };
    const saved = await call('POST', '/v2/payment-methods/cards', '/v2/payment-methods/cards', { body: card });
    await refusesUnknown('POST', '/v2/payment-methods/cards', '/v2/payment-methods/cards', card);
    const ach = {
      routingNumber: '021000021',
      accountNumber: '987654321',
      accountHolderType: 'Personal',
      accountType: 'Savings',
      customerId: customer.customerId,
      name: 'Savings',
    };
    const bank = await call('POST', '/v2/payment-methods/ach', '/v2/payment-methods/ach', { body: ach });
    await refusesUnknown('POST', '/v2/payment-methods/ach', '/v2/payment-methods/ach', ach);
    const orphan = await call('POST', '/v2/payment-methods/cards', '/v2/payment-methods/cards', { body: CARD });
    const read = await call(
      'GET',
      '/v2/payment-methods/{paymentMethodId}',
      `/v2/payment-methods/${orphan.paymentMethodId}`,
    );
    assert.equal(read.customerId, null);
    const rename = { paymentName: 'Renamed' };
    const methodUrl = `/v2/payment-methods/${saved.paymentMethodId}`;
    await call('PATCH', '/v2/payment-methods/{paymentMethodId}', methodUrl, { body: rename });
    await refusesUnknown('PATCH', '/v2/payment-methods/{paymentMethodId}', methodUrl, rename);
    await call(
      'POST',
      '/v2/payment-methods/{paymentMethodId}/set-default',
      `/v2/payment-methods/${bank.paymentMethodId}/set-default?customerId=${customer.customerId}`,
      { body: null },
    );
    await pageToEnd('/v2/payment-methods');
    await pageToEnd('/v2/payment-methods', `customerId=${customer.customerId}`);
    await call('DELETE', '/v2/payment-methods/{paymentMethodId}', `/v2/payment-methods/${orphan.paymentMethodId}`);
  });

  it('payment-links', async () => {
    const body = {
      paymentMethods: { card: { enabled: true }, ach: { enabled: false } },
      baseAmount: 25,
      currencyCode: 'USD',
      linkType: 'SingleUse',
      referenceId: 'contract-link',
      name: 'Contract link',
      description: 'For the contract',
    };
    const link = await call('POST', '/v2/payment-links', '/v2/payment-links', { body });
    await refusesUnknown('POST', '/v2/payment-links', '/v2/payment-links', body);
    for (const name of ['Second', 'Third']) {
      await call('POST', '/v2/payment-links', '/v2/payment-links', { body: { ...body, name } });
    }
    const url = `/v2/payment-links/${link.paymentLinkId}`;
    await call('GET', '/v2/payment-links/{paymentLinkId}', url);
    const patch = { description: null, baseAmount: 30 };
    const patched = await call('PATCH', '/v2/payment-links/{paymentLinkId}', url, { body: patch });
    assert.deepEqual([patched.description, patched.baseAmount], [null, 30]);
    await refusesUnknown('PATCH', '/v2/payment-links/{paymentLinkId}', url, patch);
    const share = { shareBy: 'Email', recipient: 'payer@example.com', hasCustomerConsent: true };
    await call('POST', '/v2/payment-links/{paymentLinkId}/share', `${url}/share`, { body: share });
    await refusesUnknown('POST', '/v2/payment-links/{paymentLinkId}/share', `${url}/share`, share);
    await pageToEnd('/v2/payment-links', 'sortBy=createdOn&sortOrder=asc');
    await call('DELETE', '/v2/payment-links/{paymentLinkId}', url);
  });

  it('payment-sessions', async () => {
    const body = { amount: 12.5, mode: 'Payment', referenceId: 'contract-session', metadata: { order: '7' } };
    const session = await call('POST', '/v2/payment-sessions', '/v2/payment-sessions', { body });
    await refusesUnknown('POST', '/v2/payment-sessions', '/v2/payment-sessions', body);
    const url = `/v2/payment-sessions/${session.id}`;
    const shown = await call('GET', '/v2/payment-sessions/{paymentSessionId}', url);
    assert.equal(shown.status, 'Created');
    await call('POST', '/v2/payment-sessions/{paymentSessionId}/cancel', `${url}/cancel`, { body: null });
  });

  it('pos and terminals', async () => {
    const terminal = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
        serialNumber: `PUB-${Date.now()}`,
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP2',
        terminalModeId: 2,
      }),
    );
    for (const serial of ['PUB-2', 'PUB-3']) {
      await t.expectOk(
        t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
          serialNumber: `${serial}-${Date.now()}`,
          terminalManufacturer: 'Verifone',
          terminalModel: 'VerifoneVictaMobile',
          terminalModeId: 1,
        }),
      );
    }
    await pageToEnd('/v2/terminals');
    await call('GET', '/v2/terminals/{terminalId}/status', `/v2/terminals/${terminal.id}/status`);
    const body = {
      posDeviceId: 'till-1',
      baseAmount: 20,
      currencyCode: 'USD',
      terminalId: terminal.id,
      extraAmounts: { tipAmount: 2 },
      referenceId: 'contract-pos',
      captureMethod: 'Auto',
      readingMethod: 'Regular',
    };
    await refusesUnknown('POST', '/v2/pos/transactions', '/v2/pos/transactions', body);
    const first = await call('POST', '/v2/pos/transactions', '/v2/pos/transactions', { body });
    await call(
      'POST',
      '/v2/pos/transactions/{posTransactionId}/cancel',
      `/v2/pos/transactions/${first.posTransactionId}/cancel`,
      {
        body: null,
      },
    );
    const sale = await call('POST', '/v2/pos/transactions', '/v2/pos/transactions', { body });
    const polled = call(
      'GET',
      '/v2/pos/transactions/{posTransactionId}',
      `/v2/pos/transactions/${sale.posTransactionId}?waitForTransactionProcessing=true`,
    );
    await t.expectOk(
      t.admin('POST', `/admin/v1/sandbox/terminals/${terminal.id}/actions`, {
        action: 'present-card',
        pan: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2031,
        readingMethod: 'chip',
      }),
    );
    const done = await polled;
    assert.equal(done.posTransactionStatus, 'Completed');
    assert.equal(done.linkedTransaction.transactionStatus, 'Captured');
    const print = { terminalId: terminal.id };
    const printUrl = `/v2/pos/transactions/${sale.posTransactionId}/print-receipt`;
    await call('POST', '/v2/pos/transactions/{posTransactionId}/print-receipt', printUrl, { body: print });
    await refusesUnknown('POST', '/v2/pos/transactions/{posTransactionId}/print-receipt', printUrl, print);
    await call('POST', '/v2/pos/transactions', '/v2/pos/transactions', {
      body: { ...body, referenceId: 'contract-pos-3' },
    });
    await pageToEnd('/v2/pos/transactions', `terminalId=${terminal.id}`);
  });

  it('settings', async () => {
    await call('GET', '/v2/settings/payment-config', '/v2/settings/payment-config');
    await call('GET', '/v2/settings/contact-information', '/v2/settings/contact-information');
    const body = {
      level2Settings: { taxRate: 8.25 },
      level3Settings: {
        product: { productName: 'Widget', code: 'W/1', unitPrice: 2.5, measurementUnit: 'pcs', quantity: 4 },
        shippingChargeRate: 3,
        dutyChargeRate: 1,
      },
    };
    await call('PATCH', '/v2/settings/transaction-autofill', '/v2/settings/transaction-autofill', { body });
    await refusesUnknown('PATCH', '/v2/settings/transaction-autofill', '/v2/settings/transaction-autofill', body);
    const shown = await call('GET', '/v2/settings/transaction-autofill', '/v2/settings/transaction-autofill');
    assert.equal(shown.level3Settings.shippingChargeRate, 3);
  });

  it('transactions', async () => {
    const create = (extra: Record<string, unknown> = {}) => ({
      paymentProcessorId: cardProcessor,
      baseAmount: 40,
      currencyCode: 'USD',
      referenceId: `contract-${Math.random().toString(36).slice(2, 10)}`,
      transactionDetails: { cardData: { paymentMethodDetails: CARD } },
      extraAmounts: { tipAmount: 4 },
      billingAddress: ADDRESS,
      contactInfo: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      ...extra,
    });
    const sale = await call('POST', '/v2/transactions', '/v2/transactions', { body: create() });
    assert.equal(sale.transactionStatus, 'Approved', JSON.stringify(sale));
    await refusesUnknown('POST', '/v2/transactions', '/v2/transactions', create());
    const full = await call('GET', '/v2/transactions/{transactionId}', `/v2/transactions/${sale.transactionId}`);
    assert.equal(full.transactionStatus, 'Captured');

    const manual = create({
      transactionDetails: { cardData: { paymentMethodDetails: CARD, captureMethod: 'Manual' } },
    });
    const auth = await call('POST', '/v2/transactions', '/v2/transactions', { body: manual });
    const capture = { captureAmount: 30 };
    const captureUrl = `/v2/transactions/${auth.transactionId}/capture`;
    await refusesUnknown('POST', '/v2/transactions/{transactionId}/capture', captureUrl, capture);
    await call('POST', '/v2/transactions/{transactionId}/capture', captureUrl, { body: capture });
    const tip = { tipRate: 10 };
    const tipUrl = `/v2/transactions/${sale.transactionId}/tip-adjustment`;
    await refusesUnknown('POST', '/v2/transactions/{transactionId}/tip-adjustment', tipUrl, tip);
    await call('POST', '/v2/transactions/{transactionId}/tip-adjustment', tipUrl, { body: tip });
    const share = { shareBy: 'Email', recipient: 'ada@example.com', hasCustomerConsent: true };
    const shareUrl = `/v2/transactions/${sale.transactionId}/share-receipt`;
    await call('POST', '/v2/transactions/{transactionId}/share-receipt', shareUrl, { body: share });
    await refusesUnknown('POST', '/v2/transactions/{transactionId}/share-receipt', shareUrl, share);
    const reversal = { reversalAmount: 10 };
    const reversalUrl = `/v2/transactions/${auth.transactionId}/reversal`;
    await refusesUnknown('POST', '/v2/transactions/{transactionId}/reversal', reversalUrl, reversal);
    await call('POST', '/v2/transactions/{transactionId}/reversal', reversalUrl, { body: reversal });

    const credit = {
      paymentProcessorId: cardProcessor,
      baseAmount: 5,
      referenceId: 'contract-credit',
      creditDetails: { cardData: { paymentMethodDetails: CARD } },
      currencyCode: 'USD',
    };
    await call('POST', '/v2/transactions/credit', '/v2/transactions/credit', { body: credit });
    await refusesUnknown('POST', '/v2/transactions/credit', '/v2/transactions/credit', credit);

    const calc = { baseAmount: 100, tipRate: 18.5, discountRate: 10 };
    await call('POST', '/v2/transactions/calculate-amount', '/v2/transactions/calculate-amount', { body: calc });
    await refusesUnknown('POST', '/v2/transactions/calculate-amount', '/v2/transactions/calculate-amount', calc);

    // An ACH debit, held and released (bodyless, as the vendor's CLI sends them).
    const customer = await t.ok(m, 'POST', '/v2/customers', { firstName: 'Bank', lastName: 'Holder' });
    const account = await t.ok(m, 'POST', '/v2/payment-methods/ach', {
      routingNumber: '021000021',
      accountNumber: '100000099',
      accountHolderType: 'Personal',
      accountType: 'Checking',
      customerId: customer.customerId,
    });
    const debit = await call('POST', '/v2/transactions', '/v2/transactions', {
      body: {
        paymentProcessorId: null,
        baseAmount: 15,
        referenceId: 'contract-ach',
        transactionDetails: {
          achData: { secCode: 'Web', requesterIpAddress: '198.51.100.7', paymentMethodId: account.paymentMethodId },
        },
      },
    });
    await call('GET', '/v2/transactions/{transactionId}', `/v2/transactions/${debit.transactionId}`);
    await call(
      'POST',
      '/v2/transactions/{transactionId}/ach-hold',
      `/v2/transactions/${debit.transactionId}/ach-hold`,
      {
        body: null,
      },
    );
    await call(
      'POST',
      '/v2/transactions/{transactionId}/ach-release',
      `/v2/transactions/${debit.transactionId}/ach-release`,
      { body: null },
    );
    await pageToEnd('/v2/transactions');
    await pageToEnd('/v2/transactions', 'paymentMethodType=Card&sortBy=processedAmount&sortOrder=desc');
  });

  it('settlements', async () => {
    const close = { paymentProcessorId: cardProcessor };
    await refusesUnknown('POST', '/v2/settlements/batches/close', '/v2/settlements/batches/close', close);
    await call('POST', '/v2/settlements/batches/close', '/v2/settlements/batches/close', { body: close });
    for (const amount of [7, 8]) {
      await t.ok(m, 'POST', '/v2/transactions', {
        paymentProcessorId: cardProcessor,
        baseAmount: amount,
        referenceId: `batch-${amount}`,
        transactionDetails: { cardData: { paymentMethodDetails: CARD } },
      });
      await t.ok(m, 'POST', '/v2/settlements/batches/close', close);
    }
    await pageToEnd('/v2/settlements/batches');
  });

  it('webhooks', async () => {
    const body = {
      endpointName: 'Contract',
      endpointUrl: `${receiver.url}/contract`,
      eventTypes: ['transaction.card.captured'],
    };
    const endpoint = await call('POST', '/v2/webhooks/endpoints', '/v2/webhooks/endpoints', { body });
    await refusesUnknown('POST', '/v2/webhooks/endpoints', '/v2/webhooks/endpoints', body);
    for (const name of ['Second', 'Third']) {
      await call('POST', '/v2/webhooks/endpoints', '/v2/webhooks/endpoints', {
        body: { ...body, endpointName: name, endpointUrl: `${receiver.url}/${name}` },
      });
    }
    const url = `/v2/webhooks/endpoints/${endpoint.endpointId}`;
    await call('GET', '/v2/webhooks/endpoints/{endpointId}', url);
    const patch = { endpointName: 'Contract (renamed)' };
    await call('PATCH', '/v2/webhooks/endpoints/{endpointId}', url, { body: patch });
    await refusesUnknown('PATCH', '/v2/webhooks/endpoints/{endpointId}', url, patch);
    const ping = await call('POST', '/v2/webhooks/endpoints/{endpointId}/ping', `${url}/ping`, { body: null });
    assert.equal(ping.isDelivered, true);
    await call('GET', '/v2/webhooks/event-types', '/v2/webhooks/event-types');
    await pageToEnd('/v2/webhooks/endpoints');

    // Deliveries: a capture reaches the endpoint once, then fails once, and is retried by hand.
    receiver.state.answer = () => 500;
    await t.ok(m, 'POST', '/v2/transactions', {
      paymentProcessorId: cardProcessor,
      baseAmount: 9,
      referenceId: 'webhook-1',
      transactionDetails: { cardData: { paymentMethodDetails: CARD } },
    });
    await t.drain();
    receiver.state.answer = () => 200;
    const logs = await pageToEnd('/v2/webhooks/delivery-logs', `endpointId=${endpoint.endpointId}`);
    const failed = (logs.seen as Array<{ deliveryLogId: string; deliveryLogStatus: string }>).find(
      (l) => l.deliveryLogStatus === 'Failure',
    );
    assert.ok(failed, 'a failed delivery is logged');
    await call(
      'GET',
      '/v2/webhooks/delivery-logs/{deliveryLogId}',
      `/v2/webhooks/delivery-logs/${failed.deliveryLogId}`,
    );
    const retried = await call(
      'POST',
      '/v2/webhooks/delivery-logs/{deliveryLogId}/retry',
      `/v2/webhooks/delivery-logs/${failed.deliveryLogId}/retry`,
      { body: null },
    );
    assert.equal(retried.deliveryLogStatus, 'Success');
    const csv = await call(
      'GET',
      '/v2/webhooks/delivery-logs/export',
      `/v2/webhooks/delivery-logs/export?endpointId=${endpoint.endpointId}&format=Csv`,
    );
    assert.match(String(csv), /deliveryLogId|eventId/i);
    await call('DELETE', '/v2/webhooks/endpoints/{endpointId}', url);
  });

  it('takes every request field the published document names (each body with all its fields)', async () => {
    const send = async (method: string, url: string, body: unknown) => {
      const res = await t.request(method, url, { token: m.token, body });
      assert.ok(res.status === 200 || res.status === 204, `${method} ${url}: ${res.text}`);
      return res.body;
    };
    const customer = await send('POST', '/v2/customers', {
      firstName: 'Full',
      lastName: 'Body',
      companyName: 'Full Body Inc',
      email: 'full@example.com',
      mobilePhoneNumber: '+12125550199',
      hasSmsConsent: true,
      shouldUseBillingAsShippingAddress: false,
      billingAddress: ADDRESS,
      shippingAddress: { ...ADDRESS, addressLine2: 'Suite 2' },
      paymentMethodsCards: [{ paymentName: 'Card', ...CARD }],
      paymentMethodsAchAccounts: [
        {
          paymentName: 'Bank',
          routingNumber: '021000021',
          accountNumber: '123456780',
          taxId: '123456789',
          accountHolderType: 'Business',
          accountType: 'Checking',
        },
      ],
    });
    const customerId = customer.customerId as string;
    await send('PATCH', `/v2/customers/${customerId}`, {
      firstName: 'Fuller',
      lastName: 'Body',
      companyName: null,
      email: 'fuller@example.com',
      mobilePhoneNumber: null,
      hasSmsConsent: false,
      shouldUseBillingAsShippingAddress: true,
      billingAddress: ADDRESS,
      shippingAddress: null,
    });
    const card = await send('POST', '/v2/payment-methods/cards', {
      ...CARD,
      customerId,
      paymentName: 'Second card',
    });
    await send('POST', '/v2/payment-methods/ach', {
      routingNumber: '021000021',
      accountNumber: '555566667',
      accountHolderType: 'Business',
      accountType: 'Savings',
      taxId: '987654321',
      name: 'Orphan business account',
      companyName: 'Orphan Co',
    });
    await send('PATCH', `/v2/payment-methods/${card.paymentMethodId}`, { paymentName: 'Renamed card' });
    const fullTx = {
      paymentProcessorId: cardProcessor,
      baseAmount: 50,
      currencyCode: 'USD',
      referenceId: 'full-body-sale',
      isCustomerInitiatedTransaction: true,
      pricingType: 'Card',
      transactionDetails: { cardData: { paymentMethodDetails: CARD, captureMethod: 'Auto' } },
      extraAmounts: { tipAmount: 5, discountRate: 10, surchargeRate: 0 },
      transactionEnhancedData: {
        salesTaxRate: 8.25,
        invoiceNumber: 'INV-1',
        purchaseOrder: 'PO-1',
        shippingCharges: 2.5,
        dutyCharges: 1,
        products: [
          {
            productName: 'Widget',
            productDescription: 'A widget',
            productCode: 'W-1',
            unitPrice: 10,
            measurementUnit: 'pcs',
            quantity: 5,
            taxAmount: 4.13,
            discountRate: 1,
          },
        ],
      },
      billingAddress: ADDRESS,
      shippingAddress: ADDRESS,
      contactInfo: {
        firstName: 'Full',
        lastName: 'Body',
        companyName: 'Full Body Inc',
        email: 'full@example.com',
        mobilePhoneNumber: '+12125550199',
        hasSmsConsent: false,
      },
      deviceId: '0b6f7c59-8a47-4f4e-9d1a-3f0c2b7e5d11',
      platform: 'iOS',
      appVersion: '1.2.3',
      sdkVersion: '2.0.0',
    };
    const sale = await send('POST', '/v2/transactions', fullTx);
    assert.equal(sale.transactionStatus, 'Approved', JSON.stringify(sale));
    await send('POST', '/v2/transactions', {
      paymentProcessorId: null,
      baseAmount: 11,
      referenceId: 'full-body-ach',
      transactionDetails: {
        achData: {
          secCode: 'PPD',
          requesterIpAddress: '2001:db8::7',
          isSameDayProcessing: false,
          paymentMethodDetails: {
            accountNumber: '222233334',
            routingNumber: '021000021',
            accountHolderType: 'Personal',
            accountType: 'Checking',
            taxId: '123456789',
          },
        },
      },
      billingAddress: ADDRESS,
      contactInfo: { firstName: 'Full', lastName: 'Body', mobilePhoneNumber: '+12125550199' },
    });
    await send('POST', '/v2/transactions/credit', {
      paymentProcessorId: cardProcessor,
      baseAmount: 3,
      referenceId: 'full-body-credit',
      creditDetails: { cardData: { paymentMethodDetails: CARD } },
      currencyCode: 'USD',
      billingAddress: ADDRESS,
      shippingAddress: ADDRESS,
      contactInfo: { firstName: 'Full', lastName: 'Body', email: 'full@example.com', hasSmsConsent: false },
      customerId,
    });
    await send('POST', '/v2/transactions/calculate-amount', {
      baseAmount: 100,
      currencyCode: 'USD',
      pricingType: 'Card',
      tipAmount: 5,
      discountRate: 10,
      surchargeRate: 0,
    });
    await send('POST', '/v2/payment-sessions', {
      amount: 20,
      mode: 'Payment',
      skipAddressVerification: true,
      referenceId: 'full-body-session',
      tipAmount: 2,
      customerId,
      customerHandling: 'TokenOnly',
      returnUrl: 'https://shop.example.com/done',
      paymentMethods: { card: { enabled: true, processorId: cardProcessor }, ach: { enabled: false } },
      metadata: { order: '42', note: null },
      afterCompletionMessage: 'Thanks',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      pageName: 'Full body',
      paymentNotes: 'Notes',
    });
    const link = await send('POST', '/v2/payment-links', {
      paymentMethods: {
        card: { enabled: true, processorId: cardProcessor },
        ach: { enabled: false, processorId: null },
      },
      baseAmount: 15,
      currencyCode: 'USD',
      linkType: 'SingleUse',
      customerId,
      referenceId: 'full-body-link',
      name: 'Full body link',
      description: 'Every field',
      expiresOn: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await send('PATCH', `/v2/payment-links/${link.paymentLinkId}`, {
      paymentMethods: { card: { enabled: true }, ach: { enabled: false } },
      baseAmount: null,
      currencyCode: 'USD',
      linkType: 'SingleUse',
      customerId: null,
      referenceId: null,
      name: 'Renamed link',
      description: null,
      expiresOn: null,
      paymentLinkStatus: 'Inactive',
    });
    await send('PATCH', '/v2/settings/transaction-autofill', {
      level2Settings: { taxRate: 7 },
      level3Settings: {
        product: {
          productName: 'Widget',
          code: 'W 1/2',
          unitPrice: 3,
          measurementUnit: 'pcs',
          quantity: 2,
          discountPercentage: 5,
          description: 'A widget',
        },
        shippingChargeRate: 1.5,
        dutyChargeRate: 0.5,
      },
    });
  });

  it('called every operation, refused an unknown field on every body, paged every list to its end', () => {
    assert.equal(PUBLISHED_OPERATIONS.length, 61);
    assert.deepEqual(
      PUBLISHED_OPERATIONS.map(publishedName).filter((name) => !called.has(name)),
      [],
      'operations never called',
    );
    assert.deepEqual(
      PUBLISHED_OPERATIONS.filter((o) => o.body)
        .map(publishedName)
        .filter((name) => !refusedUnknown.has(name)),
      [],
      'bodies never sent an unknown field',
    );
    assert.deepEqual(
      PUBLISHED_OPERATIONS.filter((o) => o.list)
        .map(publishedName)
        .filter((name) => !pagedToEnd.has(name)),
      [],
      'lists never paged to their end',
    );
  });
});
