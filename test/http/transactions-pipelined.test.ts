import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPool } from '../../src/platform/db/pool.js';
import { isExpectationFailure, withTransaction } from '../../src/platform/db/tx.js';
import { startNode, type TestNode } from '../harness.js';

describe('pipelined database transactions (withTransaction)', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode();
    await t.ctx.pool.query('CREATE TABLE pipeline_probe (id int PRIMARY KEY, note text NOT NULL)');
  });
  after(() => t.stop());

  const notes = async () =>
    (await t.ctx.pool.query<{ id: number; note: string }>('SELECT id, note FROM pipeline_probe ORDER BY id')).rows;

  it('sends a batch in order and returns every result', async () => {
    const results = await withTransaction(t.ctx.pool, (tx) =>
      tx.batch([
        { text: 'INSERT INTO pipeline_probe VALUES (1, $1)', values: ['one'] },
        { text: 'UPDATE pipeline_probe SET note = note || $1 WHERE id = 1', values: ['+'] },
        { text: 'SELECT note FROM pipeline_probe WHERE id = 1' },
      ]),
    );
    assert.equal(results.length, 3);
    assert.equal(results[2]!.rows[0].note, 'one+');
    assert.deepEqual(await notes(), [{ id: 1, note: 'one+' }]);
  });

  it('writes deferred statements with COMMIT, after the work, in the order they were deferred', async () => {
    const seenInside = await withTransaction(t.ctx.pool, async (tx) => {
      tx.defer({ text: 'INSERT INTO pipeline_probe VALUES (2, $1)', values: ['two'] });
      tx.defer({ text: 'UPDATE pipeline_probe SET note = $1 WHERE id = 2', values: ['two, updated'] });
      return (await tx.query('SELECT count(*)::int AS n FROM pipeline_probe WHERE id = 2')).rows[0]!.n;
    });
    assert.equal(seenInside, 0, 'a deferred write is not visible to the work');
    assert.deepEqual((await notes()).at(-1), { id: 2, note: 'two, updated' });
  });

  it('rolls everything back when a deferred write fails, reporting that failure (not the aborted COMMIT)', async () => {
    await assert.rejects(
      withTransaction(t.ctx.pool, async (tx) => {
        await tx.query("INSERT INTO pipeline_probe VALUES (3, 'three')");
        tx.defer({ text: "INSERT INTO pipeline_probe VALUES (1, 'clash')" });
        tx.defer({ text: "INSERT INTO pipeline_probe VALUES (4, 'four')" });
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    assert.deepEqual(
      (await notes()).map((row) => row.id),
      [1, 2],
    );
  });

  it('reports the first failing statement of a batch and leaves the connection usable', async () => {
    await assert.rejects(
      withTransaction(t.ctx.pool, (tx) =>
        tx.batch([{ text: 'SELECT 1/0' }, { text: "INSERT INTO pipeline_probe VALUES (5, 'five')" }]),
      ),
      (error: { code?: string }) => error.code === '22012',
    );
    // Every pooled connection still answers, outside and inside transactions.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        withTransaction(t.ctx.pool, async (tx) => (await tx.query('SELECT $1::int AS i', [i])).rows[0]!.i),
      ),
    );
    assert.deepEqual(
      answers,
      Array.from({ length: 30 }, (_, i) => i),
    );
    assert.equal((await notes()).length, 2);
  });

  it('fails a compare-and-set with the expectation SQLSTATE, which callers can tell apart', async () => {
    const cas = (expected: string) =>
      withTransaction(t.ctx.pool, async (tx) => {
        tx.defer({
          text: `WITH updated AS (UPDATE pipeline_probe SET note = 'cas' WHERE id = 1 AND note = $1 RETURNING 1)
                 SELECT expect((SELECT count(*) FROM updated) = 1, 'probe changed')`,
          values: [expected],
        });
        tx.defer({ text: "INSERT INTO pipeline_probe VALUES (6, 'after the cas')" });
      });
    await assert.rejects(cas('not the note'), (error) => isExpectationFailure(error));
    assert.equal((await notes()).length, 2, 'the statements after a failed compare-and-set are rolled back');
    await cas('one+');
    assert.deepEqual(
      (await notes()).map((row) => row.note),
      ['cas', 'two, updated', 'after the cas'],
    );
  });

  it('runs a transaction that sends nothing without a round trip, and before-commit hooks inside it', async () => {
    let ran = false;
    assert.equal(await withTransaction(t.ctx.pool, async () => 'nothing'), 'nothing');
    await withTransaction(t.ctx.pool, async (tx) => {
      tx.beforeCommit(async () => {
        ran = true;
        tx.defer({ text: "INSERT INTO pipeline_probe VALUES (7, 'from a hook')" });
      });
    });
    assert.ok(ran);
    assert.equal((await notes()).at(-1)!.note, 'from a hook');
  });

  it('survives its connection dying between two statements: the transaction fails, the process and the pool live on', async () => {
    const pool = createPool(t.database.url, 2, 'connection-loss-probe');
    try {
      const failed = await withTransaction(pool, async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await t.ctx.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        // The socket closes while no statement of ours is on it: the client emits 'error' in this gap. Without a
        // listener of its own, that error ended the process (every serve node, when PostgreSQL restarted).
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.query('SELECT 1');
      }).then(
        () => undefined,
        (error: Error) => error,
      );
      assert.ok(failed instanceof Error, 'the transaction fails');
      const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
      assert.equal(rows[0]!.one, 1, 'the pool hands out a working connection afterwards');
    } finally {
      await pool.end();
    }
  });

  it('sends statements unnamed when prepared statements are off, for a pooler in transaction mode', async () => {
    for (const [preparedStatements, expected] of [
      [true, 1],
      [false, 0],
    ] as const) {
      // One connection, so the second query sees the session the first one prepared (or did not) its statement on.
      const pool = createPool(t.database.url, 1, 'prepared-probe', { preparedStatements });
      try {
        const named = await pool.query({ name: 'probe-statement', text: 'SELECT $1::int AS n', values: [7] });
        assert.equal(named.rows[0].n, 7);
        const { rows } = await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'probe-statement'",
        );
        assert.equal(rows[0]!.n, expected, `preparedStatements: ${preparedStatements}`);
      } finally {
        await pool.end();
      }
    }
  });
});
