import { type Pool, prepared, type Sql } from '../../platform/db/pool.js';
import { inOneRoundTrip } from '../../platform/db/tx.js';
import { likePattern } from '../../platform/http/paging.js';

/** Whose endpoints and logs: exactly one of the two. */
export type WebhookOwner =
  | { merchantId: string; partnerId?: undefined }
  | { partnerId: string; merchantId?: undefined };

export function ownerCondition(owner: WebhookOwner, params: unknown[], alias = ''): string {
  if (owner.merchantId) {
    params.push(owner.merchantId);
    return `${alias}merchant_id = $${params.length}`;
  }
  params.push(owner.partnerId);
  return `${alias}partner_id = $${params.length}`;
}

export interface EndpointRow {
  id: string;
  merchant_id: string | null;
  partner_id: string | null;
  name: string;
  url: string;
  event_types: string[];
  status: 'Active' | 'Inactive';
  secret_sealed: Buffer;
  kek_version: number;
  created_at: Date;
  modified_at: Date;
}

const ENDPOINT_COLUMNS =
  'id, merchant_id, partner_id, name, url, event_types, status, secret_sealed, kek_version, created_at, modified_at';

export async function insertEndpoint(
  sql: Sql,
  row: EndpointRow & { subscriptions: Record<string, string> },
): Promise<EndpointRow> {
  const { rows } = await sql.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}, subscriptions)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     RETURNING ${ENDPOINT_COLUMNS}`,
    [
      row.id,
      row.merchant_id,
      row.partner_id,
      row.name,
      row.url,
      row.event_types,
      row.status,
      row.secret_sealed,
      row.kek_version,
      row.created_at,
      row.modified_at,
      row.subscriptions,
    ],
  );
  return rows[0]!;
}

export async function findEndpoint(
  sql: Sql,
  owner: WebhookOwner,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EndpointRow | undefined> {
  const params: unknown[] = [id];
  const { rows } = await sql.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
     WHERE id = $1 AND deleted_at IS NULL AND ${ownerCondition(owner, params)}${options.forUpdate ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows[0];
}

export async function countEndpoints(sql: Sql, owner: WebhookOwner): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_endpoints WHERE deleted_at IS NULL AND ${ownerCondition(owner, params)}`,
    params,
  );
  return rows[0]!.n;
}

