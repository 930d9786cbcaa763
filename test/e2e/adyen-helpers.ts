// A sandbox node with an Adyen processor pointed at the fake of Adyen (test/fakes/adyen), for the connector's tests.
import assert from 'node:assert/strict';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { FakeAdyen, type FakeAdyenAccount } from '../fakes/adyen/fake-adyen.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

export const ACCOUNT: FakeAdyenAccount = {
  apiKey: 'AQE-test-key-for-the-fake-0001',
  merchantAccount: 'TesseraTestUS',
  hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  notificationUsername: 'adyen-notifications',
  notificationPassword: 'notification-password-0001',
};

export const CARD = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2031,
  securityCode: '737',
};

export interface AdyenWorld {
  t: TestNode & { baseUrl: string };
  fake: FakeAdyen;
  m: MerchantTenant;
  processorId: string;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  notificationUrl: string;
  stop(): Promise<void>;
}

export async function startAdyenWorld(env: Record<string, string> = {}): Promise<AdyenWorld> {
  const fake = await new FakeAdyen(ACCOUNT).start();
  const t = await startNode({
    listen: true,
    env: {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_BURST_PER_10S: '100000',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
  });
  const m = await t.merchant({ body: { settings: { isTipsEnabled: true } } });
  const processor = await t.expectOk(
    t.admin('POST', `/admin/v1/merchants/${m.id}/processors`, {
      name: 'Adyen (fake)',
      typeId: 1,
      connector: 'adyen',
      isDefault: true,
      settings: { merchantAccount: ACCOUNT.merchantAccount, baseUrl: fake.url },
      credentials: {
        apiKey: ACCOUNT.apiKey,
        hmacKey: ACCOUNT.hmacKey,
        notificationUsername: ACCOUNT.notificationUsername,
        notificationPassword: ACCOUNT.notificationPassword,
      },
    }),
  );
  const notificationUrl = `${t.baseUrl}${processor.notificationUrlPath}`;
  fake.notifier.url = notificationUrl;
  const receiver = await startReceiver();
  await t.ok(m, 'POST', '/v2/webhooks/endpoints', {
    name: 'adyen-e2e',
    endpointUrl: `${receiver.url}/hook`,
    eventTypes: [
      'transaction.card.authorized',
      'transaction.card.captured',
      'transaction.card.voided',
      'transaction.card.refunded',
      'transaction.card.declined',
      'transaction.card.failed',
      'transaction.card.charged_back',
    ],
  });
  return {
    t,
    fake,
    m,
    processorId: processor.id,
    receiver,
    notificationUrl,
    async stop() {
      await fake.stop();
      await receiver.close();
      await t.stop();
    },
  };
}

/** Every notification delivered and every job (notifications, reconciler, webhooks) run, until nothing changes. */
export async function settle(w: AdyenWorld): Promise<void> {
  await w.fake.notifier.settled();
  await w.t.drain();
}

/** The transaction as the v1 API shows it, once `until` holds (notifications and jobs run meanwhile). */
export async function transactionWhen(
  w: AdyenWorld,
  id: string,
  until: (tx: Record<string, any>) => boolean,
  timeoutMs = 15_000,
): Promise<Record<string, any>> {
  return eventually(
    async () => {
      await settle(w);
      const tx = await w.t.ok(w.m, 'GET', `/pay-api/v1/transactions/${id}`);
      return until(tx) ? tx : undefined;
    },
    timeoutMs,
    50,
  );
}

/** Webhook types the merchant received for a transaction. */
export async function webhooksFor(w: AdyenWorld, id: string, types: string[]): Promise<void> {
  await eventually(async () => {
    await w.t.drain();
    const seen = w.receiver.hits
      .map((hit) => JSON.parse(hit.body) as { type: string; data?: { transactionId?: string; id?: string } })
      .filter((e) => JSON.stringify(e).includes(id))
      .map((e) => e.type);
    return types.every((type) => seen.includes(type));
  }, 15_000);
}

/** Nothing the fake saw or sent broke Adyen's published contract, and the books verify. */
export async function assertClean(w: AdyenWorld): Promise<void> {
  assert.deepEqual(w.fake.violations, [], 'requests and answers follow Adyen’s contract');
  assert.deepEqual(w.fake.notifier.violations, [], 'notifications follow Adyen’s contract');
  const report = await verifyLedger(w.t.ctx.pool);
  assert.deepEqual(report.problems, [], 'the ledger verifies');
}

/** The fake's payments for one of our references: exactly how many Adyen would hold. */
export function chargesAtAdyen(w: AdyenWorld, transactionId: string): number {
  const compact = transactionId.replaceAll('-', '');
  return [...w.fake.payments.values()].filter((p) => p.reference === compact && p.state === 'authorised').length;
}
