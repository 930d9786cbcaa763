// Migrations: discovered from every module's folder, split into parts where one version changes the tables of
// several modules, and a database that applied a migration before it was split keeps migrating.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discoverMigrations, migrate } from '../../src/platform/db/migrator.js';
import { createClient } from '../../src/platform/db/pool.js';
import { RESTRUCTURED_MIGRATIONS, statementDigest } from '../../src/platform/db/restructured.js';
import { createTestDatabase, type TestDatabase } from '../harness.js';

/** A project root holding the given migration files (path under src/ → SQL). */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'tessera-migrations-'));
  for (const [file, sql] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, 'src', file)), { recursive: true });
    writeFileSync(path.join(root, 'src', file), sql);
  }
  return root;
}

describe('migrations', () => {
  let database: TestDatabase;
  const query = async (sql: string, values: unknown[] = []) => {
    const client = createClient(database.url, 'tessera-tests');
    await client.connect();
    try {
      return (await client.query(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  before(async () => {
    database = await createTestDatabase({ empty: true });
  });
  after(() => database.drop());

  it('runs the parts of a version in order, as one migration with one record', () => {
    const root = fixture({
      'a/migrations/0001_first.sql': 'CREATE TABLE a (id int);',
      'b/migrations/0001.1_first.sql': 'CREATE TABLE b (id int);',
      'a/migrations/0002_second.sql': 'ALTER TABLE a ADD COLUMN n int;',
    });
    try {
      const [first, second] = discoverMigrations(root);
      assert.equal(first!.version, 1);
      assert.deepEqual(
        first!.parts.map((part) => part.file),
        [
          path.join('src', 'a', 'migrations', '0001_first.sql'),
          path.join('src', 'b', 'migrations', '0001.1_first.sql'),
        ],
      );
      assert.equal(first!.sql, 'CREATE TABLE a (id int);\nCREATE TABLE b (id int);');
      assert.equal(second!.parts.length, 1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a part without the parts before it, parts named differently, and two files of one part', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ 'a/migrations/0001.1_first.sql': 'SELECT 1;' }, /without part 0/],
      [{ 'a/migrations/0001_first.sql': 'SELECT 1;', 'b/migrations/0001.2_first.sql': 'SELECT 1;' }, /without part 1/],
      [{ 'a/migrations/0001_first.sql': 'SELECT 1;', 'b/migrations/0001.1_other.sql': 'SELECT 1;' }, /share its name/],
      [{ 'a/migrations/0001_first.sql': 'SELECT 1;', 'b/migrations/0001_first.sql': 'SELECT 1;' }, /Duplicate/],
      [{ 'a/migrations/0001-first.sql': 'SELECT 1;' }, /must look like/],
    ];
    for (const [files, error] of cases) {
      const root = fixture(files);
      try {
        assert.throws(() => discoverMigrations(root), error);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });

  it('holds exactly the statements of each migration changed after it was applied (split, or comments corrected)', () => {
    const migrations = new Map(discoverMigrations().map((m) => [m.version, m]));
    for (const entry of RESTRUCTURED_MIGRATIONS) {
      const migration = migrations.get(entry.version);
      assert.ok(migration, `migration ${entry.version}`);
      assert.ok(!entry.formerChecksums.includes(migration.checksum), `migration ${entry.version} did change`);
      assert.equal(statementDigest(migration.sql), entry.statements, `migration ${entry.version}: ${entry.why}`);
      for (const later of entry.reconciledBy ?? []) {
        assert.ok(later > entry.version && migrations.has(later), `migration ${entry.version} reconciled by ${later}`);
      }
    }
    // The digest sees statements, not comments or layout; a changed statement is another digest.
    assert.equal(statementDigest('-- a\nSELECT  1;\nSELECT 2;'), statementDigest('SELECT 2;\n\n-- b\nSELECT 1;'));
    assert.notEqual(statementDigest('SELECT 1;'), statementDigest('SELECT 2;'));
  });

  it('migrates a database that applied a migration before it was split, and still refuses one that changed', async () => {
    await migrate(database.url);
    for (const entry of RESTRUCTURED_MIGRATIONS) {
      await query('UPDATE schema_migrations SET checksum = $2 WHERE version = $1', [
        entry.version,
        entry.formerChecksums[0],
      ]);
    }
    const recorded = await query('SELECT version, checksum FROM schema_migrations ORDER BY version');
    const report = await migrate(database.url);
    assert.deepEqual(report.applied, []);
    // The records stay as they were: a node of the release that applied the former text still recognises them.
    assert.deepEqual(await query('SELECT version, checksum FROM schema_migrations ORDER BY version'), recorded);
    const previous = discoverMigrations().map((m) => {
      const entry = RESTRUCTURED_MIGRATIONS.find((e) => e.version === m.version);
      return entry ? { ...m, checksum: entry.formerChecksums[0]! } : m;
    });
    assert.deepEqual((await migrate(database.url, previous, [])).applied, []);

    // Any other checksum is a migration edited after it ran: refused, as before.
    await query("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 18");
    await assert.rejects(migrate(database.url), /was changed after it was applied/);
  });

  it('runs a no-transaction migration on its own, and refuses one with parts', async () => {
    const own = await createTestDatabase({ empty: true });
    const root = fixture({
      'a/migrations/0001_table.sql': 'CREATE TABLE t (n int);',
      'a/migrations/0002_index.sql':
        '-- tessera: no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS t_n ON t (n);',
    });
    const split = fixture({
      'a/migrations/0001_index.sql': '-- tessera: no-transaction\nCREATE INDEX CONCURRENTLY t_n ON t (n);',
      'b/migrations/0001.1_index.sql': 'SELECT 1;',
    });
    try {
      const migrations = discoverMigrations(root);
      assert.deepEqual(
        migrations.map((m) => m.transactional),
        [true, false],
      );
      const report = await migrate(own.url, migrations);
      assert.deepEqual(report.applied, ['0001_table', '0002_index']);
      const client = createClient(own.url, 'tessera-tests');
      await client.connect();
      const { rows } = await client.query("SELECT indisvalid FROM pg_index WHERE indexrelid = 't_n'::regclass");
      await client.end();
      assert.deepEqual(rows, [{ indisvalid: true }]);
      assert.throws(() => discoverMigrations(split), /outside a transaction and so cannot have parts/);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(split, { recursive: true, force: true });
      await own.drop();
    }
  });

  it('lets traffic through while its lock waits behind a long transaction, then applies', async () => {
    const own = await createTestDatabase({ empty: true });
    const root = fixture({
      'a/migrations/0001_table.sql': 'CREATE TABLE t (n int);',
      'a/migrations/0002_column.sql': 'ALTER TABLE t ADD COLUMN m int;',
    });
    const long = createClient(own.url, 'tessera-tests');
    const traffic = createClient(own.url, 'tessera-tests');
    try {
      const migrations = discoverMigrations(root);
      await migrate(own.url, migrations.slice(0, 1));
      await long.connect();
      await traffic.connect();
      await long.query('BEGIN');
      await long.query('SELECT * FROM t');
      const migrating = migrate(own.url, migrations, undefined, 50);
      let migrated = false;
      void migrating.then(
        () => {
          migrated = true;
        },
        () => {},
      );
      // Without lock_timeout these inserts would queue behind the waiting ALTER TABLE until the long transaction ends.
      for (let i = 0; i < 20; i++) await traffic.query('INSERT INTO t (n) VALUES ($1)', [i]);
      assert.equal(migrated, false, 'the migration still waits for the long transaction');
      await long.query('COMMIT');
      assert.deepEqual((await migrating).applied, ['0002_column']);
      const { rows } = await traffic.query('SELECT count(*)::int AS n, count(m)::int AS m FROM t');
      assert.deepEqual(rows, [{ n: 20, m: 0 }]);
    } finally {
      await long.end().catch(() => {});
      await traffic.end().catch(() => {});
      rmSync(root, { recursive: true, force: true });
      await own.drop();
    }
  });

  it('lets a node of the previous release run on a database migrated ahead of it, and refuses a diverged one', async () => {
    const own = await createTestDatabase({ empty: true });
    const next = fixture({
      'a/migrations/0001_table.sql': 'CREATE TABLE t (n int);',
      'a/migrations/0002_column.sql': 'ALTER TABLE t ADD COLUMN m int;',
    });
    const previous = fixture({ 'a/migrations/0001_table.sql': 'CREATE TABLE t (n int);' });
    const diverged = fixture({
      'a/migrations/0001_table.sql': 'CREATE TABLE t (n int);',
      'a/migrations/0003_other.sql': 'ALTER TABLE t ADD COLUMN o int;',
    });
    try {
      await migrate(own.url, discoverMigrations(next));
      const report = await migrate(own.url, discoverMigrations(previous));
      assert.deepEqual(report, { applied: [], current: 2, ahead: ['0002_column'] });
      await assert.rejects(migrate(own.url, discoverMigrations(diverged)), /does not know \(2_column\) besides/);
    } finally {
      for (const root of [next, previous, diverged]) rmSync(root, { recursive: true, force: true });
      await own.drop();
    }
  });

  it('rebuilds a concurrent index a failed attempt left invalid, instead of skipping it', async () => {
    const own = await createTestDatabase({ empty: true });
    const root = fixture({
      'a/migrations/0001_table.sql': 'CREATE TABLE t (n int); INSERT INTO t VALUES (1), (1);',
      'a/migrations/0002_unique.sql':
        '-- tessera: no-transaction\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS t_n ON t (n);',
    });
    const client = createClient(own.url, 'tessera-tests');
    try {
      const migrations = discoverMigrations(root);
      // The duplicate stops the build part way: PostgreSQL leaves the index behind, invalid.
      await assert.rejects(migrate(own.url, migrations), /could not create unique index/);
      await client.connect();
      const validity = async () =>
        (await client.query("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = 't_n'::regclass")).rows;
      assert.deepEqual(await validity(), [{ valid: false }]);
      await client.query('DELETE FROM t WHERE ctid = (SELECT max(ctid) FROM t)');
      assert.deepEqual((await migrate(own.url, migrations)).applied, ['0002_unique']);
      assert.deepEqual(await validity(), [{ valid: true }]);
    } finally {
      await client.end().catch(() => {});
      rmSync(root, { recursive: true, force: true });
      await own.drop();
    }
  });
});
