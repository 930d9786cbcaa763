// Dunning retries are attempted promptly after the business clock moves past them, by the node's own workers (no
// drain): every round moves the clock to each retry instant plus one minute and expects every subscription's attempt
// within a few seconds, with the workers busy: every card call slowed, and a second cohort moved past while the first
// is being charged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const SOFT = '4000000010050005'; // 05 Do not honor: retried 1, 3 and 5 days after the first failure
const DAY = 86_400_000;
const SUBSCRIPTIONS = 12;
const ROUNDS = 4;
const PROMPTLY_MS = 8000;

describe('dunning retries after a clock move', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let processor = '';

  before(async () => {
    t = await startNode({ workers: true, env: { WORKERS: '2' } });
    m = await t.merchant();
    const configuration = await t.expectOk(t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token }));
    processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
  });
  after(() => t.stop());

  const now = async () => new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
  const attempts = async (id: string): Promise<Array<{ executedAt: string }>> => {
    const history = await t.expectOk(t.request('GET', `/sub-api/v1/subscriptions/${id}/payments`, { token: m.token }));
    return history.items[0]?.attempts ?? [];
  };

  async function softDeclined(start: Date): Promise<string> {
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Soft' });
    const card = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
      pan: SOFT,
      expirationMonth: 12,
      expirationYear: 2031,
    });
    const subscription = await t.ok(m, 'POST', '/sub-api/v1/subscriptions', {
      customerId: customer.id,
      paymentMethodId: card.id,
      amount: 15,
      paymentFrequencyUnit: 3,
      paymentFrequency: 1,
      numberOfPayments: 6,
      transactionType: 2,
      requesterIpAddress: '198.51.100.4',
      paymentProcessorId: processor,
      paymentStartDateTime: start.toISOString(),
    });
    return subscription.id;
  }

  /** Every subscription has made `count` attempts within PROMPTLY_MS of the move; the failure names the laggards. */
  async function allAttempted(ids: string[], count: number, label: string): Promise<void> {
    const started = Date.now();
    await eventually(
      async () => {
        for (const id of ids) if ((await attempts(id)).length < count) return false;
        return true;
      },
      PROMPTLY_MS,
      100,
    ).catch(async () => {
      const behind = [];
      for (const id of ids) if ((await attempts(id)).length < count) behind.push(id);
      assert.fail(
        `${label}: ${behind.length} of ${ids.length} not attempted ${Date.now() - started} ms after the move`,
      );
    });
  }

  it('attempts each retry within seconds of the move past it, every time', async () => {
    // Every card call is slow for the whole test, so chargers and billing runs are still at work when the clock moves
    // again: two cohorts two minutes apart, the second moved past while the first is being charged.
    await t.expectOk(t.admin('POST', '/admin/v1/sandbox/card-network', { extraLatencyMs: 250, seconds: 600 }));
    for (let round = 0; round < ROUNDS; round++) {
      const start = new Date((await now()).getTime() + 3600_000);
      const cohorts: string[][] = [[], []];
      for (let n = 0; n < SUBSCRIPTIONS; n++) {
        cohorts[n % 2]!.push(await softDeclined(new Date(start.getTime() + (n % 2) * 120_000)));
      }
      const all = cohorts.flat();
      await t.advanceClockTo(new Date(start.getTime() + 60_000), m);
      await t.advanceClockTo(new Date(start.getTime() + 180_000), m);
      await allAttempted(all, 1, `round ${round}, the first attempt`);
      const firstFailure = async (ids: string[]) =>
        Math.min(...(await Promise.all(ids.map(async (id) => Date.parse((await attempts(id))[0]!.executedAt)))));
      const failedAt = [await firstFailure(cohorts[0]!), await firstFailure(cohorts[1]!)];
      for (const [retry, days] of [1, 3, 5].entries()) {
        for (const at of failedAt) await t.advanceClockTo(new Date(at + days * DAY + 60_000), m);
        await allAttempted(all, retry + 2, `round ${round}, retry ${retry + 1} (day ${days})`);
      }
    }
  });
});
