// A connector call past its deadline is cancelled, not only abandoned: the sandbox network never records it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SandboxCardNetwork } from '../../src/connectors/card/sandbox-card-network.js';
import { callWithDeadline } from '../../src/connectors/registry.js';
import { ManualClock } from '../../src/platform/clock/clock.js';
import type { Sql } from '../../src/platform/db/pool.js';

describe('connector deadlines', () => {
  it('abort the call: the answer is unknown at the deadline and the network never records the operation', async () => {
    const statements: string[] = [];
    const sql = {
      query: async (query: string | { text: string }) => {
        statements.push(typeof query === 'string' ? query : query.text);
        return { rows: [], rowCount: 0 };
      },
    } as unknown as Sql;
    // 10 s each way: far beyond the 50 ms deadline below.
    const network = new SandboxCardNetwork(sql, new ManualClock(), 20_000);
    const started = Date.now();
    const outcome = await callWithDeadline(
      (signal) =>
        network.sale(
          {
            reference: 'deadline-test',
            merchantId: 'm',
            processorId: 'p',
            amountCents: 100,
            card: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2035, securityCode: '123' },
            avs: null,
            cardPresent: false,
            enhancedData: null,
          },
          { signal },
        ),
      50,
    );
    assert.equal(outcome.kind, 'unknown');
    assert.equal(outcome.responseCode, '91');
    assert.ok(Date.now() - started < 2000);
    // Give the aborted call a chance to run on (it must not): it threw at its first wait.
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(statements, [], 'nothing reached the network');
  });

  it('a call that fails before the deadline is unknown with the reason', async () => {
    const outcome = await callWithDeadline(async () => {
      throw new Error('connection refused');
    }, 1000);
    assert.equal(outcome.kind, 'unknown');
    assert.equal(outcome.responseCode, '96');
    assert.match(outcome.message, /connection refused/);
  });
});
