import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { projectRoot } from '../paths.js';
import { createClient } from './pool.js';
import { formerly, RESTRUCTURED_MIGRATIONS, type RestructuredMigration } from './restructured.js';

export interface MigrationPart {
  /** The part's file, relative to the project root: it lives with the module that owns what it changes. */
  file: string;
  sql: string;
}

export interface Migration {
  version: number;
  name: string;
  /** The main part's file. */
  file: string;
  /** Its parts in order (most migrations have one), run together in one transaction. */
  parts: MigrationPart[];
  sql: string;
  checksum: string;
  /**
   * False for a file that starts with `-- tessera: no-transaction`: one statement that cannot run in a transaction
   * (CREATE INDEX CONCURRENTLY on a busy table), run on its own and recorded after it succeeds.
   */
  transactional: boolean;
}

const NO_TRANSACTION = /^--\s*tessera:\s*no-transaction\b/;
/** The index a no-transaction migration builds (its name: a plain identifier). */
const CONCURRENT_INDEX = /\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+([a-z_][a-z0-9_]*)\b/i;

/**
 * How long a migration statement may wait for a lock. A migration queued behind a long transaction would otherwise
 * hold every payment queued behind it (PostgreSQL grants locks in order); past this it gives up, lets traffic through,
 * and tries again.
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 3000;
const MIGRATION_ATTEMPTS = 20;

/** Any number fits; it only has to be the same on every node. ("tessera migrations" as two int4s.) */
const MIGRATION_LOCK = [0x7465_7373, 0x6d69_6772] as const;

const MIGRATION_FILE = /^(\d{4})(?:\.(\d))?_([a-z0-9_]+)\.sql$/;

/**
 * Migrations live next to the module that owns the tables (`src/<area>/migrations/NNNN_name.sql`). Versions are
 * global, so files from different modules interleave in one order; a duplicate version is a build error. A version
 * that changes the tables of several modules is split into parts, one in each owner's folder: `NNNN_name.sql` first,
 * then `NNNN.1_name.sql`, `NNNN.2_name.sql`, ... (the same name), run in that order in one transaction.
 */
export function discoverMigrations(root = projectRoot()): Migration[] {
  const found = new Map<number, Array<{ part: number; name: string; file: string; sql: string }>>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (path.basename(dir) === 'migrations' && entry.name.endsWith('.sql')) {
        const match = MIGRATION_FILE.exec(entry.name);
        if (!match) throw new Error(`Migration file name must look like 0001_name.sql or 0001.1_name.sql: ${full}`);
        const version = Number(match[1]);
        const parts = found.get(version) ?? [];
        parts.push({
          part: Number(match[2] ?? 0),
          name: match[3]!,
          file: path.relative(root, full),
          sql: readFileSync(full, 'utf8'),
        });
        found.set(version, parts);
      }
    }
  };
  walk(path.join(root, 'src'));
  const migrations: Migration[] = [];
  for (const [version, parts] of found) {
    parts.sort((a, b) => a.part - b.part);
    const main = parts[0]!;
    parts.forEach((part, i) => {
      if (part.part !== i) {
        const clash = part.part < i;
        throw new Error(
          clash
            ? `Duplicate migration version ${version}: ${parts[i - 1]!.file} and ${part.file}`
            : `Migration ${version} has part ${part.part} (${part.file}) without part ${i}`,
        );
      }
      if (part.name !== main.name) {
        throw new Error(`The parts of migration ${version} must share its name: ${main.file} and ${part.file}`);
      }
    });
    // One part: the checksum of its text, as it always was. Several: of their texts in order.
    const checksum = createHash('sha256');
    for (const [i, part] of parts.entries()) checksum.update(i === 0 ? part.sql : `\0${part.sql}`);
    const transactional = !NO_TRANSACTION.test(main.sql);
    if (!transactional && parts.length > 1) {
      throw new Error(`Migration ${version} runs outside a transaction and so cannot have parts: ${main.file}`);
    }
    migrations.push({
      version,
      name: main.name,
      file: main.file,
      parts: parts.map(({ file, sql }) => ({ file, sql })),
      sql: parts.map((part) => part.sql).join('\n'),
      checksum: checksum.digest('hex'),
      transactional,
    });
  }
  return migrations.sort((a, b) => a.version - b.version);
}

