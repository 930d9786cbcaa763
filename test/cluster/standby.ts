// A streaming standby of the cluster's PostgreSQL, from the same embedded binaries: a base backup taken with the
// low-level backup API (pg_backup_start/stop around a file copy; the embedded binaries have no pg_basebackup), a
// physical replication slot so no WAL it needs is recycled, and synchronous replication so that nothing the primary
// acknowledged is lost when it dies (the primary names this standby in synchronous_standby_names).
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/platform/db/embedded.js';
import { createClient } from '../../src/platform/db/pool.js';
import { freePort } from '../../src/platform/net.js';

export const STANDBY_NAME = 'tessera_standby';

/**
 * Makes the standby synchronous: from now on the primary acknowledges a commit only once the standby has it. Set
 * after the standby streams (before, every commit would wait for it), with ALTER SYSTEM so it survives a restart.
 */
export async function requireSynchronousStandby(primaryUrl: string): Promise<void> {
  const client = createClient(withDatabase(primaryUrl, 'postgres'), 'tessera-standby-sync');
  await client.connect();
  try {
    await client.query(`ALTER SYSTEM SET synchronous_standby_names = '${STANDBY_NAME}'`);
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}

/** Takes a base backup of the running primary into `dataDir` and starts it as a streaming standby. */
export async function startStandby(
  primaryUrl: string,
  primaryDataDir: string,
  dataDir: string,
  settings: Record<string, string>,
): Promise<EmbeddedDatabase> {
  const primary = new URL(primaryUrl);
  const admin = createClient(withDatabase(primaryUrl, 'postgres'), 'tessera-standby-backup');
  await admin.connect();
  const pgDir = path.join(dataDir, 'pg');
  try {
    await admin.query(
      `SELECT pg_create_physical_replication_slot($1) WHERE NOT EXISTS
         (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1)`,
      [STANDBY_NAME],
    );
    await admin.query("SELECT pg_backup_start('tessera standby', true)");
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // The copy keeps owners and modes (the cluster runs as the postgres user); the running primary's WAL and its
    // own state files stay behind: the standby streams the WAL it needs from the slot.
    execFileSync('cp', ['-a', path.join(primaryDataDir, 'pg'), pgDir]);
    for (const name of ['postmaster.pid', 'postmaster.opts']) rmSync(path.join(pgDir, name), { force: true });
    for (const dir of ['pg_wal', 'pg_replslot']) {
      for (const entry of readdirSync(path.join(pgDir, dir))) {
        if (entry !== 'archive_status') rmSync(path.join(pgDir, dir, entry), { recursive: true, force: true });
      }
    }
    const { rows } = await admin.query<{ labelfile: string }>('SELECT labelfile FROM pg_backup_stop(true)');
    writeFileSync(path.join(pgDir, 'backup_label'), rows[0]!.labelfile);
  } finally {
    await admin.end();
  }
  const owner = execFileSync('stat', ['-c', '%u:%g', pgDir]).toString().trim();
  writeFileSync(path.join(pgDir, 'standby.signal'), '');
  execFileSync('chown', [owner, path.join(pgDir, 'standby.signal'), path.join(pgDir, 'backup_label')]);
  copyFileSync(path.join(primaryDataDir, 'pg-password'), path.join(dataDir, 'pg-password'));
  const conninfo = [
    `host=${primary.hostname}`,
    `port=${primary.port}`,
    `user=${decodeURIComponent(primary.username)}`,
    `password=${decodeURIComponent(primary.password)}`,
    `application_name=${STANDBY_NAME}`,
  ].join(' ');
  appendFileSync(
    path.join(pgDir, 'postgresql.auto.conf'),
    `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${STANDBY_NAME}'\n`,
  );
  return startEmbeddedPostgres({
    dataDir,
    database: primary.pathname.slice(1),
    port: await freePort(),
    settings: { ...settings, hot_standby: 'on' },
  });
}

/** Until the standby has replayed everything the primary has written (for the run to start from a caught-up pair). */
export async function waitForCatchUp(primaryUrl: string, timeoutMs = 30_000): Promise<void> {
  const client = createClient(withDatabase(primaryUrl, 'postgres'), 'tessera-standby-wait');
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ state: string | null; lag: string | null }>(
        `SELECT state, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::text AS lag
         FROM pg_stat_replication WHERE application_name = $1`,
        [STANDBY_NAME],
      );
      if (rows[0]?.state === 'streaming' && rows[0].lag === '0') return;
      if (Date.now() > deadline) throw new Error(`standby not caught up: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}

/** Promotes the standby to a primary that accepts writes. */
export async function promote(standbyUrl: string): Promise<void> {
  const client = createClient(withDatabase(standbyUrl, 'postgres'), 'tessera-standby-promote');
  await client.connect();
  try {
    await client.query('SELECT pg_promote(true, 60)');
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
