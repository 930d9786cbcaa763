import { chownSync, copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * What a base backup leaves out of a running cluster's folder (PostgreSQL's documentation, "Making a Base Backup Using
 * the Low Level API"): the running server's own files, the WAL (recovery reads it from the archive), and the contents
 * of folders the server rebuilds at start. The folders themselves are kept, empty.
 */
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'pg_internal.init', 'backup_label.old']);
const EMPTIED_FOLDERS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);

export interface CopyStats {
  files: number;
  bytes: number;
}

/**
 * Copies a PostgreSQL data folder file by file, keeping modes and (when `owner` is given) setting the owner. A file
 * that disappears while it is copied (a table dropped mid-backup) is skipped: the WAL replayed on restore drops it too.
 */
export function copyClusterFolder(
  from: string,
  to: string,
  owner?: { uid: number; gid: number },
  atRoot = true,
): CopyStats {
  const stats: CopyStats = { files: 0, bytes: 0 };
  mkdirSync(to, { recursive: true, mode: lstatSync(from).mode & 0o777 });
  if (owner) chownSync(to, owner.uid, owner.gid);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (SKIPPED_FILES.has(entry.name) || entry.name.startsWith('pgsql_tmp')) continue;
    try {
      if (entry.isDirectory()) {
        if (atRoot && EMPTIED_FOLDERS.has(entry.name)) {
          mkdirSync(target, { mode: lstatSync(source).mode & 0o777 });
          if (owner) chownSync(target, owner.uid, owner.gid);
          if (entry.name === 'pg_wal') {
            mkdirSync(path.join(target, 'archive_status'), { mode: 0o700 });
            if (owner) chownSync(path.join(target, 'archive_status'), owner.uid, owner.gid);
          }
          continue;
        }
        const inner = copyClusterFolder(source, target, owner, false);
        stats.files += inner.files;
        stats.bytes += inner.bytes;
      } else if (entry.isSymbolicLink()) {
        symlinkSync(readlinkSync(source), target);
      } else if (entry.isFile()) {
        copyFileSync(source, target);
        const stat = lstatSync(target);
        if (owner) chownSync(target, owner.uid, owner.gid);
        stats.files += 1;
        stats.bytes += stat.size;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return stats;
}
