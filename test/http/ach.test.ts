import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildNachaFile, parseNacha } from '../../src/connectors/ach/nacha.js';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { parseWithLibrary } from '../nacha-library.js';

const NY = 'America/New_York';
const GOOD_ROUTING = '021000021';
const IP = '203.0.113.7';

/** Thanksgiving week of next year: Monday is a business day, Thursday a Fed holiday. */
function thanksgivingMonday(): { year: number; day: number } {
  const year = new Date().getUTCFullYear() + 1;
  const firstWeekday = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  const thursday = 1 + ((4 - firstWeekday + 7) % 7) + 21;
  return { year, day: thursday - 3 };
}

describe('ACH payments', () => {
  let t: TestNode;
  let m: MerchantTenant;
  const week = thanksgivingMonday();
  const at = (dayOffset: number, hour: number, minute: number) =>
    zonedInstant(week.year, 11, week.day + dayOffset, hour, minute, NY);

  before(async () => {
    // Tiny parts: every file here is written and read back across several parts and cursor reads.
    t = await startNode({ workers: true, env: { ACH_FILE_PART_RECORDS: '3' } });
    m = await t.merchant({ body: { companyName: 'Acme Widgets' } });
    await advanceTo(at(0, 8, 0));
  });
  after(() => t.stop());

  const advanceTo = (instant: Date) => t.advanceClockTo(instant, m);

  const post = (path: string, body?: unknown, token = m.token) =>
    t.request('POST', `/pay-api/v1/transactions/ach/${path}`, { token, ...(body === undefined ? {} : { body }) });
  const status = async (id: string) => {
    const res = await t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const debit = async (body: Record<string, unknown>) => {
    const res = await post('payment', { amount: 10, secCode: 1, requesterIPaddress: IP, ...body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const raw = (accountNumber: string, extra: Record<string, unknown> = {}) =>
    debit({ accountNumber, routingNumber: GOOD_ROUTING, accountHolderType: 2, ...ACH_PAYER, ...extra });
  const waitStatus = (id: string, statusId: number) =>
    eventually(async () => (await status(id)).statusId === statusId, 10_000);

  it('refuses inconsistent requests with a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ accountNumber: '123456789', routingNumber: '021000022', accountHolderType: 2, ...ACH_PAYER }, 'routingNumber'],
      [{ accountNumber: '12AB5678', routingNumber: GOOD_ROUTING, accountHolderType: 2, ...ACH_PAYER }, 'accountNumber'],
      [{ accountNumber: '1'.repeat(18), routingNumber: GOOD_ROUTING, ...ACH_PAYER }, 'accountNumber'],
      [
        { accountNumber: '123456789', routingNumber: GOOD_ROUTING, accountHolderType: 2, secCode: 3, ...ACH_PAYER },
        'contactInfo.companyName',
      ],
      [
        {
          accountNumber: '123456789',
          routingNumber: GOOD_ROUTING,
          accountHolderType: 2,
          requesterIPaddress: '999.1.1.1',
          ...ACH_PAYER,
        },
        'requesterIPaddress',
      ],
      [
        { accountNumber: '123456789', routingNumber: GOOD_ROUTING, accountHolderType: 2, amount: 0, ...ACH_PAYER },
        'amount',
      ],
      [{ accountNumber: '123456789', routingNumber: GOOD_ROUTING, ...ACH_PAYER }, 'accountHolderType'],
      [{}, 'paymentMethodId'],
    ];
    for (const [body, field] of cases) {
      const res = await post('payment', { amount: 10, requesterIPaddress: IP, ...body });
      assert.equal(res.status, 400, `${field}: ${res.text}`);
      assert.ok(
        Object.keys(res.body.errors).some((k) => k.toLowerCase() === field.toLowerCase()),
        `${field}: ${res.text}`,
      );
    }
    const missingIp = await post('payment', { amount: 10, accountNumber: '123456789', routingNumber: GOOD_ROUTING });
    assert.equal(missingIp.status, 400);
    assert.ok(missingIp.body.errors.requesterIPaddress, missingIp.text);
    // A new account without who and where: the network's message, field by field.
    const bare = await post('payment', {
      amount: 10,
      requesterIpAddress: '2001:db8::1',
      accountNumber: '123456789',
      routingNumber: GOOD_ROUTING,
      accountHolderType: 1,
    });
    assert.equal(bare.status, 400);
    assert.deepEqual(bare.body.errors.contactInfo, ['ContactInfo is required for new ACH payments.']);
    assert.deepEqual(bare.body.errors.billingAddress, ['BillingAddress is required for new ACH payments.']);
  });

  type Key = 'clears' | 'r01' | 'reject' | 'noc' | 'sameDay' | 'credit' | 'held' | 'voided';
  const ids = {} as Record<Key, string>;
  let customerId = '';
  let vaultedId = '';

  it('schedules debits and credits for their windows; hold keeps one out, void cancels, unhold reschedules', async () => {
    const customer = await t.request('POST', '/pay-api/v1/customers', {
      token: m.token,
      body: { firstName: 'Grace', lastName: 'Hopper' },
    });
    customerId = customer.body.id;
    const vaulted = await t.request('POST', `/pay-api/v1/customers/${customerId}/payment-methods/ach`, {
      token: m.token,
      body: { accountNumber: '100000099', routingNumber: GOOD_ROUTING, accountType: 1, accountHolderType: 2 },
    });
    assert.equal(vaulted.status, 200, vaulted.text);
    vaultedId = vaulted.body.id;

    const created = await raw('123456789', { amount: 25.5 });
    assert.equal(created.typeId, 11);
    assert.equal(created.type, 'AchDebit');
    assert.equal(created.statusId, 21);
    assert.equal(created.status, 'Scheduled');
    assert.equal(created.processedAmount, 25.5);
    ids.clears = created.transactionId;
    ids.r01 = (await raw('100000001', { amount: 11 })).transactionId;
    ids.reject = (await raw('100000900', { amount: 12 })).transactionId;
    ids.noc = (await debit({ customerId, paymentMethodId: vaultedId, amount: 13 })).transactionId;
    ids.sameDay = (await raw('123456780', { amount: 14, isFasterProcessing: true })).transactionId;
    const credit = await post('payment/credit', {
      amount: 5,
      secCode: 3,
      requesterIPaddress: IP,
      accountNumber: '22223333',
      routingNumber: GOOD_ROUTING,
      accountHolderType: 1,
      billingAddress: ACH_PAYER.billingAddress,
      contactInfo: { companyName: 'Supplier Inc', mobileNumber: '+12125550101' },
    });
    assert.equal(credit.status, 200, credit.text);
    assert.equal(credit.body.type, 'AchCredit');
    ids.credit = credit.body.transactionId;
    ids.held = (await raw('123456781', { amount: 15 })).transactionId;
    ids.voided = (await raw('123456782', { amount: 16 })).transactionId;

    const view = await status(ids.clears);
    assert.equal(view.paymentMethodType, 'ElectronicCheck');
    assert.equal(view.achProcessingDetails.accountNumber, '*****6789');
    assert.equal(view.achProcessingDetails.secCode, 'Web');
    assert.equal(new Date(view.achProcessingDetails.scheduledWindow).getTime(), at(0, 17, 0).getTime());
    assert.deepEqual(
      view.availableOperations.map((o: { type: string }) => o.type),
      ['AchHold', 'AchCancel'],
    );
    const list = await t.request('GET', '/pay-api/v1/transactions?pageSize=50', { token: m.token });
    assert.equal(list.status, 200, list.text);
    const listed = list.body.items.find((item: { id: string }) => item.id === ids.clears);
    assert.equal(listed.paymentMethodType, 'ElectronicCheck');
    assert.deepEqual(listed.achProcessingDetails, view.achProcessingDetails, 'the list carries the same ACH details');
    const sameDay = await status(ids.sameDay);
    assert.equal(new Date(sameDay.achProcessingDetails.scheduledWindow).getTime(), at(0, 10, 30).getTime());

    const held = await post(`${ids.held}/hold`);
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.typeId, 13);
    assert.equal(held.body.statusId, 22);
    assert.equal((await post(`${ids.held}/hold`)).status, 400);
    const voided = await post(`${ids.voided}/void`);
    assert.equal(voided.body.typeId, 15);
    assert.equal(voided.body.status, 'Cancelled');
    const twice = await post(`${ids.voided}/void`);
    assert.equal(twice.status, 400);
    assert.equal((await post(`${ids.clears}/refund`)).status, 400, 'a debit that has not cleared cannot be refunded');
  });

  it('collects each window into one NACHA file that an independent parser reads with matching totals', async () => {
    await advanceTo(at(0, 10, 31));
    await waitStatus(ids.sameDay, 24);
    assert.equal((await status(ids.clears)).statusId, 21, 'standard entries wait for the standard window');
    await advanceTo(at(0, 17, 1));
    for (const id of [ids.clears, ids.r01, ids.noc, ids.credit]) await waitStatus(id, 24);
    await waitStatus(ids.reject, 92);
    assert.equal((await status(ids.held)).statusId, 22, 'a held entry stays out of the file');
    assert.equal((await status(ids.voided)).statusId, 23);
    const voidLate = await post(`${ids.clears}/void`);
    assert.equal(voidLate.status, 400);
    assert.match(voidLate.body.errors.transactionId[0], /submitted to the ACH network/);

    const files = await t.expectOk(t.admin('GET', `/admin/v1/ach/files?merchantId=${m.id}`));
    const origination = files.items.filter((f: { direction: string }) => f.direction === 'Origination');
    assert.equal(origination.length, 2, JSON.stringify(files));
    const standard = origination.find(
      (f: { window: string }) => new Date(f.window).getTime() === at(0, 17, 0).getTime(),
    );
    assert.equal(standard.entryCount, 5);
    assert.equal(standard.totalDebitAmount, 25.5 + 11 + 12 + 13);
    assert.equal(standard.totalCreditAmount, 5);

    const download = await t.admin('GET', `/admin/v1/ach/files/${standard.id}`);
    assert.equal(download.status, 200);
    assert.match(String(download.headers['content-type']), /text\/plain/);
    const text = download.text;
    const records = text.trimEnd().split('\n');
    assert.ok(records.every((r) => r.length === 94));
    assert.equal(records.length % 10, 0);

    const parsed = await parseWithLibrary(text);
    const entries = parsed.batches.flatMap((b: any) => b.entries);
    assert.equal(entries.length, 5);
    const secCodes = parsed.batches.map((b: any) => b.entryClassCode).sort();
    assert.deepEqual(secCodes, ['CCD', 'WEB']);
    let hash = 0;
    let debits = 0;
    let credits = 0;
    for (const batch of parsed.batches) {
      let batchHash = 0;
      let batchDebits = 0;
      let batchCredits = 0;
      for (const e of batch.entries) {
        batchHash += Number(e.receivingDFIIdentification);
        if (Number(e.transactionCode) % 10 >= 5) batchDebits += e.amount;
        else batchCredits += e.amount;
      }
      assert.equal(batch.footer.entryHash, batchHash % 1e10);
      assert.equal(batch.footer.totalDebit, batchDebits);
      assert.equal(batch.footer.totalCredit, batchCredits);
      hash += batchHash;
      debits += batchDebits;
      credits += batchCredits;
    }
    assert.equal(parsed.file.footer.entryHash, hash % 1e10);
    assert.equal(parsed.file.footer.totalDebit, debits);
    assert.equal(parsed.file.footer.totalCredit, credits);
    assert.equal(parsed.file.footer.batchCount, parsed.batches.length);
    assert.equal(parsed.file.footer.blockCount, records.length / 10);
    assert.equal(debits, 2550 + 1100 + 1200 + 1300);
    assert.equal(credits, 500);
    // Our own parser agrees, and the CCD credit carries its addenda.
    const ours = parseNacha(text);
    const ccd = ours.batches.find((b) => b.header.secCode === 'CCD')!;
    assert.equal(ccd.entries[0]!.addenda[0]!.type, '05');
    assert.equal(ccd.entries[0]!.individualName, 'SUPPLIER INC');
    assert.equal(ccd.header.serviceClassCode, 220);
    for (const batch of ours.batches) {
      const traces = batch.entries.map((e) => e.traceNumber);
      assert.deepEqual([...traces].sort(), traces, 'trace numbers ascend within a batch');
    }
    const parts = await t.query<{ n: number }>('SELECT count(*)::int AS n FROM ach_file_parts WHERE file_id = $1', [
      standard.id,
    ]);
    assert.ok(parts[0]!.n > 1, 'the file was stored in several parts');
  });

  it('releases a held entry for the next window', async () => {
    const released = await post(`${ids.held}/unhold`);
    assert.equal(released.status, 200, released.text);
    assert.equal(released.body.typeId, 14);
    assert.equal(released.body.statusId, 21);
    const view = await status(ids.held);
    assert.equal(new Date(view.achProcessingDetails.scheduledWindow).getTime(), at(1, 17, 0).getTime());
  });

  it('clears on the settlement date and charges returns back two business days later (holidays skipped)', async () => {
    await advanceTo(at(0, 17, 31));
    await waitStatus(ids.sameDay, 25);
    assert.equal((await status(ids.clears)).statusId, 24, 'standard entries settle the next business day');
    await advanceTo(at(1, 9, 1));
    for (const id of [ids.clears, ids.r01, ids.noc, ids.credit]) await waitStatus(id, 25);
    // Tuesday + 2 business days skips Thanksgiving Thursday: returns arrive Friday 09:00.
    await advanceTo(at(3, 12, 0));
    await t.drain();
    assert.equal((await status(ids.r01)).statusId, 25, 'no return on the holiday');
    await advanceTo(at(4, 9, 1));
    await waitStatus(ids.r01, 26);
    const returned = await status(ids.r01);
    assert.equal(returned.status, 'ChargedBack');
    assert.equal(returned.achProcessingDetails.returnCode, 'R01');
    assert.equal(returned.responseCode, 'R01');
    assert.equal((await status(ids.clears)).statusId, 25);

    const noc = await status(ids.noc);
    assert.equal(noc.statusId, 25, 'a notification of change does not return the entry');
    assert.deepEqual(noc.achProcessingDetails.notificationOfChange, { changeCode: 'C01', correctedData: '100000098' });
    const methods = await t.request('GET', `/pay-api/v1/customers/${customerId}/payment-methods`, { token: m.token });
    const corrected = JSON.stringify(methods.body);
    assert.match(corrected, /0098/, 'the vaulted account took the corrected number');

    const events = await t.query<{ type: string }>(`SELECT type FROM events WHERE resource_id = $1 ORDER BY seq`, [
      ids.r01,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'transaction.ach.scheduled',
        'transaction.ach.in_progress',
        'transaction.ach.cleared',
        'transaction.ach.charged_back',
      ],
    );
    assert.ok(
      (await t.query(`SELECT 1 FROM events WHERE resource_id = $1 AND type = 'transaction.ach.failed'`, [ids.reject]))
        .length,
    );

    const batches = await t.request('GET', '/pay-api/v1/settlements/batches?pageSize=50', { token: m.token });
    const settled = batches.body.items.filter(
      (b: { statusName: string; transactionCount: number }) => b.statusName === 'Settled',
    );
    const standardBatch = settled.find((b: { transactionCount: number }) => b.transactionCount === 5);
    assert.ok(standardBatch, JSON.stringify(batches.body));
    // Sales: cleared debits (25.50 + 13; the returned and the failed moved nothing); refunds: the 5.00 credit.
    assert.equal(standardBatch.salesAmount, 38.5);
    assert.equal(standardBatch.refundsAmount, 5);
    assert.equal(standardBatch.netAmount, 33.5);
    const [event] = await t.query(
      `SELECT resource_type FROM events WHERE type = 'settlement.batch.completed' AND resource_id = $1`,
      [standardBatch.id],
    );
    assert.equal(event?.resource_type, 'settlement');
  });

  it('refunds a cleared debit with a reversing credit; the original becomes Refunded', async () => {
    const refund = await post(`${ids.clears}/refund`);
    assert.equal(refund.status, 200, refund.text);
    assert.equal(refund.body.typeId, 12);
    assert.equal(refund.body.type, 'AchRefund');
    assert.equal(refund.body.statusId, 21);
    assert.notEqual(refund.body.transactionId, ids.clears);
    const original = await status(ids.clears);
    assert.equal(original.statusId, 4);
    assert.equal((await post(`${ids.clears}/refund`)).status, 400);
    const event = await t.query<{ data: { refundTransactionId: string } }>(
      `SELECT data FROM events WHERE resource_id = $1 AND type = 'transaction.ach.refunded'`,
      [ids.clears],
    );
    assert.equal(event[0]!.data.refundTransactionId, refund.body.transactionId);
    const refundView = await status(refund.body.transactionId);
    assert.equal(refundView.originalTransactionId, ids.clears);
    assert.equal((await post(`${ids.credit}/refund`)).status, 400, 'a credit is not refundable');
  });

  it('imports a bank return file once: the entry is charged back, a second import changes nothing', async () => {
    const entry = await status(ids.sameDay);
    const trace = entry.achProcessingDetails.traceNumber as string;
    const processorId = entry.processorId as string;
    const { content } = buildNachaFile(
      {
        immediateDestination: '091000019',
        immediateOrigin: ' 071000013',
        destinationName: 'TESSERA',
        originName: 'SOME BANK',
        creationDate: '301201',
        creationTime: '0900',
        fileIdModifier: 'A',
      },
      [
        {
          header: {
            serviceClassCode: 200,
            companyName: 'ACME WIDGETS',
            companyId: '1234567890',
            secCode: 'WEB',
            entryDescription: 'PAYMENT',
            effectiveEntryDate: '301201',
            odfiId: '07100001',
          },
          entries: [
            {
              transactionCode: 26,
              rdfiRoutingNumber: '091000019',
              accountNumber: '123456780',
              amountCents: 1400,
              individualId: 'X',
              individualName: 'ADA LOVELACE',
              traceNumber: '071000010000001',
              addenda: [
                { type: '99', returnReasonCode: 'R10', originalTraceNumber: trace, originalRdfiId: '02100002' },
              ],
            },
          ],
        },
      ],
    );
    const url = `/admin/v1/ach/return-files?processorId=${processorId}`;
    const send = () =>
      t.request('POST', url, {
        token: 'test-admin-token-0123456789abcdef',
        payload: content,
        headers: { 'content-type': 'text/plain' },
      });
    const first = await send();
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.returns, 1);
    assert.equal(first.body.duplicate, false);
    const view = await status(ids.sameDay);
    assert.equal(view.statusId, 26);
    assert.equal(view.achProcessingDetails.returnCode, 'R10');
    const second = await send();
    assert.equal(second.body.duplicate, true);
    const reversals = await t.query(`SELECT 1 FROM ledger_entries WHERE transaction_id = $1 AND kind = 'ach_return'`, [
      ids.sameDay,
    ]);
    assert.equal(reversals.length, 2, 'one balanced reversal (two lines), not two');
    const broken = await t.request('POST', url, {
      token: 'test-admin-token-0123456789abcdef',
      payload: 'not a nacha file',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(broken.status, 400);
  });

  it('a void racing the cutoff: each entry is either cancelled or sent, and the caller is told which', async () => {
    const created = [];
    for (let i = 0; i < 12; i++)
      created.push((await raw(`55550${String(i).padStart(3, '0')}`, { amount: 1 + i })).transactionId);
    const cutoff = at(4, 17, 0);
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const advancing = t.admin('POST', '/admin/v1/clock/advance', {
      seconds: Math.ceil((cutoff.getTime() - now.getTime()) / 1000) + 1,
    });
    const voids = await Promise.all(created.map((id) => post(`${id}/void`)));
    await advancing;
    m.token = (await t.token(m.clientId, m.clientSecret)).access_token;
    for (const [i, id] of created.entries()) {
      const final = await eventually(async () => {
        const s = await status(id);
        return s.statusId === 21 ? undefined : s;
      }, 10_000);
      if (voids[i]!.status === 200) assert.equal(final.statusId, 23, `${id} was voided, so it is Cancelled`);
      else {
        assert.equal(voids[i]!.status, 400);
        assert.equal(final.statusId, 24, `${id} lost the race to the cutoff, so it went out`);
      }
    }
  });

  it('keeps the books: ledger verify finds no problem', async () => {
    const report = await verifyLedger(t.ctx.pool);
    assert.equal(report.ok, true, JSON.stringify(report.problems));
  });

  it('another merchant sees none of it', async () => {
    const other = await t.merchant();
    for (const path of [`${ids.r01}/hold`, `${ids.r01}/unhold`, `${ids.r01}/void`, `${ids.r01}/refund`]) {
      const res = await post(path, undefined, other.token);
      assert.equal(res.status, 404, `${path}: ${res.text}`);
    }
    const res = await t.request('GET', `/pay-api/v1/transactions/${ids.r01}`, { token: other.token });
    assert.equal(res.status, 404);
  });

  it('an unparsable file is refused whole by the reader', () => {
    assert.throws(() => parseNacha('1'.repeat(94)), /file control|record/);
  });
});
