import pg from 'pg';
import { endSpan, SpanKind, startLeafSpan, tracingOn } from '../observability/tracing.js';
import { copyPlainQueryConfigs } from './query-config.js';
import { shareEmptyRows } from './result-shapes.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** Anything that can run a query: the pool or a client inside a transaction. */
export interface Sql {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>>;
}

const INT8 = 20;
const DATE = 1082;

/**
 * Type parsers for this project, applied per pool rather than globally. Money is `bigint` cents in SQL and a plain
 * number in code: refusing anything beyond 2^53 keeps "exact" honest instead of silently rounding.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return parseSafeInt8;
    if (oid === DATE) return (value: string) => value;
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads do not accept a union format
    return pg.types.getTypeParser(oid, format as any);
  },
};

function parseSafeInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 value ${value} exceeds the safe integer range`);
  return parsed;
}

/**
 * The pool's client: its statements are spans when tracing is on (docs/decisions.md, "Traces at our own seams"), with
 * the SQL text and never its values. Streams (cursors) pass through untraced.
 */
class TracedClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this only observes the call.
  override query(config: any, ...rest: any[]): any {
    if (!tracingOn() || (config && typeof config.submit === 'function')) return super.query(config, ...rest);
    const text: unknown = typeof config === 'string' ? config : config?.text;
    const name: unknown = typeof config === 'object' ? config?.name : undefined;
    const span = startLeafSpan(
      `db ${operationOf(text)}`,
      {
        'db.system.name': 'postgresql',
        'db.query.text': typeof text === 'string' ? text.slice(0, 2000) : undefined,
        'db.query.name': typeof name === 'string' ? name : undefined,
      },
      SpanKind.CLIENT,
    );
    const callback = rest.at(-1);
    if (typeof callback === 'function') {
      rest[rest.length - 1] = (error: unknown, result: unknown) => {
        endSpan(span, error ?? undefined);
        callback(error, result);
      };
      return super.query(config, ...rest);
    }
    return (super.query(config, ...rest) as Promise<unknown>).then(
      (result) => {
        endSpan(span);
        return result;
      },
      (error: unknown) => {
        endSpan(span, error);
        throw error;
      },
    );
  }
}

/**
 * A client that sends every statement unnamed. Behind a pooler in transaction mode (PgBouncer before 1.21) each
 * transaction may run on another server connection, where a statement this client prepared earlier does not exist.
 */
class UnpreparedClient extends TracedClient {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this only drops `name` from a config.
  override query(config: any, ...rest: any[]): any {
    if (config && typeof config === 'object' && typeof config.name === 'string') {
      const { name: _unnamed, ...unnamed } = config as pg.QueryConfig;
      return super.query(unnamed, ...rest);
    }
    return super.query(config, ...rest);
  }
}

/** The statement's first word (SELECT, INSERT, WITH, ...): a span's name says what kind of statement it is. */
function operationOf(text: unknown): string {
  if (typeof text !== 'string') return 'query';
  const match = /^\s*(?:\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/.exec(text);
  return match ? match[1]!.toUpperCase() : 'query';
}

/** pg's per-query work that this project's statements do not need done the slow way (each module says why). */
function fastPaths(): void {
  shareEmptyRows();
  copyPlainQueryConfigs();
}

export function createPool(
  connectionString: string,
  max: number,
  applicationName = 'tessera',
  options: { preparedStatements?: boolean } = {},
): Pool {
  fastPaths();
  const pool = new pg.Pool({
    connectionString,
    max,
    types,
    application_name: applicationName,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    Client: options.preparedStatements === false ? UnpreparedClient : TracedClient,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

export function createClient(connectionString: string, applicationName = 'tessera'): pg.Client {
  fastPaths();
  return new pg.Client({ connectionString, types, application_name: applicationName });
}

/**
 * A named (server-side prepared) statement for a hot query with fixed SQL text: PostgreSQL parses and plans it once
 * per connection instead of on every call (docs/performance.md has what it saves on the hot reads). Only for
 * static SQL: pg keeps every named statement for the life of the connection, so dynamic text would grow without end.
 */
export function prepared(name: string, text: string) {
  return (values: unknown[]): pg.QueryConfig => ({ name, text, values });
}
