// Contract tests generated from the vendor SDK's OpenAPI document (its facts: test/contract/isv-api-v2.facts.json).
// For every operation of the document: each request example it contains is sent (ids replaced by real ones of this
// merchant) and accepted, and every answer validates against the document's response schema. Answers that also carry
// our specification's names, and the one field where the two disagree, are listed in OPEN and IGNORED below and in
// docs/api-v2.md. What the vendor does and Tessera does not (cash, other currencies, terminal types) is a clear 400.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { type MerchantTenant, startNode, type Tenant, type TestNode } from '../harness.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';
import { type ContractOperation, FACTS, operation, operationName, schemaErrors } from './vendor-contract.js';

/** Answers that carry the published revision's names beside the document's. */
const PUBLISHED_SUPERSETS = new Set([
  'POST /v2/transactions',
  'POST /v2/transactions/{transactionId}/capture',
  'POST /v2/transactions/tip-adjustment',
  'GET /v2/customers/{id}',
  'GET /v2/settings/payment-config',
  'GET /v2/settings/transaction-autofill',
  'GET /v2/api-keys',
  'POST /v2/pos/transactions',
  'GET /v2/pos/transactions',
  'GET /v2/pos/transactions/{id}',
  'POST /v2/pos/transactions/{id}/cancel',
  'GET /v2/terminals/{id}/status',
  // Lists answer both envelopes (`total` and `pageInfo`), and customers' and batches' items both names.
  'GET /v2/customers',
  'GET /v2/transactions',
  'GET /v2/settlements/batches',
  'GET /v2/terminals',
]);
/**
 * Operations whose answers also carry other names (the specification's on webhooks, the published revision's
 * elsewhere: docs/api-v2.md): validated with extra fields allowed; every field of the document is still checked.
 */
const OPEN = new Set(
  FACTS.operations
    .filter((op) => op.path.startsWith('/v2/webhooks') || PUBLISHED_SUPERSETS.has(operationName(op)))
    .map(operationName),
);
/** Fields where the specification and the document disagree; each is checked against the specification instead. */
const IGNORED: Record<string, { field: string; ours: readonly unknown[] }> = {
  'POST /v2/webhooks/delivery-logs/{id}/retry': { field: 'status', ours: ['Success', 'Failure'] },
};
/** Status codes where we follow a decision of our own (docs/decisions.md: deletes answer 200 with no content). */
const OUR_STATUS: Record<string, number> = { 'DELETE /v2/webhooks/endpoints/{id}': 200 };

interface Call {
  url: string;
  body?: unknown;
  /** Which example of the document this call sends (for the "every example was sent" check). */
  example?: number;
  token?: string;
}

interface Fixture {
  t: TestNode;
  m: MerchantTenant;
  partner: Tenant;
  partnerMerchantId: string;
  cardProcessorId: string;
  achProcessorId: string;
  terminalId: string;
  receiver: Receiver;
}

const CARD = { cardNumber: '4111111111111111', securityCode: '123', expirationMonth: 12, expirationYear: 2035 };
const ACH = {
  routingNumber: '021000021',
  accountNumber: '123456789',
  accountHolderType: 'Personal',
  accountType: 'Checking',
};
const PAYER = {
  contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550123' },
  billingAddress: { line1: '1 Main St', city: 'New York', stateCode: 'NY', postalCode: '10001', countryCode: 'US' },
};
const THIS_YEAR = new Date().getUTCFullYear();

/**
 * The example with `replace` applied to every key of that name at any depth. A card expiring this year or earlier
 * (the document's examples were written in 2026) is moved two years on, so the examples stay payable.
 */
function withIds<T>(example: T, replace: Record<string, unknown>): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => {
        if (key in replace) return [key, replace[key]];
        if (key === 'expirationYear' && typeof v === 'number' && v <= THIS_YEAR) return [key, THIS_YEAR + 2];
        return [key, walk(v)];
      }),
    );
  };
  return walk(example) as T;
}

const examplesOf = (op: ContractOperation) => op.requestBody?.examples ?? [];

async function api(fx: Fixture, method: string, url: string, body?: unknown, token = fx.m.token) {
  const res = await fx.t.request(method, url, {
    token,
    headers: method === 'POST' ? { 'idempotency-key': randomUUID() } : {},
    ...(body === undefined ? {} : { body }),
  });
  assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
}

