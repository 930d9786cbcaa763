// The sandbox network's unflushed commit holds a pool client for one round trip: a connection lost meanwhile (the
// cluster test restarts PostgreSQL) must fail that call, not end the process with an unhandled 'error' event.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { Pool } from '../../src/platform/db/pool.js';
import { commitWithoutFlushWait } from '../../src/platform/db/tx.js';

describe('commitWithoutFlushWait', () => {
  it('fails the call when its connection is lost, and discards that connection instead of reusing it', async () => {
    const released: unknown[] = [];
    const client = Object.assign(new EventEmitter(), {
      connection: { stream: {} },
      pipeline: false,
      query(query: { text: string }) {
        // The server goes away while the statements are in flight: pg emits 'error' on the client, then each
        // pending query rejects.
        if (query.text === 'BEGIN')
          setImmediate(() => client.emit('error', new Error('Connection terminated unexpectedly')));
        return new Promise((_, reject) => setTimeout(() => reject(new Error('Connection terminated')), 5));
      },
      release(error?: Error) {
        released.push(error);
      },
    });
    const pool = { connect: async () => client } as unknown as Pool;
    await assert.rejects(commitWithoutFlushWait(pool, { text: 'INSERT INTO t VALUES (1)' }), /Connection terminated/);
    assert.equal(released.length, 1);
    assert.ok(released[0] instanceof Error, 'the lost connection is destroyed, not returned to the pool');
    assert.equal(client.listenerCount('error'), 0, 'no listener left behind on a pooled client');
  });
});
