// Merchant moves racing the billing engine, and the engine racing itself: every installment is charged at most once,
// and a terminated or suspended subscription is either charged before the move or not at all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chargeDue } from '../../src/modules/subscriptions/billing.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const COUNT = 16;

describe('subscription races', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let processor = '';

  before(async () => {
    t = await startNode();
    m = await t.merchant();
    const configuration = await t.expectOk(t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token }));
    processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
  });
  after(() => t.stop());

  const now = async () => new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
  const put = (id: string, action: string, body?: unknown) =>
    t.request('PUT', `/sub-api/v1/subscriptions/${id}/${action}`, { token: m.token, ...(body ? { body } : {}) });

  async function card(customerId: string) {
    const body = { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 };
    return (
      await t.expectOk(
        t.request('POST', `/pay-api/v1/customers/${customerId}/payment-methods/cards`, { token: m.token, body }),
      )
    ).id as string;
  }

  /** COUNT subscriptions whose first installment falls due at the returned instant (the clock is moved there). */
  async function dueNow(): Promise<{ ids: string[]; customers: string[]; due: Date }> {
    const due = new Date(Math.ceil(((await now()).getTime() + 3_600_000) / 60_000) * 60_000);
    const ids: string[] = [];
    const customers: string[] = [];
    for (let n = 0; n < COUNT; n++) {
      const customer = await t.expectOk(
        t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { firstName: `Race ${n}` } }),
      );
      const s = await t.expectOk(
        t.request('POST', '/sub-api/v1/subscriptions', {
          token: m.token,
          body: {
            customerId: customer.id,
            paymentMethodId: await card(customer.id),
            amount: 9.99,
            paymentFrequencyUnit: 3,
            paymentFrequency: 1,
            transactionType: 2,
            requesterIpAddress: '192.0.2.44',
            paymentProcessorId: processor,
            paymentStartDateTime: due.toISOString(),
          },
        }),
      );
      ids.push(s.id);
      customers.push(customer.id);
    }
    // The clock moves; nothing runs until the test drains (no workers in this node).
    await t.advanceClockTo(due, m);
    return { ids, customers, due };
  }

  /** Per subscription: its status, its first installment's status, and its payments (approved and all). */
  async function outcome(id: string) {
    const rows = await t.query<{ status: number; first: number; approved: number; payments: number }>(
      `SELECT s.status_id AS status,
         (SELECT status_id FROM subscription_installments WHERE subscription_id = s.id AND payment_order = 1) AS first,
         (SELECT count(*)::int FROM transactions WHERE source_id = s.id AND status_id IN (2, 6)) AS approved,
         (SELECT count(*)::int FROM transactions WHERE source_id = s.id) AS payments
       FROM subscriptions s WHERE s.id = $1`,
      [id],
    );
    return rows[0]!;
  }

  it('terminate racing the due charge: charged then terminated, or terminated and nothing charged', async () => {
    const { ids } = await dueNow();
    const [, answers] = await Promise.all([t.drain(), Promise.all(ids.map((id) => put(id, 'terminate')))]);
    assert.deepEqual(
      answers.map((a) => a.status),
      ids.map(() => 200),
    );
    await t.drain();
    for (const id of ids) {
      const o = await outcome(id);
      assert.equal(o.status, 5, 'Terminated');
      if (o.first === 3) assert.deepEqual([o.approved, o.payments], [1, 1], 'charged once, then terminated');
      else assert.deepEqual([o.first, o.payments], [5, 0], 'terminated first: Skipped, nothing charged');
    }
    // Nothing is charged later either.
    await t.advanceClock(40 * 86_400, m);
    await t.drain();
    for (const id of ids) assert.ok((await outcome(id)).payments <= 1);
  });

  it('suspend racing the due charge: charged once before it, or after the resume, never twice', async () => {
    const { ids } = await dueNow();
    await Promise.all([t.drain(), Promise.all(ids.map((id) => t.expectOk(put(id, 'suspend'))))]);
    await t.drain();
    for (const id of ids) {
      const o = await outcome(id);
      assert.equal(o.status, 3, 'Suspended');
      assert.ok(o.first === 3 ? o.approved === 1 : o.first === 1 && o.payments === 0, JSON.stringify(o));
    }
    await Promise.all(ids.map((id) => t.expectOk(put(id, 'resume'))));
    await t.drain();
    for (const id of ids) {
      const o = await outcome(id);
      assert.deepEqual([o.status, o.first, o.approved, o.payments], [1, 3, 1, 1], id);
    }
  });

  it('a new payment method racing the due charge: the installment is paid once, with one method or the other', async () => {
    const { ids, customers } = await dueNow();
    const replacements = await Promise.all(customers.map((c) => card(c)));
    await Promise.all([
      t.drain(),
      Promise.all(ids.map((id, n) => t.expectOk(put(id, 'payment-method', { paymentMethodId: replacements[n] })))),
    ]);
    await t.drain();
    for (const id of ids) {
      const o = await outcome(id);
      assert.deepEqual([o.status, o.first, o.approved, o.payments], [1, 3, 1, 1], id);
    }
  });

  it('several charging runs at once (as on several workers): each installment claimed and paid once', async () => {
    const { ids } = await dueNow();
    const billing = t.ctx.services.subscriptions.billing;
    const [a, b, c] = await Promise.all([
      chargeDue(billing, 3),
      chargeDue(billing, 5),
      chargeDue(billing, 7),
      t.drain(),
    ]);
    assert.ok(a + b + c <= COUNT, `claimed ${a + b + c}`);
    await t.drain();
    for (const id of ids) {
      const o = await outcome(id);
      assert.deepEqual([o.first, o.approved, o.payments], [3, 1, 1], id);
    }
    const attempts = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM subscription_attempts a JOIN subscription_installments i ON i.id = a.installment_id
       WHERE i.subscription_id = ANY($1)`,
      [ids],
    );
    assert.equal(attempts[0]!.n, COUNT, 'one attempt per installment');
  });

  it('concurrent terminates: one 200, the rest 400 already Terminated', async () => {
    const { ids } = await dueNow();
    const answers = await Promise.all(Array.from({ length: 6 }, () => put(ids[0]!, 'terminate')));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) assert.match(a.body.details, /already Terminated/);
    await Promise.all(ids.slice(1).map((id) => put(id, 'terminate')));
    await t.drain();
  });

  it('deleting the customer racing a create: the subscription is refused or ends Deleted, never left Active', async () => {
    for (let n = 0; n < 6; n++) {
      const customer = await t.expectOk(
        t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { firstName: 'Gone' } }),
      );
      const method = await card(customer.id);
      const [created, deleted] = await Promise.all([
        t.request('POST', '/sub-api/v1/subscriptions', {
          token: m.token,
          body: {
            customerId: customer.id,
            paymentMethodId: method,
            amount: 5,
            paymentFrequencyUnit: 2,
            paymentFrequency: 1,
            transactionType: 2,
            requesterIpAddress: '192.0.2.45',
            paymentProcessorId: processor,
            paymentStartDateTime: new Date((await now()).getTime() + 86_400_000).toISOString(),
          },
        }),
        t.request('DELETE', `/pay-api/v1/customers/${customer.id}`, { token: m.token }),
      ]);
      assert.equal(deleted.status, 200, deleted.text);
      if (created.status === 200) assert.equal((await outcome(created.body.id)).status, 6, 'Deleted with its customer');
      else assert.ok([400, 404].includes(created.status), created.text);
    }
  });
});
