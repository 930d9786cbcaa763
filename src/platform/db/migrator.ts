import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths.js';
import { createClient } from './pool.js';

export interface Migration {
  version: number;
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

/** Any number fits; it only has to be the same on every node. ("tessera migrations" as two int4s.) */
const MIGRATION_LOCK = [0x7465_7373, 0x6d69_6772] as const;

/**
 * Migrations live next to the module that owns the tables (`src/<area>/migrations/NNNN_name.sql`). Versions are
 * global, so files from different modules interleave in one order; a duplicate version is a build error.
 */
export function discoverMigrations(root = projectRoot()): Migration[] {
  const found: Migration[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (path.basename(dir) === 'migrations' && entry.name.endsWith('.sql')) {
        const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(entry.name);
        if (!match) throw new Error(`Migration file name must look like 0001_name.sql: ${full}`);
        const sql = readFileSync(full, 'utf8');
        found.push({
          version: Number(match[1]),
          name: match[2]!,
          file: path.relative(root, full),
          sql,
          checksum: createHash('sha256').update(sql).digest('hex'),
        });
      }
    }
  };
  walk(path.join(root, 'src'));
  found.sort((a, b) => a.version - b.version);
  for (let i = 1; i < found.length; i++) {
    if (found[i]!.version === found[i - 1]!.version) {
      throw new Error(`Duplicate migration version ${found[i]!.version}: ${found[i - 1]!.file} and ${found[i]!.file}`);
    }
  }
  return found;
}

export interface MigrationReport {
  applied: string[];
  current: number;
}

/**
 * Applies pending migrations under a session advisory lock, so any number of nodes may start at once: the first
 * applies, the others wait and then find nothing to do. Each migration runs in its own transaction.
 */
export async function migrate(databaseUrl: string, migrations = discoverMigrations()): Promise<MigrationReport> {
  const client = createClient(databaseUrl, 'tessera-migrate');
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
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
      if (done && done.checksum !== migration.checksum) {
        throw new Error(
          `Migration ${migration.file} was changed after it was applied (checksum mismatch). Write a new migration instead.`,
        );
      }
    }
    const known = new Set(migrations.map((m) => m.version));
    const unknown = rows.filter((row) => !known.has(row.version));
    if (unknown.length > 0) {
      throw new Error(
        `The database has migrations this build does not know (${unknown.map((u) => `${u.version}_${u.name}`).join(', ')}); is this an older build?`,
      );
    }
    const report: MigrationReport = { applied: [], current: rows.at(-1)?.version ?? 0 };
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          migration.checksum,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw new Error(`Migration ${migration.file} failed: ${(error as Error).message}`);
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
