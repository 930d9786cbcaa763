import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import { takeBaseBackup } from '../platform/db/backup/base-backup.js';
import { listBackups } from '../platform/db/backup/catalog.js';
import { pruneBackups } from '../platform/db/backup/prune.js';
import { restoreBackup } from '../platform/db/backup/restore.js';
import { createLogger, stderrDestination } from '../platform/observability/logger.js';
import { openDatabase } from '../runtime/database.js';

const EXTERNAL =
  'DATABASE_URL is set: back up the external PostgreSQL with its own tools (pgBackRest or WAL-G; docs/operations.md, "Backups and point-in-time recovery").';

/**
 * `tessera backup` and `tessera restore`: base backups and point-in-time recovery of the embedded PostgreSQL, whose
 * WAL the node archives into WAL_ARCHIVE_DIR. Output is JSON on standard output; progress goes to standard error.
 */
export function registerBackupCommands(program: Command, configOrExit: () => Config): void {
  program
    .command('backup')
    .description(
      'Take a base backup of the embedded PostgreSQL into BACKUP_DIR while it runs, then keep the newest BACKUPS_KEPT and the WAL they need',
    )
    .option('--list', 'list the backups instead of taking one')
    .action(async (options: { list?: boolean }) => {
      const config = configOrExit();
      if (options.list) {
        const backups = listBackups(config.backupDir).map((backup) => ({ dir: backup.dir, ...backup.manifest }));
        process.stdout.write(`${JSON.stringify(backups, null, 2)}\n`);
        return;
      }
      if (config.databaseUrl) fail(EXTERNAL);
      const progress = (message: string) => process.stderr.write(`backup: ${message}\n`);
      const db = await openDatabase(config, createLogger(process.env.LOG_LEVEL ?? 'warn', stderrDestination()));
      try {
        const manifest = await takeBaseBackup({
          url: db.directUrl,
          dataDir: config.dataDir,
          backupDir: config.backupDir,
          archiveWaitSeconds: config.backupArchiveWaitSeconds,
          log: progress,
        });
        const pruned = pruneBackups(config.backupDir, config.walArchiveDir, config.backupsKept);
        process.stdout.write(
          `${JSON.stringify({ ...manifest, dir: path.join(config.backupDir, manifest.label), pruned }, null, 2)}\n`,
        );
      } finally {
        await db.stop();
      }
    });

  program
    .command('restore')
    .description(
      'Restore the embedded PostgreSQL into a new DATA_DIR as it was at an instant: the newest backup before it, then the archived WAL up to it',
    )
    .requiredOption('--to <instant>', 'an instant with its offset (2026-11-27T16:01:02.5Z), or "latest"')
    .requiredOption('--target <dir>', 'the new DATA_DIR (must not exist or be empty); start a node on it afterwards')
    .option('--backup-dir <dir>', 'where the backups are (default BACKUP_DIR)')
    .option('--wal-archive-dir <dir>', 'where the archived WAL is (default WAL_ARCHIVE_DIR)')
    .action(async (options: { to: string; target: string; backupDir?: string; walArchiveDir?: string }) => {
      const config = configOrExit();
      if (config.databaseUrl) fail(EXTERNAL);
      const walArchiveDir = options.walArchiveDir ?? config.walArchiveDir;
      if (!walArchiveDir) fail('WAL_ARCHIVE_DIR is off: name the archive with --wal-archive-dir');
      try {
        const report = await restoreBackup({
          backupDir: path.resolve(options.backupDir ?? config.backupDir),
          walArchiveDir: path.resolve(walArchiveDir),
          target: path.resolve(options.target),
          to: options.to,
          log: (message) => process.stderr.write(`restore: ${message}\n`),
        });
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } catch (error) {
        fail((error as Error).message);
      }
    });
}

function fail(message: string): never {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(1);
}
