// ACH over a real SFTP drop box: two merchants' nacha-sftp processors share one bank connection (OpenSSH on
// loopback, the sandbox bank behind it). At each cutoff one file with both merchants' entries arrives under its
// final name (never a partial one); the bank's acknowledgment, rejection, returns and notifications of change are
// collected and applied once; a wrong host key sends nothing; a bank down past its deadline moves the window's
// entries to the next window and alerts the operator.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseNacha } from '../../src/connectors/ach/nacha.js';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { dictionary } from '../../src/platform/dictionary.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { nachaSftpSettings, SftpSandboxBank } from '../sftp-bank.js';
import { type SftpServer, startSftpServer } from '../sftp-server.js';

const NY = 'America/New_York';
const ROUTING = '021000021';
const IP = '203.0.113.7';

/** Thanksgiving week of next year: Monday to Wednesday are business days, Thursday a Fed holiday. */
function thanksgivingMonday(): { year: number; day: number } {
  const year = new Date().getUTCFullYear() + 1;
  const firstWeekday = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  return { year, day: 1 + ((4 - firstWeekday + 7) % 7) + 21 - 3 };
}

describe('ACH over SFTP (nacha-sftp, a real OpenSSH server)', () => {
  let server: SftpServer;
  let bank: SftpSandboxBank;
  let t: TestNode;
  let m1: MerchantTenant;
  let m2: MerchantTenant;
  const processors: Record<string, string> = dictionary();
  const week = thanksgivingMonday();
  const at = (dayOffset: number, hour: number, minute: number) =>
    zonedInstant(week.year, 11, week.day + dayOffset, hour, minute, NY);

  before(async () => {
    server = await startSftpServer();
    bank = new SftpSandboxBank(server);
    t = await startNode({
      workers: true,
      // One test makes a file of 150 entries through the API.
      env: { ACH_INBOUND_SETTLE_MS: '20', RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_BURST_PER_10S: '100000' },
    });
    m1 = await t.merchant({ body: { companyName: 'Acme Widgets' } });
    m2 = await t.merchant({ body: { companyName: 'Beta Goods' } });
    for (const [m, company] of [
      [m1, { companyIdentification: '1111111111', companyName: 'ACME' }],
      [m2, { companyIdentification: '2222222222', companyName: 'BETA' }],
    ] as const) {
      const created = await t.admin('POST', `/admin/v1/merchants/${m.id}/processors`, {
        name: 'Bank SFTP',
        typeId: 2,
        connector: 'nacha-sftp',
        isDefault: true,
        settings: nachaSftpSettings(server, company),
        credentials: { privateKey: server.privateKey },
      });
      assert.equal(created.status, 200, created.text);
      assert.equal(JSON.stringify(created.body).includes('PRIVATE KEY-----\n'), false, 'the key is never shown');
      processors[m.id] = created.body.id;
    }
    await advanceTo(at(0, 8, 0));
  });
  after(async () => {
    await t?.stop();
    await server?.stop();
  });

  const advanceTo = (instant: Date) => t.advanceClockTo(instant, m1, m2);
  const debit = async (m: MerchantTenant, accountNumber: string, amount: number, extra = {}) => {
    const res = await t.request('POST', '/pay-api/v1/transactions/ach/payment', {
      token: m.token,
      body: {
        amount,
        secCode: 1,
        requesterIPaddress: IP,
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
  const status = async (m: MerchantTenant, id: string) => {
    const res = await t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const bankFiles = async (query = '') => {
    const res = await t.admin('GET', `/admin/v1/ach/bank-files${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.items as Array<Record<string, any>>;
  };
  const outboundFor = async (window: Date) =>
    (await bankFiles('?direction=Outbound')).find((f) => f.window === window.toISOString());
  /** The sweep polls each minute of business time: a minute later, the drop box has been looked at. */
  const poll = async (from: Date, minutes = 1) => {
    await advanceTo(new Date(from.getTime() + minutes * 61_000));
  };

  const ids: Record<string, string> = dictionary();
  let returnsFile = '';

  it("delivers one file per window with every merchant's entries, under its final name only", async () => {
    const customer = await t.request('POST', '/pay-api/v1/customers', {
      token: m1.token,
      body: { firstName: 'Grace', lastName: 'Hopper' },
    });
    const vaulted = await t.request('POST', `/pay-api/v1/customers/${customer.body.id}/payment-methods/ach`, {
      token: m1.token,
      body: { accountNumber: '100000099', routingNumber: ROUTING, accountType: 1, accountHolderType: 2 },
    });
    assert.equal(vaulted.status, 200, vaulted.text);
    ids.customer = customer.body.id;
    ids.clears = await debit(m1, '123456789', 25.5);
    ids.r01 = await debit(m1, '100000001', 11);
    ids.noc = await debit(m1, '', 13, {
      accountNumber: undefined,
      routingNumber: undefined,
      accountHolderType: undefined,
      customerId: customer.body.id,
      paymentMethodId: vaulted.body.id,
    });
    ids.other = await debit(m2, '123456789', 7);

    const cutoff = at(0, 17, 0);
    await advanceTo(cutoff);
    await eventually(async () => (await outboundFor(cutoff))?.state === 'sent', 20_000);
    const file = (await outboundFor(cutoff))!;
    const names = bank.outboundNames();
    assert.deepEqual(names.hidden, [], 'no temporary file is left');
    assert.equal(names.final.length, 1);
    const date = `${week.year}11${String(week.day).padStart(2, '0')}`;
    assert.equal(names.final[0], `091000019-${date}-1700-A.ach`);
    assert.equal(file.remoteName, names.final[0]);
    assert.equal(file.fileIdModifier, 'A');

    const [received] = await bank.answerNew();
    assert.ok(received);
    const parsed = parseNacha(received.content);
    assert.equal(parsed.header.immediateDestination.trim(), '091000019');
    assert.equal(parsed.header.immediateOrigin.trim(), '1234567890');
    assert.deepEqual(parsed.batches.map((b) => b.header.companyId.trim()).sort(), ['1111111111', '2222222222']);
    assert.equal(received.library.batches.length, 2, 'the independent parser reads both batches');
    assert.equal(
      parsed.batches.reduce((n, b) => n + b.entries.length, 0),
      4,
    );
    assert.equal(file.entryCount, 4);
    assert.ok(received.returns, 'the bank has a return and a notification of change for this file');
    returnsFile = received.returns!;
    for (const [m, id] of [
      [m1, ids.clears],
      [m1, ids.r01],
      [m2, ids.other],
    ] as const) {
      assert.equal((await status(m, id!)).statusId, 24);
    }
    // Each merchant's own file names the connection's file.
    const files = await t.admin('GET', `/admin/v1/ach/files?merchantId=${m1.id}`);
    assert.equal(files.body.items[0].remoteName, names.final[0]);
    assert.equal(files.body.items[0].bankFileId, file.id);
  });

  it('collects the acknowledgment, then returns and notifications of change, each applied once', async () => {
    const cutoff = at(0, 17, 0);
    await poll(cutoff);
    await eventually(async () => (await outboundFor(cutoff))?.state === 'accepted', 20_000);
    await eventually(async () => bank.inboundNames().length === 0, 10_000); // taken, then deleted as configured

    await advanceTo(at(1, 9, 0));
    await eventually(async () => (await status(m1, ids.clears!)).statusId === 25, 20_000);

    await bank.writeInbound('returns-1.ach', returnsFile);
    bank.writePartial('.returns-2.ach.part', returnsFile.slice(0, 200));
    await poll(at(1, 9, 0));
    await eventually(async () => (await status(m1, ids.r01!)).statusId === 26, 20_000);
    const returned = await status(m1, ids.r01!);
    assert.equal(returned.achProcessingDetails.returnCode, 'R01');
    const noc = await status(m1, ids.noc!);
    assert.deepEqual(noc.achProcessingDetails.notificationOfChange, { changeCode: 'C01', correctedData: '100000098' });
    const methods = await t.request('GET', `/pay-api/v1/customers/${ids.customer}/payment-methods`, {
      token: m1.token,
    });
    assert.match(JSON.stringify(methods.body), /0098/, 'the vaulted account took the corrected number');
    // The return file is removed once applied (just after its entries change); the one still being written stays.
    await eventually(async () => !bank.inboundNames().includes('returns-1.ach'), 20_000);
    assert.deepEqual(bank.inboundNames(), ['.returns-2.ach.part'], 'a file still being written is left alone');

    // The same return file again: recognised by name and SHA-256, applied once.
    await bank.writeInbound('returns-1.ach', returnsFile);
    await poll(at(1, 9, 2));
    await eventually(async () => !bank.inboundNames().includes('returns-1.ach'), 20_000);
    const inbound = await bankFiles('?direction=Inbound');
    assert.deepEqual(inbound.map((f) => f.kind).sort(), ['acknowledgment', 'returns']);
    const chargebacks = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE resource_id = $1 AND type = 'transaction.ach.charged_back'`,
      [ids.r01],
    );
    assert.equal(chargebacks[0]!.n, 1);
    const download = await t.admin('GET', `/admin/v1/ach/bank-files/${inbound.find((f) => f.kind === 'returns')!.id}`);
    assert.equal(download.status, 200);
    assert.equal(download.text, returnsFile, 'the audit trail keeps the file as received');
  });

  it("fails a rejected file's entries with the bank's reason", async () => {
    const id = await debit(m2, '123456789', 9);
    const cutoff = at(1, 17, 0);
    await advanceTo(cutoff);
    await eventually(async () => (await outboundFor(cutoff))?.state === 'sent', 20_000);
    const [received] = await bank.answerNew({ reject: 'Unbalanced batch totals' });
    assert.equal(received?.name.endsWith('-1700-A.ach'), true, 'a new banking day starts at modifier A again');
    await poll(cutoff);
    await eventually(async () => (await status(m2, id)).statusId === 92, 20_000);
    assert.match((await status(m2, id)).details.message, /^File rejected by the bank: Unbalanced batch totals/);
    assert.equal((await outboundFor(cutoff))?.state, 'rejected');
  });

  it('refuses a server whose host key is not the configured one: nothing is sent until it is fixed', async () => {
    const other = await startSftpServer();
    const wrongKey = other.hostKeyLine;
    await other.stop();
    for (const m of [m1, m2]) {
      const res = await t.admin('PATCH', `/admin/v1/merchants/${m.id}/processors/${processors[m.id]}`, {
        settings: { hostKey: wrongKey },
      });
      assert.equal(res.status, 200, res.text);
    }
    const id = await debit(m1, '123456789', 3);
    const cutoff = at(2, 17, 0);
    await advanceTo(cutoff);
    await eventually(async () => /verif/i.test((await outboundFor(cutoff))?.lastError ?? ''), 20_000);
    const before = bank.outboundNames();
    assert.equal(before.hidden.length, 0);
    assert.equal(before.final.filter((n) => n.includes(`${String(week.day + 2).padStart(2, '0')}-1700`)).length, 0);
    for (const m of [m1, m2]) {
      await t.admin('PATCH', `/admin/v1/merchants/${m.id}/processors/${processors[m.id]}`, {
        settings: { hostKey: server.hostKeyLine },
      });
    }
    await poll(cutoff, 5);
    await eventually(async () => (await outboundFor(cutoff))?.state === 'sent', 20_000);
    assert.equal((await status(m1, id)).statusId, 24);
    await bank.answerNew();
  });

  it("moves a window's entries to the next window when the bank stays unreachable past the deadline", async () => {
    await server.pause();
    const id = await debit(m1, '123456789', 4);
    const friday = at(4, 17, 0);
    await advanceTo(friday);
    await eventually(async () => /ECONNREFUSED|refused/i.test((await outboundFor(friday))?.lastError ?? ''), 20_000);
    // Monday's window passes: Friday's file is past its deadline.
    const monday = at(7, 17, 0);
    await advanceTo(new Date(monday.getTime() + 60_000));
    await eventually(async () => (await outboundFor(friday))?.state === 'expired', 20_000);
    const expired = (await outboundFor(friday))!;
    assert.match(expired.alert, /next window/);
    assert.equal((await status(m1, id)).statusId, 21, 'back to Scheduled');
    const alerts = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'ach.file.delivery_failed' AND merchant_id = $1`,
      [m1.id],
    );
    assert.equal(alerts[0]!.n, 1);
    const metrics = await t.request('GET', '/metrics');
    assert.match(metrics.text, /tessera_ach_file_delivery_alerts_total\{connection="[0-9a-f]+"\} 1/);

    await server.resume();
    const tuesday = at(8, 17, 0);
    await advanceTo(tuesday);
    await eventually(async () => (await outboundFor(tuesday))?.state === 'sent', 20_000);
    assert.equal((await status(m1, id)).statusId, 24);
    const [received] = await bank.answerNew();
    assert.equal(
      parseNacha(received!.content).batches.reduce((n, b) => n + b.entries.length, 0),
      1,
    );
    assert.equal(bank.outboundNames().hidden.length, 0);
  });

  it('alerts and sends nothing again when a renamed file is gone from the server; the operator resolves it', async () => {
    const id = await debit(m2, '123456789', 6);
    const cutoff = at(9, 17, 0);
    await advanceTo(cutoff);
    await eventually(async () => (await outboundFor(cutoff))?.state === 'sent', 20_000);
    const file = (await outboundFor(cutoff))!;
    // What a worker killed right after the rename leaves (nacha-sftp-crash.test.ts), with a bank that has already
    // taken the file away: neither name is on the server.
    await t.query(`UPDATE ach_bank_files SET state = 'uploaded' WHERE id = $1`, [file.id]);
    rmSync(path.join(server.root, 'outbound', file.remoteName));
    await poll(cutoff, 2);
    await eventually(async () => (await outboundFor(cutoff))?.state === 'alert', 20_000);
    assert.match((await outboundFor(cutoff))!.alert, /may have taken it/);
    assert.equal(bank.outboundNames().final.includes(file.remoteName), false, 'not sent again');
    const alerts = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'ach.file.delivery_failed' AND merchant_id = $1`,
      [m2.id],
    );
    assert.equal(alerts[0]!.n, 1);

    const wrong = await t.admin('POST', `/admin/v1/ach/bank-files/${(await outboundFor(at(8, 17, 0)))!.id}/resolve`, {
      outcome: 'delivered',
    });
    assert.equal(wrong.status, 400, 'only a file in alert');
    const resolved = await t.admin('POST', `/admin/v1/ach/bank-files/${file.id}/resolve`, { outcome: 'delivered' });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.state, 'sent');
    await advanceTo(at(10, 9, 1));
    await eventually(async () => (await status(m2, id)).statusId === 25, 20_000);
  });

  it('survives the server going away in the middle of an upload: the partial file is replaced, one file arrives', async () => {
    // Between Tessera and sshd, a loopback proxy that cuts the connection once 8 KB have gone towards the server:
    // past the handshake (about 3 KB), inside the upload of a file of some 15 KB.
    let cut = true;
    let cuts = 0;
    const proxy = net.createServer((client) => {
      const upstream = net.connect(server.port, '127.0.0.1');
      let sent = 0;
      client.on('data', (chunk) => {
        sent += chunk.length;
        if (cut && sent > 8_000) {
          cuts++;
          client.destroy();
          upstream.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => client.write(chunk));
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as net.AddressInfo).port;
      for (const m of [m1, m2]) {
        const res = await t.admin('PATCH', `/admin/v1/merchants/${m.id}/processors/${processors[m.id]}`, {
          settings: { port },
        });
        assert.equal(res.status, 200, res.text);
      }
      for (let i = 0; i < 150; i++) await debit(m1, String(200_000_000 + i), 1 + (i % 7));
      const cutoff = at(10, 17, 0);
      await advanceTo(cutoff);
      await eventually(async () => cuts > 0 && Boolean((await outboundFor(cutoff))?.lastError), 20_000).catch(
        async (error) => {
          throw new Error(`${error.message}: cuts ${cuts}, ${JSON.stringify(await outboundFor(cutoff))}`);
        },
      );
      const broken = (await outboundFor(cutoff))!;
      assert.equal(broken.state, 'uploading', 'cut before the rename');
      assert.ok(Number(broken.sizeBytes) > 12_000);
      assert.equal(bank.outboundNames().final.includes(broken.remoteName), false, 'nothing under the final name');
      cut = false;
      await poll(cutoff, 1);
      await eventually(async () => (await outboundFor(cutoff))?.state === 'sent', 20_000);
      const names = bank.outboundNames();
      assert.deepEqual(names.hidden, [], 'the partial temporary file was removed');
      const content = readFileSync(path.join(server.root, 'outbound', broken.remoteName));
      assert.equal(createHash('sha256').update(content).digest('hex'), broken.sha256, 'the file arrived whole');
      const [received] = await bank.answerNew();
      assert.equal(
        parseNacha(received!.content).batches.reduce((n, b) => n + b.entries.length, 0),
        150,
      );
    } finally {
      proxy.close();
      for (const m of [m1, m2]) {
        await t.admin('PATCH', `/admin/v1/merchants/${m.id}/processors/${processors[m.id]}`, {
          settings: { port: server.port },
        });
      }
    }
  });

  it('waits for the next banking day once the day has had its 36 files (A to Z, 0 to 9)', async () => {
    const friday = at(11, 17, 0);
    // 36 files already sent today for this origin and destination (another connection's, say).
    for (let n = 0; n < 36; n++) {
      await t.query(
        `INSERT INTO ach_bank_files (id, connection_key, processor_id, direction, state, kind, window_at, remote_name,
           size_bytes, sha256, immediate_origin, immediate_destination, banking_day, content_sealed, created_at)
         VALUES (gen_random_uuid(), 'elsewhere', $1, 'outbound', 'sent', 'origination', $2, $3, 0, '', '1234567890',
           '091000019', $4, '\\x', now())`,
        [
          processors[m1.id],
          new Date(friday.getTime() - (n + 1) * 60_000),
          `other-${n}.ach`,
          friday.toISOString().slice(0, 10),
        ],
      );
    }
    const id = await debit(m1, '123456789', 2);
    await advanceTo(friday);
    const monday = at(14, 17, 0);
    await eventually(async () => {
      const rows = await t.query<{ window_at: Date }>('SELECT window_at FROM ach_entries WHERE transaction_id = $1', [
        id,
      ]);
      return rows[0]!.window_at.getTime() === monday.getTime();
    }, 20_000);
    assert.equal(await outboundFor(friday), undefined, 'no 37th file');
    assert.equal((await status(m1, id)).statusId, 21);
    await t.query(`DELETE FROM ach_bank_files WHERE connection_key = 'elsewhere'`);
    await advanceTo(monday);
    await eventually(async () => (await outboundFor(monday))?.state === 'sent', 20_000);
    assert.equal((await outboundFor(monday))!.fileIdModifier, 'A');
    assert.equal((await status(m1, id)).statusId, 24);
  });
});
