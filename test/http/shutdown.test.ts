import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually, startNode } from '../harness.js';

describe('graceful shutdown', () => {
  it('finishes in-flight requests, then refuses new connections and closes the pool', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const t = await startNode({
      listen: true,
      configure(app) {
        app.get('/test/slow', { config: { auth: 'public' } }, async () => {
          entered();
          await gate;
          return { finished: true };
        });
      },
    });
    const inFlight = fetch(`${t.baseUrl}/test/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await inside;
    const stopping = t.stop();
    // No new connections once closing (the listening socket closes at the start of shutdown).
    await eventually(async () =>
      fetch(`${t.baseUrl}/healthz`).then(
        () => false,
        () => true,
      ),
    );
    release();
    const result = await inFlight;
    assert.deepEqual(result, { status: 200, body: { finished: true } });
    await stopping;
    assert.equal(t.ctx.pool.totalCount, 0, 'pool closed');
  });
});
