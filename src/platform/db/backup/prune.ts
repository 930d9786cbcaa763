import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { listBackups, PARTIAL_SUFFIX } from './catalog.js';

export interface PruneReport {
  backupsRemoved: string[];
  walFilesRemoved: number;
}

const WAL_FILE = /^[0-9A-F]{24}(\.[0-9A-F]{8}\.backup)?$/;

/**
 * Keeps the newest `kept` base backups and the archived WAL a restore of the oldest of them reads; removes the rest
 * (and partial backups older than that one, left by a crash). Timeline history files are always kept. Like
 * pg_archivecleanup, a segment's name is compared without its timeline.
 */
export function pruneBackups(backupDir: string, walArchiveDir: string | undefined, kept: number): PruneReport {
  const backups = listBackups(backupDir);
  const report: PruneReport = { backupsRemoved: [], walFilesRemoved: 0 };
  if (backups.length === 0) return report;
  const doomed = backups.slice(0, Math.max(0, backups.length - kept));
  const oldestKept = backups[doomed.length]!;
  for (const backup of doomed) {
    rmSync(backup.dir, { recursive: true, force: true });
    report.backupsRemoved.push(backup.manifest.label);
  }
  for (const entry of readdirSync(backupDir)) {
    if (entry.endsWith(PARTIAL_SUFFIX) && entry < oldestKept.manifest.label) {
      rmSync(path.join(backupDir, entry), { recursive: true, force: true });
    }
  }
  if (walArchiveDir && existsSync(walArchiveDir)) {
    const keepFrom = oldestKept.manifest.startWalFile.slice(8);
    for (const entry of readdirSync(walArchiveDir)) {
      if (WAL_FILE.test(entry) && entry.slice(8, 24) < keepFrom) {
        rmSync(path.join(walArchiveDir, entry), { force: true });
        report.walFilesRemoved += 1;
      }
    }
  }
  return report;
}
