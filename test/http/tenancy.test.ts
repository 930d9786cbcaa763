// Tenancy, table-driven. Every route that takes an id must appear in CROSS_TENANT (the meta-test below fails
// otherwise), and every token route in TOKEN_KINDS. Later capabilities extend both tables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startNode, type TestNode } from '../harness.js';

type Kind = 'merchant' | 'partner';

interface Owner {
  /** The merchant whose data is at stake (for partner cases: a merchant of that partner). */
  merchantId: string;
  partnerId: string | null;
  token: string;
}

interface CrossTenantCase {
  /** `METHOD /path/{param}` exactly as in the OpenAPI document. */
  route: string;
  caller: Kind;
  /** Creates the resource as the owner and returns what the request needs. */
  setup(t: TestNode, owner: Owner): Promise<Record<string, string>>;
  request(ids: Record<string, string>): { method: string; url: string; body?: unknown };
}

export const CROSS_TENANT: CrossTenantCase[] = [
  {
    route: 'DELETE /pay-api/v1/merchants/tokens/{clientId}',
    caller: 'partner',
    async setup(t, owner) {
      const key = await t.expectOk(
        t.request('POST', '/pay-api/v1/merchants/tokens', {
          token: owner.token,
          body: { merchantId: owner.merchantId, tokenName: 'k' },
        }),
      );
      return { clientId: key.clientId, merchantId: owner.merchantId };
    },
    request: (ids) => ({
      method: 'DELETE',
      url: `/pay-api/v1/merchants/tokens/${ids.clientId}?merchantId=${ids.merchantId}`,
    }),
  },
  {
    route: 'DELETE /pay-api/v1/merchants/tokens/{clientId}',
    caller: 'merchant',
    async setup(t, owner) {
      const key = await t.expectOk(
        t.request('POST', '/pay-api/v1/merchants/tokens', { token: owner.token, body: { tokenName: 'k' } }),
      );
      return { clientId: key.clientId, merchantId: owner.merchantId };
    },
    request: (ids) => ({
      method: 'DELETE',
      url: `/pay-api/v1/merchants/tokens/${ids.clientId}?merchantId=${ids.merchantId}`,
    }),
  },
  {
    route: 'GET /pay-api/v1/merchants/tokens?merchantId',
    caller: 'partner',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({ method: 'GET', url: `/pay-api/v1/merchants/tokens?merchantId=${ids.merchantId}` }),
  },
  {
    route: 'POST /pay-api/v1/merchants/tokens {merchantId}',
    caller: 'partner',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/merchants/tokens',
      body: { merchantId: ids.merchantId, tokenName: 'x' },
    }),
  },
  {
    route: 'POST /pay-api/v1/merchants/tokens {merchantId}',
    caller: 'merchant',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/merchants/tokens',
      body: { merchantId: ids.merchantId, tokenName: 'x' },
    }),
  },
  {
    route: 'DELETE /v2/api-keys/{clientId}',
    caller: 'partner',
    async setup(t, owner) {
      const key = await t.expectOk(
        t.request('POST', '/v2/api-keys', { token: owner.token, body: { merchantId: owner.merchantId, name: 'k' } }),
      );
      return { clientId: key.clientId, merchantId: owner.merchantId };
    },
    request: (ids) => ({ method: 'DELETE', url: `/v2/api-keys/${ids.clientId}?merchantId=${ids.merchantId}` }),
  },
  {
    route: 'GET /v2/api-keys?merchantId',
    caller: 'partner',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({ method: 'GET', url: `/v2/api-keys?merchantId=${ids.merchantId}` }),
  },
  {
    route: 'POST /v2/api-keys {merchantId}',
    caller: 'partner',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({ method: 'POST', url: '/v2/api-keys', body: { merchantId: ids.merchantId, name: 'x' } }),
  },
];

const CARD = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031 };
let referenceSeq = 0;

async function customerWithCard(t: TestNode, owner: Owner) {
  const customer = await t.expectOk(
    t.request('POST', '/pay-api/v1/customers', { token: owner.token, body: { firstName: 'Owner' } }),
  );
  const card = await t.expectOk(
    t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      token: owner.token,
      body: { pan: CARD.accountNumber, expirationMonth: 12, expirationYear: 2031 },
    }),
  );
  return { customerId: customer.id as string, paymentMethodId: card.id as string };
}

async function cardPayment(t: TestNode, owner: Owner, kind: 'sale' | 'auth') {
  const result = await t.expectOk(
    t.request('POST', `/pay-api/v1/transactions/${kind}`, {
      token: owner.token,
      body: { amount: 12.34, ...CARD, referenceId: `tenancy-${++referenceSeq}` },
    }),
  );
  return { transactionId: result.transactionId as string };
}

const merchantCases: CrossTenantCase[] = [
  {
    route: 'GET /pay-api/v1/customers/{customerId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'GET', url: `/pay-api/v1/customers/${ids.customerId}` }),
  },
  {
    route: 'PUT /pay-api/v1/customers/{customerId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'PUT', url: `/pay-api/v1/customers/${ids.customerId}`, body: { firstName: 'New' } }),
  },
  {
    route: 'DELETE /pay-api/v1/customers/{customerId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'DELETE', url: `/pay-api/v1/customers/${ids.customerId}` }),
  },
  {
    route: 'GET /pay-api/v1/customers/{customerId}/payment-methods',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'GET', url: `/pay-api/v1/customers/${ids.customerId}/payment-methods` }),
  },
  {
    route: 'POST /pay-api/v1/customers/{customerId}/payment-methods/cards',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'POST',
      url: `/pay-api/v1/customers/${ids.customerId}/payment-methods/cards`,
      body: { pan: '5555555555554444', expirationMonth: 1, expirationYear: 2032 },
    }),
  },
  {
    route: 'POST /pay-api/v1/customers/{customerId}/payment-methods/ach',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'POST',
      url: `/pay-api/v1/customers/${ids.customerId}/payment-methods/ach`,
      body: { accountNumber: '000123456789', routingNumber: '021000021' },
    }),
  },
  {
    route: 'PUT /pay-api/v1/customers/{customerId}/payment-methods/{paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'PUT',
      url: `/pay-api/v1/customers/${ids.customerId}/payment-methods/${ids.paymentMethodId}`,
      body: { name: 'Renamed' },
    }),
  },
  {
    route: 'POST /pay-api/v1/customers/{customerId}/payment-methods/{paymentMethodId}/make-default',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'POST',
      url: `/pay-api/v1/customers/${ids.customerId}/payment-methods/${ids.paymentMethodId}/make-default`,
    }),
  },
  {
    route: 'DELETE /pay-api/v1/customers/{customerId}/payment-methods/{paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'DELETE',
      url: `/pay-api/v1/customers/${ids.customerId}/payment-methods/${ids.paymentMethodId}`,
    }),
  },
  {
    route: 'GET /pay-api/v1/transactions/{transactionId}',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({ method: 'GET', url: `/pay-api/v1/transactions/${ids.transactionId}` }),
  },
  {
    route: 'POST /pay-api/v1/transactions/{transactionId}',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({ method: 'POST', url: `/pay-api/v1/transactions/${ids.transactionId}` }),
  },
  {
    route: 'GET /v2/transactions/{id}',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({ method: 'GET', url: `/v2/transactions/${ids.transactionId}` }),
  },
  {
    route: 'POST /v2/transactions/{transactionId}/capture',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'auth'),
    request: (ids) => ({ method: 'POST', url: `/v2/transactions/${ids.transactionId}/capture`, body: {} }),
  },
  {
    route: 'POST /v2/transactions/{transactionId}/reversal',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({ method: 'POST', url: `/v2/transactions/${ids.transactionId}/reversal`, body: {} }),
  },
  {
    route: 'POST /pay-api/v1/transactions/capture {transactionId}',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'auth'),
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/transactions/capture',
      body: { transactionId: ids.transactionId },
    }),
  },
  {
    route: 'POST /pay-api/v1/transactions/void {transactionId}',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/transactions/void',
      body: { transactionId: ids.transactionId },
    }),
  },
  {
    route: 'POST /pay-api/v1/transactions/return {transactionId}',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/transactions/return',
      body: { transactionId: ids.transactionId, amount: 1, cardDataSource: 1 },
    }),
  },
  {
    route: 'POST /pay-api/v1/transactions/sale {customerId, paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/transactions/sale',
      body: {
        amount: 1.01,
        customerId: ids.customerId,
        paymentMethodId: ids.paymentMethodId,
        referenceId: `t-${++referenceSeq}`,
      },
    }),
  },
  {
    route: 'POST /pay-api/v1/transactions/sale {paymentMethodId} (orphan)',
    caller: 'merchant',
    async setup(t, owner) {
      const pm = await t.expectOk(
        t.request('POST', '/pay-api/v1/payment-methods/cards', {
          token: owner.token,
          body: { pan: CARD.accountNumber, expirationMonth: 12, expirationYear: 2031 },
        }),
      );
      return { paymentMethodId: pm.id };
    },
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/transactions/sale',
      body: { amount: 1.02, paymentMethodId: ids.paymentMethodId, referenceId: `t-${++referenceSeq}` },
    }),
  },
];
CROSS_TENANT.push(...merchantCases);

