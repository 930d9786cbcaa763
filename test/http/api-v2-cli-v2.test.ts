// The vendor's v2 CLI (getflute/flute-cli-v2, `src/groups/*.rs`) replayed as it speaks: `Accept: application/json`,
// lists with no query at all unless a flag asks (so the server's published defaults govern) and `--all` walking
// `pageIndex` until `pageInfo.hasMore` is false, bodyless POSTs as an empty frame with `Content-Length: 0` and
// `Content-Type: application/json` (ach-hold, ach-release, set-default, the two cancels), `{}` for a full capture
// or reversal, repeated array parameters (`batchIds=a&batchIds=b`). Each answer is checked for the JSON pointers the
// CLI's renderers read (its `Resource` descriptors), which must be present (a null is drawn as a dash; an absent
// field is a defect).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { cardNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2035, securityCode: '123' };

/** The value at a JSON pointer (`/a/b`, `/items/[]/c` reads the first item); undefined when the path is absent. */
function at(body: unknown, pointer: string): unknown {
  let value: unknown = body;
  for (const part of pointer.split('/').slice(1)) {
    if (value === null || value === undefined) return value;
    const key = part === '[]' ? 0 : part;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** Every pointer the CLI reads is answered (null allowed where the facts allow it: the CLI draws a dash). */
function reads(body: unknown, pointers: string[], label: string) {
  const missing = pointers.filter((p) => at(body, p) === undefined);
  assert.deepEqual(missing, [], `${label}: the CLI reads these and they are absent: ${JSON.stringify(body)}`);
}

const TRANSACTION_READS = [
  '/transactionId',
  '/transactionStatus',
  '/transactionType',
  '/transactionDateTime',
  '/processedAmount',
  '/currencyCode',
  '/declineDetails',
  '/amountBreakdown/baseAmount',
  '/amountBreakdown/tipAmount',
  '/amountBreakdown/tipRate',
  '/amountBreakdown/discountAmount',
  '/amountBreakdown/discountRate',
  '/amountBreakdown/surchargeAmount',
  '/amountBreakdown/surchargeRate',
  '/paymentMethodType',
  '/referenceId',
  '/customerId',
  '/paymentProcessorId',
  '/merchantId',
  '/batchId',
  '/originalTransactionId',
  '/refundDetails/refundedAmount',
  '/refundDetails/availableRefundAmount',
];
const CARD_READS = [
  '/cardDetails/maskedCardNumber',
  '/cardDetails/cardBrand',
  '/cardDetails/cardType',
  '/cardDetails/cardDataSource',
  '/cardDetails/paymentMethodId',
  '/processorDetails/authCode',
  '/processorDetails/rrn',
  '/addressVerificationServiceResponse',
];
const ACH_READS = [
  '/achDetails/maskedAccountNumber',
  '/achDetails/accountRoutingNumber',
  '/achDetails/accountType',
  '/achDetails/secCode',
  '/achDetails/paymentMethodId',
];

describe('the vendor’s v2 CLI, its calls replayed', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let cardProcessor = '';

  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { settings: { isTipsEnabled: true } } });
    const config = await cli('GET', '/v2/settings/payment-config');
    reads(
      config.body,
      [
        '/availablePaymentProcessors/[]/paymentProcessorId',
        '/availablePaymentProcessors/[]/processorName',
        '/availablePaymentProcessors/[]/type',
        '/availablePaymentProcessors/[]/isDefault',
        '/addressVerificationServiceOptions/isEnabled',
        '/isTipsEnabled',
      ],
      'settings payment-config',
    );
    cardProcessor = config.body.availablePaymentProcessors.find(
      (p: { type: string }) => p.type === 'SandboxCard',
    ).paymentProcessorId;
  });
  after(() => t?.stop());

  /**
   * One request as the CLI's client sends it: bearer, `Accept: application/json`, a JSON body when it has one, and
   * for a bodyless POST/PATCH an empty frame with Content-Length 0 and a JSON content type.
   */
  function cli(method: string, path: string, body?: unknown) {
    const bodyless = body === undefined && (method === 'POST' || method === 'PATCH');
    return t.request(method, path, {
      token: m.token,
      headers: {
        accept: 'application/json',
        'user-agent': 'flute2/2.0.0',
        ...(bodyless ? { 'content-length': '0', 'content-type': 'application/json' } : {}),
      },
      ...(bodyless ? { payload: '' } : body === undefined ? {} : { body }),
    });
  }
  async function ok(method: string, path: string, body?: unknown) {
    const res = await cli(method, path, body);
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  /** `--all`: pageIndex from 0, until an empty page or hasMore false; a repeated page means pageIndex was ignored. */
  async function walk(path: string, query = '', pageSize = 2) {
    const all: unknown[] = [];
    let previous = '';
    for (let index = 0; index < 50; index++) {
      const sep = query ? `${query}&` : '';
      const page = await ok('GET', `${path}?${sep}pageIndex=${index}&pageSize=${pageSize}`);
      const items = JSON.stringify(page.items);
      assert.notEqual(items, previous, `${path}: page ${index} repeats the one before (pageIndex ignored)`);
      all.push(...page.items);
      if (page.items.length === 0 || !page.pageInfo.hasMore) return all;
      previous = items;
    }
    assert.fail(`${path} never ended`);
  }

  it('ping; customers create, get, list (no query and --all), update with clears, delete', async () => {
    const ping = await cli('GET', '/v2/ping');
    assert.deepEqual([ping.status, ping.text], [200, '']);
    const ids: string[] = [];
    for (const [first, email] of [
      ['Ada', 'ada@example.com'],
      ['Grace', 'grace@example.com'],
      ['Edsger', 'edsger@example.com'],
    ]) {
      const created = await ok('POST', '/v2/customers', {
        firstName: first,
        lastName: 'Cli',
        email,
        mobilePhoneNumber: '+14155552309',
        hasSmsConsent: true,
        billingAddress: {
          addressLine1: '1 Main St',
          city: 'Austin',
          stateCode: 'TX',
          postalCode: '78701',
          countryCode: 'US',
        },
      });
      reads(created, ['/customerId'], 'customers create');
      ids.push(created.customerId);
    }
    const shown = await ok('GET', `/v2/customers/${ids[0]}`);
    reads(
      shown,
      [
        '/customerId',
        '/firstName',
        '/lastName',
        '/companyName',
        '/email',
        '/mobilePhoneNumber',
        '/hasSmsConsent',
        '/billingAddress/addressLine1',
        '/billingAddress/addressLine2',
        '/billingAddress/city',
        '/billingAddress/stateCode',
        '/billingAddress/postalCode',
        '/billingAddress/countryCode',
        '/shouldUseBillingAsShippingAddress',
        '/shippingAddress',
        '/transactionsCount',
        '/transactionsVolume',
        '/lastTransactionAmount',
        '/lastTransactionDate',
        '/cards',
        '/achAccounts',
      ],
      'customers get',
    );
    const plain = await ok('GET', '/v2/customers');
    assert.equal(plain.pageInfo.hasMore, false);
    assert.deepEqual(
      plain.items.map((c: { customerId: string }) => c.customerId),
      ids,
      'no query: the published defaults (oldest first)',
    );
    reads(
      plain,
      ['/items/[]/customerId', '/items/[]/email', '/items/[]/mobilePhoneNumber', '/items/[]/lastTransactionDate'],
      'customers list',
    );
    const desc = await ok('GET', '/v2/customers?asc=false&sortBy=lastName');
    assert.equal(desc.items.length, 3);
    assert.equal((await walk('/v2/customers')).length, 3);
    const filtered = await ok('GET', '/v2/customers?pageIndex=0&pageSize=5&email=grace');
    assert.deepEqual(
      filtered.items.map((c: { firstName: string }) => c.firstName),
      ['Grace'],
    );
    const patched = await cli('PATCH', `/v2/customers/${ids[0]}`, { email: null, companyName: 'Engines' });
    assert.deepEqual([patched.status, patched.text], [200, '']);
    const after = await ok('GET', `/v2/customers/${ids[0]}`);
    assert.deepEqual([after.email, after.companyName, after.firstName], [null, 'Engines', 'Ada']);
    const deleted = await cli('DELETE', `/v2/customers/${ids[2]}`);
    assert.equal(deleted.status, 200);
    assert.equal((await cli('DELETE', `/v2/customers/${ids[2]}`)).status, 404, 'a repeat: nothing was deleted');
  });

  it('transactions: create, get, list, capture {}, reversal {}, tip-adjustment, share-receipt, credit, calculate', async () => {
    const create = (captureMethod: 'Auto' | 'Manual', baseAmount: number, referenceId: string) =>
      ok('POST', '/v2/transactions', {
        paymentProcessorId: cardProcessor,
        baseAmount,
        currencyCode: 'USD',
        referenceId,
        transactionDetails: { cardData: { paymentMethodDetails: CARD, captureMethod } },
      });
    const sale = await create('Auto', 25, 'cli-sale');
    reads(sale, ['/transactionId', '/transactionStatus', '/processedAmount', '/currencyCode'], 'transactions create');
    const got = await ok('GET', `/v2/transactions/${sale.transactionId}`);
    reads(got, [...TRANSACTION_READS, ...CARD_READS], 'transactions get');
    assert.deepEqual([got.paymentMethodType, got.transactionStatus, got.transactionType], ['Card', 'Captured', 'Sale']);

    const auth = await create('Manual', 40, 'cli-auth');
    const captured = await ok('POST', `/v2/transactions/${auth.transactionId}/capture`, {});
    reads(captured, ['/transactionId', '/transactionStatus', '/processedAmount'], 'transactions capture');
    assert.equal(captured.processedAmount, 40, '{} captures the whole amount');

    const tipped = await ok('POST', `/v2/transactions/${sale.transactionId}/tip-adjustment`, { tipRate: 18.5 });
    reads(tipped, ['/transactionId', '/transactionStatus'], 'transactions tip-adjust');
    const shared = await cli('POST', `/v2/transactions/${sale.transactionId}/share-receipt`, {
      shareBy: 'Sms',
      recipient: '+14155552309',
      hasCustomerConsent: true,
    });
    assert.deepEqual([shared.status, shared.text], [200, '']);

    const reversed = await ok('POST', `/v2/transactions/${auth.transactionId}/reversal`, {});
    reads(reversed, ['/transactionId', '/transactionStatus', '/processedAmount'], 'transactions reversal');

    const credit = await ok('POST', '/v2/transactions/credit', {
      paymentProcessorId: cardProcessor,
      baseAmount: 5,
      referenceId: 'cli-credit',
      creditDetails: { cardData: { paymentMethodDetails: CARD } },
      currencyCode: 'USD',
    });
    reads(credit, ['/transactionId', '/transactionStatus', '/processedAmount'], 'transactions credit');

    const calc = await ok('POST', '/v2/transactions/calculate-amount', { baseAmount: 100, tipRate: 18.5 });
    reads(
      calc,
      [
        '/currencyCode',
        '/pricingType',
        '/zeroCostProcessingOption',
        '/creditCard/baseAmount',
        '/creditCard/surchargeAmount',
        '/creditCard/tipAmount',
        '/creditCard/totalAmount',
        '/debitCard/totalAmount',
        '/cash',
        '/ach/totalAmount',
      ],
      'transactions calculate-amount',
    );
    assert.equal(calc.creditCard.totalAmount, 118.5);

    // `list` with no flags, `--asc` (sortBy=transactionDateTime&sortOrder=asc), filters, `--all`.
    const plain = await ok('GET', '/v2/transactions');
    reads(
      plain,
      ['/items/[]/transactionId', '/items/[]/transactionStatus', '/items/[]/transactionType', '/pageInfo/hasMore'],
      'transactions list',
    );
    const ascending = await ok('GET', '/v2/transactions?sortOrder=asc&sortBy=transactionDateTime');
    assert.equal(ascending.items[0].transactionId, sale.transactionId, 'oldest first');
    const filtered = await ok(
      'GET',
      `/v2/transactions?transactionStatus=Captured&paymentMethodType=Card&minAmount=20.00&maxAmount=30.00&referenceId=cli-sale`,
    );
    assert.deepEqual(
      filtered.items.map((i: { transactionId: string }) => i.transactionId),
      [sale.transactionId],
    );
    assert.equal((await walk('/v2/transactions')).length, plain.pageInfo.totalItems);
  });

  it('transactions: an ACH debit held and released bodyless', async () => {
    const customer = await ok('POST', '/v2/customers', { firstName: 'Bank', lastName: 'Cli' });
    const account = await ok('POST', '/v2/payment-methods/ach', {
      routingNumber: '021000021',
      accountNumber: '100000099',
      accountHolderType: 'Personal',
      accountType: 'Checking',
      customerId: customer.customerId,
    });
    const debit = await ok('POST', '/v2/transactions', {
      paymentProcessorId: null,
      baseAmount: 12,
      referenceId: 'cli-ach',
      transactionDetails: {
        achData: { secCode: 'Web', requesterIpAddress: '198.51.100.7', paymentMethodId: account.paymentMethodId },
      },
    });
    const got = await ok('GET', `/v2/transactions/${debit.transactionId}`);
    reads(got, [...TRANSACTION_READS, ...ACH_READS], 'transactions get (ACH)');
    assert.equal(got.paymentMethodType, 'ACH', 'what the CLI tells instruments apart by');
    const held = await ok('POST', `/v2/transactions/${debit.transactionId}/ach-hold`);
    reads(held, ['/transactionId', '/type', '/transactionStatus'], 'transactions ach-hold');
    assert.equal(held.type, 'Hold');
    const released = await ok('POST', `/v2/transactions/${debit.transactionId}/ach-release`);
    assert.equal(released.type, 'UnHold');
    const setDefault = await cli(
      'POST',
      `/v2/payment-methods/${account.paymentMethodId}/set-default?customerId=${customer.customerId}`,
    );
    assert.deepEqual([setDefault.status, setDefault.text], [200, '']);
  });

  it('settlements: list (no query), get through batchIds, close', async () => {
    const closed = await ok('POST', '/v2/settlements/batches/close', { paymentProcessorId: cardProcessor });
    reads(closed, ['/batchStatus'], 'settlements close');
    const plain = await ok('GET', '/v2/settlements/batches');
    const settlementReads = [
      '/batchId',
      '/externalBatchId',
      '/batchStatus',
      '/paymentProcessorId',
      '/paymentProcessorName',
      '/createdOn',
      '/transactionCount',
      '/totalSalesAmount',
      '/totalRefundsAmount',
      '/totalNetAmount',
    ];
    reads(plain.items[0], settlementReads, 'settlements list');
    const batchId = plain.items[0].batchId;
    const one = await ok('GET', `/v2/settlements/batches?batchIds=${batchId}`);
    assert.deepEqual(
      one.items.map((b: { batchId: string }) => b.batchId),
      [batchId],
    );
    const two = await ok('GET', `/v2/settlements/batches?batchIds=${batchId}&batchIds=${plain.items.at(-1).batchId}`);
    assert.equal(two.items.length, new Set([batchId, plain.items.at(-1).batchId]).size);
    const settled = await ok('GET', '/v2/settlements/batches?sortOrder=asc&sortBy=createdOn&batchStatus=Settled');
    assert.ok(settled.items.every((b: { batchStatus: string }) => b.batchStatus === 'Settled'));
  });

  it('pos and terminals: create, get with the long poll, cancel bodyless, list by status; terminals list and status', async () => {
    const terminal = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
        serialNumber: `CLI-${Date.now()}`,
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP2',
        terminalModeId: 2,
      }),
    );
    const terminals = await ok('GET', '/v2/terminals');
    reads(
      terminals.items[0],
      [
        '/terminalId',
        '/serialNumber',
        '/terminalManufacturer',
        '/terminalModel',
        '/terminalMode',
        '/terminalStatus',
        '/connectionStatus',
        '/lastSeenOn',
      ],
      'terminals list',
    );
    const status = await ok('GET', `/v2/terminals/${terminal.id}/status`);
    reads(
      status,
      ['/terminalId', '/terminalStatus', '/connectionStatus', '/batteryLevel', '/printerStatus', '/lastSeenOn'],
      'terminals status',
    );
    const body = (referenceId: string) => ({
      terminalId: terminal.id,
      posDeviceId: 'cli-till',
      baseAmount: 30,
      currencyCode: 'USD',
      waitForAcceptanceByTerminal: false,
      captureMethod: 'Auto',
      readingMethod: 'Regular',
      referenceId,
      extraAmounts: { tipAmount: 3 },
    });
    const first = await ok('POST', '/v2/pos/transactions', body('cli-pos-1'));
    assert.equal(first.posTransactionStatus, 'InProgress');
    const cancelled = await ok('POST', `/v2/pos/transactions/${first.posTransactionId}/cancel`);
    assert.equal(cancelled.posTransactionStatus, 'Cancelled');
    const sale = await ok('POST', '/v2/pos/transactions', body('cli-pos-2'));
    const polled = ok('GET', `/v2/pos/transactions/${sale.posTransactionId}?waitForTransactionProcessing=true`);
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
    assert.equal(done.posTransactionStatus, 'Completed', 'the poll’s stop condition');
    reads(done, ['/linkedTransaction/transactionStatus', '/linkedTransaction/processedAmount'], 'pos get');
    assert.equal(done.linkedTransaction.processedAmount, 33);
    const printed = await cli('POST', `/v2/pos/transactions/${sale.posTransactionId}/print-receipt`, {
      terminalId: terminal.id,
    });
    assert.deepEqual([printed.status, printed.text], [200, '']);
    const listed = await ok(
      'GET',
      `/v2/pos/transactions?sortOrder=desc&posTransactionStatus=Cancelled&terminalId=${terminal.id}`,
    );
    assert.deepEqual(
      listed.items.map((p: { posTransactionId: string }) => p.posTransactionId),
      [first.posTransactionId],
    );
  });

  it('payment links and sessions, as the CLI sends them', async () => {
    const link = await ok('POST', '/v2/payment-links', {
      paymentMethods: { card: { enabled: true }, ach: { enabled: false } },
      baseAmount: 10,
      currencyCode: 'USD',
    });
    reads(link, ['/paymentLinkId', '/shortUrl', '/paymentLinkStatus', '/linkType'], 'payment-links create');
    const plain = await ok('GET', '/v2/payment-links');
    assert.equal(plain.items[0].paymentLinkId, link.paymentLinkId);
    const session = await ok('POST', '/v2/payment-sessions', { amount: 5 });
    reads(session, ['/id', '/paymentMethods'], 'payment-sessions create');
    const cancelled = await cli('POST', `/v2/payment-sessions/${session.id}/cancel`);
    assert.deepEqual([cancelled.status, cancelled.text], [200, '']);
    const shown = await ok('GET', `/v2/payment-sessions/${session.id}`);
    assert.equal(shown.status, 'Cancelled');
  });
});
