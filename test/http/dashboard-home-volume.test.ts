// The home page's kept figures (dashboard_volume): what the page shows is what one scan of every row of the month
// would say — the kept quarter-hour buckets plus the rows newer than them — for rows spread over today, earlier
// this month and last month; a void of a payment already in a bucket shows once the refresh job recomputes, and
// never counts twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { homeFigures } from '../../src/modules/dashboard/pages/home.reads.js';
import { volumeColumns, volumeParams } from '../../src/modules/dashboard/volume/volume-figures.js';
import { floorQuarter } from '../../src/modules/dashboard/volume/volume-rollup.js';
import { localParts, zonedInstant } from '../../src/platform/clock/zoned.js';
import { dashboardSession } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

describe('dashboard home figures', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { companyName: 'Volume Vendors' } });
  });
  after(() => t.stop());

  /** One scan of the month's rows: what the kept figures must add up to. */
  async function scanned(now: Date, timeZone: string) {
    const local = localParts(now, timeZone);
    const monthStart = zonedInstant(local.year, local.month, 1, 0, 0, timeZone);
    const rows = await t.query(
      `SELECT ${volumeColumns(4)} FROM transaction_amounts WHERE merchant_id = $1 AND created_at >= $2 AND created_at <= $3`,
      [m.id, monthStart, now, ...volumeParams()],
    );
    const r = rows[0] as unknown as { sales: string; approved: number; declined: number; refunds: string };
    return { salesCents: Number(r.sales), approved: r.approved, declined: r.declined, refundsCents: Number(r.refunds) };
  }

  it('adds the kept buckets and the newest rows up to one scan of the month, and catches up a late void', async () => {
    const ids: string[] = [];
    for (const amount of [10, 20, 30, 40, 50, 60]) {
      ids.push((await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { amount, ...CARD })).transactionId);
    }
    await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      body: { amount: 9, ...CARD, accountNumber: '4000000010050005' },
    });
    await t.ok(m, 'POST', '/pay-api/v1/transactions/return', { transactionId: ids[5], amount: 5 });
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    // Spread over time: a quarter ago, two quarters ago, a day ago, forty days ago (last month's: never this month's).
    for (const [id, minutes] of [
      [ids[0], 16],
      [ids[1], 31],
      [ids[2], 24 * 60],
      [ids[3], 40 * 24 * 60],
    ] as const) {
      await t.query(`UPDATE transactions SET created_at = $2::timestamptz - make_interval(mins => $3) WHERE id = $1`, [
        id,
        now,
        minutes,
      ]);
    }
    const zone = (await t.ctx.services.merchants.getConfiguration(m.id)).settings.timeZone;
    const volume = t.ctx.services.dashboard.volume;
    const first = await homeFigures(t.ctx.pool, volume, m.id, now, zone);
    assert.deepEqual(first.month, await scanned(now, zone));
    const marks = await t.query('SELECT complete_until FROM dashboard_volume_marks WHERE merchant_id = $1', [m.id]);
    assert.equal((marks[0]!.complete_until as Date).getTime(), floorQuarter(now).getTime());
    const kept = await t.query('SELECT count(*)::int AS n FROM dashboard_volume WHERE merchant_id = $1', [m.id]);
    assert.ok((kept[0]!.n as number) >= 3, 'the older rows are in buckets');

    // A void of the payment of a day ago (already in a bucket): shown after the refresh job, counted once.
    await t.ok(m, 'POST', '/pay-api/v1/transactions/void', { transactionId: ids[2] });
    const expected = await scanned(now, zone);
    assert.equal(await volume.refreshViewed(), 1);
    const second = await homeFigures(t.ctx.pool, volume, m.id, now, zone);
    assert.deepEqual(second.month, expected);
    assert.equal(
      second.daily.reduce((a, b) => a + b, 0),
      expected.salesCents,
      'the days of the month add up to the month',
    );
    assert.equal(
      second.hourly.reduce((a, b) => a + b, 0),
      second.today.salesCents,
      'the hours add up to today',
    );

    const owner = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    const home = await owner.get('/dashboard');
    assert.equal(home.status, 200);
    const dollars = (expected.salesCents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    assert.ok(home.text.includes(dollars), `the page shows this month's ${dollars}`);
    const german = await t.request('GET', '/dashboard', {
      headers: { cookie: owner.cookie, 'accept-language': 'de-DE,de;q=0.9' },
    });
    const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'USD' }).format(
      expected.salesCents / 100,
    );
    assert.ok(german.text.includes(euro), `in the reader's locale: ${euro}`);
  });
});
