import { Client, type SFTPWrapper } from 'ssh2';
import type { ProcessorsService } from '../../../modules/processors/processors.service.js';
import type { BankDropBox, DropBoxEntry, DropBoxSession } from '../bank-drop-box.js';
import { type NachaSftpCredentials, type NachaSftpSettings, parseHostKey } from './nacha-sftp-settings.js';
import { decryptFromBank, encryptForBank, isPgpMessage } from './pgp.js';

const CONNECT_TIMEOUT_MS = 15_000;
/** SFTP status code 2: no such file. */
const NO_SUCH_FILE = 2;

/**
 * The nacha-sftp connector's transport: an SSH connection to the bank's server that trusts exactly the host key
 * in the processor's settings (any other key, or none, ends the handshake before anything is sent), logs in with
 * the processor's private key or password, and speaks SFTP. PGP, when both keys are configured, wraps what goes
 * out and unwraps what comes in.
 */
export class SftpDropBox implements BankDropBox {
  constructor(private readonly processors: Pick<ProcessorsService, 'access'>) {}

  async open(processorId: string, options: { signal?: AbortSignal } = {}): Promise<DropBoxSession> {
    const access = await this.processors.access(processorId);
    const settings = access.settings as unknown as NachaSftpSettings;
    const credentials = (access.credentials ?? {}) as NachaSftpCredentials;
    if (!credentials.privateKey && !credentials.password) {
      throw new Error(`The processor ${processorId} has no SFTP credentials`);
    }
    const expected = parseHostKey(settings.hostKey);
    if (!expected) throw new Error(`The processor ${processorId} has no usable hostKey`);
    const client = new Client();
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
      const abort = () => {
        client.end();
        reject(options.signal?.reason ?? new Error('aborted'));
      };
      options.signal?.addEventListener('abort', abort, { once: true });
      client
        .once('ready', () =>
          client.sftp((error, wrapper) => {
            options.signal?.removeEventListener('abort', abort);
            if (error) reject(error);
            else resolve(wrapper);
          }),
        )
        .once('error', (error) => {
          options.signal?.removeEventListener('abort', abort);
          reject(error);
        })
        .connect({
          host: settings.host,
          port: settings.port,
          username: settings.username,
          ...(credentials.privateKey ? { privateKey: credentials.privateKey } : {}),
          ...(credentials.password ? { password: credentials.password } : {}),
          readyTimeout: CONNECT_TIMEOUT_MS,
          hostVerifier: (key: Buffer) => key.equals(expected.key),
        });
    });
    // A connection that breaks (the server stopped, the network cut) fails whatever call is in flight at once:
    // ssh2 leaves an SFTP request whose channel died unanswered, which would hold the delivery to its deadline.
    let ended = false;
    const closed = new Promise<never>((_, reject) => {
      const end = (error?: Error) => {
        ended = true;
        reject(new Error(`The connection to the bank's server closed${error ? `: ${error.message}` : ''}`));
      };
      client.on('error', end);
      client.on('close', () => end());
      sftp.on('close', () => end());
    });
    closed.catch(() => {});
    return new SftpSession(client, sftp, settings, credentials, closed, () => ended);
  }
}

const call = <T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));

class SftpSession implements DropBoxSession {
  readonly outboundDir: string;
  readonly inboundDir: string;

  constructor(
    private readonly client: Client,
    private readonly sftp: SFTPWrapper,
    settings: NachaSftpSettings,
    private readonly credentials: NachaSftpCredentials,
    private readonly closed: Promise<never>,
    private readonly ended: () => boolean,
  ) {
    this.outboundDir = settings.outboundDir;
    this.inboundDir = settings.inboundDir;
  }

  /** An SFTP request that fails as soon as the connection does. */
  private call<T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
    if (this.ended()) return this.closed;
    return Promise.race([call(run), this.closed]);
  }

  async stat(path: string): Promise<{ size: number } | undefined> {
    try {
      const stats = await this.call<{ size: number }>((done) => this.sftp.stat(path, done));
      return { size: stats.size };
    } catch (error) {
      if ((error as { code?: number }).code === NO_SUCH_FILE) return undefined;
      throw error;
    }
  }

  async upload(path: string, content: Buffer): Promise<void> {
    const data = this.credentials.bankPgpPublicKey
      ? await encryptForBank(content, this.credentials.bankPgpPublicKey)
      : content;
    await this.call<void>((done) => this.sftp.writeFile(path, data, done));
  }

  async rename(from: string, to: string): Promise<void> {
    try {
      await this.call<void>((done) => this.sftp.ext_openssh_rename(from, to, done));
    } catch (error) {
      // Thrown at once (not through the callback) when the server lacks the extension: rename as SFTP has it.
      if (!/does not support/.test((error as Error).message)) throw error;
      await this.call<void>((done) => this.sftp.rename(from, to, done));
    }
  }

  async remove(path: string): Promise<void> {
    try {
      await this.call<void>((done) => this.sftp.unlink(path, done));
    } catch (error) {
      if ((error as { code?: number }).code !== NO_SUCH_FILE) throw error;
    }
  }

  async list(dir: string): Promise<DropBoxEntry[]> {
    const entries = await this.call<Array<{ filename: string; attrs: { size: number; mtime: number; mode: number } }>>(
      (done) => this.sftp.readdir(dir, done),
    );
    return entries
      .filter((entry) => (entry.attrs.mode & 0o170000) === 0o100000) // regular files only
      .map((entry) => ({
        name: entry.filename,
        size: entry.attrs.size,
        modifiedAt: new Date(entry.attrs.mtime * 1000),
      }));
  }

  async download(path: string): Promise<Buffer> {
    const data = await this.call<Buffer>((done) => this.sftp.readFile(path, done));
    if (this.credentials.pgpPrivateKey && isPgpMessage(data)) {
      return decryptFromBank(data, this.credentials.pgpPrivateKey);
    }
    return data;
  }

  close(): void {
    this.client.end();
  }
}