const sale = (fx: Fixture, captureMethod: 'Auto' | 'Manual', baseAmount = 60) =>
  api(fx, 'POST', '/v2/transactions', {
    baseAmount,
    referenceId: `contract-${randomUUID()}`,
    transactionDetails: { cardData: { captureMethod, paymentMethodDetails: CARD } },
  });

const debit = (fx: Fixture) =>
  api(fx, 'POST', '/v2/transactions', {
    baseAmount: 9,
    referenceId: `contract-ach-${randomUUID()}`,
    ...PAYER,
    transactionDetails: { achData: { paymentMethodDetails: ACH, requesterIpAddress: '203.0.113.9' } },
  });

async function customer(fx: Fixture) {
  const { customerId } = await api(fx, 'POST', '/v2/customers', {
    firstName: 'Contract',
    paymentMethodsCards: [CARD],
    paymentMethodsAchAccounts: [ACH],
  });
  const methods = await api(fx, 'GET', `/v2/customers/${customerId}/payment-methods`);
  return { customerId: customerId as string, paymentMethodId: methods.items[0].id as string };
}

/** A SemiIntegrated terminal of the merchant of its own (one POS transaction at a time per terminal). */
async function newTerminal(fx: Pick<Fixture, 't' | 'm'>): Promise<string> {
  const terminal = await fx.t.expectOk(
    fx.t.admin('POST', `/admin/v1/merchants/${fx.m.id}/terminals`, {
      serialNumber: `CONTRACT-${randomUUID().slice(0, 12)}`,
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      terminalModeId: 2,
    }),
  );
  return terminal.id;
}

/** A POS sale on a new terminal: completed by a presented card, or still waiting for one. */
async function posSale(fx: Fixture, complete: boolean) {
  const terminalId = await newTerminal(fx);
  if (complete) {
    await fx.t.expectOk(
      fx.t.admin('POST', `/admin/v1/sandbox/terminals/${terminalId}/actions`, {
        action: 'present-card',
        pan: CARD.cardNumber,
        expirationMonth: 12,
        expirationYear: CARD.expirationYear,
      }),
    );
  }
  const created = await api(fx, 'POST', '/v2/pos/transactions', { terminalId, amount: 3 });
  if (complete) {
    await api(fx, 'GET', `/v2/pos/transactions/${created.posTransactionId}?waitForTransactionProcessing=true`);
  }
  return { terminalId, posTransactionId: created.posTransactionId as string };
}

/** A webhook endpoint on the loopback receiver, and a delivery to it that failed (so it can be retried). */
async function endpointWithFailedDelivery(fx: Fixture) {
  const endpoint = await api(fx, 'POST', '/v2/webhooks/endpoints', {
    name: 'Contract',
    endpointUrl: fx.receiver.url,
    eventTypes: ['transaction.card.captured'],
  });
  fx.receiver.state.answer = () => 500;
  const made = await sale(fx, 'Auto', 7);
  await fx.t.drain();
  fx.receiver.state.answer = () => 200;
  const logs = await api(fx, 'GET', `/v2/webhooks/delivery-logs?webhookId=${endpoint.id}`);
  const failed = logs.items.find((l: { status: string }) => l.status === 'Failure');
  assert.ok(failed, `a failed delivery of ${made.transactionId}`);
  return { endpointId: endpoint.id as string, logId: failed.id as string };
}

type Scenario = (fx: Fixture, op: ContractOperation) => Promise<Call[]>;