const V2_CUSTOMER = '/v2/customers';
CROSS_TENANT.push(
  {
    route: 'GET /v2/customers/{id}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'GET', url: `${V2_CUSTOMER}/${ids.customerId}` }),
  },
  {
    route: 'PUT /v2/customers/{id}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'PUT', url: `${V2_CUSTOMER}/${ids.customerId}`, body: { firstName: 'New' } }),
  },
  {
    route: 'GET /v2/payment-methods/{paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'GET', url: `/v2/payment-methods/${ids.paymentMethodId}` }),
  },
  {
    route: 'PATCH /v2/payment-methods/{paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'PATCH',
      url: `/v2/payment-methods/${ids.paymentMethodId}`,
      body: { paymentName: 'n' },
    }),
  },
  {
    route: 'DELETE /v2/payment-methods/{paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'DELETE', url: `/v2/payment-methods/${ids.paymentMethodId}` }),
  },
  {
    route: 'POST /v2/payment-methods/{paymentMethodId}/set-default',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'POST',
      url: `/v2/payment-methods/${ids.paymentMethodId}/set-default?customerId=${ids.customerId}`,
    }),
  },
  {
    route: 'GET /v2/payment-methods?customerId',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'GET', url: `/v2/payment-methods?customerId=${ids.customerId}` }),
  },
  {
    route: 'PATCH /v2/customers/{id}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'PATCH', url: `${V2_CUSTOMER}/${ids.customerId}`, body: { companyName: 'New' } }),
  },
  {
    route: 'DELETE /v2/customers/{id}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'DELETE', url: `${V2_CUSTOMER}/${ids.customerId}` }),
  },
  {
    route: 'GET /v2/customers/{id}/payment-methods',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({ method: 'GET', url: `${V2_CUSTOMER}/${ids.customerId}/payment-methods` }),
  },
  {
    route: 'POST /v2/customers/{id}/payment-methods',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'POST',
      url: `${V2_CUSTOMER}/${ids.customerId}/payment-methods`,
      body: { card: { cardNumber: CARD.accountNumber, expirationMonth: 12, expirationYear: 2031 } },
    }),
  },
  {
    route: 'PUT /v2/customers/{id}/payment-methods/{paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'PUT',
      url: `${V2_CUSTOMER}/${ids.customerId}/payment-methods/${ids.paymentMethodId}`,
      body: { name: 'n' },
    }),
  },
  {
    route: 'PUT /v2/customers/{id}/payment-methods/{paymentMethodId}/set-default',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'PUT',
      url: `${V2_CUSTOMER}/${ids.customerId}/payment-methods/${ids.paymentMethodId}/set-default`,
    }),
  },
  {
    route: 'DELETE /v2/customers/{id}/payment-methods/{paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'DELETE',
      url: `${V2_CUSTOMER}/${ids.customerId}/payment-methods/${ids.paymentMethodId}`,
    }),
  },
  {
    route: 'POST /v2/transactions {paymentMethodId}',
    caller: 'merchant',
    setup: customerWithCard,
    request: (ids) => ({
      method: 'POST',
      url: '/v2/transactions',
      body: {
        baseAmount: 3,
        referenceId: `tenancy-${++referenceSeq}`,
        transactionDetails: { cardData: { paymentMethodId: ids.paymentMethodId } },
      },
    }),
  },
);

