import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { likePattern, type PageRequest } from '../../platform/http/paging.js';
import { withFields } from '../../platform/objects.js';
import { DeliveryStatus, type Terminal, type TerminalReport } from './terminals.model.js';

export function toTerminal(r: Record<string, unknown>): Terminal {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    serialNumber: r.serial_number as string,
    manufacturerId: r.manufacturer_id as number,
    modelId: r.model_id as number,
    modeId: r.mode_id as number,
    deliveryStatusId: r.delivery_status_id as number,
    deactivatedAt: (r.deactivated_at as Date | null) ?? null,
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
    socketNode: (r.socket_node as number | null) ?? null,
    lastSeenAt: (r.last_seen_at as Date | null) ?? null,
    report: (r.report as TerminalReport | null) ?? null,
    paperOut: r.paper_out as boolean,
  };
}

export interface NewTerminal {
  id: string;
  merchantId: string;
  serialNumber: string;
  manufacturerId: number;
  modelId: number;
  modeId: number;
  deliveryStatusId: number;
  secretHash: Buffer;
  at: Date;
}

/** Answers false when the serial number is taken. */
export async function insertTerminal(sql: Sql, t: NewTerminal): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO terminals (id, merchant_id, serial_number, manufacturer_id, model_id, mode_id, delivery_status_id,
       secret_hash, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT (serial_number) DO NOTHING`,
    [t.id, t.merchantId, t.serialNumber, t.manufacturerId, t.modelId, t.modeId, t.deliveryStatusId, t.secretHash, t.at],
  );
  return rowCount === 1;
}

/** What toTerminal reads, named: findTerminal is prepared (a prepared `*` breaks when an upgrade adds a column). */
const TERMINAL_COLUMNS = `id, merchant_id, serial_number, manufacturer_id, model_id, mode_id, delivery_status_id,
  deactivated_at, created_at, modified_at, socket_node, last_seen_at, report, paper_out`;

/** One terminal; with `merchantId`, only that merchant's (another merchant's id reads as missing). */
export async function findTerminal(sql: Sql, id: string, merchantId?: string, lock = false): Promise<Terminal | null> {
  const { rows } = await sql.query({
    // Every POS sale reads its terminal (twice): prepared, it is planned once per connection.
    name: lock ? 'terminals.find-for-update' : 'terminals.find',
    text: `SELECT ${TERMINAL_COLUMNS} FROM terminals
           WHERE id = $1 AND ($2::uuid IS NULL OR merchant_id = $2)${lock ? ' FOR UPDATE' : ''}`,
    values: [id, merchantId ?? null],
  });
  return rows[0] ? toTerminal(rows[0]) : null;
}

/** The terminal and its secret's hash, by serial number (the channel's login). */
export async function findBySerial(
  sql: Sql,
  serialNumber: string,
): Promise<{ terminal: Terminal; secretHash: Buffer } | null> {
  const { rows } = await sql.query(
    `SELECT /* across merchants: a terminal logs in with its serial number alone */
       * FROM terminals WHERE serial_number = $1`,
    [serialNumber],
  );
  return rows[0] ? { terminal: toTerminal(rows[0]), secretHash: rows[0].secret_hash as Buffer } : null;
}

/** A terminal by its merchant and id. */
export interface TerminalRef {
  merchantId: string;
  id: string;
}

export async function updateTerminal(
  sql: Sql,
  terminal: TerminalRef,
  changes: { modeId?: number; deliveryStatusId?: number; deactivatedAt?: Date },
  at: Date,
): Promise<Terminal | null> {
  const { rows } = await sql.query(
    `UPDATE terminals SET mode_id = coalesce($2, mode_id), delivery_status_id = coalesce($3, delivery_status_id),
       deactivated_at = coalesce(deactivated_at, $4), modified_at = $5
     WHERE merchant_id = $6 AND id = $1 RETURNING *`,
    [
      terminal.id,
      changes.modeId ?? null,
      changes.deliveryStatusId ?? null,
      changes.deactivatedAt ?? null,
      at,
      terminal.merchantId,
    ],
  );
  return rows[0] ? toTerminal(rows[0]) : null;
}

/** The terminal's socket is held by `node` now (it connected); a delivered terminal turns Active. */
export async function recordConnected(sql: Sql, terminal: TerminalRef, node: number, at: Date): Promise<void> {
  await sql.query(
    `UPDATE terminals SET socket_node = $2, last_seen_at = $3,
       delivery_status_id = CASE WHEN delivery_status_id IN (${sqlIds(DeliveryStatus.PendingShipment, DeliveryStatus.Shipping)})
         THEN ${DeliveryStatus.Active} ELSE delivery_status_id END
     WHERE merchant_id = $4 AND id = $1`,
    [terminal.id, node, at, terminal.merchantId],
  );
}

/** The socket `node` held closed; a newer socket on another node is left alone. */
export async function recordDisconnected(sql: Sql, terminal: TerminalRef, node: number): Promise<void> {
  await sql.query('UPDATE terminals SET socket_node = NULL WHERE merchant_id = $3 AND id = $1 AND socket_node = $2', [
    terminal.id,
    node,
    terminal.merchantId,
  ]);
}

/** A heartbeat: answers whether the paper just ran out (the caller records `terminal.out_of_paper` then). */
export async function recordReport(
  sql: Sql,
  terminal: TerminalRef,
  report: TerminalReport,
  at: Date,
): Promise<boolean> {
  const { rows } = await sql.query<{ ran_out: boolean }>(
    `UPDATE terminals t SET report = $2, last_seen_at = $3, paper_out = $4
     FROM (SELECT paper_out AS was FROM terminals WHERE merchant_id = $5 AND id = $1 FOR UPDATE) old
     WHERE t.merchant_id = $5 AND t.id = $1 RETURNING ($4 AND NOT old.was) AS ran_out`,
    [terminal.id, JSON.stringify(report), at, report.paperOut, terminal.merchantId],
  );
  return rows[0]?.ran_out ?? false;
}

export interface TerminalFilter {
  merchantId: string;
  deliveryStatusId?: number;
  serialNumber?: string;
  manufacturerIds?: number[];
  modelIds?: number[];
}

export type TerminalListRow = Terminal & {
  merchantCompanyName: string;
  /** A live node holds its socket. */
  socketAlive: boolean;
  /** The sandbox's virtual terminal is switched on (meaningful only in sandbox, with no socket). */
  virtualOnline: boolean;
};

export async function listTerminals(
  sql: Sql,
  filter: TerminalFilter,
  page: PageRequest,
): Promise<{ items: TerminalListRow[]; total: number }> {
  const where = ['t.merchant_id = $1'];
  const params: unknown[] = [filter.merchantId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.deliveryStatusId !== undefined) add((n) => `t.delivery_status_id = ${n}`, filter.deliveryStatusId);
  if (filter.serialNumber !== undefined) add((n) => `t.serial_number = ${n}`, filter.serialNumber);
  if (filter.manufacturerIds) add((n) => `t.manufacturer_id = ANY(${n}::smallint[])`, filter.manufacturerIds);
  if (filter.modelIds) add((n) => `t.model_id = ANY(${n}::smallint[])`, filter.modelIds);
  if (page.search) add((n) => `(t.serial_number ILIKE ${n} OR t.id::text ILIKE ${n})`, likePattern(page.search));
  params.push(page.limit, page.offset);
  const { rows } = await sql.query(
    `SELECT t.*, m.company_name AS merchant_company_name, count(*) OVER ()::int AS total,
       (t.socket_node IS NOT NULL AND tessera_node_alive(t.socket_node)) AS socket_alive,
       coalesce(st.online, true) AS virtual_online
     FROM terminals t JOIN merchant_accounts m ON m.id = t.merchant_id
       LEFT JOIN sandbox_terminals st ON st.terminal_id = t.id
     WHERE ${where.join(' AND ')} ${page.orderSql} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const total = rows[0]?.total ?? (page.offset > 0 ? await countTerminals(sql, where, params.slice(0, -2)) : 0);
  return {
    items: rows.map((r) =>
      withFields(toTerminal(r), {
        merchantCompanyName: r.merchant_company_name as string,
        socketAlive: r.socket_alive as boolean,
        virtualOnline: r.virtual_online as boolean,
      }),
    ),
    total,
  };
}

async function countTerminals(sql: Sql, where: string[], params: unknown[]): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM terminals t WHERE ${where.join(' AND ')}`,
    params,
  );
  return rows[0]!.n;
}
