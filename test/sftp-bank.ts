// The sandbox bank behind a real SFTP server: what an ODFI does with its drop box. It reads the files Tessera
// renamed into the outbound directory (never the hidden temporary ones), checks each with the independent NACHA
// parser, answers it with an acknowledgment file (accepted, or rejected when told), and hands back the returns and
// notifications of change the sandbox's outcome table decides (src/connectors/ach/sandbox-bank.ts) when the test
// releases them. It writes like a bank would: under a temporary name, then renamed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatAcknowledgment } from '../src/connectors/ach/acknowledgment.js';
import { parseNacha } from '../src/connectors/ach/nacha.js';
import { sandboxBankAnswer } from '../src/connectors/ach/sandbox-bank.js';
import { decryptFromBank, encryptForBank, isPgpMessage } from '../src/connectors/ach/sftp/pgp.js';
import { parseWithLibrary } from './nacha-library.js';
import type { SftpServer } from './sftp-server.js';

export interface ReceivedFile {
  name: string;
  content: string;
  /** What the independent parser read. */
  library: any;
  returns?: string;
}

/** A bank that speaks PGP: it reads with its private key and writes to the originator's public key. */
export interface BankPgp {
  bankPrivateKey: string;
  originatorPublicKey: string;
}

export class SftpSandboxBank {
  private readonly answered = new Set<string>();

  constructor(
    private readonly server: SftpServer,
    private readonly outbound = 'outbound',
    private readonly inbound = 'inbound',
    private readonly pgp?: BankPgp,
  ) {}

  /** Final names in the outbound directory (what the bank would take), and any hidden or temporary ones. */
  outboundNames(): { final: string[]; hidden: string[] } {
    const names = readdirSync(path.join(this.server.root, this.outbound)).sort();
    return { final: names.filter((n) => !n.startsWith('.')), hidden: names.filter((n) => n.startsWith('.')) };
  }

  /** Reads every new final file, checks it with both parsers and answers it. */
  async answerNew(options: { reject?: string } = {}): Promise<ReceivedFile[]> {
    const received: ReceivedFile[] = [];
    for (const name of this.outboundNames().final) {
      if (this.answered.has(name)) continue;
      this.answered.add(name);
      const raw = readFileSync(path.join(this.server.root, this.outbound, name));
      if (this.pgp) assert.ok(isPgpMessage(raw), `${name} is encrypted to the bank`);
      const content = (this.pgp ? await decryptFromBank(raw, this.pgp.bankPrivateKey) : raw).toString('latin1');
      const library = await parseWithLibrary(content);
      const ours = parseNacha(content);
      assert.equal(
        library.batches.flatMap((b: { entries: unknown[] }) => b.entries).length,
        ours.batches.reduce((n, b) => n + b.entries.length, 0),
      );
      const header = ours.header;
      await this.writeInbound(
        `${name}.ack`,
        formatAcknowledgment({
          status: options.reject ? 'rejected' : 'accepted',
          fileName: name,
          immediateOrigin: header.immediateOrigin.trim(),
          creationDate: header.creationDate,
          creationTime: header.creationTime,
          fileIdModifier: header.fileIdModifier,
          ...(options.reject ? { reason: options.reject } : {}),
        }),
      );
      const returns = options.reject ? undefined : sandboxBankAnswer(content, new Date()).returnFile?.content;
      received.push({ name, content, library, ...(returns ? { returns } : {}) });
    }
    return received;
  }

  /** A file in the inbound directory, written whole under a temporary name and renamed (as banks do). */
  async writeInbound(name: string, content: string): Promise<void> {
    const dir = path.join(this.server.root, this.inbound);
    const bytes = Buffer.from(content, 'latin1');
    const data = this.pgp ? await encryptForBank(bytes, this.pgp.originatorPublicKey) : bytes;
    writeFileSync(path.join(dir, `.${name}.part`), data);
    renameSync(path.join(dir, `.${name}.part`), path.join(dir, name));
  }

  /** A file still being written: only under its temporary name. */
  writePartial(name: string, content: string): void {
    writeFileSync(path.join(this.server.root, this.inbound, name), content, 'latin1');
  }

  inboundNames(): string[] {
    return readdirSync(path.join(this.server.root, this.inbound)).sort();
  }
}

/** A nacha-sftp processor's settings for the tests' server (one bank connection). */
export function nachaSftpSettings(server: SftpServer, extra: Record<string, unknown> = {}) {
  return {
    host: server.host,
    port: server.port,
    username: server.username,
    hostKey: server.hostKeyLine,
    outboundDir: '/outbound',
    inboundDir: '/inbound',
    immediateOrigin: '1234567890',
    immediateOriginName: 'TESSERA PAYMENTS',
    immediateDestination: '091000019',
    immediateDestinationName: 'SANDBOX ODFI',
    companyIdentification: '1111111111',
    companyName: 'ACME',
    pollIntervalSeconds: 30,
    ...extra,
  };
}
