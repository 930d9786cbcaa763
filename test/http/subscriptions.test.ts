// Subscriptions through the API: create (and every refusal, naming its field), read, list, payment history,
// terminate / suspend / resume / payment method, tenancy, the customer statistics, and billing driven by the
// business clock over a year (month ends, a leap day, daylight saving, calendar forms, variable amounts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { type MerchantTenant, startNode, type Tenant, type TestNode } from '../harness.js';

const NY = 'America/New_York';
const CARD = '4111111111111111';
const ROUTING = '021000021';
const IP = '203.0.113.7';

describe('subscriptions', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let other: MerchantTenant;
  let partner: Tenant;
  let cardProcessor = '';
  let achProcessor = '';
  let customerId = '';
  let cardId = '';
  let bankId = '';

  before(async () => {
    t = await startNode();
    m = await t.merchant();
    other = await t.merchant();
    partner = await t.partner();
    const configuration = await t.expectOk(t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token }));
    cardProcessor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
    achProcessor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 2).id;
    ({ customerId, cardId, bankId } = await customerWithMethods(m));
  });
  after(() => t.stop());

  async function customerWithMethods(tenant: MerchantTenant, firstName = 'Ada') {
    const customer = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', {
        token: tenant.token,
        body: {
          firstName,
          lastName: 'Lovelace',
          email: `${firstName.toLowerCase()}@example.com`,
          mobilePhoneNumber: '+12125550100',
        },
      }),
    );
    const card = await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
        token: tenant.token,
        body: { pan: CARD, expirationMonth: 12, expirationYear: 2031 },
      }),
    );
    const bank = await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/ach`, {
        token: tenant.token,
        body: { accountNumber: '100000099', routingNumber: ROUTING, accountType: 1, accountHolderType: 2 },
      }),
    );
    return { customerId: customer.id as string, cardId: card.id as string, bankId: bank.id as string };
  }

  const create = (body: Record<string, unknown>, token = m.token, headers: Record<string, string> = {}) =>
    t.request('POST', '/sub-api/v1/subscriptions', {
      token,
      headers,
      body: {
        customerId,
        paymentMethodId: cardId,
        amount: 10,
        currencyId: 1,
        paymentFrequencyUnit: 3,
        paymentFrequency: 1,
        numberOfPayments: 12,
        transactionType: 2,
        requesterIpAddress: IP,
        paymentProcessorId: cardProcessor,
        ...body,
      },
    });
  const get = (id: string, token = m.token) => t.request('GET', `/sub-api/v1/subscriptions/${id}`, { token });
  const history = async (id: string) =>
    (await t.expectOk(t.request('GET', `/sub-api/v1/subscriptions/${id}/payments?pageSize=100`, { token: m.token })))
      .items as Array<{
      status: string;
      amount: number;
      paymentOrder: number;
      initialExecutionDateTime: string;
      attempts: unknown[];
    }>;
  const put = (id: string, action: string, body?: unknown, token = m.token) =>
    t.request('PUT', `/sub-api/v1/subscriptions/${id}/${action}`, { token, ...(body === undefined ? {} : { body }) });
  const now = async () => new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
  const advanceTo = async (instant: Date) => {
    if (instant > (await now())) await t.advanceClockTo(instant, m, other);
    await t.drain();
  };

  it('refuses what it cannot bill, each with a 400 naming the field', async () => {
    const another = await customerWithMethods(m, 'Grace');
    const otherMerchants = await customerWithMethods(other, 'Alan');
    const past = new Date((await now()).getTime() - 5 * 60_000).toISOString();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ paymentMethodId: another.cardId }, 'paymentMethodId'],
      [{ paymentMethodId: otherMerchants.cardId }, 'paymentMethodId'],
      [{ paymentMethodId: bankId }, 'paymentMethodId'],
      [{ transactionType: 11, paymentProcessorId: achProcessor }, 'paymentMethodId'],
      [{ transactionType: 3 }, 'transactionType'],
      // Rule 7: card sale transactions only (or ACH); an authorization would never capture the money.
      [{ transactionType: 1 }, 'transactionType'],
      [{ currencyId: 2 }, 'currencyId'],
      [{ paymentFrequencyUnit: 1, paymentFrequency: 10 }, 'paymentFrequency'],
      [{ paymentFrequencyUnit: 4 }, 'paymentFrequencyUnit'],
      [{ paymentFrequency: 0 }, 'paymentFrequency'],
      [{ numberOfPayments: 0 }, 'numberOfPayments'],
      [{ amount: 0 }, 'amount'],
      [{ amount: 10.001 }, 'amount'],
      [{ requesterIpAddress: '999.1.1.1' }, 'requesterIpAddress'],
      [{ requesterIpAddress: undefined }, 'requesterIpAddress'],
      [{ paymentProcessorId: achProcessor }, 'paymentProcessorId'],
      [{ paymentProcessorId: undefined }, 'paymentProcessorId'],
      [{ paymentStartDateTime: past }, 'paymentStartDateTime'],
      [{ secCode: 2 }, 'secCode'],
      [{ isFasterProcessing: true }, 'isFasterProcessing'],
      [{ surchargeRate: 3 }, 'surchargeRate'],
      [{ schedule: { daysOfMonth: [1, 15] }, paymentFrequencyUnit: 2 }, 'schedule'],
      [{ schedule: { weeksOfMonth: [2] } }, 'schedule.dayOfWeek'],
      [{ schedule: { daysOfMonth: [32] } }, 'schedule.daysOfMonth[0]'],
      [{ installmentAmounts: [{ paymentOrder: 13, amount: 5 }] }, 'installmentAmounts'],
      [
        { transactionType: 11, paymentMethodId: bankId, paymentProcessorId: achProcessor, surchargeRate: 1 },
        'surchargeRate',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      assert.equal(res.status, 400, `${field}: ${res.text}`);
      assert.ok(
        Object.keys(res.body.errors ?? {}).some((k) => k.toLowerCase() === field.toLowerCase()),
        `${field}: ${res.text}`,
      );
    }
    // Another merchant's customer is not found, exactly as a missing one.
    const foreign = await create({ customerId: otherMerchants.customerId, paymentMethodId: otherMerchants.cardId });
    assert.equal(foreign.status, 404, foreign.text);
    // The merchant's maximum applies to every installment's total.
    const capped = await t.merchant({ body: { settings: { maxTransactionAmount: 50 } } });
    const cappedCustomer = await customerWithMethods(capped, 'Max');
    const cappedConfig = await t.expectOk(
      t.request('GET', '/pay-api/v1/configurations/payments', { token: capped.token }),
    );
    const cappedProcessor = cappedConfig.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
    const over = await create(
      {
        customerId: cappedCustomer.customerId,
        paymentMethodId: cappedCustomer.cardId,
        paymentProcessorId: cappedProcessor,
        installmentAmounts: [{ paymentOrder: 3, amount: 50.01 }],
      },
      capped.token,
    );
    assert.equal(over.status, 400, over.text);
    assert.ok(over.body.errors.amount, over.text);
    // A partner token is not a merchant's: 403.
    assert.equal((await create({}, partner.token)).status, 403);
  });

  let monthlyId = '';

  it('creates a subscription: the record in full, the first payment planned, an idempotent retry', async () => {
    const start = zonedInstant(2027, 1, 31, 9, 0, NY);
    const key = { 'idempotency-key': 'sub-create-1' };
    const body = {
      paymentStartDateTime: start.toISOString(),
      numberOfPayments: 13,
      installmentAmounts: [{ paymentOrder: 2, amount: 12.5 }],
    };
    const res = await create(body, m.token, key);
    assert.equal(res.status, 200, res.text);
    const s = res.body;
    monthlyId = s.id;
    assert.equal(s.status, 'Active');
    assert.equal(s.statusId, 1);
    assert.equal(s.merchantId, m.id);
    assert.equal(s.transactionType, 'Sale');
    assert.equal(s.paymentFrequencyUnit, 'Monthly');
    assert.deepEqual(s.paymentAmount, {
      baseAmount: 10,
      percentageOffAmount: 0,
      percentageOffRate: null,
      cashDiscountAmount: 0,
      cashDiscountRate: null,
      surchargeAmount: 0,
      surchargeRate: null,
      totalAmount: 10,
    });
    assert.equal(s.allPaymentsAmount, 132.5);
    assert.equal(s.alreadyPaidAmount, 0);
    assert.equal(s.subscriptionStartDate, start.toISOString());
    assert.equal(s.subscriptionEndDate, zonedInstant(2028, 1, 31, 9, 0, NY).toISOString());
    assert.equal(s.nextPaymentDate, start.toISOString());
    assert.equal(s.successfulPaymentsCount, 0);
    assert.equal(s.timeZone, NY);
    assert.equal(s.customer.customerName, 'Ada Lovelace');
    assert.equal(s.customer.panMask.slice(-4), '1111');
    assert.equal(s.customer.cardTokenType, 'Local');
    assert.equal(s.customer.emailAddress, 'ada@example.com');
    assert.deepEqual(s.source, { typeId: 2, type: 'ApiToken', id: m.clientId, name: 'ApiKey' });
    assert.deepEqual(s.installmentAmounts, [{ paymentOrder: 2, amount: 12.5 }]);

    const again = await create(body, m.token, key);
    assert.equal(again.status, 200);
    assert.equal(again.body.id, s.id);
    assert.deepEqual((await t.expectOk(get(s.id))).id, s.id);
    const events = await t.query<{ type: string }>(
      `SELECT type FROM events WHERE resource_type = 'subscription' AND resource_id = $1`,
      [s.id],
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['subscription.created'],
    );
  });

  it('hides other merchants: every route answers 404 for their subscriptions, as for a missing id', async () => {
    const missing = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c99';
    for (const id of [monthlyId, missing]) {
      assert.equal((await get(id, other.token)).status, 404);
      assert.equal(
        (await t.request('GET', `/sub-api/v1/subscriptions/${id}/payments`, { token: other.token })).status,
        404,
      );
      for (const action of ['terminate', 'suspend', 'resume'])
        assert.equal((await put(id, action, undefined, other.token)).status, 404);
      assert.equal((await put(id, 'payment-method', { paymentMethodId: cardId }, other.token)).status, 404);
    }
    const listed = await t.expectOk(t.request('GET', '/sub-api/v1/subscriptions', { token: other.token }));
    assert.equal(listed.total, 0);
    assert.equal((await get(monthlyId, partner.token)).status, 403);
  });

  it('bills through a year on the clock: the 31st clamped to month ends, DST, variable amounts, then Completed', async () => {
    // Alongside: weekly, every 15 days, and a calendar form (the 1st and the 15th of quarter months), no end.
    const from = zonedInstant(2027, 1, 31, 9, 0, NY);
    const ids = {
      weekly: (
        await t.expectOk(
          create({
            paymentFrequencyUnit: 2,
            paymentFrequency: 1,
            numberOfPayments: null,
            paymentStartDateTime: from.toISOString(),
            amount: 3,
          }),
        )
      ).id,
      fifteen: (
        await t.expectOk(
          create({
            paymentFrequencyUnit: 1,
            paymentFrequency: 15,
            numberOfPayments: null,
            paymentStartDateTime: from.toISOString(),
            amount: 4,
          }),
        )
      ).id,
      calendar: (
        await t.expectOk(
          create({
            schedule: { daysOfMonth: [1, 15], monthsOfYear: [1, 4, 7, 10] },
            numberOfPayments: null,
            paymentStartDateTime: from.toISOString(),
            amount: 5,
          }),
        )
      ).id,
    };
    const end = zonedInstant(2028, 2, 1, 0, 0, NY);
    // Weekly steps of the clock: each installment is charged in the step it falls due.
    for (let at = new Date(from.getTime()); at < end; at = new Date(at.getTime() + 7 * 86_400_000)) await advanceTo(at);
    await advanceTo(end);

    const monthly = await history(monthlyId);
    const expected = [
      '2027-01-31T14:00:00.000Z',
      '2027-02-28T14:00:00.000Z',
      '2027-03-31T13:00:00.000Z', // after the change to daylight time: still 09:00 in New York
      '2027-04-30T13:00:00.000Z',
      '2027-05-31T13:00:00.000Z',
      '2027-06-30T13:00:00.000Z',
      '2027-07-31T13:00:00.000Z',
      '2027-08-31T13:00:00.000Z',
      '2027-09-30T13:00:00.000Z',
      '2027-10-31T13:00:00.000Z',
      '2027-11-30T14:00:00.000Z', // standard time again
      '2027-12-31T14:00:00.000Z',
      '2028-01-31T14:00:00.000Z',
    ];
    assert.deepEqual(
      monthly.map((i) => i.initialExecutionDateTime),
      expected,
    );
    assert.ok(
      monthly.every((i) => i.status === 'Successful' && i.attempts.length === 1),
      JSON.stringify(monthly[0]),
    );
    assert.deepEqual(
      monthly.map((i) => i.amount),
      [10, 12.5, ...Array(11).fill(10)],
    );
    const done = await t.expectOk(get(monthlyId));
    assert.equal(done.status, 'Completed');
    assert.equal(done.successfulPaymentsCount, 13);
    assert.equal(done.alreadyPaidAmount, 132.5);
    assert.equal(done.nextPaymentDate, null);
    assert.equal(done.lastPaymentDate !== null, true);

    // Every installment due by now is paid exactly once: one approved sale each, with the subscription as source.
    for (const id of [monthlyId, ids.weekly, ids.fifteen, ids.calendar]) {
      const rows = await t.query<{ due: number; paid: number; sales: number; cents: string; total: string }>(
        `SELECT count(*) FILTER (WHERE i.due_at <= $2)::int AS due, count(*) FILTER (WHERE i.status_id = 3)::int AS paid,
           (SELECT count(*)::int FROM transactions tr WHERE tr.source_id = $1 AND tr.status_id IN (2, 6)) AS sales,
           (SELECT coalesce(sum(tr.total_cents), 0) FROM transactions tr WHERE tr.source_id = $1) AS cents,
           coalesce(sum(i.amount_cents) FILTER (WHERE i.status_id = 3), 0) AS total
         FROM subscription_installments i WHERE i.subscription_id = $1`,
        [id, end],
      );
      const r = rows[0]!;
      assert.equal(r.paid, r.due, `${id}: every due installment paid`);
      assert.equal(r.sales, r.paid, `${id}: one sale per paid installment`);
      assert.equal(Number(r.cents), Number(r.total));
    }
    const weekly = await history(ids.weekly);
    assert.equal(weekly.filter((i) => i.status === 'Successful').length, 53);
    const fifteen = await history(ids.fifteen);
    assert.equal(fifteen.filter((i) => i.status === 'Successful').length, 25);
    const calendar = (await history(ids.calendar)).filter((i) => i.status === 'Successful');
    assert.deepEqual(
      calendar.map((i) => i.initialExecutionDateTime.slice(0, 10)),
      ['2027-04-01', '2027-04-15', '2027-07-01', '2027-07-15', '2027-10-01', '2027-10-15', '2028-01-01', '2028-01-15'],
    );
    const source = await t.expectOk(
      t.request(
        'GET',
        `/pay-api/v1/transactions/${(await t.query<{ id: string }>('SELECT id FROM transactions WHERE source_id = $1 LIMIT 1', [monthlyId]))[0]!.id}`,
        { token: m.token },
      ),
    );
    assert.deepEqual(source.source, { typeId: 7, type: 'Subscription', id: monthlyId, name: 'Subscription' });
    const paidEvents = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'subscription.paid' AND resource_id = $1`,
      [monthlyId],
    );
    assert.equal(paidEvents[0]!.n, 13);
    const report = await verifyLedger(t.ctx.pool);
    assert.deepEqual(report.problems, []);
    for (const id of Object.values(ids)) await t.expectOk(put(id, 'terminate'));
  });

  it('lists with paging, search, one customer, status; Deleted only when asked for', async () => {
    const all = await t.expectOk(
      t.request('GET', '/sub-api/v1/subscriptions?pageSize=2&orderBy=createdOn&asc=true', { token: m.token }),
    );
    assert.equal(all.items.length, 2);
    assert.ok(all.total >= 4);
    const item = all.items[0];
    assert.equal(item.subscriptionId, item.id);
    assert.equal(item.customerName, 'Ada Lovelace');
    assert.equal(item.amountPerPayment, 10);
    assert.equal(item.totalPaymentsCount, 13);
    const byCustomer = await t.expectOk(
      t.request('GET', `/sub-api/v1/subscriptions?customerIds=${customerId}`, { token: m.token }),
    );
    assert.equal(byCustomer.total, all.total);
    // Another id for sure (one ending in 0 would otherwise be itself, one time in sixteen).
    const other = customerId.replace(/.$/, (last: string) => (last === '0' ? '1' : '0'));
    const two = await t.request('GET', `/sub-api/v1/subscriptions?customerIds=${customerId},${other}`, {
      token: m.token,
    });
    assert.equal(two.status, 400);
    assert.match(two.body.errors.customerIds[0], /one/i);
    const completed = await t.expectOk(t.request('GET', '/sub-api/v1/subscriptions?statusId=2', { token: m.token }));
    assert.deepEqual(
      completed.items.map((i: { id: string }) => i.id),
      [monthlyId],
    );
    const searched = await t.expectOk(
      t.request('GET', '/sub-api/v1/subscriptions?search=ada%40example', { token: m.token }),
    );
    assert.equal(searched.total, all.total);
    const none = await t.expectOk(t.request('GET', '/sub-api/v1/subscriptions?search=nobody', { token: m.token }));
    assert.equal(none.total, 0);
    assert.equal((await t.request('GET', '/sub-api/v1/subscriptions?orderBy=nope', { token: m.token })).status, 400);
  });

  it('terminates once; suspends and resumes; changes the payment method; every other move is a 400', async () => {
    // Installments fall due on the minute of the start.
    const start = new Date(Math.floor(((await now()).getTime() + 86_400_000) / 60_000) * 60_000).toISOString();
    const s = await t.expectOk(create({ paymentStartDateTime: start }));
    const suspended = await t.expectOk(put(s.id, 'suspend'));
    assert.equal(suspended.status, 'Suspended');
    assert.equal(suspended.nextPaymentDate, null);
    assert.equal((await put(s.id, 'suspend')).status, 400);
    const resumed = await t.expectOk(put(s.id, 'resume'));
    assert.equal(resumed.status, 'Active');
    assert.equal(resumed.nextPaymentDate, start);
    assert.equal((await put(s.id, 'resume')).status, 400);
    const second = await t.expectOk(
      t.request('POST', `/pay-api/v1/customers/${customerId}/payment-methods/cards`, {
        token: m.token,
        body: { pan: '5555555555554444', expirationMonth: 1, expirationYear: 2030 },
      }),
    );
    assert.equal((await put(s.id, 'payment-method', { paymentMethodId: bankId })).status, 400);
    const changed = await t.expectOk(put(s.id, 'payment-method', { paymentMethodId: second.id }));
    assert.equal(changed.paymentMethodId, second.id);
    const terminated = await t.expectOk(put(s.id, 'terminate'));
    assert.equal(terminated.status, 'Terminated');
    const repeat = await put(s.id, 'terminate');
    assert.equal(repeat.status, 400);
    assert.match(repeat.body.details, /already Terminated/);
    for (const action of ['suspend', 'resume']) assert.equal((await put(s.id, action)).status, 400);
    assert.equal((await put(s.id, 'payment-method', { paymentMethodId: cardId })).status, 400);
    // Nothing is charged after termination.
    await advanceTo(new Date(Date.parse(start) + 3600_000));
    assert.ok((await history(s.id)).every((i) => i.status !== 'Successful'));
    const completed = await put(monthlyId, 'terminate');
    assert.equal(completed.status, 400);
  });

  it('counts active subscriptions on the customer; guards its payment methods; ends them when it is deleted', async () => {
    const c = await customerWithMethods(m, 'Linus');
    const start = new Date((await now()).getTime() + 86_400_000).toISOString();
    const a = await t.expectOk(
      create({ customerId: c.customerId, paymentMethodId: c.cardId, amount: 20, paymentStartDateTime: start }),
    );
    await t.expectOk(
      create({
        customerId: c.customerId,
        paymentMethodId: c.bankId,
        transactionType: 11,
        paymentProcessorId: achProcessor,
        amount: 7.25,
        paymentStartDateTime: start,
      }),
    );
    const suspended = await t.expectOk(
      create({ customerId: c.customerId, paymentMethodId: c.cardId, amount: 99, paymentStartDateTime: start }),
    );
    await t.expectOk(put(suspended.id, 'suspend'));
    const record = await t.expectOk(t.request('GET', `/pay-api/v1/customers/${c.customerId}`, { token: m.token }));
    assert.equal(record.numberOfSubscriptions, 2);
    const list = await t.expectOk(
      t.request('GET', `/pay-api/v1/customers?customerIds=${c.customerId}`, { token: m.token }),
    );
    assert.equal(list.items[0].activeSubscriptionsAmount, 27.25);

    const refused = await t.request('DELETE', `/pay-api/v1/customers/${c.customerId}/payment-methods/${c.cardId}`, {
      token: m.token,
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.errors.paymentMethodId[0], new RegExp(a.id));

    assert.equal((await t.request('DELETE', `/pay-api/v1/customers/${c.customerId}`, { token: m.token })).status, 200);
    const deleted = await t.expectOk(get(a.id));
    assert.equal(deleted.status, 'Deleted');
    assert.equal((await put(a.id, 'terminate')).status, 400);
    const listed = await t.expectOk(
      t.request('GET', `/sub-api/v1/subscriptions?customerIds=${c.customerId}`, { token: m.token }),
    );
    assert.equal(listed.total, 0);
    const asked = await t.expectOk(
      t.request('GET', `/sub-api/v1/subscriptions?customerIds=${c.customerId}&statusId=6`, { token: m.token }),
    );
    assert.equal(asked.total, 3);
  });

  it('follows the merchant time zone the operator sets', async () => {
    const bad = await t.admin('PATCH', `/admin/v1/merchants/${m.id}`, { timeZone: 'Mars/Olympus' });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors.timeZone, bad.text);
    const badDays = await t.admin('PATCH', `/admin/v1/merchants/${m.id}`, { subscriptionRetryDays: [3, 1] });
    assert.equal(badDays.status, 400);
    const updated = await t.expectOk(
      t.admin('PATCH', `/admin/v1/merchants/${m.id}`, { timeZone: 'America/Chicago', subscriptionRetryDays: [2, 4] }),
    );
    assert.equal(updated.timeZone, 'America/Chicago');
    assert.deepEqual(updated.subscriptionRetryDays, [2, 4]);
    const start = zonedInstant(2028, 3, 31, 23, 30, 'America/Chicago');
    const s = await t.expectOk(create({ paymentStartDateTime: start.toISOString(), numberOfPayments: 2 }));
    assert.equal(s.timeZone, 'America/Chicago');
    assert.equal(s.subscriptionEndDate, zonedInstant(2028, 4, 30, 23, 30, 'America/Chicago').toISOString());
    await t.expectOk(put(s.id, 'terminate'));
    await t.expectOk(
      t.admin('PATCH', `/admin/v1/merchants/${m.id}`, { timeZone: NY, subscriptionRetryDays: [1, 3, 5] }),
    );
  });
});
