// Group commit (src/platform/db/grouped.ts): who is written with whom, and how one bad item is kept from failing the
// others. The payments that use it are tested over HTTP against PostgreSQL (test/http/card-grouped-writes.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Grouped } from '../../src/platform/db/grouped.js';

function deferred() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release };
}

describe('group commit', () => {
  it('writes a lone item at once, and groups what arrives while a write is in flight', async () => {
    const writes: number[][] = [];
    const first = deferred();
    const grouped = new Grouped<number, number>(
      async (items) => {
        writes.push([...items]);
        if (writes.length === 1) await first.gate;
        return items.map((n) => n * 10);
      },
      { maxInFlight: 1 },
    );
    const alone = grouped.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, [[1]], 'the first item did not wait for company');
    const later = [2, 3, 4, 5].map((n) => grouped.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 1, 'nothing else is written while the only slot is busy');
    first.release();
    assert.deepEqual(await Promise.all([alone, ...later]), [10, 20, 30, 40, 50]);
    assert.deepEqual(writes, [[1], [2, 3, 4, 5]]);
  });

  it('caps a group and runs up to maxInFlight groups at once', async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const grouped = new Grouped<number, number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        sizes.push(items.length);
        // Stay in flight past the current tick, so the next groups start while this one runs.
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return [...items];
      },
      { maxGroup: 3, maxInFlight: 2, overlapAfterMs: 0 },
    );
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => grouped.submit(n)));
    assert.deepEqual(results, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.ok(Math.max(...sizes) <= 3, `group sizes ${sizes}`);
    assert.equal(most, 2);
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      10,
    );
  });

  it('starts a second group beside a stuck one only after overlapAfterMs', async () => {
    const stuck = deferred();
    const started: Array<{ items: number[]; at: number }> = [];
    const t0 = Date.now();
    const grouped = new Grouped<number, number>(
      async (items) => {
        started.push({ items: [...items], at: Date.now() - t0 });
        if (items.includes(1)) await stuck.gate;
        return [...items];
      },
      { maxInFlight: 2, overlapAfterMs: 40 },
    );
    const first = grouped.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = grouped.submit(2);
    assert.equal(await second, 2);
    assert.equal(started.length, 2);
    assert.ok(started[1]!.at >= 35, `the second group started at ${started[1]!.at} ms`);
    stuck.release();
    assert.equal(await first, 1);
  });

  it('writes each item alone when its group fails, so only the bad one fails', async () => {
    const writes: number[][] = [];
    const grouped = new Grouped<number, string>(async (items) => {
      writes.push([...items]);
      if (items.includes(13)) throw new Error('unlucky');
      return items.map(String);
    });
    const outcomes = await Promise.allSettled([11, 12, 13, 14].map((n) => grouped.submit(n)));
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
      ['11', '12', 'unlucky', '14'],
    );
    assert.deepEqual(writes[0], [11, 12, 13, 14], 'tried together first');
    assert.deepEqual(
      writes
        .slice(1)
        .map((w) => w.length)
        .sort(),
      [1, 1, 1, 1],
      'then one by one',
    );
  });
});