export interface EndpointFilter {
  status?: 'Active' | 'Inactive';
  name?: string;
  endpointUrl?: string;
  search?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

export async function listEndpoints(
  sql: Sql,
  owner: WebhookOwner,
  filter: EndpointFilter,
  page: { limit: number; offset: number; orderSql: string },
): Promise<{ rows: EndpointRow[]; total: number }> {
  const params: unknown[] = [];
  const owned = ownerCondition(owner, params);
  const where = ['deleted_at IS NULL'];
  if (filter.status) {
    params.push(filter.status);
    where.push(`status = $${params.length}`);
  }
  if (filter.name) {
    params.push(likePattern(filter.name));
    where.push(`name ILIKE $${params.length}`);
  }
  if (filter.endpointUrl) {
    params.push(likePattern(filter.endpointUrl));
    where.push(`url ILIKE $${params.length}`);
  }
  if (filter.search) {
    params.push(likePattern(filter.search));
    where.push(
      `(name ILIKE $${params.length} OR url ILIKE $${params.length} OR id::text = lower($${params.length + 1}))`,
    );
    params.push(filter.search);
  }
  if (filter.createdFrom) {
    params.push(filter.createdFrom);
    where.push(`created_at >= $${params.length}`);
  }
  if (filter.createdTo) {
    params.push(filter.createdTo);
    where.push(`created_at <= $${params.length}`);
  }
  const whereSql = where.join(' AND ');
  const [{ rows }, { rows: counted }] = await Promise.all([
    sql.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE ${owned} AND ${whereSql} ${page.orderSql}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE ${owned} AND ${whereSql}`, params),
  ]);
  return { rows, total: counted[0]!.n };
}

export async function updateEndpoint(
  sql: Sql,
  owner: WebhookOwner,
  id: string,
  changes: Pick<EndpointRow, 'name' | 'url' | 'event_types' | 'status' | 'modified_at'> & {
    subscriptions: Record<string, string>;
  },
): Promise<EndpointRow> {
  const params: unknown[] = [
    id,
    changes.name,
    changes.url,
    changes.event_types,
    changes.subscriptions,
    changes.status,
    changes.modified_at,
  ];
  const { rows } = await sql.query<EndpointRow>(
    `UPDATE webhook_endpoints SET name = $2, url = $3, event_types = $4, subscriptions = $5, status = $6, modified_at = $7
     WHERE id = $1 AND ${ownerCondition(owner, params)} RETURNING ${ENDPOINT_COLUMNS}`,
    params,
  );
  return rows[0]!;
}

export async function deleteEndpoint(sql: Sql, owner: WebhookOwner, id: string, now: Date): Promise<void> {
  const params: unknown[] = [id, now, 'Inactive'];
  await sql.query(
    `UPDATE webhook_endpoints SET deleted_at = $2, status = $3 WHERE id = $1 AND ${ownerCondition(owner, params)}`,
    params,
  );
}

/** Stops an endpoint's pending and scheduled deliveries (delete, deactivate). Logs stay. */
export async function cancelDeliveries(sql: Sql, endpointId: string): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE /* across merchants: a partner's endpoint has deliveries about each of its merchants */ webhook_deliveries
     SET status = 'Cancelled', next_attempt_at = NULL WHERE endpoint_id = $1 AND status IN ('Pending', 'Scheduled')`,
    [endpointId],
  );
  return rowCount ?? 0;
}

export interface LogRow {
  id: string;
  delivery_id: string | null;
  endpoint_id: string;
  merchant_id: string | null;
  partner_id: string | null;
  endpoint_name: string;
  endpoint_url: string;
  message_id: string;
  event_type: string;
  is_ping: boolean;
  is_manual: boolean;
  attempt_number: number;
  status: 'Success' | 'Failure';
  response_status_code: number | null;
  duration_ms: number;
  error_message: string | null;
  next_retry_at: Date | null;
  created_at: Date;
  seq: string;
}

export interface LogDetailRow extends LogRow {
  request_headers: Record<string, string>;
  request_body: string;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

const LOG_COLUMNS =
  'id, delivery_id, endpoint_id, merchant_id, partner_id, endpoint_name, endpoint_url, message_id, event_type, ' +
  'is_ping, is_manual, attempt_number, status, response_status_code, duration_ms, error_message, next_retry_at, ' +
  'created_at, seq';
const LOG_DETAIL_COLUMNS = `${LOG_COLUMNS}, request_headers, request_body, response_headers, response_body`;

export interface LogFilter {
  endpointId?: string;
  eventTypes?: string[];
  status?: 'Success' | 'Failure';
  httpStatus?: number;
  from?: Date;
  to?: Date;
  search?: string;
}

/** The filters of a log query after its owner's condition: empty, or ` AND ...`. */
function logFilters(filter: LogFilter, params: unknown[]): string {
  const where: string[] = [];
  const add = (value: unknown, condition: (placeholder: string) => string) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.endpointId) add(filter.endpointId, (p) => `endpoint_id = ${p}`);
  if (filter.eventTypes) add(filter.eventTypes, (p) => `event_type = ANY(${p})`);
  if (filter.status) add(filter.status, (p) => `status = ${p}`);
  if (filter.httpStatus !== undefined) add(filter.httpStatus, (p) => `response_status_code = ${p}`);
  if (filter.from) add(filter.from, (p) => `created_at >= ${p}`);
  if (filter.to) add(filter.to, (p) => `created_at <= ${p}`);
  if (filter.search) {
    const search = filter.search;
    // An id matches exactly (the message id receivers see); names and URLs match in part.
    add(
      likePattern(search),
      (p) => `(endpoint_name ILIKE ${p} OR endpoint_url ILIKE ${p} OR message_id::text = lower($${params.length + 1}))`,
    );
    params.push(search);
  }
  return where.map((condition) => ` AND ${condition}`).join('');
}

export async function listLogs(
  sql: Sql,
  owner: WebhookOwner,
  filter: LogFilter,
  page: { limit: number; offset: number; orderSql: string },
): Promise<{ rows: LogRow[]; total: number }> {
  const params: unknown[] = [];
  const where = `${ownerCondition(owner, params)}${logFilters(filter, params)}`;
  const [{ rows }, { rows: counted }] = await Promise.all([
    sql.query<LogRow>(
      `SELECT ${LOG_COLUMNS} FROM webhook_delivery_logs WHERE ${where} ${page.orderSql}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_delivery_logs WHERE ${where}`, params),
  ]);
  return { rows, total: counted[0]!.n };
}

/** The attempts to deliver these events (through their deliveries), oldest first; at most 200. */
export async function logsOfEvents(sql: Sql, owner: WebhookOwner, eventIds: readonly string[]): Promise<LogRow[]> {
  if (eventIds.length === 0) return [];
  const params: unknown[] = [];
  const where = ownerCondition(owner, params);
  params.push(eventIds);
  const { rows } = await sql.query<LogRow>(
    `SELECT ${LOG_COLUMNS} FROM webhook_delivery_logs
     WHERE ${where} AND delivery_id IN (SELECT id FROM webhook_deliveries WHERE event_id = ANY($${params.length}::uuid[]))
     ORDER BY created_at, seq LIMIT 200`,
    params,
  );
  return rows;
}

/**
 * Every matching log, newest first, fetched in keyset pages so an export of any size holds one page in memory.
 */
export async function* streamLogs(
  sql: Sql,
  owner: WebhookOwner,
  filter: LogFilter,
  pageSize = 500,
): AsyncGenerator<LogRow> {
  let after: { createdAt: Date; seq: string } | undefined;
  for (;;) {
    const params: unknown[] = [];
    let where = `${ownerCondition(owner, params)}${logFilters(filter, params)}`;
    if (after) {
      params.push(after.createdAt, after.seq);
      where += ` AND (created_at, seq) < ($${params.length - 1}, $${params.length})`;
    }
    params.push(pageSize);
    const { rows } = await sql.query<LogRow>(
      `SELECT ${LOG_COLUMNS} FROM webhook_delivery_logs WHERE ${where}
       ORDER BY created_at DESC, seq DESC LIMIT $${params.length}`,
      params,
    );
    for (const row of rows) yield row;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, seq: last.seq };
  }
}

export async function findLog(sql: Sql, owner: WebhookOwner, id: string): Promise<LogDetailRow | undefined> {
  const params: unknown[] = [id];
  const { rows } = await sql.query<LogDetailRow>(
    `SELECT ${LOG_DETAIL_COLUMNS} FROM webhook_delivery_logs WHERE id = $1 AND ${ownerCondition(owner, params)}`,
    params,
  );
  return rows[0];
}

/** One finished attempt, as the completion statement takes it. */
export interface AttemptRecord {
  logId: string;
  deliveryId: string | null;
  /**
   * The delivery's partition key (its event's time) as the database wrote it (text: microseconds, which a Date would
   * lose): the update finds the delivery in one month's partition.
   */
  deliveryCreatedAt: string | null;
  endpointId: string;
  merchantId: string | null;
  partnerId: string | null;
  endpointName: string;
  endpointUrl: string;
  messageId: string;
  eventType: string;
  isPing: boolean;
  isManual: boolean;
  attemptNumber: number;
  automaticAttempts: number;
  logStatus: 'Success' | 'Failure';
  /** The delivery's status after this attempt (ignored for pings). */
  deliveryStatus: 'Scheduled' | 'Delivered' | 'Failed' | 'Pending' | 'Cancelled';
  nextRetryAt: Date | null;
  responseStatusCode: number | null;
  durationMs: number;
  errorMessage: string | null;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  createdAt: Date;
}

/**
 * Prepared once per connection: planned over every partition of the deliveries and logs, it cost more to plan than to
 * run (its `*` is the input's own column list, fixed here).
 */
const recordAttemptsStatement = prepared(
  'webhook-record-attempts',
  `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(
         "logId" uuid, "deliveryId" uuid, "deliveryCreatedAt" timestamptz, "endpointId" uuid, "merchantId" uuid, "partnerId" uuid,
         "endpointName" text, "endpointUrl" text, "messageId" uuid, "eventType" text, "isPing" boolean,
         "isManual" boolean, "attemptNumber" int, "automaticAttempts" int, "logStatus" text, "deliveryStatus" text,
         "nextRetryAt" timestamptz, "responseStatusCode" int, "durationMs" int, "errorMessage" text,
         "requestHeaders" jsonb, "requestBody" text, "responseHeaders" jsonb, "responseBody" text,
         "createdAt" timestamptz)
     ), moved AS (
       UPDATE webhook_deliveries d SET
         attempts = GREATEST(d.attempts, i."attemptNumber"),
         automatic_attempts = i."automaticAttempts",
         status = CASE WHEN d.status = 'Cancelled' AND i."deliveryStatus" <> 'Delivered' THEN 'Cancelled'
                       ELSE i."deliveryStatus" END,
         next_attempt_at = CASE WHEN d.status = 'Cancelled' THEN NULL ELSE i."nextRetryAt" END,
         locked_by = NULL, locked_until = NULL
       FROM input i
       WHERE d.id = i."deliveryId" AND d.created_at = i."deliveryCreatedAt" AND d.locked_by = $2
       RETURNING d.id, d.status, d.next_attempt_at
     )
     INSERT INTO webhook_delivery_logs (id, delivery_id, endpoint_id, merchant_id, partner_id, endpoint_name,
       endpoint_url, message_id, event_type, is_ping, is_manual, attempt_number, status, response_status_code,
       duration_ms, error_message, request_headers, request_body, response_headers, response_body, next_retry_at,
       created_at)
     SELECT i."logId", i."deliveryId", i."endpointId", i."merchantId", i."partnerId", i."endpointName",
       i."endpointUrl", i."messageId", i."eventType", i."isPing", i."isManual", i."attemptNumber", i."logStatus",
       i."responseStatusCode", i."durationMs", i."errorMessage", i."requestHeaders", i."requestBody",
       i."responseHeaders", i."responseBody",
       CASE WHEN m.status = 'Scheduled' THEN m.next_attempt_at END, i."createdAt"
     FROM input i LEFT JOIN moved m ON m.id = i."deliveryId"`,
);

/**
 * Records finished attempts in one statement: each delivery moves on (only if this worker still holds its lease, and
 * a delivery cancelled meanwhile stays cancelled unless this attempt delivered it), and every attempt gets its log
 * row, whose nextRetryAt is the delivery's actual next attempt.
 */
export async function recordAttempts(sql: Sql, lockedBy: string, attempts: AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await sql.query(recordAttemptsStatement([JSON.stringify(attempts), lockedBy]));
}

export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  event_type: string;
  status: 'Pending' | 'Scheduled' | 'Delivered' | 'Failed' | 'Cancelled';
  attempts: number;
  automatic_attempts: number;
  next_attempt_at: Date | null;
  url: string;
  name: string;
  endpoint_status: 'Active' | 'Inactive';
  endpoint_deleted: boolean;
  merchant_id: string | null;
  partner_id: string | null;
  secret_sealed: Buffer;
  kek_version: number;
  /** The delivery's partition key, its event's time, as text to the microsecond (see AttemptRecord). */
  created_at: string;
  occurred_at: Date;
  resource_id: string;
  resource_type: string;
}

