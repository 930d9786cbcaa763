import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '../pool.js';
import { type BackupManifest, backupLabel, MANIFEST_FILE, PARTIAL_SUFFIX } from './catalog.js';
import { copyClusterFolder } from './data-copy.js';

export interface BaseBackupOptions {
  /** A superuser connection to the running cluster (the embedded one's own). */
  url: string;
  /** DATA_DIR: the cluster is its `pg` folder; its other files (the database password, sandbox keys) go along. */
  dataDir: string;
  backupDir: string;
  /** How long to wait for the WAL that completes the backup to be archived (BACKUP_ARCHIVE_WAIT_SECONDS). */
  archiveWaitSeconds: number;
  log?: (message: string) => void;
}

/** The DATA_DIR entries that are not the node's own small files. */
const NOT_COPIED = new Set(['pg', 'backups', 'wal-archive', 'postgres.log']);

/**
 * A base backup of the embedded PostgreSQL through the low-level backup API: pg_backup_start, a copy of the data
 * folder while the server runs and writes, pg_backup_stop, which waits until the WAL that makes the copy consistent is
 * archived. The copy plus the WAL archive restore to any instant after `finishedAt`.
 */
export async function takeBaseBackup(options: BaseBackupOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => {});
  const client = createClient(options.url, 'tessera-backup');
  await client.connect();
  try {
    const settings = await client.query<{ archive_mode: string; version: string; migrated: boolean }>(
      `SELECT current_setting('archive_mode') AS archive_mode, current_setting('server_version') AS version,
              to_regclass('schema_migrations') IS NOT NULL AS migrated`,
    );
    const { archive_mode: archiveMode, version, migrated } = settings.rows[0]!;
    // A cluster no node has started on yet has no schema: its backup says version 0.
    const schema = migrated
      ? (await client.query<{ schema: number | null }>('SELECT max(version) AS schema FROM schema_migrations')).rows[0]!
          .schema
      : null;
    if (archiveMode !== 'on' && archiveMode !== 'always') {
      throw new Error(
        'The database does not archive its WAL (WAL_ARCHIVE_DIR=off?): a base backup without the archive cannot be restored. Restart the node with archiving on.',
      );
    }
    const label = backupLabel(new Date());
    const partial = path.join(options.backupDir, `${label}${PARTIAL_SUFFIX}`);
    mkdirSync(options.backupDir, { recursive: true, mode: 0o700 });
    const started = await client.query<{ lsn: string; file: string; at: Date }>(
      `SELECT lsn::text, pg_walfile_name(lsn) AS file, clock_timestamp() AS at
         FROM pg_backup_start($1, fast => true) AS lsn`,
      [`tessera ${label}`],
    );
    let stats: { files: number; bytes: number };
    try {
      log(`backup ${label}: copying ${path.join(options.dataDir, 'pg')}`);
      stats = copyClusterFolder(path.join(options.dataDir, 'pg'), path.join(partial, 'pg'));
    } catch (error) {
      await client.query('SELECT pg_backup_stop(false)').catch(() => {});
      rmSync(partial, { recursive: true, force: true });
      throw error;
    }
    log(`backup ${label}: ${stats.files} files copied; waiting for the WAL that completes it to be archived`);
    // pg_backup_stop waits for as long as archiving fails (a full disk, the folder's permissions): bounded here, so a
    // backup from cron ends with an error instead of hanging, and the partial copy goes.
    await client.query(`SET statement_timeout = ${Math.trunc(options.archiveWaitSeconds * 1000)}`);
    const stopped = await client
      .query<{ lsn: string; labelfile: string; spcmapfile: string; at: Date }>(
        'SELECT lsn::text, labelfile, spcmapfile, clock_timestamp() AS at FROM pg_backup_stop(wait_for_archive => true)',
      )
      .catch((error: { code?: string; message: string }) => {
        rmSync(partial, { recursive: true, force: true });
        if (error.code !== '57014') throw error;
        throw new Error(
          `The WAL that completes the backup was not archived within ${options.archiveWaitSeconds} s: is archiving failing (postgres.log, tessera_wal_archive_failures)? No backup was kept.`,
        );
      });
    await client.query('RESET statement_timeout');
    const stop = stopped.rows[0]!;
    writeFileSync(path.join(partial, 'pg', 'backup_label'), stop.labelfile, { mode: 0o600 });
    if (stop.spcmapfile) writeFileSync(path.join(partial, 'pg', 'tablespace_map'), stop.spcmapfile, { mode: 0o600 });
    copyNodeFiles(options.dataDir, path.join(partial, 'node'));
    const manifest: BackupManifest = {
      label,
      startedAt: started.rows[0]!.at.toISOString(),
      finishedAt: stop.at.toISOString(),
      startLsn: started.rows[0]!.lsn,
      stopLsn: stop.lsn,
      startWalFile: started.rows[0]!.file,
      serverVersion: version,
      schemaVersion: schema ?? 0,
      files: stats.files,
      bytes: stats.bytes,
    };
    writeFileSync(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    renameSync(partial, path.join(options.backupDir, label));
    log(`backup ${label}: done`);
    return manifest;
  } finally {
    await client.end();
  }
}

/**
 * The node's own files in DATA_DIR (the embedded database's password; in the sandbox its generated keys). In
 * production ENCRYPTION_KEY never lives there, so a backup holds card data only encrypted, never its key.
 */
function copyNodeFiles(dataDir: string, to: string): void {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (!entry.isFile() || NOT_COPIED.has(entry.name)) continue;
    copyFileSync(path.join(dataDir, entry.name), path.join(to, entry.name));
  }
}
