import type { Sql } from '../../platform/db/pool.js';
import type { RequestLogLine } from '../../platform/http/server.js';

export type RequestLogEntry = RequestLogLine;

/** A stored line as read back: its position, without the merchant it was read for. */
export type RequestLogRow = Omit<RequestLogLine, 'merchantId'> & { seq: number };

/** Entries of any merchants, in one statement. */
export async function insertRequestLogs(sql: Sql, entries: readonly RequestLogEntry[]): Promise<void> {
  await sql.query(
    `INSERT INTO request_logs (merchant_id, at, method, path, route, status, duration_ms, correlation_id)
     SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::smallint[],
       $7::real[], $8::text[])`,
    [
      entries.map((e) => e.merchantId),
      entries.map((e) => e.at),
      entries.map((e) => e.method),
      entries.map((e) => e.path),
      entries.map((e) => e.route),
      entries.map((e) => e.status),
      entries.map((e) => e.durationMs),
      entries.map((e) => e.correlationId),
    ],
  );
}

export interface RequestLogFilter {
  merchantId: string;
  /** After this position, oldest first; without it, the latest `limit`. */
  after?: number;
  statusFrom?: number;
  statusTo?: number;
  pathPrefix?: string;
  limit: number;
}

export async function listRequestLogs(sql: Sql, filter: RequestLogFilter): Promise<RequestLogRow[]> {
  const where = ['merchant_id = $1'];
  const params: unknown[] = [filter.merchantId];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.after !== undefined) add((n) => `seq > ${n}`, filter.after);
  if (filter.statusFrom !== undefined) add((n) => `status >= ${n}`, filter.statusFrom);
  if (filter.statusTo !== undefined) add((n) => `status <= ${n}`, filter.statusTo);
  if (filter.pathPrefix) add((n) => `starts_with(path, ${n})`, filter.pathPrefix);
  params.push(filter.limit);
  const { rows } = await sql.query<{
    seq: string;
    at: Date;
    method: string;
    path: string;
    route: string;
    status: number;
    duration_ms: number;
    correlation_id: string;
  }>(
    `SELECT * FROM (
       SELECT seq::text, seq AS n, at, method, path, route, status, duration_ms, correlation_id FROM request_logs
       WHERE ${where.join(' AND ')}
       ORDER BY seq ${filter.after === undefined ? 'DESC' : 'ASC'} LIMIT $${params.length}
     ) page ORDER BY n`,
    params,
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    at: r.at,
    method: r.method,
    path: r.path,
    route: r.route,
    status: r.status,
    durationMs: r.duration_ms,
    correlationId: r.correlation_id,
  }));
}