const CLAIMED_COLUMNS = `d.id, d.endpoint_id, d.event_type, d.status, d.attempts, d.automatic_attempts,
  d.next_attempt_at, ep.url, ep.name, ep.status AS endpoint_status, ep.deleted_at IS NOT NULL AS endpoint_deleted,
  ep.merchant_id, ep.partner_id, ep.secret_sealed, ep.kek_version, d.created_at::text, e.occurred_at, e.resource_id,
  e.resource_type`;
/** What a lease returns of the delivery (explicit: the statements are prepared once per connection). */
const LEASED_COLUMNS = `d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempts, d.automatic_attempts,
  d.next_attempt_at, d.created_at`;

/**
 * Leases due deliveries to one worker. SKIP LOCKED lets any number of workers claim side by side; the lease (real
 * database time) outlives the attempt's timeout, so only a dead worker's deliveries are ever taken over.
 */
export interface ClaimOptions {
  now: Date;
  limit: number;
  lockedBy: string;
  leaseMs: number;
  /** At most this many deliveries of one endpoint in flight at this worker (those it has already count). */
  perEndpoint: number;
  /** Attempts this worker has in flight per endpoint. */
  busy: ReadonlyMap<string, number>;
}

/** Prepared once per connection, like recordAttempts: its plan over every partition is reused. */
export const claimDueStatement = prepared(
  'webhook-claim-due',
  `WITH /* across merchants: the delivery sweep */ candidates AS (
       SELECT c.id, c.created_at, c.next_attempt_at,
              row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at)
                + coalesce(b.n, 0) AS place
       FROM (
         -- Read in the order they came due, stopping after a few times the batch (see CLAIM_IN_DUE_ORDER).
         SELECT id, created_at, endpoint_id, next_attempt_at FROM webhook_deliveries
         -- Due within the claim's millisecond too: its time is a JavaScript Date, an event's may have microseconds
         -- (written by SQL with now()), and one a few microseconds later would otherwise wait for the next poll.
         WHERE status IN ('Pending', 'Scheduled') AND next_attempt_at < $1::timestamptz + interval '1 millisecond'
           AND (locked_until IS NULL OR locked_until < now()) AND endpoint_id <> ALL($5::uuid[])
           AND EXISTS (SELECT 1 FROM webhook_endpoints ep
                       WHERE ep.id = endpoint_id AND ep.status = 'Active' AND ep.deleted_at IS NULL)
         ORDER BY next_attempt_at LIMIT $2 * 4
       ) c LEFT JOIN unnest($6::uuid[], $7::int[]) AS b(endpoint_id, n) ON b.endpoint_id = c.endpoint_id
     ), due AS (
       -- With the partition key: each candidate is looked up in its own month's partition, by its key. The status
       -- is re-checked in a form no partial index's predicate matches: statistics taken before a backlog (the
       -- partial indexes then nearly empty) made the planner look each candidate up by scanning one of them.
       SELECT d.id, d.created_at
       FROM webhook_deliveries d JOIN candidates c ON c.id = d.id AND c.created_at = d.created_at
       WHERE c.place <= $8 AND d.status NOT IN ('Delivered', 'Failed', 'Cancelled')
         AND (d.locked_until IS NULL OR d.locked_until < now())
       ORDER BY c.next_attempt_at LIMIT $2
       FOR UPDATE OF d SKIP LOCKED
     ), leased AS (
       UPDATE webhook_deliveries d SET locked_by = $3, locked_until = now() + $4 * interval '1 millisecond'
       FROM due WHERE d.id = due.id AND d.created_at = due.created_at
       RETURNING ${LEASED_COLUMNS}
     )
     SELECT ${CLAIMED_COLUMNS}
     FROM leased d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
       -- A delivery has its event's time: the event is looked up in its month's partition only.
       JOIN event_records e ON e.id = d.event_id AND e.occurred_at = d.created_at
     ORDER BY d.next_attempt_at`,
);