async function applyOne(client: pg.Client, migration: Migration, lockTimeoutMs: number): Promise<void> {
  const record = () =>
    client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
      migration.version,
      migration.name,
      migration.checksum,
    ]);
  if (!migration.transactional) {
    await client.query(`SET lock_timeout = ${Math.trunc(lockTimeoutMs)}`);
    const builds = CONCURRENT_INDEX.exec(migration.sql)?.[1];
    try {
      // A build of this same index that failed before (a crash, a deadlock) left it invalid, and IF NOT EXISTS would
      // skip it: it goes first, concurrently too.
      if (builds) {
        const { rows } = await client.query<{ invalid: boolean }>(
          'SELECT NOT indisvalid AS invalid FROM pg_index WHERE indexrelid = to_regclass($1)',
          [builds],
        );
        if (rows[0]?.invalid) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${builds}`);
      }
      await client.query(migration.sql);
    } finally {
      await client.query('RESET lock_timeout');
    }
    // The index must be whole before the migration counts as applied (a build cancelled by someone else's hand).
    const invalid = await client.query<{ name: string }>(
      'SELECT indexrelid::regclass::text AS name FROM pg_index WHERE NOT indisvalid AND ($1::text IS NULL OR indexrelid = to_regclass($1))',
      [builds ?? null],
    );
    if (invalid.rows.length > 0) {
      throw new Error(
        `invalid indexes left by a failed concurrent build: ${invalid.rows.map((r) => r.name).join(', ')}; drop them (DROP INDEX CONCURRENTLY) and start again`,
      );
    }
    await record();
    return;
  }
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}`);
    await client.query(migration.sql);
    await record();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

export interface MigrationReport {
  applied: string[];
  current: number;
  /** Migrations of a newer release already applied (this node runs beside that release's nodes). */
  ahead?: string[];
}

/**
 * Applies pending migrations under a session advisory lock, so any number of nodes may start at once: the first
 * applies, the others wait and then find nothing to do. Each migration runs in its own transaction.
 */
export async function migrate(
  databaseUrl: string,
  migrations = discoverMigrations(),
  restructured: readonly RestructuredMigration[] = RESTRUCTURED_MIGRATIONS,
  lockTimeoutMs = MIGRATION_LOCK_TIMEOUT_MS,
): Promise<MigrationReport> {
  const client = createClient(databaseUrl, 'tessera-migrate');
  await client.connect();
  try {
    // Asked for again and again rather than waited for in one statement: a node waiting inside a statement holds a
    // snapshot, and CREATE INDEX CONCURRENTLY in the node that migrates waits for every older snapshot to go
    // (a deadlock, found by nodes starting together on an empty database).
    for (;;) {
      const { rows: lock } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [
        ...MIGRATION_LOCK,
      ]);
      if (lock[0]!.got) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number; checksum: string; name: string }>(
      'SELECT version, checksum, name FROM schema_migrations ORDER BY version',
    );
    const applied = new Map(rows.map((row) => [row.version, row]));
    for (const migration of migrations) {
      const done = applied.get(migration.version);
      // Applied before it was split among its owners (the same statements) or corrected (a later migration reconciles
      // the schema): accepted. The record keeps the checksum it has, so that nodes of the release that applied it,
      // still running or restarted during a rolling upgrade, recognise it as theirs.
      if (done && done.checksum !== migration.checksum && !formerly(restructured, migration.version, done.checksum)) {
        throw new Error(
          `Migration ${migration.file} was changed after it was applied (checksum mismatch). Write a new migration instead.`,
        );
      }
    }
    const known = new Set(migrations.map((m) => m.version));
    const unknown = rows.filter((row) => !known.has(row.version));
    const newest = migrations.at(-1)?.version ?? 0;
    const pending = migrations.filter((m) => !applied.has(m.version));
    // A node of the previous release, (re)started during a rolling upgrade, finds the next release's migrations
    // applied: they only expand the schema (docs/operations.md, "Upgrading"), so it runs. Anything else is a database
    // of another line of builds.
    const ahead = unknown.length > 0 && pending.length === 0 && unknown.every((row) => row.version > newest);
    if (unknown.length > 0 && !ahead) {
      throw new Error(
        `The database has migrations this build does not know (${unknown.map((u) => `${u.version}_${u.name}`).join(', ')}) besides ones it lacks; is this build from another branch?`,
      );
    }
    const report: MigrationReport = {
      applied: [],
      current: rows.at(-1)?.version ?? 0,
      ...(ahead ? { ahead: unknown.map((u) => `${String(u.version).padStart(4, '0')}_${u.name}`) } : {}),
    };
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      for (let attempt = 1; ; attempt += 1) {
        try {
          await applyOne(client, migration, lockTimeoutMs);
          break;
        } catch (error) {
          // A lock not granted in time, or a deadlock the migration lost (its locks are taken in the order traffic
          // takes them, so traffic should never be the one to lose): traffic goes first, the migration tries again.
          const retried = ['55P03', '40P01'].includes((error as { code?: string }).code ?? '');
          if (!retried || attempt >= MIGRATION_ATTEMPTS) {
            throw new Error(`Migration ${migration.file} failed: ${(error as Error).message}`);
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * attempt)));
        }
      }
      report.applied.push(`${String(migration.version).padStart(4, '0')}_${migration.name}`);
      report.current = migration.version;
    }
    return report;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [...MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}
