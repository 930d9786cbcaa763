// Debian's PgBouncer in transaction pooling mode between the cluster's nodes and PostgreSQL (scripts/ensure-test-tools.sh
// installs it). It runs as the `postgres` system user, as PgBouncer refuses root.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/platform/net.js';

export interface PgBouncer {
  /** The pooled URL the nodes use as DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

const BINARY = '/usr/sbin/pgbouncer';

export async function startPgBouncer(directUrl: string, dir: string): Promise<PgBouncer> {
  const server = new URL(directUrl);
  const port = await freePort();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const database = server.pathname.slice(1);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${server.hostname} port=${server.port} dbname=${database} user=${decodeURIComponent(server.username)} password=${decodeURIComponent(server.password)}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // Loopback only, for the test: clients are not asked for a password; PgBouncer logs in to PostgreSQL with the
      // one above.
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 60',
      'server_reset_query =',
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  for (const file of ['', 'pgbouncer.ini']) chownSync(path.join(dir, file), uid, gid);
  // The postgres user must be able to reach its folder (not list the one above it).
  const parent = path.dirname(dir);
  chmodSync(parent, statSync(parent).mode | 0o001);
  const child: ChildProcess = spawn(BINARY, [path.join(dir, 'pgbouncer.ini')], { uid, gid, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, 10_000);
  const pooled = new URL(directUrl);
  pooled.port = String(port);
  return {
    url: pooled.toString(),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