/**
 * Leases deliveries that are due, at most `perEndpoint` of an endpoint with what this worker already has in flight:
 * a claim never takes rows it would have to hand back (one busy endpoint used to make every claim lease and release
 * its whole batch). The candidates are read unlocked and ranked per endpoint; then the ones within each endpoint's
 * share are locked, skipping rows another worker holds (re-checked under the lock).
 */
export async function claimDue(pool: Pool, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const full = [...options.busy].filter(([, n]) => n >= options.perEndpoint).map(([id]) => id);
  const partly = [...options.busy].filter(([, n]) => n < options.perEndpoint);
  const [, claimed] = await inOneRoundTrip(pool, [
    CLAIM_IN_DUE_ORDER,
    claimDueStatement([
      options.now,
      options.limit,
      options.lockedBy,
      options.leaseMs,
      full,
      partly.map(([id]) => id),
      partly.map(([, n]) => n),
      options.perEndpoint,
    ]),
  ]);
  return claimed!.rows as ClaimedDelivery[];
}

/**
 * The claim's transaction plans without sorting where an index gives the order: its candidates are then read from the
 * due index in due order and the read stops after a few times the batch. With statistics taken before a backlog came
 * (both partial indexes nearly empty then), the planner otherwise read every queued delivery of the endpoint through
 * the endpoint index and sorted them all, for each claim (test/http/webhook-claim-plan.test.ts). The sorts the claim
 * cannot do without (its per-endpoint ranking, its answer's order) are planned as before: they have no alternative.
 */
