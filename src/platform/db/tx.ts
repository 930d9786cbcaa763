import type pg from 'pg';
import type { Pool, Sql } from './pool.js';

/**
 * A client inside a transaction. Every round trip costs a wait and a wake-up of PostgreSQL and then of Node (the
 * socket write led the first card-sale profile; docs/performance.md), so a Tx pipelines: BEGIN travels
 * with the first statement, `batch` sends several statements at once, and `defer`red writes travel with COMMIT.
 */
export interface Tx extends Sql {
  /** Sends the statements in one round trip, in order; resolves with every result, or rejects with the first error. */
  batch(queries: readonly pg.QueryConfig[]): Promise<pg.QueryResult[]>;
  /**
   * Queues a write whose result nobody needs; it is sent with COMMIT (after every `beforeCommit` hook), in order, and
   * its failure rolls the transaction back. The work must not read what a deferred write would have written.
   */
  defer(query: pg.QueryConfig): void;
  /**
   * Runs `hook` after the work and before COMMIT, inside the transaction (a failure rolls everything back). For
   * writes to hot rows: written last, their row locks are held for one round trip instead of the whole transaction.
   */
  beforeCommit(hook: () => Promise<void>): void;
  afterCommit(hook: () => void | Promise<void>): void;
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

/** pg's pipeline mode (pg >= 8.23): queries are written without waiting for the previous answer. Not yet typed. */
type PipelinedClient = pg.PoolClient & { pipeline?: boolean; connection: { stream: NodeJS.WritableStream } };

/** Issues the queries in one write and waits for all of them; the first failure (in order) is the one reported. */
async function pipelined(client: PipelinedClient, queries: readonly pg.QueryConfig[]): Promise<pg.QueryResult[]> {
  const stream = client.connection.stream as NodeJS.WritableStream & { cork?(): void; uncork?(): void };
  stream.cork?.();
  let pending: Array<Promise<pg.QueryResult>>;
  try {
    pending = queries.map((query) => client.query(query));
  } finally {
    stream.uncork?.();
  }
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<pg.QueryResult>).value);
}

/**
 * Runs `work` in one transaction. Deadlocks and serialization failures are retried a few times because both are
 * safe to retry by definition: PostgreSQL rolled everything back.
 */
/**
 * A pool client checked out for pipelined statements. A checked-out client has no error listener of the pool's: a
 * connection lost between two statements (PostgreSQL restarting) would emit an unhandled 'error' and end the process.
 * It is noted here; the statement in progress fails by itself, and `release` destroys the client instead of handing
 * it back to the pool (also when given the error that broke it).
 */
async function checkOut(pool: Pool): Promise<{ client: PipelinedClient; release: (broken?: Error) => void }> {
  const client = (await pool.connect()) as PipelinedClient;
  client.pipeline = true;
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on('error', onError);
  return {
    client,
    release: (broken) => {
      client.removeListener('error', onError);
      client.pipeline = false;
      client.release(broken ?? lost);
    },
  };
}

export async function withTransaction<T>(pool: Pool, work: (tx: Tx) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { client, release } = await checkOut(pool);
    const hooks: Array<() => void | Promise<void>> = [];
    const commitHooks: Array<() => Promise<void>> = [];
    const deferred: pg.QueryConfig[] = [];
    let begun = false;
    const send = (queries: readonly pg.QueryConfig[]) => {
      const withBegin = begun ? queries : [{ text: 'BEGIN' }, ...queries];
      begun = true;
      return pipelined(client, withBegin).then((results) => (withBegin === queries ? results : results.slice(1)));
    };
    const tx: Tx = {
      query: ((textOrConfig: string | pg.QueryConfig, values?: unknown[]) =>
        send([typeof textOrConfig === 'string' ? { text: textOrConfig, values } : textOrConfig]).then(
          ([result]) => result,
        )) as Tx['query'],
      batch: (queries) => (queries.length === 0 ? Promise.resolve([]) : send(queries)),
      defer: (query) => {
        deferred.push(query);
      },
      beforeCommit: (hook) => {
        commitHooks.push(hook);
      },
      afterCommit: (hook) => {
        hooks.push(hook);
      },
    };
    let result: T;
    try {
      result = await work(tx);
      // A hook may register another (e.g. a posting made by a hook), so the list is read as it grows.
      for (let i = 0; i < commitHooks.length; i++) await commitHooks[i]!();
      if (begun || deferred.length > 0) await send([...deferred, { text: 'COMMIT' }]);
    } catch (error) {
      const rolledBack =
        !begun ||
        (await client.query('ROLLBACK').then(
          () => true,
          () => false,
        ));
      release(rolledBack ? undefined : (error as Error));
      if (attempt < attempts && RETRYABLE.has((error as pg.DatabaseError).code ?? '')) continue;
      throw error;
    }
    release();
    for (const hook of hooks) {
      try {
        await hook();
      } catch {
        // After-commit hooks are best-effort notifications; the committed state is the truth.
      }
    }
    return result;
  }
}

/** SQLSTATE of the `expect()` SQL function (migration 0013): a compare-and-set found the row in another state. */
export function isExpectationFailure(error: unknown): boolean {
  return (error as pg.DatabaseError)?.code === 'TS409';
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = error as pg.DatabaseError;
  return pgError?.code === '23505' && (constraint === undefined || pgError.constraint === constraint);
}

/**
 * One statement committed without waiting for its WAL to reach disk (`synchronous_commit = off` for this transaction
 * only), in one round trip. Only for a record whose loss in a crash is harmless because whatever depends on it
 * commits synchronously after it: PostgreSQL flushes WAL in order, so that later synchronous commit (or a
 * synchronous standby's confirmation of it) makes this one durable too. A crash before that later commit loses both,
 * as if neither had happened.
 */
export async function commitWithoutFlushWait<R extends pg.QueryResultRow>(
  pool: Pool,
  query: pg.QueryConfig,
): Promise<pg.QueryResult<R>> {
  const [, result] = await inOneRoundTrip(pool, [{ text: 'SET LOCAL synchronous_commit = off' }, query]);
  return result as pg.QueryResult<R>;
}

/**
 * BEGIN, the statements and COMMIT in one write, for a transaction whose statements need nothing from each other's
 * answers: one round trip, and the locks its writes take are held for that one only. The statements' results, in
 * order. A failed statement leaves the transaction aborted, so the ones after it fail and COMMIT rolls it back; the
 * first failure is thrown.
 */
export async function inOneRoundTrip(pool: Pool, queries: readonly pg.QueryConfig[]): Promise<pg.QueryResult[]> {
  const { client, release } = await checkOut(pool);
  let broken: Error | undefined;
  try {
    const results = await pipelined(client, [{ text: 'BEGIN' }, ...queries, { text: 'COMMIT' }]);
    return results.slice(1, -1);
  } catch (error) {
    // The connection is clean after a statement's failure (COMMIT ended the transaction), unless the failure was the
    // connection's own.
    broken = (error as pg.DatabaseError).code ? undefined : (error as Error);
    throw error;
  } finally {
    release(broken);
  }
}