/** One scenario per operation of the document; a meta-test keeps the table complete. */
const SCENARIOS: Record<string, Scenario> = {
  'POST /v2/api-keys': async (fx, op) =>
    examplesOf(op).map((ex, example) => ({
      url: '/v2/api-keys',
      body: withIds(ex, { merchantId: fx.partnerMerchantId }),
      example,
      token: fx.partner.token,
    })),
  'GET /v2/api-keys': async (fx) => [
    { url: `/v2/api-keys?merchantId=${fx.partnerMerchantId}`, token: fx.partner.token },
  ],
  'DELETE /v2/api-keys/{clientId}': async (fx) => {
    const key = await api(
      fx,
      'POST',
      '/v2/api-keys',
      { merchantId: fx.partnerMerchantId, name: 'k' },
      fx.partner.token,
    );
    return [{ url: `/v2/api-keys/${key.clientId}?merchantId=${fx.partnerMerchantId}`, token: fx.partner.token }];
  },
  'POST /v2/customers/{id}/payment-methods': async (fx, op) => {
    const { customerId } = await customer(fx);
    return examplesOf(op).map((ex, example) => ({
      url: `/v2/customers/${customerId}/payment-methods`,
      body: withIds(ex, {}),
      example,
    }));
  },
  'GET /v2/customers/{id}/payment-methods': async (fx) => [
    { url: `/v2/customers/${(await customer(fx)).customerId}/payment-methods` },
  ],
  'PUT /v2/customers/{id}/payment-methods/{paymentMethodId}': async (fx, op) => {
    const c = await customer(fx);
    return examplesOf(op).map((ex, example) => ({
      url: `/v2/customers/${c.customerId}/payment-methods/${c.paymentMethodId}`,
      body: ex,
      example,
    }));
  },
  'DELETE /v2/customers/{id}/payment-methods/{paymentMethodId}': async (fx) => {
    const c = await customer(fx);
    return [{ url: `/v2/customers/${c.customerId}/payment-methods/${c.paymentMethodId}` }];
  },
  'PUT /v2/customers/{id}/payment-methods/{paymentMethodId}/set-default': async (fx) => {
    const c = await customer(fx);
    return [{ url: `/v2/customers/${c.customerId}/payment-methods/${c.paymentMethodId}/set-default` }];
  },
  'POST /v2/customers': async (_fx, op) =>
    examplesOf(op).map((ex, example) => ({ url: '/v2/customers', body: withIds(ex, {}), example })),
  'GET /v2/customers': async () => [{ url: '/v2/customers?pageSize=5' }],
  'PUT /v2/customers/{id}': async (fx, op) => {
    const { customerId } = await customer(fx);
    return examplesOf(op).map((ex, example) => ({ url: `/v2/customers/${customerId}`, body: ex, example }));
  },
  'GET /v2/customers/{id}': async (fx) => [{ url: `/v2/customers/${(await customer(fx)).customerId}` }],
  'DELETE /v2/customers/{id}': async (fx) => [{ url: `/v2/customers/${(await customer(fx)).customerId}` }],
  'POST /v2/pos/transactions': async (fx, op) =>
    Promise.all(
      examplesOf(op).map(async (ex, example) => ({
        url: '/v2/pos/transactions',
        body: withIds(ex, { terminalId: await newTerminal(fx), paymentProcessorId: fx.cardProcessorId }),
        example,
      })),
    ),
  'GET /v2/pos/transactions': async (fx) => [
    { url: `/v2/pos/transactions?terminalId=${(await posSale(fx, true)).terminalId}` },
  ],
  'GET /v2/pos/transactions/{id}': async (fx) => [
    { url: `/v2/pos/transactions/${(await posSale(fx, true)).posTransactionId}?waitForTransactionProcessing=true` },
  ],
  'POST /v2/pos/transactions/{id}/cancel': async (fx) => [
    { url: `/v2/pos/transactions/${(await posSale(fx, false)).posTransactionId}/cancel` },
  ],
  'POST /v2/pos/transactions/{posTransactionId}/print-receipt': async (fx, op) => {
    const pos = await posSale(fx, true);
    return examplesOf(op).map((ex, example) => ({
      url: `/v2/pos/transactions/${pos.posTransactionId}/print-receipt`,
      body: withIds(ex, { terminalId: pos.terminalId }),
      example,
    }));
  },
  'GET /v2/settings/payment-config': async () => [{ url: '/v2/settings/payment-config' }],
  'GET /v2/settings/contact-info': async () => [{ url: '/v2/settings/contact-info' }],
  'GET /v2/settings/transaction-autofill': async () => [{ url: '/v2/settings/transaction-autofill' }],
  'PUT /v2/settings/transaction-autofill': async (_fx, op) =>
    examplesOf(op).map((ex, example) => ({ url: '/v2/settings/transaction-autofill', body: ex, example })),
  'POST /v2/settlements/settle': async (fx, op) => {
    await sale(fx, 'Auto', 11);
    return examplesOf(op).map((ex, example) => ({
      url: '/v2/settlements/settle',
      body: withIds(ex, { paymentProcessorId: fx.cardProcessorId }),
      example,
    }));
  },
  'GET /v2/settlements/batches': async (fx) => [
    { url: `/v2/settlements/batches?paymentProcessorIds=${fx.cardProcessorId}&status=Settled` },
    { url: '/v2/settlements/batches?status=Open' },
  ],
  'GET /v2/terminals': async () => [{ url: '/v2/terminals' }],
  'GET /v2/terminals/{id}/status': async (fx) => [{ url: `/v2/terminals/${fx.terminalId}/status` }],
  'POST /v2/transactions': async (fx, op) =>
    examplesOf(op).map((ex, example) => {
      const ach = (ex as { transactionDetails?: { achData?: unknown } }).transactionDetails?.achData;
      return {
        url: '/v2/transactions',
        body: withIds(ex, { paymentProcessorId: ach ? fx.achProcessorId : fx.cardProcessorId }),
        example,
      };
    }),
  'GET /v2/transactions': async (fx) => {
    await debit(fx);
    return [{ url: '/v2/transactions?pageSize=50' }];
  },
  'GET /v2/transactions/{id}': async (fx) => [
    { url: `/v2/transactions/${(await sale(fx, 'Auto')).transactionId}` },
    { url: `/v2/transactions/${(await debit(fx)).transactionId}` },
  ],
  'POST /v2/transactions/{transactionId}/capture': async (fx, op) => {
    const auth = await sale(fx, 'Manual', 80);
    return examplesOf(op).map((ex, example) => ({
      url: `/v2/transactions/${auth.transactionId}/capture`,
      body: ex,
      example,
    }));
  },
  'POST /v2/transactions/{transactionId}/reversal': async (fx, op) => {
    const settled = await sale(fx, 'Auto', 70);
    await api(fx, 'POST', '/v2/settlements/settle', { paymentProcessorId: fx.cardProcessorId });
    const unsettled = await sale(fx, 'Auto', 30);
    const ach = await debit(fx);
    return [
      ...examplesOf(op).map((ex, example) => ({
        url: `/v2/transactions/${settled.transactionId}/reversal`,
        body: ex,
        example,
      })),
      { url: `/v2/transactions/${unsettled.transactionId}/reversal`, body: {} },
      { url: `/v2/transactions/${ach.transactionId}/reversal`, body: {} },
    ];
  },
  'POST /v2/transactions/credit': async (fx, op) => [
    ...examplesOf(op).map((ex, example) => ({
      url: '/v2/transactions/credit',
      body: withIds(ex, { paymentProcessorId: fx.cardProcessorId }),
      example,
    })),
    {
      url: '/v2/transactions/credit',
      body: {
        baseAmount: 4,
        ...PAYER,
        creditDetails: { achData: { paymentMethodDetails: ACH, requesterIpAddress: '::1' } },
      },
    },
  ],
  'POST /v2/transactions/tip-adjustment': async (fx, op) => {
    const auth = await sale(fx, 'Manual', 50);
    return examplesOf(op).map((ex, example) => ({
      url: '/v2/transactions/tip-adjustment',
      body: withIds(ex, { transactionId: auth.transactionId }),
      example,
    }));
  },
  'POST /v2/transactions/hold': async (fx, op) => {
    const d = await debit(fx);
    return examplesOf(op).map((ex, example) => ({
      url: '/v2/transactions/hold',
      body: withIds(ex, { transactionId: d.transactionId }),
      example,
    }));
  },
  'POST /v2/transactions/release-hold': async (fx, op) => {
    const d = await debit(fx);
    await api(fx, 'POST', '/v2/transactions/hold', { transactionId: d.transactionId });
    return examplesOf(op).map((ex, example) => ({
      url: '/v2/transactions/release-hold',
      body: withIds(ex, { transactionId: d.transactionId }),
      example,
    }));
  },
  'GET /v2/transactions/calculate-amount': async () => [
    { url: '/v2/transactions/calculate-amount?baseAmount=100&currencyCode=USD&tipRate=0.15&discountRate=0.05' },
  ],
  'POST /v2/transactions/{id}/send-receipt': async (fx, op) => {
    const s = await sale(fx, 'Auto', 12);
    return examplesOf(op).map((ex, example) => ({
      url: `/v2/transactions/${s.transactionId}/send-receipt`,
      body: ex,
      example,
    }));
  },
  'POST /v2/webhooks/endpoints': async (fx) => [
    {
      url: '/v2/webhooks/endpoints',
      body: { name: 'Orders', endpointUrl: fx.receiver.url, eventTypes: ['transaction.card.captured'] },
    },
  ],
  'GET /v2/webhooks/endpoints': async () => [{ url: '/v2/webhooks/endpoints?name=Contract' }],
  'GET /v2/webhooks/endpoints/{id}': async (fx) => [
    { url: `/v2/webhooks/endpoints/${(await endpointWithFailedDelivery(fx)).endpointId}` },
  ],
  'PUT /v2/webhooks/endpoints/{id}': async (fx) => [
    {
      url: `/v2/webhooks/endpoints/${(await endpointWithFailedDelivery(fx)).endpointId}`,
      body: {
        name: 'Renamed',
        endpointUrl: fx.receiver.url,
        status: 'Inactive',
        eventTypes: ['transaction.card.captured', 'transaction.card.refunded'],
      },
    },
  ],
  'DELETE /v2/webhooks/endpoints/{id}': async (fx) => [
    { url: `/v2/webhooks/endpoints/${(await endpointWithFailedDelivery(fx)).endpointId}` },
  ],
  'POST /v2/webhooks/endpoints/{id}/ping': async (fx) => [
    { url: `/v2/webhooks/endpoints/${(await endpointWithFailedDelivery(fx)).endpointId}/ping` },
  ],
  'GET /v2/webhooks/event-types': async () => [{ url: '/v2/webhooks/event-types' }],
  'GET /v2/webhooks/delivery-logs': async (fx) => [
    { url: `/v2/webhooks/delivery-logs?webhookId=${(await endpointWithFailedDelivery(fx)).endpointId}&status=Failure` },
  ],
  'GET /v2/webhooks/delivery-logs/{id}': async (fx) => [
    { url: `/v2/webhooks/delivery-logs/${(await endpointWithFailedDelivery(fx)).logId}` },
  ],
  'GET /v2/webhooks/delivery-logs/export': async (fx) => [
    {
      url: `/v2/webhooks/delivery-logs/export?webhookId=${(await endpointWithFailedDelivery(fx)).endpointId}&format=Csv`,
    },
  ],
  'POST /v2/webhooks/delivery-logs/{id}/retry': async (fx) => [
    { url: `/v2/webhooks/delivery-logs/${(await endpointWithFailedDelivery(fx)).logId}/retry` },
  ],
};

