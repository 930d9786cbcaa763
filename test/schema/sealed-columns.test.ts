// Everything sealed is accounted for. A value sealed with the key-encryption key carries the version it was sealed
// under; key rotation re-wraps and retires versions from one list (SEALED_COLUMNS: the platform's and every module
// manifest's `sealed`), so a table of the migrated schema with such a version column the list lacks would let a
// version retire while something is still sealed under it.
// A value sealed under a merchant's data key carries that key's version instead (and rotating the key-encryption key
// leaves it alone). Every `*_sealed` column is one or the other.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SEALED_COLUMNS } from '../../src/modules/index.js';
import { createClient } from '../../src/platform/db/pool.js';
import { createTestDatabase, type TestDatabase } from '../harness.js';

/** The key-encryption key's version columns: `kek_version`, or `<value>_kek` beside the value it versions. */
const KEK_VERSION = /^(kek_version|.+_kek)$/;
const DATA_KEY_VERSION = 'data_key_version';

describe('sealed columns', () => {
  let database: TestDatabase;
  let columns: Array<{ table: string; column: string; type: string }>;
  before(async () => {
    database = await createTestDatabase();
    const client = createClient(database.url, 'tessera-tests');
    await client.connect();
    try {
      columns = (
        await client.query<{ table: string; column: string; type: string }>(
          `SELECT table_name AS table, column_name AS column, data_type AS type FROM information_schema.columns
           WHERE table_schema = 'public' ORDER BY table_name, column_name`,
        )
      ).rows;
    } finally {
      await client.end();
    }
  });
  after(() => database.drop());

  it('lists every column versioned by the key-encryption key in SEALED_COLUMNS (rotation and retirement read it)', () => {
    const versioned = columns.filter((c) => KEK_VERSION.test(c.column)).map((c) => `${c.table}.${c.column}`);
    const listed = SEALED_COLUMNS.map((kind) => `${kind.table}.${kind.versionColumn ?? 'kek_version'}`);
    assert.deepEqual([...versioned].sort(), [...listed].sort());
    for (const kind of SEALED_COLUMNS) {
      const sealed = columns.find((c) => c.table === kind.table && c.column === kind.column);
      assert.ok(sealed, `${kind.table}.${kind.column} exists`);
      assert.ok(['bytea', 'text'].includes(sealed.type), `${kind.table}.${kind.column} holds sealed bytes`);
    }
  });

  it('versions every *_sealed column by the key-encryption key (in SEALED_COLUMNS) or by a data key', () => {
    const byKek = new Set(SEALED_COLUMNS.map((kind) => `${kind.table}.${kind.column}`));
    const unaccounted = columns
      .filter((c) => /_sealed$/.test(c.column))
      .filter((c) => !byKek.has(`${c.table}.${c.column}`))
      .filter((c) => !columns.some((other) => other.table === c.table && other.column === DATA_KEY_VERSION))
      .map((c) => `${c.table}.${c.column}`);
    assert.deepEqual(unaccounted, []);
  });
});
