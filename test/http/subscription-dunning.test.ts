// Dunning on the business clock: a soft decline retried 1, 3 and 5 days after its first failure, then Delinquent; a
// new payment method retries at once and makes it Active again; a hard decline is not retried; what falls due while
// Delinquent is skipped; ACH installments are paid when their debit clears and fail again when it comes back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const NY = 'America/New_York';
const GOOD = '4111111111111111';
const SOFT = '4000000010050005'; // 05 Do not honor
const HARD = '4000000010540005'; // 54 Expired card
const ROUTING = '021000021';
const DAY = 86_400_000;

interface Installment {
  status: string;
  paymentOrder: number;
  nextAttemptDateTime: string | null;
  attempts: Array<{ attemptNumber: number; executedAt: string; result: string; responseCode: string | null }>;
}

describe('subscription dunning', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let cardProcessor = '';
  let achProcessor = '';

  before(async () => {
    t = await startNode();
    m = await t.merchant();
    const configuration = await t.expectOk(t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token }));
    cardProcessor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
    achProcessor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 2).id;
    // A Monday morning in New York, well ahead of the real date.
    await advanceTo(zonedInstant(2027, 3, 1, 8, 0, NY));
  });
  after(() => t.stop());

  const now = async () => new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
  async function advanceTo(instant: Date) {
    if (instant > (await now())) await t.advanceClockTo(instant, m);
    await t.drain();
  }
  async function customer(name: string) {
    return (await t.expectOk(t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { firstName: name } })))
      .id as string;
  }
  async function card(customerId: string, pan: string) {
    const body = { pan, expirationMonth: 12, expirationYear: 2031 };
    return (
      await t.expectOk(
        t.request('POST', `/pay-api/v1/customers/${customerId}/payment-methods/cards`, { token: m.token, body }),
      )
    ).id as string;
  }
  async function bank(customerId: string, accountNumber: string) {
    const body = { accountNumber, routingNumber: ROUTING, accountType: 1, accountHolderType: 2 };
    return (
      await t.expectOk(
        t.request('POST', `/pay-api/v1/customers/${customerId}/payment-methods/ach`, { token: m.token, body }),
      )
    ).id as string;
  }
  async function subscribe(
    customerId: string,
    paymentMethodId: string,
    start: Date,
    extra: Record<string, unknown> = {},
  ) {
    return t.expectOk(
      t.request('POST', '/sub-api/v1/subscriptions', {
        token: m.token,
        body: {
          customerId,
          paymentMethodId,
          amount: 15,
          paymentFrequencyUnit: 3,
          paymentFrequency: 1,
          numberOfPayments: 6,
          transactionType: 2,
          requesterIpAddress: '198.51.100.4',
          paymentProcessorId: cardProcessor,
          paymentStartDateTime: start.toISOString(),
          ...extra,
        },
      }),
    );
  }
  const get = async (id: string) => t.expectOk(t.request('GET', `/sub-api/v1/subscriptions/${id}`, { token: m.token }));
  const history = async (id: string): Promise<Installment[]> =>
    (await t.expectOk(t.request('GET', `/sub-api/v1/subscriptions/${id}/payments`, { token: m.token }))).items;
  const events = async (id: string) =>
    (
      await t.query<{ type: string }>(
        `SELECT type FROM events WHERE resource_type = 'subscription' AND resource_id = $1 ORDER BY seq`,
        [id],
      )
    ).map((e) => e.type);

  it('retries a soft decline 1, 3 and 5 days after the first failure, then goes Delinquent; a new card recovers it', async () => {
    const c = await customer('Soft');
    const start = new Date((await now()).getTime() + 3600_000);
    const s = await subscribe(c, await card(c, SOFT), start);
    await advanceTo(start);
    let [first] = await history(s.id);
    assert.equal(first!.status, 'Failed');
    assert.deepEqual(
      first!.attempts.map((a) => [a.attemptNumber, a.result, a.responseCode]),
      [[1, 'Declined', '05']],
    );
    // Retries count from the first failed attempt.
    const failedAt = Date.parse(first!.attempts[0]!.executedAt);
    assert.equal(first!.nextAttemptDateTime, new Date(failedAt + DAY).toISOString());
    assert.equal((await get(s.id)).status, 'Active');

    for (const [days, next] of [
      [1, 3],
      [3, 5],
    ] as const) {
      await advanceTo(new Date(failedAt + days * DAY));
      [first] = await history(s.id);
      assert.equal(first!.status, 'Failed');
      assert.equal(first!.nextAttemptDateTime, new Date(failedAt + next * DAY).toISOString());
      assert.equal((await get(s.id)).status, 'Active');
    }
    await advanceTo(new Date(failedAt + 5 * DAY));
    [first] = await history(s.id);
    assert.equal(first!.attempts.length, 4);
    assert.equal(first!.nextAttemptDateTime, null);
    assert.equal((await get(s.id)).status, 'Delinquent');
    assert.deepEqual(await events(s.id), [
      'subscription.created',
      'subscription.payment_failed',
      'subscription.payment_failed',
      'subscription.payment_failed',
      'subscription.payment_failed',
      'subscription.delinquent',
    ]);

    // Nothing more is tried while Delinquent, however far the clock moves, until the merchant acts.
    await advanceTo(new Date(start.getTime() + 10 * DAY));
    assert.equal((await history(s.id))[0]!.attempts.length, 4);

    const fixed = await t.expectOk(
      t.request('PUT', `/sub-api/v1/subscriptions/${s.id}/payment-method`, {
        token: m.token,
        body: { paymentMethodId: await card(c, GOOD) },
      }),
    );
    assert.equal(fixed.status, 'Delinquent');
    await t.drain();
    [first] = await history(s.id);
    assert.equal(first!.status, 'Successful');
    assert.deepEqual(
      first!.attempts.map((a) => a.result),
      ['Declined', 'Declined', 'Declined', 'Declined', 'Approved'],
    );
    const recovered = await get(s.id);
    assert.equal(recovered.status, 'Active');
    assert.equal(recovered.successfulPaymentsCount, 1);
    assert.equal(recovered.alreadyPaidAmount, 15);
    assert.equal((await events(s.id)).at(-1), 'subscription.paid');
  });

  it('does not retry a hard decline; installments due while Delinquent are skipped after the retry window', async () => {
    const c = await customer('Hard');
    const start = new Date((await now()).getTime() + 3600_000);
    const s = await subscribe(c, await card(c, HARD), start, { numberOfPayments: 3 });
    await advanceTo(start);
    const [first] = await history(s.id);
    assert.equal(first!.status, 'Failed');
    assert.equal(first!.attempts[0]!.responseCode, '54');
    assert.equal(first!.nextAttemptDateTime, null);
    assert.equal((await get(s.id)).status, 'Delinquent');

    // The second installment falls due a month later while Delinquent: not charged; past the retry window (the
    // last retry day, 5) it is Skipped.
    const dueSecond = Date.parse((await history(s.id))[1]!.nextAttemptDateTime!);
    await advanceTo(new Date(dueSecond + DAY));
    assert.equal((await history(s.id))[1]!.status, 'Scheduled');
    await advanceTo(new Date(dueSecond + 6 * DAY));
    const later = await history(s.id);
    assert.equal(later[1]!.status, 'Skipped', JSON.stringify(later[1]));
    assert.equal(later[1]!.attempts.length, 0);

    // Suspended and resumed: the failed one is retried at once (it fails again: the card is still expired).
    await t.expectOk(t.request('PUT', `/sub-api/v1/subscriptions/${s.id}/suspend`, { token: m.token }));
    await t.expectOk(t.request('PUT', `/sub-api/v1/subscriptions/${s.id}/resume`, { token: m.token }));
    await t.drain();
    const retried = await history(s.id);
    assert.equal(retried[0]!.attempts.length, 2);
    assert.equal((await get(s.id)).status, 'Delinquent');
  });

  it('completes with its last installment even when one before it was skipped', async () => {
    const c = await customer('Skip');
    const start = new Date((await now()).getTime() + 3600_000);
    const s = await subscribe(c, await card(c, GOOD), start, { numberOfPayments: 3 });
    await advanceTo(start);
    await t.expectOk(t.request('PUT', `/sub-api/v1/subscriptions/${s.id}/suspend`, { token: m.token }));
    const second = Date.parse((await history(s.id))[1]!.nextAttemptDateTime!);
    await advanceTo(new Date(second + 6 * DAY));
    assert.equal((await history(s.id))[1]!.status, 'Skipped');
    await t.expectOk(t.request('PUT', `/sub-api/v1/subscriptions/${s.id}/resume`, { token: m.token }));
    const third = Date.parse((await history(s.id))[2]!.nextAttemptDateTime!);
    await advanceTo(new Date(third));
    assert.deepEqual(
      (await history(s.id)).map((i) => i.status),
      ['Successful', 'Skipped', 'Successful'],
    );
    const done = await get(s.id);
    assert.equal(done.status, 'Completed');
    assert.equal(done.successfulPaymentsCount, 2);
    assert.equal(done.nextPaymentDate, null);
  });

  it('pays an ACH installment when its debit clears, and fails it again when the debit comes back', async () => {
    const c = await customer('Bank');
    const good = await bank(c, '100000099');
    const returning = await bank(c, '100000001'); // returns R01 two business days after settlement
    const start = new Date((await now()).getTime() + 3600_000);
    const ach = { transactionType: 11, paymentProcessorId: achProcessor, amount: 40, numberOfPayments: 2 };
    const clean = await subscribe(c, good, start, ach);
    const returned = await subscribe(c, returning, start, ach);
    await advanceTo(start);
    for (const id of [clean.id, returned.id]) {
      const [first] = await history(id);
      assert.equal(first!.status, 'Pending');
      assert.equal(first!.attempts[0]!.result, 'Pending');
    }
    // Day by day through the window, the settlement date and the returns.
    let cleared = false;
    for (let day = 1; day <= 8; day++) {
      await advanceTo(new Date(start.getTime() + day * DAY));
      const [first] = await history(returned.id);
      if (first!.status === 'Successful') cleared = true;
      if (first!.status === 'Failed') break;
    }
    assert.ok(cleared, 'the returned debit first cleared and counted');
    const [paid] = await history(clean.id);
    assert.equal(paid!.status, 'Successful');
    assert.equal((await get(clean.id)).alreadyPaidAmount, 40);

    const [failed] = await history(returned.id);
    assert.equal(failed!.status, 'Failed');
    assert.equal(failed!.attempts[0]!.result, 'Returned');
    assert.equal(failed!.attempts[0]!.responseCode, 'R01');
    assert.ok(failed!.nextAttemptDateTime, 'a return is retried like a decline');
    const record = await get(returned.id);
    assert.equal(record.successfulPaymentsCount, 0);
    assert.equal(record.alreadyPaidAmount, 0);
    assert.equal(record.status, 'Active');
    assert.deepEqual((await events(returned.id)).slice(-2), ['subscription.paid', 'subscription.payment_failed']);
    assert.deepEqual((await verifyLedger(t.ctx.pool)).problems, []);
  });
});
