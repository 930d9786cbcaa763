// The nacha-sftp connector's pieces that need no server: settings and credentials checks, the acknowledgment
// format, temporary names, and PGP both ways with real keys (openpgp).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as openpgp from 'openpgp';
import { formatAcknowledgment, parseAcknowledgment } from '../../src/connectors/ach/acknowledgment.js';
import {
  nachaSftpCredentialProblems,
  nachaSftpSettingsProblems,
  parseHostKey,
  renderFileName,
} from '../../src/connectors/ach/sftp/nacha-sftp-settings.js';
import { decryptFromBank, encryptForBank, isPgpMessage } from '../../src/connectors/ach/sftp/pgp.js';
import { isTemporaryName, settledFiles } from '../../src/modules/payments/ach/exchange/collect.js';

const ED25519 = 'AAAAC3NzaC1lZDI1NTE5AAAAIPk1wz3ZN0Zb8n4n7R9r1vF2xwq0F3m3vQ9i0Xj1Yx2Z';

describe('nacha-sftp', () => {
  it('takes a known_hosts line or a bare key, and nothing that is not a key of its stated type', () => {
    assert.equal(parseHostKey(`[127.0.0.1]:2222 ssh-ed25519 ${ED25519}`)?.type, 'ssh-ed25519');
    assert.equal(parseHostKey(`ssh-ed25519 ${ED25519}`)?.type, 'ssh-ed25519');
    assert.equal(parseHostKey(`ssh-rsa ${ED25519}`), undefined, 'the blob names another type');
    assert.equal(parseHostKey('bank.example.com'), undefined);
    const settings = { hostKey: 'nonsense', fileNameTemplate: '{date}-{nope}.ach' };
    assert.deepEqual(Object.keys(nachaSftpSettingsProblems(settings)).sort(), [
      'settings.fileNameTemplate',
      'settings.hostKey',
    ]);
    assert.match(
      nachaSftpSettingsProblems({ hostKey: `ssh-ed25519 ${ED25519}`, fileNameTemplate: '{date}.ach' })[
        'settings.fileNameTemplate'
      ]!,
      /modifier/,
    );
  });

  it('needs a private key or a password, and PGP keys in pairs', () => {
    assert.ok(nachaSftpCredentialProblems({})['credentials.privateKey']);
    assert.deepEqual(Object.keys(nachaSftpCredentialProblems({ password: 'x' })), []);
    assert.ok(nachaSftpCredentialProblems({ password: 'x', pgpPrivateKey: 'k' })['credentials.bankPgpPublicKey']);
  });

  it('names files from the template', () => {
    const name = renderFileName('{destination}-{date}-{time}-{modifier}.ach', {
      date: '20261127',
      time: '1700',
      modifier: 'B',
      origin: '1234567890',
      destination: ' 091000019',
      fileId: 'abcd1234',
    });
    assert.equal(name, '091000019-20261127-1700-B.ach');
  });

  it('reads acknowledgments as banks write them, and nothing else', () => {
    const text = formatAcknowledgment({ status: 'rejected', fileName: 'a.ach', reason: 'Bad hash' });
    assert.deepEqual(parseAcknowledgment(text), { status: 'rejected', fileName: 'a.ach', reason: 'Bad hash' });
    assert.deepEqual(
      parseAcknowledgment(
        'File Status : Accepted\r\nFile Creation Date: 261127\nfile creation time: 1700\nFILE ID MODIFIER: A\n',
      ),
      { status: 'accepted', creationDate: '261127', creationTime: '1700', fileIdModifier: 'A' },
    );
    assert.equal(parseAcknowledgment('FILE STATUS: ACCEPTED\n'), undefined, 'it must say which file');
    assert.equal(parseAcknowledgment('101 091000019 1234567890'), undefined);
  });

  it('skips hidden and temporary names', () => {
    for (const name of ['.x.ach', 'x.ach.part', 'x.tmp', '~x.ach', 'x.filepart']) assert.ok(isTemporaryName(name));
    assert.equal(isTemporaryName('RETURNS-20261127.ach'), false);
  });

  it('takes only files whose size and time held between two looks', () => {
    const at = (s: number) => new Date(1_800_000_000_000 + s * 1000);
    const first = [
      { name: 'done.ach', size: 940, modifiedAt: at(0) },
      { name: 'growing.ach', size: 940, modifiedAt: at(0) },
      { name: 'touched.ach', size: 940, modifiedAt: at(0) },
      { name: 'gone.ach', size: 940, modifiedAt: at(0) },
    ];
    const second = [
      { name: 'done.ach', size: 940, modifiedAt: at(0) },
      { name: 'growing.ach', size: 1880, modifiedAt: at(1) },
      { name: 'touched.ach', size: 940, modifiedAt: at(2) },
      { name: 'new.ach', size: 94, modifiedAt: at(2) },
    ];
    assert.deepEqual(
      settledFiles(first, second).map((f) => f.name),
      ['done.ach'],
    );
  });

  it('encrypts to the bank and decrypts from it with real PGP keys', async () => {
    const ours = await openpgp.generateKey({ userIDs: [{ name: 'Tessera' }], format: 'armored' });
    const bank = await openpgp.generateKey({ userIDs: [{ name: 'Bank' }], format: 'armored' });
    const file = Buffer.from('101 091000019 1234567890\n'.repeat(20));
    const sent = await encryptForBank(file, bank.publicKey);
    assert.ok(isPgpMessage(sent));
    assert.equal(sent.includes(file.subarray(0, 20)), false, 'nothing of the file in the clear');
    assert.deepEqual(await decryptFromBank(sent, bank.privateKey), file, 'the bank reads it');
    const fromBank = await encryptForBank(file, ours.publicKey);
    assert.deepEqual(await decryptFromBank(fromBank, ours.privateKey), file);
    await assert.rejects(decryptFromBank(fromBank, bank.privateKey));
    assert.equal(isPgpMessage(file), false);
  });
});