/** An ACH debit from a new account, still Scheduled (so hold, void and unhold-after-hold apply). */
async function achDebit(t: TestNode, owner: Owner, hold = false, cleared = false): Promise<Record<string, string>> {
  const created = await t.expectOk(
    t.request('POST', '/pay-api/v1/transactions/ach/payment', {
      token: owner.token,
      body: {
        amount: 3,
        requesterIPaddress: '203.0.113.9',
        accountNumber: '123456789',
        routingNumber: '021000021',
        accountHolderType: 2,
        billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, countryId: 1, postalCode: '10001' },
        contactInfo: { firstName: 'A', lastName: 'B', mobileNumber: '+12125550100' },
      },
    }),
  );
  if (cleared) {
    // Straight through the ACH clock's own steps (cutoff, then settlement), without moving the shared clock.
    const [entry] = await t.query<{ processor_id: string; window_at: Date }>(
      'SELECT processor_id, window_at FROM ach_entries WHERE transaction_id = $1',
      [created.transactionId],
    );
    const fileId = await t.ctx.services.ach.cutoff(entry!.processor_id, entry!.window_at);
    await t.ctx.services.ach.clearFile(fileId!);
  }
  if (hold) {
    await t.expectOk(
      t.request('POST', `/pay-api/v1/transactions/ach/${created.transactionId}/hold`, { token: owner.token }),
    );
  }
  return { transactionId: created.transactionId };
}
for (const [operation, held, cleared] of [
  ['hold', false, false],
  ['unhold', true, false],
  ['void', false, false],
  ['refund', false, true],
] as const) {
  CROSS_TENANT.push({
    route: `POST /pay-api/v1/transactions/ach/{transactionId}/${operation}`,
    caller: 'merchant',
    setup: (t, owner) => achDebit(t, owner, held, cleared),
    request: (ids) => ({ method: 'POST', url: `/pay-api/v1/transactions/ach/${ids.transactionId}/${operation}` }),
  });
}
for (const [path, held] of [
  ['ach-hold', false],
  ['ach-release', true],
] as const) {
  CROSS_TENANT.push({
    route: `POST /v2/transactions/{transactionId}/${path}`,
    caller: 'merchant',
    setup: (t, owner) => achDebit(t, owner, held),
    request: (ids) => ({ method: 'POST', url: `/v2/transactions/${ids.transactionId}/${path}` }),
  });
}
for (const [path, held] of [
  ['hold', false],
  ['release-hold', true],
] as const) {
  CROSS_TENANT.push({
    route: `POST /v2/transactions/${path} {transactionId}`,
    caller: 'merchant',
    setup: (t, owner) => achDebit(t, owner, held),
    request: (ids) => ({ method: 'POST', url: `/v2/transactions/${path}`, body: { transactionId: ids.transactionId } }),
  });
}
CROSS_TENANT.push(
  {
    route: 'POST /v2/transactions/{transactionId}/reversal (ACH)',
    caller: 'merchant',
    setup: (t, owner) => achDebit(t, owner),
    request: (ids) => ({ method: 'POST', url: `/v2/transactions/${ids.transactionId}/reversal`, body: {} }),
  },
  {
    route: 'POST /v2/transactions/{id}/share-receipt',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({
      method: 'POST',
      url: `/v2/transactions/${ids.transactionId}/share-receipt`,
      body: { shareBy: 'Email', recipient: 'someone@example.com', hasCustomerConsent: true },
    }),
  },
  {
    route: 'POST /v2/transactions/{transactionId}/tip-adjustment',
    caller: 'merchant',
    async setup(t, owner) {
      await t.expectOk(
        t.admin('PATCH', `/admin/v1/merchants/${owner.merchantId}`, { settings: { isTipsEnabled: true } }),
      );
      return cardPayment(t, owner, 'sale');
    },
    request: (ids) => ({
      method: 'POST',
      url: `/v2/transactions/${ids.transactionId}/tip-adjustment`,
      body: { tipAmount: 1 },
    }),
  },
  {
    route: 'POST /v2/transactions/{id}/send-receipt',
    caller: 'merchant',
    setup: (t, owner) => cardPayment(t, owner, 'sale'),
    request: (ids) => ({
      method: 'POST',
      url: `/v2/transactions/${ids.transactionId}/send-receipt`,
      body: { mobileNumber: '+15551234567', customerConsent: true },
    }),
  },
);
CROSS_TENANT.push({
  route: 'POST /pay-api/v1/transactions/ach/payment {customerId, paymentMethodId}',
  caller: 'merchant',
  async setup(t, owner) {
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', { token: owner.token, body: { firstName: 'Ach' } }),
    );
    const pm = await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/ach`, {
        token: owner.token,
        body: { accountNumber: '123456789', routingNumber: '021000021', accountType: 1, accountHolderType: 2 },
      }),
    );
    return { customerId: customer.id, paymentMethodId: pm.id };
  },
  request: (ids) => ({
    method: 'POST',
    url: '/pay-api/v1/transactions/ach/payment',
    body: {
      amount: 2,
      requesterIPaddress: '203.0.113.9',
      customerId: ids.customerId,
      paymentMethodId: ids.paymentMethodId,
    },
  }),
});

// Webhook endpoints point at a closed loopback port (the tenancy node allows loopback targets): pings and retries
// fail fast without sending traffic anywhere else.
async function webhookEndpoint(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const endpoint = await t.expectOk(
    t.request('POST', '/v2/webhooks/endpoints', {
      token: owner.token,
      body: { name: 'hook', endpointUrl: 'http://127.0.0.1:9/hook', eventTypes: ['api_key.created'] },
    }),
  );
  return { endpointId: endpoint.endpointId };
}

/** A failed delivery attempt of the owner's endpoint (an api_key.created event, which both kinds can cause). */
async function failedDelivery(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const { endpointId } = await webhookEndpoint(t, owner);
  await t.expectOk(
    t.request('POST', '/pay-api/v1/merchants/tokens', {
      token: owner.token,
      body: { merchantId: owner.merchantId, tokenName: 'k' },
    }),
  );
  const log = await eventually(async () => {
    const res = await t.request('GET', `/v2/webhooks/delivery-logs?webhookId=${endpointId}`, { token: owner.token });
    return res.body.items?.[0];
  }, 10_000);
  return { endpointId: endpointId!, deliveryLogId: log.deliveryLogId };
}

for (const caller of ['merchant', 'partner'] as const) {
  CROSS_TENANT.push(
    {
      route: 'GET /v2/webhooks/endpoints/{endpointId}',
      caller,
      setup: webhookEndpoint,
      request: (ids) => ({ method: 'GET', url: `/v2/webhooks/endpoints/${ids.endpointId}` }),
    },
    {
      route: 'PATCH /v2/webhooks/endpoints/{endpointId}',
      caller,
      setup: webhookEndpoint,
      request: (ids) => ({ method: 'PATCH', url: `/v2/webhooks/endpoints/${ids.endpointId}`, body: { name: 'n' } }),
    },
    {
      route: 'PUT /v2/webhooks/endpoints/{endpointId}',
      caller,
      setup: webhookEndpoint,
      request: (ids) => ({
        method: 'PUT',
        url: `/v2/webhooks/endpoints/${ids.endpointId}`,
        body: { name: 'n', endpointUrl: 'http://127.0.0.1:9/other', eventTypes: ['api_key.deleted'] },
      }),
    },
    {
      route: 'DELETE /v2/webhooks/endpoints/{endpointId}',
      caller,
      setup: webhookEndpoint,
      request: (ids) => ({ method: 'DELETE', url: `/v2/webhooks/endpoints/${ids.endpointId}` }),
    },
    {
      route: 'POST /v2/webhooks/endpoints/{endpointId}/ping',
      caller,
      setup: webhookEndpoint,
      request: (ids) => ({ method: 'POST', url: `/v2/webhooks/endpoints/${ids.endpointId}/ping` }),
    },
    {
      route: 'GET /v2/webhooks/endpoints/{endpointId}/ping',
      caller,
      setup: webhookEndpoint,
      request: (ids) => ({ method: 'GET', url: `/v2/webhooks/endpoints/${ids.endpointId}/ping` }),
    },
    {
      route: 'GET /v2/webhooks/delivery-logs/{deliveryLogId}',
      caller,
      setup: failedDelivery,
      request: (ids) => ({ method: 'GET', url: `/v2/webhooks/delivery-logs/${ids.deliveryLogId}` }),
    },
    {
      route: 'POST /v2/webhooks/delivery-logs/{deliveryLogId}/retry',
      caller,
      setup: failedDelivery,
      request: (ids) => ({ method: 'POST', url: `/v2/webhooks/delivery-logs/${ids.deliveryLogId}/retry` }),
    },
  );
}

async function paymentSession(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const session = await t.expectOk(
    t.request('POST', '/v2/payment-sessions', { token: owner.token, body: { amount: 5 } }),
  );
  return { paymentSessionId: session.id };
}

for (const prefix of ['/v2/payment-sessions', '/pay-int-api/payment-sessions']) {
  for (const method of ['GET', 'POST']) {
    CROSS_TENANT.push({
      route: `${method} ${prefix}/{paymentSessionId}`,
      caller: 'merchant',
      setup: paymentSession,
      request: (ids) => ({ method, url: `${prefix}/${ids.paymentSessionId}` }),
    });
  }
  CROSS_TENANT.push({
    route: `POST ${prefix}/{paymentSessionId}/cancel`,
    caller: 'merchant',
    setup: paymentSession,
    request: (ids) => ({ method: 'POST', url: `${prefix}/${ids.paymentSessionId}/cancel` }),
  });
}
CROSS_TENANT.push({
  route: 'POST /v2/payment-sessions {customerId}',
  caller: 'merchant',
  async setup(t, owner) {
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', { token: owner.token, body: { firstName: 'Ada' } }),
    );
    return { customerId: customer.id };
  },
  request: (ids) => ({
    method: 'POST',
    url: '/v2/payment-sessions',
    body: { mode: 'SaveMethod', amount: 0, customerId: ids.customerId },
  }),
});

async function subscription(t: TestNode, owner: Owner, suspended = false): Promise<Record<string, string>> {
  const { customerId, paymentMethodId } = await customerWithCard(t, owner);
  const configuration = await t.expectOk(
    t.request('GET', '/pay-api/v1/configurations/payments', { token: owner.token }),
  );
  const processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1);
  const created = await t.expectOk(
    t.request('POST', '/sub-api/v1/subscriptions', {
      token: owner.token,
      body: {
        customerId,
        paymentMethodId,
        amount: 5,
        paymentFrequencyUnit: 3,
        paymentFrequency: 1,
        transactionType: 2,
        requesterIpAddress: '192.0.2.1',
        paymentProcessorId: processor.id,
        paymentStartDateTime: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    }),
  );
  if (suspended) {
    await t.expectOk(t.request('PUT', `/sub-api/v1/subscriptions/${created.id}/suspend`, { token: owner.token }));
  }
  return { subscriptionId: created.id, customerId, paymentMethodId };
}

const SUBSCRIPTIONS = '/sub-api/v1/subscriptions';
CROSS_TENANT.push(
  {
    route: `GET ${SUBSCRIPTIONS}/{subscriptionId}`,
    caller: 'merchant',
    setup: (t, owner) => subscription(t, owner),
    request: (ids) => ({ method: 'GET', url: `${SUBSCRIPTIONS}/${ids.subscriptionId}` }),
  },
  {
    route: `GET ${SUBSCRIPTIONS}/{subscriptionId}/payments`,
    caller: 'merchant',
    setup: (t, owner) => subscription(t, owner),
    request: (ids) => ({ method: 'GET', url: `${SUBSCRIPTIONS}/${ids.subscriptionId}/payments` }),
  },
  {
    route: `PUT ${SUBSCRIPTIONS}/{subscriptionId}/terminate`,
    caller: 'merchant',
    setup: (t, owner) => subscription(t, owner),
    request: (ids) => ({ method: 'PUT', url: `${SUBSCRIPTIONS}/${ids.subscriptionId}/terminate` }),
  },
  {
    route: `PUT ${SUBSCRIPTIONS}/{subscriptionId}/suspend`,
    caller: 'merchant',
    setup: (t, owner) => subscription(t, owner),
    request: (ids) => ({ method: 'PUT', url: `${SUBSCRIPTIONS}/${ids.subscriptionId}/suspend` }),
  },
  {
    route: `PUT ${SUBSCRIPTIONS}/{subscriptionId}/resume`,
    caller: 'merchant',
    setup: (t, owner) => subscription(t, owner, true),
    request: (ids) => ({ method: 'PUT', url: `${SUBSCRIPTIONS}/${ids.subscriptionId}/resume` }),
  },
  {
    route: `PUT ${SUBSCRIPTIONS}/{subscriptionId}/payment-method`,
    caller: 'merchant',
    setup: (t, owner) => subscription(t, owner),
    request: (ids) => ({
      method: 'PUT',
      url: `${SUBSCRIPTIONS}/${ids.subscriptionId}/payment-method`,
      body: { paymentMethodId: ids.paymentMethodId },
    }),
  },
  {
    route: `POST ${SUBSCRIPTIONS} {customerId}`,
    caller: 'merchant',
    async setup(t, owner) {
      const ids = await subscription(t, owner);
      const configuration = await t.expectOk(
        t.request('GET', '/pay-api/v1/configurations/payments', { token: owner.token }),
      );
      const processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1);
      return { ...ids, processorId: processor.id };
    },
    request: (ids) => ({
      method: 'POST',
      url: SUBSCRIPTIONS,
      body: {
        customerId: ids.customerId,
        paymentMethodId: ids.paymentMethodId,
        amount: 5,
        paymentFrequencyUnit: 2,
        paymentFrequency: 1,
        transactionType: 2,
        requesterIpAddress: '192.0.2.1',
        paymentProcessorId: ids.processorId,
      },
    }),
  },
);

async function terminal(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const created = await t.expectOk(
    t.admin('POST', `/admin/v1/merchants/${owner.merchantId}/terminals`, {
      serialNumber: `TEN-${Math.random().toString(36).slice(2, 12)}`,
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      terminalModeId: 2,
    }),
  );
  return { terminalId: created.id };
}

async function device(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const deviceId = `dev-${Math.random().toString(36).slice(2, 12)}`;
  await t.expectOk(
    t.request('POST', '/pay-api/v1/devices', { token: owner.token, body: { deviceId, deviceName: 'D' } }),
  );
  return { deviceId };
}

async function approvedDevice(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const { deviceId } = await device(t, owner);
  await t.expectOk(t.request('POST', `/pay-api/v1/devices/${deviceId}/tap-to-pay/activate`, { token: owner.token }));
  await t.expectOk(t.admin('POST', `/admin/v1/merchants/${owner.merchantId}/devices/${deviceId}/tap-to-pay/approve`));
  return { deviceId: deviceId! };
}

CROSS_TENANT.push(
  {
    route: 'GET /pos-api/v1/terminals/{terminalId}/status',
    caller: 'merchant',
    setup: terminal,
    request: (ids) => ({ method: 'GET', url: `/pos-api/v1/terminals/${ids.terminalId}/status` }),
  },
  {
    route: 'GET /pay-api/v1/devices/{deviceId}',
    caller: 'merchant',
    setup: device,
    request: (ids) => ({ method: 'GET', url: `/pay-api/v1/devices/${ids.deviceId}` }),
  },
  {
    route: 'POST /pay-api/v1/devices/{deviceId}/tap-to-pay/activate',
    caller: 'merchant',
    setup: device,
    request: (ids) => ({ method: 'POST', url: `/pay-api/v1/devices/${ids.deviceId}/tap-to-pay/activate` }),
  },
  {
    route: 'POST /pay-api/v1/devices/tap-to-pay/jwt {deviceId}',
    caller: 'merchant',
    setup: approvedDevice,
    request: (ids) => ({ method: 'POST', url: '/pay-api/v1/devices/tap-to-pay/jwt', body: { deviceId: ids.deviceId } }),
  },
);

/** A POS transaction on a terminal of the owner: completed (with `complete`) or waiting for its card. */
async function posTransaction(t: TestNode, owner: Owner, complete = false): Promise<Record<string, string>> {
  const { terminalId } = await terminal(t, owner);
  if (complete) {
    await t.expectOk(
      t.admin('POST', `/admin/v1/sandbox/terminals/${terminalId}/actions`, {
        action: 'present-card',
        pan: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2031,
      }),
    );
  }
  const created = await t.expectOk(
    t.request('POST', '/pos-api/v1/pos-transactions', {
      token: owner.token,
      body: { terminalId: terminalId!, amount: 2 },
    }),
  );
  if (complete) {
    await t.expectOk(
      t.request('GET', `/pos-api/v1/pos-transactions/${created.posTransactionId}?waitForTransactionProcessing=true`, {
        token: owner.token,
      }),
    );
  }
  return { terminalId: terminalId!, posTransactionId: created.posTransactionId };
}

const POS = '/pos-api/v1/pos-transactions';
CROSS_TENANT.push(
  {
    route: `GET ${POS}/{posTransactionId}`,
    caller: 'merchant',
    setup: (t, owner) => posTransaction(t, owner),
    request: (ids) => ({ method: 'GET', url: `${POS}/${ids.posTransactionId}` }),
  },
  {
    route: `POST ${POS}/{posTransactionId}/cancel`,
    caller: 'merchant',
    setup: (t, owner) => posTransaction(t, owner),
    request: (ids) => ({ method: 'POST', url: `${POS}/${ids.posTransactionId}/cancel` }),
  },
  {
    route: `POST ${POS}/{posTransactionId}/print`,
    caller: 'merchant',
    setup: (t, owner) => posTransaction(t, owner, true),
    request: (ids) => ({ method: 'POST', url: `${POS}/${ids.posTransactionId}/print` }),
  },
  {
    route: 'POST /v2/pos/transactions/{posTransactionId}/print-receipt',
    caller: 'merchant',
    setup: (t, owner) => posTransaction(t, owner, true),
    request: (ids) => ({
      method: 'POST',
      url: `/v2/pos/transactions/${ids.posTransactionId}/print-receipt`,
      body: { terminalId: ids.terminalId },
    }),
  },
  {
    route: `POST ${POS} {terminalId}`,
    caller: 'merchant',
    setup: terminal,
    request: (ids) => ({ method: 'POST', url: POS, body: { terminalId: ids.terminalId, amount: 1 } }),
  },
  {
    route: 'GET /v2/pos/transactions/{id}',
    caller: 'merchant',
    setup: (t, owner) => posTransaction(t, owner),
    request: (ids) => ({ method: 'GET', url: `/v2/pos/transactions/${ids.posTransactionId}` }),
  },
  {
    route: 'POST /v2/pos/transactions/{id}/cancel',
    caller: 'merchant',
    setup: (t, owner) => posTransaction(t, owner),
    request: (ids) => ({ method: 'POST', url: `/v2/pos/transactions/${ids.posTransactionId}/cancel` }),
  },
  {
    route: 'POST /v2/pos/transactions {terminalId}',
    caller: 'merchant',
    setup: terminal,
    request: (ids) => ({
      method: 'POST',
      url: '/v2/pos/transactions',
      body: { terminalId: ids.terminalId, amount: 1 },
    }),
  },
  {
    route: 'POST /v2/pos/transactions {targetTransactionId}',
    caller: 'merchant',
    async setup(t, owner) {
      const { posTransactionId } = await posTransaction(t, owner, true);
      const done = await t.expectOk(
        t.request('GET', `/pos-api/v1/pos-transactions/${posTransactionId}`, { token: owner.token }),
      );
      const { terminalId } = await terminal(t, owner);
      return { terminalId: terminalId!, transactionId: done.transactionId };
    },
    request: (ids) => ({
      method: 'POST',
      url: '/v2/pos/transactions',
      body: { terminalId: ids.terminalId, transactionType: 'Void', targetTransactionId: ids.transactionId },
    }),
  },
  {
    route: 'GET /v2/terminals/{id}/status',
    caller: 'merchant',
    setup: terminal,
    request: (ids) => ({ method: 'GET', url: `/v2/terminals/${ids.terminalId}/status` }),
  },
);

async function catalogEntries(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const category = await t.expectOk(
    t.request('POST', '/pay-int-api/categories', { token: owner.token, body: { name: `C-${Math.random()}` } }),
  );
  const item = await t.expectOk(
    t.request('POST', '/pay-int-api/line-items', { token: owner.token, body: { productName: 'I', unitPrice: 1 } }),
  );
  return { categoryId: category.id, lineItemId: item.id };
}

const SETTINGS_BODY = {
  dueDateAfterDays: 30,
  taxPercentage: null,
  isDiscountEnabled: false,
  discountPercentage: null,
  isShippingFeeEnabled: false,
  shippingFeeAmount: null,
  isFeesEnabled: false,
  feesPercentage: null,
  notes: null,
  paymentMethodTypeId: 1,
  cardPaymentProcessorId: null,
  achPaymentProcessorId: null,
  allowStaffToSetDiscountAndLineItemDiscount: true,
  allowManuallyEnterLineItems: false,
  isSmsNotificationAfterPaymentEnabled: false,
  isSmsNotificationAfterPaymentFailedEnabled: false,
  canOverWriteInvoiceLineItemPrice: true,
  newZcpFeatureEnabled: false,
};

CROSS_TENANT.push(
  {
    route: 'PUT /pay-int-api/categories/{categoryId}',
    caller: 'merchant',
    setup: catalogEntries,
    request: (ids) => ({
      method: 'PUT',
      url: `/pay-int-api/categories/${ids.categoryId}`,
      body: { name: `R-${ids.categoryId}` },
    }),
  },
  {
    route: 'DELETE /pay-int-api/categories/{categoryId}',
    caller: 'merchant',
    setup: catalogEntries,
    request: (ids) => ({ method: 'DELETE', url: `/pay-int-api/categories/${ids.categoryId}` }),
  },
  {
    route: 'PUT /pay-int-api/line-items/{lineItemId}',
    caller: 'merchant',
    setup: catalogEntries,
    request: (ids) => ({
      method: 'PUT',
      url: `/pay-int-api/line-items/${ids.lineItemId}`,
      body: { productName: 'J', unitPrice: 2 },
    }),
  },
  {
    route: 'DELETE /pay-int-api/line-items/{lineItemId}',
    caller: 'merchant',
    setup: catalogEntries,
    request: (ids) => ({ method: 'DELETE', url: `/pay-int-api/line-items/${ids.lineItemId}` }),
  },
  {
    route: 'POST /pay-int-api/line-items {categoryId}',
    caller: 'merchant',
    setup: catalogEntries,
    request: (ids) => ({
      method: 'POST',
      url: '/pay-int-api/line-items',
      body: { productName: 'K', unitPrice: 1, categoryId: ids.categoryId },
    }),
  },
  ...(['merchant', 'partner'] as const).flatMap((caller) => [
    {
      route: 'GET /pay-int-api/merchants/{merchantId}/invoices/settings',
      caller,
      setup: async (_t: TestNode, owner: Owner) => ({ merchantId: owner.merchantId }),
      request: (ids: Record<string, string>) => ({
        method: 'GET',
        url: `/pay-int-api/merchants/${ids.merchantId}/invoices/settings`,
      }),
    },
    {
      route: 'PUT /pay-int-api/merchants/{merchantId}/invoices/settings',
      caller,
      setup: async (_t: TestNode, owner: Owner) => ({ merchantId: owner.merchantId }),
      request: (ids: Record<string, string>) => ({
        method: 'PUT',
        url: `/pay-int-api/merchants/${ids.merchantId}/invoices/settings`,
        body: SETTINGS_BODY,
      }),
    },
  ]),
);

/** A Draft invoice of the owner (published with `publish`), a customer and a catalog item of it. */
async function invoice(t: TestNode, owner: Owner, publish = false): Promise<Record<string, string>> {
  const { lineItemId } = await catalogEntries(t, owner);
  const customer = await t.expectOk(
    t.request('POST', '/pay-api/v1/customers', { token: owner.token, body: { firstName: 'I' } }),
  );
  const created = await t.expectOk(
    t.request('POST', '/pay-int-api/invoices', {
      token: owner.token,
      body: { customerId: customer.id, lineItems: [{ lineItemId, quantity: 1 }] },
    }),
  );
  if (publish) {
    await t.expectOk(
      t.request('POST', '/pay-int-api/invoices/publish', { token: owner.token, body: { invoiceId: created.id } }),
    );
  }
  return { invoiceId: created.id, customerId: customer.id, lineItemId: lineItemId! };
}

const INVOICES = '/pay-int-api/invoices';
const draftInvoice = (t: TestNode, owner: Owner) => invoice(t, owner);
const publishedInvoice = (t: TestNode, owner: Owner) => invoice(t, owner, true);
CROSS_TENANT.push(
  {
    route: `GET ${INVOICES}/{invoiceId}`,
    caller: 'merchant',
    setup: draftInvoice,
    request: (ids) => ({ method: 'GET', url: `${INVOICES}/${ids.invoiceId}` }),
  },
  {
    route: `PUT ${INVOICES}/{invoiceId}`,
    caller: 'merchant',
    setup: draftInvoice,
    request: (ids) => ({
      method: 'PUT',
      url: `${INVOICES}/${ids.invoiceId}`,
      body: { customer: { firstName: 'X' }, lineItems: [{ productName: 'X', quantity: 1, unitPrice: 1 }] },
    }),
  },
  {
    route: `DELETE ${INVOICES}/{invoiceId}`,
    caller: 'merchant',
    setup: draftInvoice,
    request: (ids) => ({ method: 'DELETE', url: `${INVOICES}/${ids.invoiceId}` }),
  },
  {
    route: `GET ${INVOICES}/{invoiceId}/calculations`,
    caller: 'merchant',
    setup: draftInvoice,
    request: (ids) => ({ method: 'GET', url: `${INVOICES}/${ids.invoiceId}/calculations` }),
  },
  {
    route: `POST ${INVOICES}/publish {invoiceId}`,
    caller: 'merchant',
    setup: draftInvoice,
    request: (ids) => ({ method: 'POST', url: `${INVOICES}/publish`, body: { invoiceId: ids.invoiceId } }),
  },
  {
    route: `PUT ${INVOICES}/{invoiceId}/cancel`,
    caller: 'merchant',
    setup: publishedInvoice,
    request: (ids) => ({ method: 'PUT', url: `${INVOICES}/${ids.invoiceId}/cancel` }),
  },
  {
    route: `PUT ${INVOICES}/{invoiceId}/mark-as-paid`,
    caller: 'merchant',
    setup: publishedInvoice,
    request: (ids) => ({ method: 'PUT', url: `${INVOICES}/${ids.invoiceId}/mark-as-paid`, body: {} }),
  },
  {
    route: `POST ${INVOICES}/{invoiceId}/submit`,
    caller: 'merchant',
    setup: publishedInvoice,
    request: (ids) => ({
      method: 'POST',
      url: `${INVOICES}/${ids.invoiceId}/submit`,
      body: { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
    }),
  },
  {
    route: `GET ${INVOICES}/{invoiceId}/download-pdf`,
    caller: 'merchant',
    setup: publishedInvoice,
    request: (ids) => ({ method: 'GET', url: `${INVOICES}/${ids.invoiceId}/download-pdf` }),
  },
  {
    route: `POST ${INVOICES}/{invoiceId}/send-email-notification`,
    caller: 'merchant',
    setup: publishedInvoice,
    request: (ids) => ({
      method: 'POST',
      url: `${INVOICES}/${ids.invoiceId}/send-email-notification`,
      body: { email: 'ada@example.com' },
    }),
  },
  {
    route: `POST ${INVOICES}/{invoiceId}/send-published-sms-notification`,
    caller: 'merchant',
    setup: publishedInvoice,
    request: (ids) => ({
      method: 'POST',
      url: `${INVOICES}/${ids.invoiceId}/send-published-sms-notification`,
      body: { mobileNumber: '+12125550100' },
    }),
  },
  {
    route: `POST ${INVOICES}/{invoiceId}/ach/submit`,
    caller: 'merchant',
    setup: publishedInvoice,
    request: (ids) => ({
      method: 'POST',
      url: `${INVOICES}/${ids.invoiceId}/ach/submit`,
      body: {
        accountNumber: '100000099',
        routingNumber: '021000021',
        accountType: 1,
        accountHolderType: 2,
        billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, postalCode: '10001', countryId: 1 },
        contactInfo: { firstName: 'A', lastName: 'B', email: 'a@example.com', mobilePhoneNumber: '+12125550100' },
      },
    }),
  },
  {
    route: `POST ${INVOICES} {customerId}`,
    caller: 'merchant',
    setup: draftInvoice,
    request: (ids) => ({
      method: 'POST',
      url: INVOICES,
      body: { customerId: ids.customerId, lineItems: [{ productName: 'X', quantity: 1, unitPrice: 1 }] },
    }),
  },
  {
    route: `POST ${INVOICES} {lineItemId}`,
    caller: 'merchant',
    setup: draftInvoice,
    request: (ids) => ({
      method: 'POST',
      url: INVOICES,
      body: { customer: { firstName: 'X' }, lineItems: [{ lineItemId: ids.lineItemId, quantity: 1 }] },
    }),
  },
);

const QUICK = '/pay-int-api/quick-payments';
const LINKS = '/v2/payment-links';
/** A quick payment of each kind (the one-time one active) and a version 2 link of the owner. */
async function links(t: TestNode, owner: Owner): Promise<Record<string, string>> {
  const post = (url: string, body: unknown) => t.expectOk(t.request('POST', url, { token: owner.token, body }));
  const oneTime = await post(`${QUICK}/one-time`, { amount: 5 });
  const reusable = await post(`${QUICK}/reusable`, { amount: 5 });
  const link = await post(LINKS, { paymentMethods: { card: { enabled: true } }, currencyCode: 'USD', name: 'L' });
  return { oneTimeId: oneTime.id, reusableId: reusable.id, paymentLinkId: link.paymentLinkId };
}
CROSS_TENANT.push(
  {
    route: `GET ${QUICK}/one-time/{quickPaymentId}`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({ method: 'GET', url: `${QUICK}/one-time/${ids.oneTimeId}` }),
  },
  {
    route: `GET ${QUICK}/reusable/{quickPaymentId}`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({ method: 'GET', url: `${QUICK}/reusable/${ids.reusableId}` }),
  },
  {
    route: `POST ${QUICK}/{quickPaymentId}/activate`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({ method: 'POST', url: `${QUICK}/${ids.reusableId}/activate` }),
  },
  {
    route: `POST ${QUICK}/{quickPaymentId}/deactivate`,
    caller: 'merchant',
    setup: async (t, owner) => {
      const ids = await links(t, owner);
      await t.expectOk(t.request('POST', `${QUICK}/${ids.reusableId}/activate`, { token: owner.token }));
      return ids;
    },
    request: (ids) => ({ method: 'POST', url: `${QUICK}/${ids.reusableId}/deactivate` }),
  },
  {
    route: `POST ${QUICK}/{quickPaymentId}/send-sms-notification`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({
      method: 'POST',
      url: `${QUICK}/${ids.oneTimeId}/send-sms-notification`,
      body: { mobileNumber: '+12125550100' },
    }),
  },
  {
    route: `GET ${LINKS}/{paymentLinkId}`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({ method: 'GET', url: `${LINKS}/${ids.paymentLinkId}` }),
  },
  {
    route: `PATCH ${LINKS}/{paymentLinkId}`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({ method: 'PATCH', url: `${LINKS}/${ids.paymentLinkId}`, body: { description: 'x' } }),
  },
  {
    route: `DELETE ${LINKS}/{paymentLinkId}`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({ method: 'DELETE', url: `${LINKS}/${ids.paymentLinkId}` }),
  },
  {
    route: `POST ${LINKS}/{paymentLinkId}/share`,
    caller: 'merchant',
    setup: links,
    request: (ids) => ({
      method: 'POST',
      url: `${LINKS}/${ids.paymentLinkId}/share`,
      body: { shareBy: 'Email', recipient: 'a@example.com', hasCustomerConsent: true },
    }),
  },
);

/** Which token kinds each bearer route accepts; the other kind must get 403. */
export const TOKEN_KINDS: Record<string, Kind[]> = {
  'GET /pay-api/v1/merchants': ['partner'],
  'GET /pay-api/v1/events/stream': ['merchant'],
  'GET /pay-api/v1/request-logs': ['merchant'],
  'GET /pay-api/v1/configurations/payments': ['merchant'],
  'GET /pay-api/v1/configurations/contact-infos': ['merchant'],
  'GET /pay-api/v1/configurations/states': ['merchant', 'partner'],
  'GET /pay-api/v1/merchants/tokens': ['merchant', 'partner'],
  'POST /pay-api/v1/merchants/tokens': ['merchant', 'partner'],
  'DELETE /pay-api/v1/merchants/tokens/{clientId}': ['merchant', 'partner'],
  'GET /pay-api/v1/customers': ['merchant'],
  'POST /pay-api/v1/customers': ['merchant'],
  'GET /pay-api/v1/customers/{customerId}': ['merchant'],
  'PUT /pay-api/v1/customers/{customerId}': ['merchant'],
  'DELETE /pay-api/v1/customers/{customerId}': ['merchant'],
  'GET /pay-api/v1/customers/{customerId}/payment-methods': ['merchant'],
  'POST /pay-api/v1/customers/{customerId}/payment-methods/cards': ['merchant'],
  'POST /pay-api/v1/customers/{customerId}/payment-methods/ach': ['merchant'],
  'PUT /pay-api/v1/customers/{customerId}/payment-methods/{paymentMethodId}': ['merchant'],
  'POST /pay-api/v1/customers/{customerId}/payment-methods/{paymentMethodId}/make-default': ['merchant'],
  'DELETE /pay-api/v1/customers/{customerId}/payment-methods/{paymentMethodId}': ['merchant'],
  'POST /pay-api/v1/payment-methods/cards': ['merchant'],
  'POST /pay-api/v1/payment-methods/ach': ['merchant'],
  'POST /pay-api/v1/transactions/sale': ['merchant'],
  'POST /pay-api/v1/transactions/auth': ['merchant'],
  'POST /pay-api/v1/transactions/verify': ['merchant'],
  'POST /pay-api/v1/transactions/refund-without-reference': ['merchant'],
  'POST /pay-api/v1/transactions/capture': ['merchant'],
  'POST /pay-api/v1/transactions/void': ['merchant'],
  'POST /pay-api/v1/transactions/return': ['merchant'],
  'POST /pay-api/v1/transactions/tip-adjustment': ['merchant'],
  'POST /pay-api/v1/transactions/settle': ['merchant'],
  'GET /pay-api/v1/transactions/calculate-amount': ['merchant'],
  'GET /pay-api/v1/transactions/{transactionId}': ['merchant'],
  'POST /pay-api/v1/transactions/{transactionId}': ['merchant'],
  'GET /pay-api/v1/transactions': ['merchant'],
  'GET /pay-api/v1/settlements/batches': ['merchant'],
  'POST /pay-api/v1/transactions/ach/payment': ['merchant'],
  'POST /pay-api/v1/transactions/ach/payment/credit': ['merchant'],
  'POST /pay-api/v1/transactions/ach/{transactionId}/hold': ['merchant'],
  'POST /pay-api/v1/transactions/ach/{transactionId}/unhold': ['merchant'],
  'POST /pay-api/v1/transactions/ach/{transactionId}/void': ['merchant'],
  'POST /pay-api/v1/transactions/ach/{transactionId}/refund': ['merchant'],
  'GET /v2/webhooks/event-types': ['merchant', 'partner'],
  'POST /v2/webhooks/endpoints': ['merchant', 'partner'],
  'GET /v2/webhooks/endpoints': ['merchant', 'partner'],
  'GET /v2/webhooks/endpoints/{endpointId}': ['merchant', 'partner'],
  'PATCH /v2/webhooks/endpoints/{endpointId}': ['merchant', 'partner'],
  'PUT /v2/webhooks/endpoints/{endpointId}': ['merchant', 'partner'],
  'DELETE /v2/webhooks/endpoints/{endpointId}': ['merchant', 'partner'],
  'POST /v2/webhooks/endpoints/{endpointId}/ping': ['merchant', 'partner'],
  'GET /v2/webhooks/endpoints/{endpointId}/ping': ['merchant', 'partner'],
  'GET /v2/webhooks/delivery-logs': ['merchant', 'partner'],
  'GET /v2/webhooks/delivery-logs/export': ['merchant', 'partner'],
  'GET /v2/webhooks/delivery-logs/{deliveryLogId}': ['merchant', 'partner'],
  'POST /v2/webhooks/delivery-logs/{deliveryLogId}/retry': ['merchant', 'partner'],
  'POST /v2/payment-sessions': ['merchant'],
  'GET /v2/payment-sessions/{paymentSessionId}': ['merchant'],
  'POST /v2/payment-sessions/{paymentSessionId}': ['merchant'],
  'POST /v2/payment-sessions/{paymentSessionId}/cancel': ['merchant'],
  'POST /pay-int-api/payment-sessions': ['merchant'],
  'GET /pay-int-api/payment-sessions/{paymentSessionId}': ['merchant'],
  'POST /pay-int-api/payment-sessions/{paymentSessionId}': ['merchant'],
  'POST /pay-int-api/payment-sessions/{paymentSessionId}/cancel': ['merchant'],
  'POST /sub-api/v1/subscriptions': ['merchant'],
  'GET /sub-api/v1/subscriptions': ['merchant'],
  'GET /sub-api/v1/subscriptions/{subscriptionId}': ['merchant'],
  'GET /sub-api/v1/subscriptions/{subscriptionId}/payments': ['merchant'],
  'PUT /sub-api/v1/subscriptions/{subscriptionId}/terminate': ['merchant'],
  'PUT /sub-api/v1/subscriptions/{subscriptionId}/suspend': ['merchant'],
  'PUT /sub-api/v1/subscriptions/{subscriptionId}/resume': ['merchant'],
  'PUT /sub-api/v1/subscriptions/{subscriptionId}/payment-method': ['merchant'],
  'GET /pos-api/v1/terminals': ['merchant'],
  'GET /pos-api/v1/terminals/{terminalId}/status': ['merchant'],
  'GET /pay-api/v1/devices': ['merchant'],
  'POST /pay-api/v1/devices': ['merchant'],
  'GET /pay-api/v1/devices/{deviceId}': ['merchant'],
  'POST /pay-api/v1/devices/{deviceId}/tap-to-pay/activate': ['merchant'],
  'POST /pay-api/v1/devices/tap-to-pay/jwt': ['merchant'],
  'POST /pos-api/v1/pos-transactions': ['merchant'],
  'GET /pos-api/v1/pos-transactions': ['merchant'],
  'GET /pos-api/v1/pos-transactions/{posTransactionId}': ['merchant'],
  'POST /pos-api/v1/pos-transactions/{posTransactionId}/cancel': ['merchant'],
  'POST /pos-api/v1/pos-transactions/{posTransactionId}/print': ['merchant'],
  'POST /v2/pos/transactions/{posTransactionId}/print-receipt': ['merchant'],
  'GET /pay-int-api/line-items/unit-types': ['merchant'],
  'GET /pay-int-api/categories': ['merchant'],
  'POST /pay-int-api/categories': ['merchant'],
  'PUT /pay-int-api/categories/{categoryId}': ['merchant'],
  'DELETE /pay-int-api/categories/{categoryId}': ['merchant'],
  'GET /pay-int-api/line-items': ['merchant'],
  'POST /pay-int-api/line-items': ['merchant'],
  'PUT /pay-int-api/line-items/{lineItemId}': ['merchant'],
  'DELETE /pay-int-api/line-items/{lineItemId}': ['merchant'],
  'GET /pay-int-api/merchants/{merchantId}/invoices/settings': ['merchant', 'partner'],
  'PUT /pay-int-api/merchants/{merchantId}/invoices/settings': ['merchant', 'partner'],
  'POST /pay-int-api/invoices': ['merchant'],
  'GET /pay-int-api/invoices': ['merchant'],
  'GET /pay-int-api/invoices/{invoiceId}': ['merchant'],
  'PUT /pay-int-api/invoices/{invoiceId}': ['merchant'],
  'DELETE /pay-int-api/invoices/{invoiceId}': ['merchant'],
  'POST /pay-int-api/invoices/publish': ['merchant'],
  'PUT /pay-int-api/invoices/{invoiceId}/cancel': ['merchant'],
  'PUT /pay-int-api/invoices/{invoiceId}/mark-as-paid': ['merchant'],
  'GET /pay-int-api/invoices/{invoiceId}/calculations': ['merchant'],
  'POST /pay-int-api/invoices/{invoiceId}/submit': ['merchant'],
  'POST /pay-int-api/invoices/{invoiceId}/ach/submit': ['merchant'],
  'GET /pay-int-api/invoices/{invoiceId}/download-pdf': ['merchant'],
  'POST /pay-int-api/invoices/{invoiceId}/send-email-notification': ['merchant'],
  'POST /pay-int-api/invoices/{invoiceId}/send-published-sms-notification': ['merchant'],
  'POST /pay-int-api/quick-payments/one-time': ['merchant'],
  'GET /pay-int-api/quick-payments/one-time': ['merchant'],
  'GET /pay-int-api/quick-payments/one-time/{quickPaymentId}': ['merchant'],
  'POST /pay-int-api/quick-payments/reusable': ['merchant'],
  'GET /pay-int-api/quick-payments/reusable': ['merchant'],
  'GET /pay-int-api/quick-payments/reusable/{quickPaymentId}': ['merchant'],
  'POST /pay-int-api/quick-payments/{quickPaymentId}/activate': ['merchant'],
  'POST /pay-int-api/quick-payments/{quickPaymentId}/deactivate': ['merchant'],
  'POST /pay-int-api/quick-payments/{quickPaymentId}/send-sms-notification': ['merchant'],
  'POST /v2/payment-links': ['merchant'],
  'GET /v2/payment-links': ['merchant'],
  'GET /v2/settings/payment-config': ['merchant'],
  'GET /v2/settings/contact-info': ['merchant'],
  'POST /v2/transactions': ['merchant'],
  'GET /v2/transactions': ['merchant'],
  'GET /v2/transactions/calculate-amount': ['merchant'],
  'GET /v2/transactions/{id}': ['merchant'],
  'POST /v2/transactions/{transactionId}/capture': ['merchant'],
  'POST /v2/transactions/{transactionId}/reversal': ['merchant'],
  'POST /v2/transactions/tip-adjustment': ['merchant'],
  'POST /v2/transactions/credit': ['merchant'],
  'POST /v2/settlements/settle': ['merchant'],
  'GET /v2/settlements/batches': ['merchant'],
  'POST /v2/transactions/hold': ['merchant'],
  'POST /v2/transactions/release-hold': ['merchant'],
  'POST /v2/transactions/{id}/send-receipt': ['merchant'],
  'POST /v2/transactions/{id}/share-receipt': ['merchant'],
  'POST /v2/transactions/{transactionId}/tip-adjustment': ['merchant'],
  'POST /v2/transactions/{transactionId}/ach-hold': ['merchant'],
  'POST /v2/transactions/{transactionId}/ach-release': ['merchant'],
  'GET /v2/ping': ['merchant'],
  'POST /v2/transactions/calculate-amount': ['merchant'],
  'PATCH /v2/customers/{id}': ['merchant'],
  'GET /v2/payment-methods': ['merchant'],
  'POST /v2/payment-methods/cards': ['merchant'],
  'POST /v2/payment-methods/ach': ['merchant'],
  'GET /v2/payment-methods/{paymentMethodId}': ['merchant'],
  'PATCH /v2/payment-methods/{paymentMethodId}': ['merchant'],
  'DELETE /v2/payment-methods/{paymentMethodId}': ['merchant'],
  'POST /v2/payment-methods/{paymentMethodId}/set-default': ['merchant'],
  'GET /v2/settings/contact-information': ['merchant'],
  'PATCH /v2/settings/transaction-autofill': ['merchant'],
  'POST /v2/settlements/batches/close': ['merchant'],
  'GET /v2/terminals': ['merchant'],
  'GET /v2/settings/transaction-autofill': ['merchant'],
  'PUT /v2/settings/transaction-autofill': ['merchant'],
  'POST /v2/api-keys': ['merchant', 'partner'],
  'GET /v2/api-keys': ['merchant', 'partner'],
  'DELETE /v2/api-keys/{clientId}': ['merchant', 'partner'],
  'POST /v2/customers': ['merchant'],
  'GET /v2/customers': ['merchant'],
  'GET /v2/customers/{id}': ['merchant'],
  'PUT /v2/customers/{id}': ['merchant'],
  'DELETE /v2/customers/{id}': ['merchant'],
  'POST /v2/customers/{id}/payment-methods': ['merchant'],
  'GET /v2/customers/{id}/payment-methods': ['merchant'],
  'PUT /v2/customers/{id}/payment-methods/{paymentMethodId}': ['merchant'],
  'DELETE /v2/customers/{id}/payment-methods/{paymentMethodId}': ['merchant'],
  'PUT /v2/customers/{id}/payment-methods/{paymentMethodId}/set-default': ['merchant'],
  'GET /v2/terminals/{id}/status': ['merchant'],
  'POST /v2/pos/transactions': ['merchant'],
  'GET /v2/pos/transactions': ['merchant'],
  'GET /v2/pos/transactions/{id}': ['merchant'],
  'POST /v2/pos/transactions/{id}/cancel': ['merchant'],
  'GET /v2/payment-links/{paymentLinkId}': ['merchant'],
  'PATCH /v2/payment-links/{paymentLinkId}': ['merchant'],
  'DELETE /v2/payment-links/{paymentLinkId}': ['merchant'],
  'POST /v2/payment-links/{paymentLinkId}/share': ['merchant'],
};

describe('tenancy', () => {
  let t: TestNode;
  let openapi: any;
  before(async () => {
    t = await startNode({ workers: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
    openapi = (await t.request('GET', '/openapi.json')).body;
  });
  after(() => t.stop());

  async function tenantPair(kind: Kind): Promise<[Owner, Owner]> {
    const make = async (): Promise<Owner> => {
      if (kind === 'partner') {
        const partner = await t.partner();
        const merchant = await t.merchant({ partnerId: partner.id });
        return { merchantId: merchant.id, partnerId: partner.id, token: partner.token };
      }
      const merchant = await t.merchant();
      return { merchantId: merchant.id, partnerId: null, token: merchant.token };
    };
    return [await make(), await make()];
  }

  for (const [index, c] of CROSS_TENANT.entries()) {
    it(`${c.route} (${c.caller} token): another tenant's id answers 404, the owner's does not`, async () => {
      const [owner, stranger] = await tenantPair(c.caller);
      const ids = await c.setup(t, owner);
      const { method, url, body } = c.request(ids);
      const foreign = await t.request(method, url, { token: stranger.token, ...(body ? { body } : {}) });
      assert.equal(foreign.status, 404, `case ${index}: ${foreign.text}`);
      assert.equal(foreign.body.errorCode, 'N0000');
      const own = await t.request(method, url, { token: owner.token, ...(body ? { body } : {}) });
      assert.ok([200, 204].includes(own.status), `case ${index}, as the owner: ${own.status} ${own.text}`);
    });
  }

  it('lists every bearer route that takes an id in the cross-tenant table', () => {
    const covered = new Set(CROSS_TENANT.map((c) => c.route.split(/[ ?]/).slice(0, 2).join(' ')));
    for (const [path, item] of Object.entries<any>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const bearer = operation.security?.some((s: any) => 'bearer' in s);
        if (bearer && path.includes('{')) {
          assert.ok(
            covered.has(`${method.toUpperCase()} ${path}`),
            `${method.toUpperCase()} ${path} needs a cross-tenant case`,
          );
        }
      }
    }
  });

  it('lists every bearer route in the token-kind table', () => {
    const routes: string[] = [];
    for (const [path, item] of Object.entries<any>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (operation.security?.some((s: any) => 'bearer' in s)) routes.push(`${method.toUpperCase()} ${path}`);
      }
    }
    assert.deepEqual(routes.sort(), Object.keys(TOKEN_KINDS).sort());
  });

  it('answers 403 to the wrong kind of token on every route', async () => {
    const partner = await t.partner();
    const merchant = await t.merchant({ partnerId: partner.id });
    const tokens: Record<Kind, string> = { partner: partner.token, merchant: merchant.token };
    for (const [route, allowed] of Object.entries(TOKEN_KINDS)) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path
        .replace('{clientId}', merchant.clientId)
        .replace(/\{[A-Za-z]+Id\}/g, '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50');
      for (const kind of ['merchant', 'partner'] as const) {
        if (allowed.includes(kind)) continue;
        const res = await t.request(method, url, { token: tokens[kind], ...(method === 'POST' ? { body: {} } : {}) });
        assert.equal(res.status, 403, `${route} with a ${kind} token`);
        assert.equal(res.body.errorCode, 'F0000');
      }
    }
  });
});
