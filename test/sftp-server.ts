// A real SFTP server for tests: Debian's OpenSSH sshd, started by the test itself on 127.0.0.1 and a free port, with a
// fresh host key, key-only login and internal-sftp in a chroot (scripts/ensure-test-tools.sh installs the package
// without starting the system's sshd). What a bank's SFTP drop box is, on loopback.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventually, freePort } from './harness.js';

export interface SftpServer {
  host: string;
  port: number;
  username: string;
  /** The client's OpenSSH private key (its public half is the only key the server takes). */
  privateKey: string;
  /** The server's public host key as a `known_hosts`-style line (`[127.0.0.1]:port ssh-ed25519 AAAA...`). */
  hostKeyLine: string;
  /** The chroot on disk: what the server's `/` is to the client. */
  root: string;
  stop(): Promise<void>;
  /** Stops sshd (connections are refused) and starts it again on the same port with the same keys. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** Starts sshd serving SFTP only, from a chroot with the given directories (writable by the client). */
export async function startSftpServer(directories: readonly string[] = ['outbound', 'inbound']): Promise<SftpServer> {
  // sshd takes a chroot only if every directory on its path is root's and writable by nobody else: not under /tmp.
  const base = '/run/tessera-sftp';
  mkdirSync(base, { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(path.join(base, 'server-'));
  // The chroot must be owned by root and writable by nobody else; the client writes in its subdirectories.
  const root = path.join(dir, 'root');
  mkdirSync(root, { mode: 0o755 });
  for (const name of directories) mkdirSync(path.join(root, name), { mode: 0o777 });
  const keygen = (file: string) => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  keygen(path.join(dir, 'host'));
  keygen(path.join(dir, 'client'));
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client.pub')));
  mkdirSync('/run/sshd', { recursive: true });
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      'StrictModes no',
      'AllowUsers root',
      `ChrootDirectory ${root}`,
      'ForceCommand internal-sftp',
      'Subsystem sftp internal-sftp',
      'AllowTcpForwarding no',
      'X11Forwarding no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  let running: { stop(): Promise<void> } | undefined = await runSshd(config, port);
  const hostPublic = readFileSync(path.join(dir, 'host.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
  return {
    host: '127.0.0.1',
    port,
    username: 'root',
    privateKey: readFileSync(path.join(dir, 'client'), 'utf8'),
    hostKeyLine: `[127.0.0.1]:${port} ${hostPublic}`,
    root,
    async stop() {
      await running?.stop();
      running = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
    async pause() {
      await running?.stop();
      running = undefined;
    },
    async resume() {
      running ??= await runSshd(config, port);
    },
  };
}

async function runSshd(config: string, port: number): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready once it accepts connections on its port.
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`sshd exited: ${output.join('')}`);
      const { Socket } = await import('node:net');
      return new Promise<boolean>((resolve) => {
        const socket = new Socket();
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
        socket.connect(port, '127.0.0.1');
      });
    },
    10_000,
    50,
  );
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
