import { type Metrics, sharedRead } from '../../observability/metrics.js';
import type { Pool } from '../pool.js';
import { listBackups } from './catalog.js';

interface ArchiverRow {
  archived: number;
  failed: number;
  last_archived: number | null;
  last_failed: number | null;
}

/**
 * Whether point-in-time recovery still works: PostgreSQL's archiver (pg_stat_archiver; any server, embedded or not)
 * and, where this node can see BACKUP_DIR, the newest base backup. Read at each scrape.
 */
export function registerBackupGauges(metrics: Metrics, pool: Pool, backupDir: string | undefined): void {
  const read = sharedRead(() =>
    pool
      .query<ArchiverRow>(
        `SELECT archived_count::float8 AS archived, failed_count::float8 AS failed,
                extract(epoch FROM last_archived_time)::float8 AS last_archived,
                extract(epoch FROM last_failed_time)::float8 AS last_failed
         FROM pg_stat_archiver WHERE current_setting('archive_mode') <> 'off'`,
      )
      .then((result): ArchiverRow | undefined => result.rows[0]),
  );
  const archiver = (name: string, help: string, value: (row: ArchiverRow) => number | null) =>
    metrics.gauge(name, help, [], async () => {
      const row = await read();
      const v = row ? value(row) : null;
      return v === null ? [] : [{ labels: {}, value: v }];
    });
  archiver(
    'tessera_wal_archived_segments',
    'WAL segments PostgreSQL archived since its statistics were reset',
    (r) => r.archived,
  );
  archiver(
    'tessera_wal_archive_failures',
    'Failed WAL archive attempts since the statistics were reset',
    (r) => r.failed,
  );
  archiver(
    'tessera_wal_archive_last_success_timestamp_seconds',
    'When PostgreSQL last archived a WAL segment',
    (r) => r.last_archived,
  );
  archiver(
    'tessera_wal_archive_last_failure_timestamp_seconds',
    'When archiving a WAL segment last failed',
    (r) => r.last_failed,
  );
  if (backupDir) {
    metrics.gauge(
      'tessera_backup_last_finished_timestamp_seconds',
      'When the newest base backup in BACKUP_DIR finished (tessera backup)',
      [],
      () => {
        const newest = listBackups(backupDir).at(-1);
        return newest ? [{ labels: {}, value: Date.parse(newest.manifest.finishedAt) / 1000 }] : [];
      },
    );
  }
}
