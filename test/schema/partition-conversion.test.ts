// The migrations that make an existing table partitioned (docs/operations.md, "Retention") hold their exclusive lock
// only for renames and an attach: every index the old table needs as a partition was built beside it beforehand,
// concurrently, and none is built under the lock. And a database that ran the first text of 0078 and 0082 (which did
// build the keys anew) ends with the same indexes as one that ran them as they read now.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { discoverMigrations, type Migration, migrate } from '../../src/platform/db/migrator.js';
import { createClient } from '../../src/platform/db/pool.js';
import { RESTRUCTURED_MIGRATIONS } from '../../src/platform/db/restructured.js';
import { createTestDatabase, type TestDatabase } from '../harness.js';

/** Each conversion: the migration that attaches the old table, and the old table as a partition. */
const CONVERSIONS = [
  { version: 78, legacy: 'webhook_delivery_logs_legacy' },
  { version: 82, legacy: 'messages_legacy' },
  { version: 88, legacy: 'events_legacy' },
  { version: 93, legacy: 'webhook_deliveries_legacy' },
  { version: 100, legacy: 'request_logs_legacy' },
];

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = createClient(url, 'tessera-tests');
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every index of the schema by name, with its definition. */
const indexes = (url: string) =>
  query<{ name: string; def: string }>(
    url,
    `SELECT c.relname AS name, pg_get_indexdef(c.oid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY 1`,
  );

/** The same migration as it read when a database recorded `checksum` (the text kept beside this test). */
function former(migration: Migration, file: string): Migration {
  const sql = readFileSync(new URL(`former-migrations/${file}`, import.meta.url), 'utf8');
  const checksum = createHash('sha256').update(sql).digest('hex');
  const entry = RESTRUCTURED_MIGRATIONS.find((e) => e.version === migration.version);
  assert.ok(entry?.formerChecksums.includes(checksum), `${file} is the text migration ${migration.version} had`);
  return { ...migration, sql, checksum, parts: [{ file: migration.file, sql }] };
}

describe('converting tables to partitions', () => {
  const all = discoverMigrations();
  const upTo = (version: number) => all.filter((m) => m.version <= version);
  let current: TestDatabase;
  let reconciled: TestDatabase;
  before(async () => {
    current = await createTestDatabase({ empty: true });
    reconciled = await createTestDatabase({ empty: true });
  });
  after(async () => {
    await current?.drop();
    await reconciled?.drop();
  });

  it('builds no index under the lock: the old table keeps the indexes built beside it', async () => {
    for (const { version, legacy } of CONVERSIONS) {
      await migrate(current.url, upTo(version - 1));
      const built = new Set(
        (
          await query<{ file: string }>(
            current.url,
            "SELECT relfilenode::text AS file FROM pg_class WHERE relkind = 'i'",
          )
        ).map((r) => r.file),
      );
      await migrate(current.url, upTo(version));
      const kept = await query<{ name: string; file: string }>(
        current.url,
        `SELECT c.relname AS name, c.relfilenode::text AS file FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid = $1::regclass`,
        [legacy],
      );
      assert.ok(kept.length >= 1, `${legacy}: ${kept.map((k) => k.name).join()}`);
      const fresh = kept.filter((k) => !built.has(k.file)).map((k) => k.name);
      assert.deepEqual(fresh, [], `migration ${version} built these under its lock`);
    }
    await migrate(current.url, all);
    const duplicates = await query<{ names: string }>(
      current.url,
      `SELECT string_agg(indexrelid::regclass::text, ', ') AS names FROM pg_index
       GROUP BY indrelid, indkey::text, indclass::text, coalesce(pg_get_expr(indpred, indrelid), ''),
                coalesce(pg_get_expr(indexprs, indrelid), ''), indisunique
       HAVING count(*) > 1`,
    );
    assert.deepEqual(duplicates, [], 'no two indexes of a table alike');
  });

  it('brings a database that ran the first text of 0078 and 0082 to the same indexes', async () => {
    const byVersion = new Map(all.map((m) => [m.version, m]));
    const first78 = former(byVersion.get(78)!, '0078_webhook_delivery_logs_partitioned.sql');
    const first82 = former(byVersion.get(82)!, '0082_messages_partitioned.sql');
    await migrate(reconciled.url, [...upTo(81).map((m) => (m.version === 78 ? first78 : m)), first82]);
    const leftOver = (await indexes(reconciled.url)).map((i) => i.name);
    assert.ok(leftOver.includes('messages_id_created'), 'the first text left the index 0079 built unused');
    await migrate(reconciled.url, all);
    assert.deepEqual(await indexes(reconciled.url), await indexes(current.url));
  });
});