/** Our route for the document's path: the same segments, whatever each path parameter is named. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

describe('the version 2 contract of the vendor SDK’s document', () => {
  let fx: Fixture;
  let openapi: any;
  const sentExamples = new Map<string, Set<number>>();

  before(async () => {
    const t = await startNode({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
    const m = await t.merchant({
      body: {
        companyName: 'Contract Co',
        settings: {
          isTipsEnabled: true,
          defaultTipsOptions: [15, 20],
          zeroCostProcessingOptionId: 4,
          defaultSurchargeRate: 3,
        },
      },
    });
    const partner = await t.partner();
    const partnerMerchantId = (await t.merchant({ partnerId: partner.id })).id;
    const config = (await t.request('GET', '/v2/settings/payment-config', { token: m.token })).body;
    const processorOf = (type: string) =>
      config.availablePaymentProcessors.find((p: { type: string }) => p.type === type).id as string;
    fx = {
      t,
      m,
      partner,
      partnerMerchantId,
      cardProcessorId: processorOf('SandboxCard'),
      achProcessorId: processorOf('SandboxAch'),
      terminalId: await newTerminal({ t, m }),
      receiver: await startReceiver(),
    };
    openapi = (await t.request('GET', '/openapi.json')).body;
  });
  after(async () => {
    await fx?.receiver.close();
    await fx?.t.stop();
  });

  it('takes its facts from the document’s own examples faithfully: each validates against its schema', () => {
    let checked = 0;
    for (const op of FACTS.operations) {
      for (const [code, media] of Object.entries(op.responses)) {
        if (!code.startsWith('2') || !media?.schema) continue;
        for (const example of media.examples) {
          assert.deepEqual(schemaErrors(media.schema, example), [], `${operationName(op)} ${code} example`);
          checked++;
        }
      }
      for (const example of examplesOf(op)) {
        assert.deepEqual(schemaErrors(op.requestBody!.schema!, example), [], `${operationName(op)} request example`);
        checked++;
      }
    }
    assert.ok(checked >= 45, `${checked} examples checked`);
    // The validator catches a wrong answer: an unknown field, a wrong enum, a missing uuid.
    const result = operation('POST', '/v2/transactions/hold').responses['200']!.schema!;
    assert.ok(schemaErrors(result, { transactionId: randomUUID(), type: 'Hold', extra: 1 }).length > 0);
    assert.ok(schemaErrors(result, { transactionId: randomUUID(), type: 'Seize' }).length > 0);
    assert.ok(schemaErrors(result, { transactionId: 'nope', type: 'Hold' }).length > 0);
  });

  it('serves every operation of the document, and has a scenario for each', () => {
    const ours = new Set(
      Object.entries<any>(openapi.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${shape(path)}`),
      ),
    );
    for (const op of FACTS.operations) {
      assert.ok(ours.has(`${op.method} ${shape(op.path)}`), `${operationName(op)} is served`);
      assert.ok(SCENARIOS[operationName(op)], `${operationName(op)} has a contract scenario`);
    }
    assert.equal(Object.keys(SCENARIOS).length, FACTS.operations.length);
  });

  it('is described by a valid OpenAPI 3.1 document of our own', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openapi));
    assert.equal(validator.version, '3.1');
    assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
  });

  for (const op of FACTS.operations) {
    const name = operationName(op);
    it(`${name}: accepts the document’s requests and answers in its schema`, async () => {
      const [documented, media] = Object.entries(op.responses).find(([c]) => c.startsWith('2'))!;
      const code = OUR_STATUS[name] ?? Number(documented);
      const calls = await SCENARIOS[name]!(fx, op);
      for (const call of calls) {
        const res = await fx.t.request(op.method, call.url, {
          token: call.token ?? fx.m.token,
          // The older SDK's revision: where the two revisions clash, its meaning (docs/api-v2.md).
          headers: { 'x-api-version': '2.12', ...(op.method === 'POST' ? { 'idempotency-key': randomUUID() } : {}) },
          ...(call.body === undefined ? {} : { body: call.body }),
        });
        assert.equal(res.status, code, `${name} ${call.url}: ${res.text}`);
        if (call.example !== undefined) {
          if (!sentExamples.has(name)) sentExamples.set(name, new Set());
          sentExamples.get(name)!.add(call.example);
        }
        if (!media?.schema || media.contentType !== 'application/json') {
          if (media?.contentType === 'text/csv') assert.match(String(res.headers['content-type']), /text\/csv/);
          else assert.equal(res.text, '', `${name} answers with no content`);
          continue;
        }
        const body = structuredClone(res.body);
        const ignored = IGNORED[name];
        if (ignored) {
          assert.ok(ignored.ours.includes(body[ignored.field]), `${name} ${ignored.field}: ${body[ignored.field]}`);
          delete body[ignored.field];
        }
        assert.deepEqual(schemaErrors(media.schema, body, { open: OPEN.has(name) }), [], `${name}: ${res.text}`);
      }
      assert.equal(
        sentExamples.get(name)?.size ?? 0,
        examplesOf(op).length,
        `${name}: every request example of the document was sent`,
      );
    });
  }

  it('refuses what Tessera does not process with a 400 in the document’s error shape, never a 5xx', async () => {
    const validation = operation('POST', '/v2/transactions').responses['400']!.schema!;
    const notFound = operation('GET', '/v2/transactions/{id}').responses['404']!.schema!;
    const cases: Array<[string, string, unknown, number]> = [
      [
        'POST',
        '/v2/transactions',
        { baseAmount: 5, pricingType: 'Cash', transactionDetails: { cardData: { paymentMethodDetails: CARD } } },
        400,
      ],
      [
        'POST',
        '/v2/transactions',
        { baseAmount: 5, currencyCode: 'EUR', transactionDetails: { cardData: { paymentMethodDetails: CARD } } },
        400,
      ],
      ['POST', '/v2/transactions', { baseAmount: 5, transactionDetails: {} }, 400],
      ['POST', '/v2/transactions', { baseAmount: 5, zzzNotAField: 1, transactionDetails: {} }, 400],
      ['POST', '/v2/pos/transactions', { terminalId: fx.terminalId, amount: 5, transactionType: 'AchDebit' }, 400],
      ['POST', '/v2/pos/transactions', { terminalId: fx.terminalId, amount: 5, pricingType: 'Cash' }, 400],
      ['GET', '/v2/transactions/calculate-amount?baseAmount=10&currencyCode=GBP', undefined, 400],
      ['GET', `/v2/transactions/${randomUUID()}`, undefined, 404],
      ['GET', `/v2/customers/${randomUUID()}`, undefined, 404],
      ['GET', `/v2/terminals/${randomUUID()}/status`, undefined, 404],
    ];
    for (const [method, url, body, status] of cases) {
      const res = await fx.t.request(method, url, { token: fx.m.token, ...(body === undefined ? {} : { body }) });
      assert.equal(res.status, status, `${method} ${url}: ${res.text}`);
      // Our error body always carries `errors` ({} when none): the 404 schema of the document has no such field.
      const errors = schemaErrors(status === 400 ? validation : notFound, res.body, { open: status === 404 });
      assert.deepEqual(errors, [], `${method} ${url}: ${res.text}`);
    }
  });
});