export const CLAIM_IN_DUE_ORDER = { text: 'SET LOCAL enable_sort = off' };

/** Hands leased deliveries back (a worker stopping with some not yet attempted). */
export async function releaseLeases(sql: Sql, ids: string[], lockedBy: string): Promise<void> {
  if (ids.length === 0) return;
  await sql.query(
    `UPDATE /* across merchants: the delivery worker's leases */ webhook_deliveries
     SET locked_by = NULL, locked_until = NULL WHERE id = ANY($1) AND locked_by = $2`,
    [ids, lockedBy],
  );
}

/** Leases one delivery for a manual retry, unless an attempt is in flight. */
export async function leaseDelivery(
  sql: Sql,
  deliveryId: string,
  lockedBy: string,
  leaseMs: number,
): Promise<ClaimedDelivery | undefined> {
  const { rows } = await sql.query<ClaimedDelivery>(
    `WITH /* across merchants: a delivery is leased by its id, a partner's about any of its merchants */ leased AS (
       UPDATE webhook_deliveries d SET locked_by = $2, locked_until = now() + $3 * interval '1 millisecond'
       WHERE d.id = $1 AND (d.locked_until IS NULL OR d.locked_until < now())
         AND EXISTS (SELECT 1 FROM event_records e WHERE e.id = d.event_id AND e.occurred_at = d.created_at)
       RETURNING ${LEASED_COLUMNS}
     )
     SELECT ${CLAIMED_COLUMNS}
     FROM leased d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
       JOIN event_records e ON e.id = d.event_id AND e.occurred_at = d.created_at`,
    [deliveryId, lockedBy, leaseMs],
  );
  return rows[0];
}

