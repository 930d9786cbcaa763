// pg's empty row built once per list of column names (src/platform/db/result-shapes.ts): every row must come out
// exactly as pg's own method makes it, against real PostgreSQL, including the column names that a plain object
// would get wrong.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createPool, type Pool } from '../../src/platform/db/pool.js';
import { pgAddFields, shareEmptyRows } from '../../src/platform/db/result-shapes.js';

const prototype = pg.Result.prototype as unknown as { addFields: unknown };

// Odd names on purpose: `__proto__` and `constructor` as columns, a repeated name, a NULL, int8 through our parser.
const ODD = `SELECT 1::int8 AS "__proto__", 'x' AS "constructor", 2 AS a, 3 AS a, NULL::text AS "hasOwnProperty",
                    '2026-11-28 10:00:00+00'::timestamptz AS at, '{"k": 1}'::jsonb AS doc`;
const WIDE = `SELECT ${Array.from({ length: 60 }, (_, i) => `${i} AS c${i}`).join(', ')}
              FROM generate_series(1, 3)`;

async function rowsOf(pool: Pool, text: string, withShared: boolean) {
  if (withShared) shareEmptyRows();
  else prototype.addFields = pgAddFields;
  try {
    const first = await pool.query(text);
    const second = await pool.query(text);
    return [first.rows, second.rows];
  } finally {
    shareEmptyRows();
  }
}

describe("pg's empty row, shared per statement shape", () => {
  let pool: Pool;
  before(() => {
    const url = process.env.TESSERA_TEST_ADMIN_URL;
    if (!url) throw new Error('Run the tests with `npm test` (it provides the PostgreSQL they need).');
    pool = createPool(url, 2, 'tessera-tests');
  });
  after(() => pool.end());

  it('is installed by every pool', async () => {
    prototype.addFields = pgAddFields;
    await createPool('postgres://127.0.0.1:1/none', 1).end();
    assert.notEqual(prototype.addFields, pgAddFields);
    assert.equal(shareEmptyRows(), true);
  });

  for (const [name, text] of [
    ['odd column names', ODD],
    ['sixty columns, three rows', WIDE],
  ] as const) {
    it(`gives the rows pg gives: ${name}`, async () => {
      const ours = await rowsOf(pool, text, true);
      const theirs = await rowsOf(pool, text, false);
      for (const [i, rows] of ours.entries()) {
        assert.deepEqual(rows, theirs[i]);
        for (const [j, row] of rows.entries()) {
          const other = theirs[i]![j]!;
          assert.deepEqual(Object.keys(row), Object.keys(other), 'same keys in the same order');
          assert.equal(Object.getPrototypeOf(row), Object.getPrototypeOf(other));
          assert.deepEqual(Object.getOwnPropertyNames(row), Object.getOwnPropertyNames(other));
        }
      }
      if (name === 'odd column names') {
        const row = ours[0]![0]!;
        assert.equal(Object.hasOwn(row, '__proto__'), true, '__proto__ is a column, not the prototype');
        assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, 1);
        assert.equal(row.a, 3, 'a repeated name keeps the last column, as pg does');
      }
    });
  }

  it('never lets one row change the next (the shared empty row is only copied)', async () => {
    const first = await pool.query('SELECT 1 AS n, 2 AS m');
    first.rows[0].n = 99;
    first.rows[0].extra = true;
    const second = await pool.query('SELECT 1 AS n, 2 AS m');
    assert.deepEqual(second.rows[0], { n: 1, m: 2 });
  });
});
