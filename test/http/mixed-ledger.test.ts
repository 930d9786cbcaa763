// A seeded random mix of card and ACH work, with the clock moving between operations so cutoffs, clearing, returns
// and batch settlement happen in the middle of it; afterwards every book must balance.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '737' };
// Clears, R01, R02, refused by the bank (Failed), clears.
const ACH_ACCOUNTS = ['123456789', '100000001', '100000002', '100000900', '555000111'];

describe('mixed card and ACH workload', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode({
      workers: true,
      env: { RATE_LIMIT_BURST_PER_10S: '100000', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    m = await t.merchant({ body: { settings: { isTipsEnabled: true } } });
    // Monday 08:00 New York, in April of next year.
    const year = new Date().getUTCFullYear() + 1;
    const weekday = new Date(Date.UTC(year, 3, 6)).getUTCDay();
    await t.advanceClockTo(zonedInstant(year, 4, 6 + ((8 - weekday) % 7), 8, 0, 'America/New_York'), m);
  });
  after(() => t.stop());

  const advance = (seconds: number) => t.advanceClock(seconds, m);
  const post = (path: string, body?: unknown) =>
    t.request('POST', `/pay-api/v1/transactions/${path}`, { token: m.token, ...(body === undefined ? {} : { body }) });

  it('leaves books that verify: ledger, batch totals, one final state per ACH entry', async () => {
    let seed = Number(process.env.MIX_SEED ?? 20261121); // MIX_SEED explores other workloads
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const cards: string[] = [];
    const achs: string[] = [];
    let refs = 0;
    for (let i = 0; i < 120; i++) {
      const roll = next();
      const amount = (Math.round(next() * 40_000) + 100) / 100; // integer cents, then dollars: no float residue
      if (roll < 0.2 || cards.length === 0) {
        const r = await post(next() < 0.6 ? 'sale' : 'auth', { amount, ...CARD, referenceId: `mix-${++refs}` });
        assert.equal(r.status, 200, r.text);
        cards.push(r.body.transactionId);
      } else if (roll < 0.4) {
        const op = pick(['capture', 'void', 'return', 'settle'] as const);
        const id = pick(cards);
        const body =
          op === 'settle'
            ? {}
            : op === 'return'
              ? { transactionId: id, amount: (Math.round(next() * 3000) + 1) / 100 }
              : { transactionId: id };
        const r = await post(op, body);
        assert.ok([200, 400].includes(r.status), `${op}: ${r.text}`);
      } else if (roll < 0.65 || achs.length === 0) {
        const r = await post(next() < 0.8 ? 'ach/payment' : 'ach/payment/credit', {
          amount,
          secCode: 2,
          requesterIPaddress: '203.0.113.9',
          accountNumber: pick(ACH_ACCOUNTS),
          routingNumber: '021000021',
          accountHolderType: 2,
          isFasterProcessing: next() < 0.3,
          ...ACH_PAYER,
        });
        assert.equal(r.status, 200, r.text);
        achs.push(r.body.transactionId);
      } else if (roll < 0.85) {
        const op = pick(['hold', 'unhold', 'void', 'refund'] as const);
        const r = await post(`ach/${pick(achs)}/${op}`);
        assert.ok([200, 400].includes(r.status), `${op}: ${r.text}`);
        if (op === 'refund' && r.status === 200) achs.push(r.body.transactionId);
      } else {
        // Up to a day and a half: some steps cross cutoffs, settlement times, return days and weekends.
        await advance(Math.round(next() * 36 * 3600));
      }
    }
    await post('settle', {});
    // Let every window close and every file clear, return and settle: eight days, a day at a time.
    for (let day = 0; day < 8; day++) await advance(86_400);
    await eventually(async () => {
      const open = await t.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM settlement_batches WHERE merchant_id = $1 AND ach_file_id IS NOT NULL
           AND status_id <> 2`,
        [m.id],
      );
      return open[0]!.n === 0;
    }, 20_000);

    const states = await t.query<{ status_id: number; n: number }>(
      `SELECT t.status_id, count(*)::int AS n FROM transactions t WHERE t.merchant_id = $1 AND t.method = 'ach'
       GROUP BY 1 ORDER BY 1`,
      [m.id],
    );
    const byStatus = new Map(states.map((s) => [s.status_id, s.n]));
    assert.equal(byStatus.get(21) ?? 0, 0, 'nothing left Scheduled');
    assert.equal(byStatus.get(24) ?? 0, 0, 'nothing left In progress');
    assert.ok((byStatus.get(25) ?? 0) > 0, `some entries cleared: ${JSON.stringify(states)}`);
    assert.ok((byStatus.get(26) ?? 0) > 0, `some were returned: ${JSON.stringify(states)}`);

    const report = await verifyLedger(t.ctx.pool);
    assert.deepEqual(report.problems, []);
    assert.ok(report.ok);
    assert.ok(report.checked.settledTransactions > 10, JSON.stringify(report.checked));
  });
});