/**
 * Why a delivery could not be leased for a retry: an attempt holds it, or it (or its event) is past EVENT_RETENTION_DAYS
 * while its log is kept longer (WEBHOOK_DELIVERY_LOG_RETENTION_DAYS).
 */
export async function unleasedBecause(sql: Sql, deliveryId: string): Promise<'in-flight' | 'expired'> {
  const { rows } = await sql.query<{ kept: boolean }>(
    `SELECT /* across merchants: a delivery by its id, as its log names it */
       EXISTS (SELECT 1 FROM event_records e WHERE e.id = d.event_id AND e.occurred_at = d.created_at) AS kept
     FROM webhook_deliveries d WHERE d.id = $1`,
    [deliveryId],
  );
  return rows[0]?.kept ? 'in-flight' : 'expired';
}

export async function deliveryStatus(sql: Sql, deliveryId: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ status: string }>(
    'SELECT /* across merchants: the delivery worker, by delivery id */ status FROM webhook_deliveries WHERE id = $1',
    [deliveryId],
  );
  return rows[0]?.status;
}

/** Deliveries due at `now` and not yet sent, and the wait of the oldest (metrics; the due index answers it). */
export async function deliveryBacklog(sql: Sql, now: Date): Promise<{ due: number; oldestSeconds: number }> {
  const { rows } = await sql.query<{ due: number; oldest: number | null }>(
    `SELECT /* across merchants: an operator's gauge */ count(*)::int AS due,
            extract(epoch FROM $1::timestamptz - min(next_attempt_at))::float8 AS oldest
     FROM webhook_deliveries WHERE status IN ('Pending', 'Scheduled') AND next_attempt_at <= $1`,
    [now],
  );
  return { due: rows[0]!.due, oldestSeconds: Math.max(0, rows[0]!.oldest ?? 0) };
}
