// A connector call past its deadline is cancelled, not only abandoned: the sandbox network never records it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AchConnector } from '../../src/connectors/ach/ach-connector.js';
import type { CardConnector } from '../../src/connectors/card/card-connector.js';
import { SandboxCardNetwork } from '../../src/connectors/card/sandbox-card-network.js';
import { Connectors, callWithDeadline, DeadlineError } from '../../src/connectors/registry.js';
import { ManualClock } from '../../src/platform/clock/clock.js';
import type { Pool } from '../../src/platform/db/pool.js';

describe('connector deadlines', () => {
  it('abort the call: the answer is unknown at the deadline and the network never records the operation', async () => {
    const statements: string[] = [];
    const record = async (query: string | { text: string }) => {
      statements.push(typeof query === 'string' ? query : query.text);
      return { rows: [], rowCount: 0 };
    };
    // A pool whose every statement (directly or on a checked-out connection) is recorded.
    const sql = {
      query: record,
      connect: async () => ({ query: record, release: () => {}, connection: { stream: {} } }),
    } as unknown as Pool;
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

  it('bound every call of a connector from the registry: lookups and bank calls reject at their deadline and abort', async () => {
    // Connectors that never answer, but stop when their signal aborts (as a real one drops its request).
    const aborted: string[] = [];
    const hang =
      (name: string) =>
      (..._args: unknown[]) => {
        // The call options are the argument with the signal (resolve also takes the operation's context after them).
        const options = _args.find((a) => typeof a === 'object' && a !== null && 'signal' in a) as
          | { signal?: AbortSignal }
          | undefined;
        return new Promise<never>((_, reject) => {
          options?.signal?.addEventListener('abort', () => {
            aborted.push(name);
            reject(options.signal!.reason);
          });
        });
      };
    const card = { query: hang('query'), resolve: hang('resolve') } as unknown as CardConnector;
    const bank = {
      submit: hang('submit'),
      returnFiles: hang('returnFiles'),
      acknowledge: hang('acknowledge'),
    } as unknown as AchConnector;
    const connectors = new Connectors(new Map([['c', card]]), new Map([['b', bank]]), { cardMs: 40, bankMs: 60 });
    const calls: Array<[string, () => Promise<unknown>, number]> = [
      ['query', () => connectors.card('c').query('ref-1'), 40],
      ['resolve', () => connectors.card('c').resolve('ref-1'), 40],
      ['submit', () => connectors.ach('b').submit({ processorId: 'p', fileId: 'f', content: '' }), 60],
      ['returnFiles', () => connectors.ach('b').returnFiles('p'), 60],
      ['acknowledge', () => connectors.ach('b').acknowledge('p', ['x']), 60],
    ];
    for (const [name, call, ms] of calls) {
      const started = Date.now();
      await assert.rejects(call(), (error: unknown) => error instanceof DeadlineError, name);
      const took = Date.now() - started;
      assert.ok(took >= ms - 5 && took < ms + 1000, `${name}: ${took} ms`);
    }
    assert.deepEqual(aborted, ['query', 'resolve', 'submit', 'returnFiles', 'acknowledge']);
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
