// The tests' SFTP server (test/sftp-server.ts) is a real OpenSSH server on loopback: a client that checks the host key
// gets in with its key only, one with another host key in mind is refused before anything is sent, and an upload
// under a temporary name renamed atomically (OpenSSH's posix-rename) leaves exactly one final file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, type SFTPWrapper } from 'ssh2';
import { type SftpServer, startSftpServer } from '../sftp-server.js';

function keyBlob(line: string): Buffer {
  return Buffer.from(line.trim().split(/\s+/)[2]!, 'base64');
}

function connect(server: SftpServer, hostKeyLine: string, privateKey = server.privateKey) {
  return new Promise<{ client: Client; sftp: SFTPWrapper }>((resolve, reject) => {
    const client = new Client();
    client
      .on('ready', () => client.sftp((error, sftp) => (error ? reject(error) : resolve({ client, sftp }))))
      .on('error', reject)
      .connect({
        host: server.host,
        port: server.port,
        username: server.username,
        privateKey,
        readyTimeout: 5000,
        hostVerifier: (key: Buffer) => key.equals(keyBlob(hostKeyLine)),
      });
  });
}

const call = <T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));

describe('the tests’ SFTP server (OpenSSH on loopback)', () => {
  let server: SftpServer;
  before(async () => {
    server = await startSftpServer();
  });
  after(() => server.stop());

  it('takes an upload under a temporary name and an atomic rename: one final file, whole', async () => {
    const { client, sftp } = await connect(server, server.hostKeyLine);
    try {
      const content = Buffer.from('101 091000019 1234567890\n'.repeat(10));
      await call<void>((done) => sftp.writeFile('/outbound/.upload-1.tmp', content, done));
      await call<void>((done) => sftp.ext_openssh_rename('/outbound/.upload-1.tmp', '/outbound/ACH-1.txt', done));
      const names = (await call<Array<{ filename: string }>>((done) => sftp.readdir('/outbound', done))).map(
        (entry) => entry.filename,
      );
      assert.deepEqual(names, ['ACH-1.txt']);
      assert.deepEqual(readdirSync(path.join(server.root, 'outbound')), ['ACH-1.txt']);
      assert.deepEqual(readFileSync(path.join(server.root, 'outbound', 'ACH-1.txt')), content);
    } finally {
      client.end();
    }
  });

  it('is refused by a client expecting another host key, and refuses a client key it does not know', async () => {
    const other = await startSftpServer();
    try {
      await assert.rejects(connect(server, other.hostKeyLine), /verification failed/i);
      await assert.rejects(connect(server, server.hostKeyLine, other.privateKey), /authentication methods failed/i);
      assert.deepEqual(readdirSync(path.join(server.root, 'inbound')), []);
    } finally {
      await other.stop();
    }
  });
});
