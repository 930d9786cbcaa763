// Each of the sandbox bank's return rules, one entry per rule, in a balanced file built after the processor's window
// settings were changed through the operator API. A plain week of March next year: no Fed holiday in it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseNacha } from '../../src/connectors/ach/nacha.js';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { dictionary } from '../../src/platform/dictionary.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const NY = 'America/New_York';
const ROUTING = '021000021';
const RULES = [
  { account: '100000002', code: 'R02', reason: 'Account closed' },
  { account: '100000003', code: 'R03', reason: 'No account/unable to locate account' },
  { account: '100000004', code: 'R04', reason: 'Invalid account number' },
  { account: '100000010', code: 'R10', reason: 'Customer advises not authorized' },
  { account: '100000029', code: 'R29', reason: 'Corporate customer advises not authorized' },
];

/** The Monday on or after March 9 of next year. */
function plainMonday(): { year: number; day: number } {
  const year = new Date().getUTCFullYear() + 1;
  const weekday = new Date(Date.UTC(year, 2, 9)).getUTCDay();
  return { year, day: 9 + ((8 - weekday) % 7) };
}

describe('ACH return rules, balanced files and window settings', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let processorId: string;
  const week = plainMonday();
  const at = (dayOffset: number, hour: number, minute: number) =>
    zonedInstant(week.year, 3, week.day + dayOffset, hour, minute, NY);
  const ids: Record<string, string> = dictionary();

  before(async () => {
    t = await startNode({ workers: true });
    m = await t.merchant({ body: { companyName: 'Rules Test Co' } });
    const rows = await t.query<{ id: string }>(
      `SELECT id FROM payment_processors WHERE merchant_id = $1 AND method = 'ach'`,
      [m.id],
    );
    processorId = rows[0]!.id;
    await advanceTo(at(0, 8, 0));
  });
  after(() => t.stop());

  const advanceTo = (instant: Date) => t.advanceClockTo(instant, m);
  const status = async (id: string) => {
    const res = await t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const waitStatus = (id: string, statusId: number) =>
    eventually(async () => (await status(id)).statusId === statusId, 10_000);
  const pay = async (path: string, accountNumber: string, amount: number, extra: Record<string, unknown> = {}) => {
    const res = await t.request('POST', `/pay-api/v1/transactions/ach/${path}`, {
      token: m.token,
      body: {
        amount,
        secCode: 2,
        requesterIPaddress: '2001:db8::7',
        accountNumber,
        routingNumber: ROUTING,
        accountHolderType: 2,
        ...ACH_PAYER,
        ...extra,
      },
    });
    assert.equal(res.status, 200, res.text);
    return res.body.transactionId as string;
  };

  it('shows and changes a processor window settings; bad values are refused naming the field', async () => {
    const url = `/admin/v1/ach/processors/${processorId}/settings`;
    const defaults = await t.expectOk(t.admin('GET', url));
    assert.deepEqual(defaults.sameDayCutoffs, ['10:30', '14:45']);
    assert.deepEqual(defaults.standardCutoffs, ['17:00']);
    assert.equal(defaults.timeZone, NY);
    assert.equal(defaults.balancedFile, false);

    const badZone = await t.admin('PATCH', url, { timeZone: 'Mars/Olympus' });
    assert.equal(badZone.status, 400, badZone.text);
    assert.ok(badZone.body.errors.timeZone, badZone.text);
    const clash = await t.admin('PATCH', url, { sameDayCutoffs: ['16:00'], standardCutoffs: ['16:00'] });
    assert.equal(clash.status, 400, clash.text);
    assert.ok(clash.body.errors.sameDayCutoffs, clash.text);
    const unknown = await t.admin('PATCH', `/admin/v1/ach/processors/${crypto.randomUUID()}/settings`, {
      balancedFile: true,
    });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal((await t.expectOk(t.admin('GET', url))).balancedFile, false, 'a refused change changes nothing');

    const changed = await t.expectOk(t.admin('PATCH', url, { balancedFile: true, standardCutoffs: ['16:00'] }));
    assert.equal(changed.balancedFile, true);
    assert.deepEqual(changed.standardCutoffs, ['16:00']);
    assert.deepEqual(changed.sameDayCutoffs, ['10:30', '14:45'], 'what the change does not name stays');
    assert.deepEqual((await t.expectOk(t.admin('GET', url))).standardCutoffs, ['16:00']);
  });

  it('puts one entry per rule, a clearing debit and a credit into one balanced file for the new window', async () => {
    for (const rule of RULES) ids[rule.code] = await pay('payment', rule.account, 20);
    ids.clears = await pay('payment', '123456789', 7);
    ids.credit = await pay('payment/credit', '22223333', 3);
    const view = await status(ids.clears);
    assert.equal(new Date(view.achProcessingDetails.scheduledWindow).getTime(), at(0, 16, 0).getTime());

    await advanceTo(at(0, 16, 1));
    for (const id of Object.values(ids)) await waitStatus(id, 24);
    const files = await t.expectOk(t.admin('GET', `/admin/v1/ach/files?processorId=${processorId}`));
    assert.equal(files.items.length, 1, JSON.stringify(files));
    const file = files.items[0];
    assert.equal(new Date(file.window).getTime(), at(0, 16, 0).getTime());
    assert.equal(file.entryCount, 7);

    const text = (await t.admin('GET', `/admin/v1/ach/files/${file.id}`)).text;
    const parsed = parseNacha(text); // checks every count, hash and total of the file and its batches
    for (const batch of parsed.batches) {
      let debits = 0;
      let credits = 0;
      for (const e of batch.entries) {
        if (e.transactionCode % 10 >= 5) debits += e.amountCents;
        else credits += e.amountCents;
      }
      assert.equal(debits, credits, 'a balanced batch nets to zero');
      assert.equal(batch.header.serviceClassCode, 200);
      const offset = batch.entries.at(-1)!;
      assert.equal(offset.accountNumber, '9900000001');
      assert.equal(offset.individualId, 'OFFSET');
    }
    // 5 × 20.00 + 7.00 of debits against 3.00 of credit: the offset credits the settlement account 104.00.
    assert.equal(parsed.control.totalDebitCents, 10_700n);
    assert.equal(parsed.control.totalCreditCents, 10_700n);
    assert.equal(file.totalDebitAmount, 107);
    assert.equal(file.totalCreditAmount, 107);
    const traces = parsed.batches.flatMap((b) => b.entries.map((e) => e.traceNumber));
    assert.equal(new Set(traces).size, traces.length, 'every trace number is unique, the offset entry included');
  });

  it('clears the next business day, then returns each rule with its code and reason two business days later', async () => {
    await advanceTo(at(1, 9, 1));
    for (const id of Object.values(ids)) await waitStatus(id, 25);
    // Refunded after clearing, then returned anyway: the refund was its own entry and stays; the original is
    // charged back and collected nothing.
    const refund = await t.request('POST', `/pay-api/v1/transactions/ach/${ids.R02}/refund`, { token: m.token });
    assert.equal(refund.status, 200, refund.text);
    assert.equal((await status(ids.R02!)).status, 'Refunded');
    await advanceTo(at(3, 9, 1));
    for (const rule of RULES) {
      await waitStatus(ids[rule.code]!, 26);
      const view = await status(ids[rule.code]!);
      assert.equal(view.status, 'ChargedBack');
      assert.equal(view.responseCode, rule.code);
      assert.equal(view.achProcessingDetails.returnCode, rule.code);
      assert.equal(view.achProcessingDetails.returnReason, rule.reason);
    }
    assert.equal((await status(ids.clears!)).statusId, 25);
    assert.equal(
      (await status(refund.body.transactionId)).statusId,
      25,
      'the refund went out in the next window and cleared',
    );
    assert.equal((await status(ids.credit!)).statusId, 25);

    const batch = await eventually(async () => {
      const res = await t.request('GET', '/pay-api/v1/settlements/batches?pageSize=10', { token: m.token });
      return res.body.items.find((b: { statusName: string }) => b.statusName === 'Settled');
    }, 10_000);
    assert.equal(batch.transactionCount, 7);
    // Only the cleared debit is a sale; the returned ones moved nothing; the credit pays out.
    assert.equal(batch.salesAmount, 7);
    assert.equal(batch.refundsAmount, 3);
    assert.equal(batch.netAmount, 4);
    const report = await verifyLedger(t.ctx.pool);
    assert.equal(report.ok, true, JSON.stringify(report.problems));
  });
});
