import { appendFileSync, chownSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type EmbeddedDatabase, runAsUser, startEmbeddedPostgres } from '../embedded.js';
import { createClient } from '../pool.js';
import { type CatalogedBackup, listBackups } from './catalog.js';
import { copyClusterFolder } from './data-copy.js';

export interface RestoreOptions {
  backupDir: string;
  walArchiveDir: string;
  /** The new DATA_DIR; it must not exist yet or be empty. */
  target: string;
  /** An instant with its offset (2026-11-27T16:01:02.123456Z), passed to PostgreSQL as written; or 'latest'. */
  to: string;
  log?: (message: string) => void;
}

export interface RestoreReport {
  backup: string;
  target: string;
  to: string;
  /** PostgreSQL's own account of where replay stopped ("recovery stopping before commit of transaction ..."). */
  stopped: string | undefined;
  /** The last transaction replayed: its commit time. */
  lastTransactionAt: string | undefined;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;
const BEGIN_MARK = '# tessera restore: begin';
const END_MARK = '# tessera restore: end';

/**
 * Point-in-time recovery of the embedded PostgreSQL: the newest base backup that finished before the instant is
 * copied into a new DATA_DIR, PostgreSQL replays the archived WAL up to the instant and promotes itself, and the
 * folder is left as an ordinary, stopped DATA_DIR for `tessera serve`. Every transaction committed at or before the
 * instant is there; none committed after it.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  const log = options.log ?? (() => {});
  const to = options.to.trim();
  if (to !== 'latest' && (!INSTANT.test(to) || Number.isNaN(Date.parse(to.replace(' ', 'T'))))) {
    throw new Error(`--to must be an instant with its offset, like 2026-11-27T16:01:02.5Z, or "latest" (got "${to}")`);
  }
  if (/['"\\]/.test(options.walArchiveDir)) throw new Error('The WAL archive path must not contain quotes');
  if (existsSync(options.target) && readdirSync(options.target).length > 0) {
    throw new Error(`${options.target} is not empty: restore into a new folder`);
  }
  const backup = chooseBackup(listBackups(options.backupDir), to, options.backupDir);
  log(`restoring backup ${backup.manifest.label} (finished ${backup.manifest.finishedAt}) into ${options.target}`);

  const runAs = runAsUser();
  const pgDir = path.join(options.target, 'pg');
  copyClusterFolder(path.join(backup.dir, 'pg'), pgDir, runAs);
  for (const file of readdirSync(path.join(backup.dir, 'node'))) {
    copyFileSync(path.join(backup.dir, 'node', file), path.join(options.target, file));
  }
  writeFileSync(path.join(pgDir, 'recovery.signal'), '');
  if (runAs) chownSync(path.join(pgDir, 'recovery.signal'), runAs.uid, runAs.gid);
  const recovery = [
    BEGIN_MARK,
    `restore_command = 'cp "${options.walArchiveDir}/%f" "%p"'`,
    ...(to === 'latest'
      ? []
      : [`recovery_target_time = '${postgresInstant(to)}'`, "recovery_target_action = 'promote'"]),
    END_MARK,
  ];
  appendFileSync(path.join(pgDir, 'postgresql.auto.conf'), `${recovery.join('\n')}\n`);

  let db: EmbeddedDatabase | undefined;
  try {
    log('replaying the archived WAL');
    db = await startEmbeddedPostgres({
      dataDir: options.target,
      // The restored cluster archives its own new timeline from the start.
      walArchive: { dir: path.join(options.target, 'wal-archive'), timeoutSeconds: 60 },
      // Replaying a day of WAL takes a while; start-up means "accepting connections", which a hot standby does early.
      startTimeoutMs: 6 * 3_600_000,
    }).catch((error: Error) => {
      throw new Error(`${error.message}${failure(options.target)}`);
    });
    const lastTransactionAt = await waitForPromotion(db, options.target);
    const stopped = logLine(options.target, /recovery stopping [^\n]*/);
    log(stopped ?? 'replayed every archived WAL segment');
    return { backup: backup.manifest.label, target: options.target, to, stopped, lastTransactionAt };
  } finally {
    await db?.stop();
    removeRecoverySettings(path.join(pgDir, 'postgresql.auto.conf'));
  }
}

/** The instant as recovery_target_time reads it (a space, not a T; an offset, not Z), its microseconds kept. */
function postgresInstant(instant: string): string {
  return instant.replace('T', ' ').replace(/Z$/, '+00');
}

function chooseBackup(backups: CatalogedBackup[], to: string, backupDir: string): CatalogedBackup {
  if (backups.length === 0) throw new Error(`No backups in ${backupDir}`);
  if (to === 'latest') return backups.at(-1)!;
  const instant = Date.parse(to.replace(' ', 'T'));
  // A backup is consistent only from its end on: recovery cannot stop inside it.
  const usable = backups.filter((backup) => Date.parse(backup.manifest.finishedAt) < instant);
  if (usable.length === 0) {
    throw new Error(`No backup finished before ${to}; the oldest finished at ${backups[0]!.manifest.finishedAt}`);
  }
  return usable.at(-1)!;
}

/** Waits until recovery has reached its target and promoted; fails with PostgreSQL's reason when it stopped instead. */
async function waitForPromotion(db: EmbeddedDatabase, dataDir: string): Promise<string | undefined> {
  const client = createClient(db.url, 'tessera-restore');
  await client.connect().catch((error: Error) => {
    throw new Error(`${error.message}${failure(dataDir)}`);
  });
  client.on('error', () => {});
  try {
    for (;;) {
      const { rows } = await client
        .query<{ recovering: boolean; last: Date | null }>(
          'SELECT pg_is_in_recovery() AS recovering, pg_last_xact_replay_timestamp() AS last',
        )
        .catch((error: Error) => {
          throw new Error(`Recovery failed: ${error.message}${failure(dataDir)}`);
        });
      if (!rows[0]!.recovering) {
        const stopped = logLine(dataDir, /last completed transaction was at log time ([^\n]+)/);
        return stopped?.replace(/^.*log time /, '');
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end().catch(() => {});
  }
}

function failure(dataDir: string): string {
  const fatal = logLine(dataDir, /(FATAL|PANIC): [^\n]*/);
  return fatal ? ` (PostgreSQL: ${fatal})` : '';
}

/** The last line of the restored cluster's log that matches. */
function logLine(dataDir: string, pattern: RegExp): string | undefined {
  const file = path.join(dataDir, 'postgres.log');
  if (!existsSync(file)) return undefined;
  const global = new RegExp(pattern.source, 'g');
  const matches = readFileSync(file, 'utf8').match(global);
  return matches?.at(-1);
}

function removeRecoverySettings(file: string): void {
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8').split('\n');
  const begin = lines.indexOf(BEGIN_MARK);
  const end = lines.indexOf(END_MARK);
  if (begin < 0 || end < begin) return;
  lines.splice(begin, end - begin + 1);
  writeFileSync(file, lines.join('\n'));
}
