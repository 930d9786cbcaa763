import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What `tessera backup` records beside each base backup (backup.json). */
export interface BackupManifest {
  label: string;
  /** When pg_backup_start returned: the backup's data is at least this new. */
  startedAt: string;
  /** When pg_backup_stop returned: a restore can stop at any instant after this (the backup is consistent there). */
  finishedAt: string;
  startLsn: string;
  stopLsn: string;
  /** The first archived WAL segment a restore of this backup reads. */
  startWalFile: string;
  serverVersion: string;
  /** The highest migration applied when the backup started (a restore needs a build at least this new). */
  schemaVersion: number;
  files: number;
  bytes: number;
}

export const MANIFEST_FILE = 'backup.json';
/** A backup is written under this suffix and renamed when whole, so a crash mid-backup never leaves one that looks whole. */
export const PARTIAL_SUFFIX = '.partial';

export interface CatalogedBackup {
  dir: string;
  manifest: BackupManifest;
}

/** The whole backups in a folder, oldest first. */
export function listBackups(backupDir: string): CatalogedBackup[] {
  if (!existsSync(backupDir)) return [];
  const backups: CatalogedBackup[] = [];
  for (const entry of readdirSync(backupDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.endsWith(PARTIAL_SUFFIX)) continue;
    const manifestFile = path.join(backupDir, entry.name, MANIFEST_FILE);
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
    backups.push({ dir: path.join(backupDir, entry.name), manifest });
  }
  return backups.sort((a, b) => a.manifest.finishedAt.localeCompare(b.manifest.finishedAt));
}

/** A label that sorts by time and is safe as a folder name: 20261127T160102.123Z. */
export function backupLabel(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '');
}
