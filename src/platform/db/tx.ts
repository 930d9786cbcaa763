import type pg from 'pg';
import type { Pool, Sql } from './pool.js';

/** A client inside a transaction, plus hooks that run only once the transaction has committed. */
export interface Tx extends Sql {
  afterCommit(hook: () => void | Promise<void>): void;
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

/**
 * Runs `work` in one transaction. Deadlocks and serialization failures are retried a few times because both are
 * safe to retry by definition: PostgreSQL rolled everything back.
 */
export async function withTransaction<T>(pool: Pool, work: (tx: Tx) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    const hooks: Array<() => void | Promise<void>> = [];
    const tx: Tx = {
      // biome-ignore lint/suspicious/noExplicitAny: forwards both query overloads unchanged
      query: ((textOrConfig: any, values?: unknown[]) => client.query(textOrConfig, values)) as Tx['query'],
      afterCommit: (hook) => {
        hooks.push(hook);
      },
    };
    let result: T;
    try {
      await client.query('BEGIN');
      result = await work(tx);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      if (attempt < attempts && RETRYABLE.has((error as pg.DatabaseError).code ?? '')) continue;
      throw error;
    }
    client.release();
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

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = error as pg.DatabaseError;
  return pgError?.code === '23505' && (constraint === undefined || pgError.constraint === constraint);
}
