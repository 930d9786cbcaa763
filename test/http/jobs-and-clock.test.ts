import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../../src/modules/events/outbox.js';
import { createClient } from '../../src/platform/db/pool.js';
import { withTransaction } from '../../src/platform/db/tx.js';
import { enqueue, enqueueManyQuery, JOBS_CHANNEL } from '../../src/platform/jobs/queue.js';
import { every, type Job } from '../../src/platform/jobs/runner.js';
import { eventually, startNode, type TestNode } from '../harness.js';

describe('jobs, schedules, the shared clock and the outbox', () => {
  let a: TestNode;
  let b: TestNode;
  const seen: Array<{ node: string; job: Job }> = [];
  let failures = 0;

  before(async () => {
    a = await startNode({ workers: true });
    b = await startNode({ workers: true, database: a.database });
    for (const [name, node] of [
      ['a', a],
      ['b', b],
    ] as const) {
      node.ctx.jobs.register({
        name: 'test.record',
        async handle(job) {
          // Yield once, so jobs claimed together interleave across the two nodes.
          await new Promise((r) => setImmediate(r));
          seen.push({ node: name, job });
        },
      });
      node.ctx.jobs.register({
        name: 'test.flaky',
        retryDelaySeconds: () => 1,
        async handle() {
          failures++;
          throw new Error('always fails');
        },
      });
    }
  });
  after(async () => {
    await b.stop();
    await a.stop();
  });

  const count = (tag: string) => seen.filter((s) => s.job.payload.tag === tag).length;

  it('enqueues in the caller transaction: a rollback leaves no job and no event', async () => {
    await assert.rejects(
      withTransaction(a.ctx.pool, async (tx) => {
        await enqueue(tx, a.ctx.clock, { queue: 'test.record', payload: { tag: 'rolled-back' } });
        await recordEvent(tx, a.ctx.clock, {
          type: 'merchant.created',
          resourceType: 'merchant',
          resourceId: 'rolled-back',
        });
        throw new Error('abort');
      }),
    );
    // Whatever is due has run once both nodes are drained: nothing was enqueued.
    await Promise.all([a.drain(), b.drain()]);
    assert.equal(count('rolled-back'), 0);
    assert.equal((await a.query("SELECT 1 FROM jobs WHERE payload->>'tag' = 'rolled-back'")).length, 0);
    assert.equal((await a.query("SELECT 1 FROM events WHERE resource_id = 'rolled-back'")).length, 0);

    await withTransaction(a.ctx.pool, async (tx) => {
      await enqueue(tx, a.ctx.clock, { queue: 'test.record', payload: { tag: 'committed' } });
      await recordEvent(tx, a.ctx.clock, {
        type: 'merchant.created',
        resourceType: 'merchant',
        resourceId: 'committed',
      });
    });
    await eventually(async () => count('committed') === 1, 3000);
    assert.equal((await a.query("SELECT 1 FROM events WHERE resource_id = 'committed'")).length, 1);
  });

  it('runs each job exactly once across two worker nodes', async () => {
    await withTransaction(a.ctx.pool, async (tx) => {
      for (let i = 0; i < 60; i++)
        await enqueue(tx, a.ctx.clock, { queue: 'test.record', payload: { tag: 'many', i } });
    });
    await eventually(async () => count('many') >= 60, 10_000);
    // A job run twice would show up by the time both nodes have nothing left to run.
    await Promise.all([a.drain(), b.drain()]);
    const indexes = seen.filter((s) => s.job.payload.tag === 'many').map((s) => s.job.payload.i as number);
    assert.equal(indexes.length, 60);
    assert.equal(new Set(indexes).size, 60);
    assert.equal((await a.query("SELECT 1 FROM jobs WHERE queue = 'test.record'")).length, 0, 'done jobs are removed');
  });

  it('runs a singleton asked for while it runs once more after it (never beside it); asked for while waiting, once', async () => {
    let release: () => void = () => {};
    let running = 0;
    let overlapped = false;
    const runs: string[] = [];
    for (const node of [a, b]) {
      node.ctx.jobs.register({
        name: 'test.singleton',
        async handle(job) {
          running++;
          if (running > 1) overlapped = true;
          runs.push(String(job.payload.tag));
          if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
          running--;
        },
      });
    }
    const ask = (tag: string) =>
      withTransaction(a.ctx.pool, (tx) =>
        enqueue(tx, a.ctx.clock, { queue: 'test.singleton', payload: { tag }, singletonKey: 'only' }),
      );
    await ask('first');
    await eventually(async () => runs.length === 1, 3000);
    // While it runs: asked twice more. The work it looked at may have changed, so it runs once more, after it.
    await ask('while-running');
    await ask('while-running-again');
    release();
    await eventually(async () => runs.length === 2, 3000);
    await Promise.all([a.drain(), b.drain()]);
    assert.equal(runs.length, 2, runs.join(', '));
    assert.equal(overlapped, false);
    assert.equal((await a.query("SELECT 1 FROM jobs WHERE queue = 'test.singleton'")).length, 0);
  });

  it('enqueues several jobs in one statement with the meaning of each alone, waking the workers of each queue', async () => {
    const listener = createClient(a.database.url);
    await listener.connect();
    const woken: string[] = [];
    listener.on('notification', (notification) => woken.push(notification.payload ?? ''));
    await listener.query(`LISTEN ${JOBS_CHANNEL}`);
    try {
      const later = new Date(a.ctx.clock.nowMs() + 3600_000);
      const text = "a quote ' a backslash \\ and ü";
      await withTransaction(a.ctx.pool, (tx) =>
        tx.query(
          enqueueManyQuery(a.ctx.clock, [
            { queue: 'test.record', payload: { tag: 'batch', i: 0 } },
            { queue: 'test.record', payload: { tag: 'batch', i: 1 } },
            { queue: 'test.inspect', payload: { n: 1, text }, runAt: later, maxAttempts: 3, singletonKey: 'k' },
            // The same singleton in the same statement counts once (as it would enqueued one after the other).
            { queue: 'test.inspect', payload: { n: 2 }, singletonKey: 'k' },
          ]),
        ),
      );
      await eventually(async () => count('batch') === 2, 3000);
      const inspect = () =>
        a.query("SELECT payload, run_at, max_attempts, singleton_key FROM jobs WHERE queue = 'test.inspect'");
      const rows = await inspect();
      assert.equal(rows.length, 1);
      const job = rows[0] as { payload: unknown; run_at: Date; max_attempts: number; singleton_key: string };
      assert.deepEqual(job.payload, { n: 1, text });
      assert.equal(job.run_at.getTime(), later.getTime());
      assert.equal(job.max_attempts, 3);
      assert.equal(job.singleton_key, 'k');
      // Asked for again while it waits: nothing new, and no worker woken for it.
      await withTransaction(a.ctx.pool, (tx) =>
        tx.query(enqueueManyQuery(a.ctx.clock, [{ queue: 'test.inspect', payload: { n: 3 }, singletonKey: 'k' }])),
      );
      assert.deepEqual(
        (await inspect()).map((row) => (row.payload as { n: number }).n),
        [1],
      );
      await eventually(async () => woken.includes('test.record') && woken.includes('test.inspect'), 3000);
      assert.deepEqual(
        woken.filter((queue) => queue.startsWith('test.')).sort(),
        ['test.inspect', 'test.record'],
        'each queue woken once',
      );
    } finally {
      await a.query("DELETE FROM jobs WHERE queue = 'test.inspect'");
      await listener.end();
    }
  });

  it('runs jobs due later as soon as the clock is advanced, on every node', async () => {
    const runAt = new Date(a.ctx.clock.nowMs() + 3600_000);
    await withTransaction(a.ctx.pool, (tx) =>
      enqueue(tx, a.ctx.clock, { queue: 'test.record', payload: { tag: 'later' }, runAt }),
    );
    await Promise.all([a.drain(), b.drain()]);
    assert.equal(count('later'), 0, 'not before it is due');
    const advancedAt = Date.now();
    await a.admin('POST', '/admin/v1/clock/advance', { seconds: 3600 });
    await eventually(async () => count('later') === 1, 3000);
    assert.ok(Date.now() - advancedAt < 1000, 'promptly, not at the next poll');
    // Node b learned the new time from the notification, not by polling.
    assert.ok(Math.abs(b.ctx.clock.nowMs() - a.ctx.clock.nowMs()) < 50);
  });

  it('retries a failing job and finally parks it as failed', async () => {
    await withTransaction(a.ctx.pool, (tx) => enqueue(tx, a.ctx.clock, { queue: 'test.flaky', maxAttempts: 3 }));
    await eventually(async () => failures >= 1, 3000);
    await a.admin('POST', '/admin/v1/clock/advance', { seconds: 5 });
    await eventually(async () => failures >= 2, 3000);
    await a.admin('POST', '/admin/v1/clock/advance', { seconds: 5 });
    const [job] = await eventually(async () => {
      const rows = await a.query<{ attempts: number; failed_at: Date | null; last_error: string }>(
        "SELECT attempts, failed_at, last_error FROM jobs WHERE queue = 'test.flaky'",
      );
      return rows[0]?.failed_at ? rows : undefined;
    }, 5000);
    assert.equal(job!.attempts, 3);
    assert.equal(job!.last_error, 'always fails');
    assert.equal(failures, 3);
  });

  it('fires a schedule once per slot however many nodes run it', async () => {
    for (const node of [a, b]) node.ctx.jobs.schedule({ name: 'test-hourly', queue: 'test.record', next: every(3600) });
    // Schedules register on start; insert its row the way start() does and let both nodes race for each slot.
    await a.query('INSERT INTO schedules (name, next_run_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      'test-hourly',
      every(3600)(a.ctx.clock.now()),
    ]);
    for (let hour = 0; hour < 3; hour++) {
      await a.admin('POST', '/admin/v1/clock/advance', { seconds: 3600 });
      // b must see the advance before it can race for the slot: wait for its clock, then run what is due on both.
      const target = a.ctx.clock.nowMs();
      await eventually(async () => b.ctx.clock.nowMs() >= target - 50);
      await Promise.all([a.drain(), b.drain()]);
    }
    const slots = seen.filter((s) => typeof s.job.payload.slot === 'string').map((s) => s.job.payload.slot);
    assert.equal(slots.length, 3, JSON.stringify(slots));
    assert.equal(new Set(slots).size, 3);
  });
});
