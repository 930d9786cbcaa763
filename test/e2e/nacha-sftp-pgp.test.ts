// A bank connection with PGP: what Tessera puts on the bank's server is an OpenPGP message to the bank's key (the
// bank reads the NACHA file inside with its private key), and what the bank leaves encrypted to Tessera's key (its
// acknowledgment, its returns) is decrypted and applied. The audit trail keeps both in the clear, sealed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as openpgp from 'openpgp';
import { parseNacha } from '../../src/connectors/ach/nacha.js';
import { zonedInstant } from '../../src/platform/clock/zoned.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { nachaSftpSettings, SftpSandboxBank } from '../sftp-bank.js';
import { type SftpServer, startSftpServer } from '../sftp-server.js';

describe('ACH over SFTP with PGP', () => {
  let server: SftpServer;
  let bank: SftpSandboxBank;
  let t: TestNode;
  let m: MerchantTenant;
  const year = new Date().getUTCFullYear() + 1;
  // The first Tuesday of March next year: a business day, and the next one too.
  const tuesday = 1 + ((9 - new Date(Date.UTC(year, 2, 1)).getUTCDay()) % 7);
  const at = (day: number, hour: number, minute: number) =>
    zonedInstant(year, 3, tuesday + day, hour, minute, 'America/New_York');

  before(async () => {
    const ours = await openpgp.generateKey({ userIDs: [{ name: 'Tessera' }], format: 'armored' });
    const banks = await openpgp.generateKey({ userIDs: [{ name: 'Bank' }], format: 'armored' });
    server = await startSftpServer();
    bank = new SftpSandboxBank(server, 'outbound', 'inbound', {
      bankPrivateKey: banks.privateKey,
      originatorPublicKey: ours.publicKey,
    });
    t = await startNode({ workers: true, env: { ACH_INBOUND_SETTLE_MS: '20' } });
    m = await t.merchant();
    const created = await t.admin('POST', `/admin/v1/merchants/${m.id}/processors`, {
      name: 'Bank SFTP with PGP',
      typeId: 2,
      connector: 'nacha-sftp',
      isDefault: true,
      settings: nachaSftpSettings(server),
      credentials: { privateKey: server.privateKey, pgpPrivateKey: ours.privateKey, bankPgpPublicKey: banks.publicKey },
    });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.text.includes('PRIVATE KEY BLOCK'), false, 'no key is shown');
    await t.advanceClockTo(at(0, 8, 0), m);
  });
  after(async () => {
    await t?.stop();
    await server?.stop();
  });

  it('encrypts what it sends to the bank and decrypts what the bank sends back', async () => {
    const debit = async (accountNumber: string) => {
      const res = await t.request('POST', '/pay-api/v1/transactions/ach/payment', {
        token: m.token,
        body: {
          amount: 12,
          secCode: 1,
          requesterIPaddress: '203.0.113.7',
          accountNumber,
          routingNumber: '021000021',
          accountHolderType: 2,
          ...ACH_PAYER,
        },
      });
      assert.equal(res.status, 200, res.text);
      return res.body.transactionId as string;
    };
    const clears = await debit('123456789');
    const returned = await debit('100000001');
    const cutoff = at(0, 17, 0);
    await t.advanceClockTo(cutoff, m);
    const outbound = async () =>
      (
        (await t.admin('GET', '/admin/v1/ach/bank-files?direction=Outbound')).body.items as Array<Record<string, any>>
      )[0];
    await eventually(async () => (await outbound())?.state === 'sent', 20_000);

    // The bank decrypts it (answerNew asserts the server's copy is a PGP message), reads it, answers encrypted.
    const [received] = await bank.answerNew();
    assert.equal(parseNacha(received!.content).batches[0]!.entries.length, 2);
    const file = await outbound();
    const kept = await t.admin('GET', `/admin/v1/ach/bank-files/${file!.id}`);
    assert.equal(kept.text, received!.content, 'the audit trail keeps the file as the bank reads it');
    await bank.writeInbound('returns.ach', received!.returns!);

    await t.advanceClockTo(new Date(cutoff.getTime() + 61_000), m);
    await eventually(async () => (await outbound())?.state === 'accepted', 20_000);
    const status = async (id: string) =>
      (await t.request('GET', `/pay-api/v1/transactions/${id}`, { token: m.token })).body.statusId;
    await eventually(async () => (await status(returned)) === 26, 20_000);
    // A return that overtakes the clearing job clears the file first (returns.ts): the other entry is Cleared.
    assert.equal(await status(clears), 25);
    const inbound = (await t.admin('GET', '/admin/v1/ach/bank-files?direction=Inbound')).body.items as Array<
      Record<string, any>
    >;
    assert.deepEqual(inbound.map((f) => f.kind).sort(), ['acknowledgment', 'returns']);
    const returns = await t.admin('GET', `/admin/v1/ach/bank-files/${inbound.find((f) => f.kind === 'returns')!.id}`);
    assert.equal(returns.text, received!.returns, 'kept decrypted');
  });
});
