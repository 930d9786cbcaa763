import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import type { PageRequest } from '../../platform/http/paging.js';
import {
  IN_PROGRESS,
  type PosListFilter,
  PosStatus,
  type PosTransaction,
  READS_CARD,
  ReadingMethod,
} from './pos.model.js';

/** Every status change is announced on this channel (payload: the id): long-polls and the terminal side wake on it. */
export const POS_CHANNEL = 'pos_transaction';
const IN_PROGRESS_SQL = sqlIds(...IN_PROGRESS);
const READS_CARD_IDS = [...READS_CARD];
/**
 * What toPos reads, named: the hot statements below are prepared (parsed and planned once per connection), and a
 * prepared `*` would break when a rolling upgrade adds a column.
 */
const POS_COLUMNS = `id, merchant_id, terminal_id, status_id, type_id, amount_cents, tip_cents, tip_rate_mpct, currency_id,
  pos_device_id, reference_id, payment_processor_id, customer_id, target_transaction_id, reading_method_id,
  request_storage_consent, transaction_id, card_data_source_id, error_message, processing_node, created_at,
  modified_at, accepted_at, completed_at`;

/**
 * What POS_CHANNEL carries: the moved row (as to_jsonb gives it), or only the id of a new one. Answers the id and,
 * when the payload has it, the row.
 */
export function announcement(payload: string): { id: string; row: PosTransaction | null } {
  if (!payload.startsWith('{')) return { id: payload, row: null };
  const json = JSON.parse(payload) as Record<string, unknown>;
  for (const key of ['created_at', 'modified_at', 'accepted_at', 'completed_at']) {
    if (typeof json[key] === 'string') json[key] = new Date(json[key] as string);
  }
  return { id: json.id as string, row: toPos(json) };
}

function toPos(r: Record<string, unknown>): PosTransaction {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    terminalId: r.terminal_id as string,
    statusId: r.status_id as number,
    typeId: r.type_id as number,
    amountCents: num(r.amount_cents),
    tipCents: num(r.tip_cents),
    tipRateMpct: num(r.tip_rate_mpct),
    currencyId: r.currency_id as number,
    posDeviceId: (r.pos_device_id as string | null) ?? null,
    referenceId: (r.reference_id as string | null) ?? null,
    processorId: (r.payment_processor_id as string | null) ?? null,
    customerId: (r.customer_id as string | null) ?? null,
    targetTransactionId: (r.target_transaction_id as string | null) ?? null,
    readingMethodId: r.reading_method_id as number,
    requestStorageConsent: r.request_storage_consent as boolean,
    transactionId: (r.transaction_id as string | null) ?? null,
    cardDataSourceId: num(r.card_data_source_id),
    errorMessage: (r.error_message as string | null) ?? null,
    processingNode: num(r.processing_node),
    createdAt: r.created_at as Date,
    modifiedAt: r.modified_at as Date,
    acceptedAt: (r.accepted_at as Date | null) ?? null,
    completedAt: (r.completed_at as Date | null) ?? null,
  };
}

export type NewPos = Omit<
  PosTransaction,
  | 'statusId'
  | 'transactionId'
  | 'cardDataSourceId'
  | 'errorMessage'
  | 'processingNode'
  | 'modifiedAt'
  | 'acceptedAt'
  | 'completedAt'
>;

/** Answers false when the terminal already has one in progress (the partial unique index decides, under any race). */
export async function insertPos(sql: Sql, p: NewPos, requestClaim: string | null = null): Promise<boolean> {
  // The insert and its announcement in one statement (no announcement when the terminal is busy).
  const { rows } = await sql.query({
    name: 'pos.insert',
    text: `WITH inserted AS (
       INSERT INTO pos_transactions (id, merchant_id, terminal_id, status_id, type_id, amount_cents, tip_cents,
         tip_rate_mpct, currency_id, pos_device_id, reference_id, payment_processor_id, customer_id,
         target_transaction_id, reading_method_id, request_storage_consent, created_at, modified_at, request_claim)
       VALUES ($1, $2, $3, ${PosStatus.TerminalConnecting}, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
         $16, $17)
       ON CONFLICT (terminal_id) WHERE status_id IN (${IN_PROGRESS_SQL}) DO NOTHING
       RETURNING id
     )
     SELECT pg_notify('${POS_CHANNEL}', id::text) FROM inserted`,
    values: [
      p.id,
      p.merchantId,
      p.terminalId,
      p.typeId,
      p.amountCents,
      p.tipCents,
      p.tipRateMpct,
      p.currencyId,
      p.posDeviceId,
      p.referenceId,
      p.processorId,
      p.customerId,
      p.targetTransactionId,
      p.readingMethodId,
      p.requestStorageConsent,
      p.createdAt,
      requestClaim,
    ],
  });
  return rows.length === 1;
}

/** The POS transaction a create request (by its idempotency claim) made, if it made one. */
export async function findPosByRequestClaim(
  sql: Sql,
  merchantId: string,
  claim: string,
): Promise<PosTransaction | null> {
  const { rows } = await sql.query('SELECT * FROM pos_transactions WHERE merchant_id = $1 AND request_claim = $2', [
    merchantId,
    claim,
  ]);
  return rows[0] ? toPos(rows[0]) : null;
}

export async function findPos(sql: Sql, id: string, merchantId?: string): Promise<PosTransaction | null> {
  const { rows } = await sql.query({
    name: 'pos.find',
    text: `SELECT ${POS_COLUMNS} FROM pos_transactions WHERE id = $1 AND ($2::uuid IS NULL OR merchant_id = $2)`,
    values: [id, merchantId ?? null],
  });
  return rows[0] ? toPos(rows[0]) : null;
}

export async function findInProgressOn(
  sql: Sql,
  terminal: { merchantId: string; id: string },
): Promise<PosTransaction | null> {
  const { rows } = await sql.query({
    name: 'pos.in-progress-on',
    text: `SELECT ${POS_COLUMNS} FROM pos_transactions
           WHERE merchant_id = $2 AND terminal_id = $1 AND status_id IN (${IN_PROGRESS_SQL})`,
    values: [terminal.id, terminal.merchantId],
  });
  return rows[0] ? toPos(rows[0]) : null;
}

export interface PosMove {
  /** Only this merchant's (a move asked for through the API). */
  merchantId?: string;
  /** Only this terminal's (a move a terminal asked for: a terminal cannot act on another's). */
  terminalId?: string;
  /** Only a transaction that reads a card, and not a keyed-in one unless the card was keyed (a card read). */
  cardRead?: { keyed: boolean };
  transactionId?: string | null;
  cardDataSourceId?: number | null;
  errorMessage?: string | null;
  processingNode?: number | null;
  /** The terminal accepted it with this move (kept if it had accepted before). */
  accepted?: boolean;
}

/**
 * One status move as a compare-and-set from `from` (announced on POS_CHANNEL when it happens); answers the row as
 * moved, or null when it was no longer in one of those statuses (someone else moved it first) or did not meet the
 * move's other conditions (`merchantId`, `terminalId`, `cardRead`).
 */
export async function movePos(
  sql: Sql,
  id: string,
  from: readonly number[],
  to: number,
  at: Date,
  move: PosMove = {},
): Promise<PosTransaction | null> {
  const final = !(IN_PROGRESS as readonly number[]).includes(to);
  const { rows } = await sql.query({
    name: 'pos.move',
    text: `WITH moved AS (
       UPDATE pos_transactions SET status_id = $3::smallint, modified_at = $4,
         transaction_id = coalesce($5, transaction_id),
         card_data_source_id = coalesce($6, card_data_source_id),
         error_message = coalesce($7, error_message),
         processing_node = $8,
         accepted_at = CASE WHEN $9 THEN coalesce(accepted_at, $4) ELSE accepted_at END,
         completed_at = CASE WHEN $10 THEN $4 ELSE completed_at END
       WHERE id = $1 AND status_id = ANY($2::smallint[]) AND ($11::uuid IS NULL OR merchant_id = $11)
         AND ($12::uuid IS NULL OR terminal_id = $12)
         AND ($13::smallint[] IS NULL
           OR (type_id = ANY($13) AND NOT (reading_method_id = ${ReadingMethod.KeyedIn} AND NOT $14)))
       RETURNING ${POS_COLUMNS}
     )
     -- The row itself is the announcement: a waiter answers from it without reading it again.
     SELECT moved.*, pg_notify('${POS_CHANNEL}', to_jsonb(moved)::text) FROM moved`,
    values: [
      id,
      from,
      to,
      at,
      move.transactionId ?? null,
      move.cardDataSourceId ?? null,
      move.errorMessage ?? null,
      move.processingNode ?? null,
      move.accepted ?? false,
      final,
      move.merchantId ?? null,
      move.terminalId ?? null,
      move.cardRead ? READS_CARD_IDS : null,
      move.cardRead?.keyed ?? false,
    ],
  });
  return rows[0] ? toPos(rows[0]) : null;
}

export async function listPos(
  sql: Sql,
  filter: PosListFilter,
  page: PageRequest,
): Promise<{ items: PosTransaction[]; total: number }> {
  const params: unknown[] = [
    filter.merchantId,
    filter.terminalId ?? null,
    filter.from ?? null,
    filter.to ?? null,
    filter.statusIds ?? null,
  ];
  const where =
    'p.merchant_id = $1 AND ($2::uuid IS NULL OR p.terminal_id = $2) AND ($3::timestamptz IS NULL OR ' +
    'p.created_at >= $3) AND ($4::timestamptz IS NULL OR p.created_at <= $4) AND ($5::int[] IS NULL OR ' +
    'p.status_id = ANY($5))';
  const { rows } = await sql.query(
    `SELECT p.*, count(*) OVER ()::int AS total FROM pos_transactions p WHERE ${where}
     ${page.orderSql} LIMIT $6 OFFSET $7`,
    [...params, page.limit, page.offset],
  );
  let total = rows[0]?.total as number | undefined;
  if (total === undefined) {
    total =
      page.offset === 0
        ? 0
        : (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pos_transactions p WHERE ${where}`, params))
            .rows[0]!.n;
  }
  return { items: rows.map(toPos), total };
}

/**
 * Waiting too long: sent and never accepted since `acceptBefore`, or accepted and no card since `cardBefore`. The
 * sweep ends them.
 */
export async function findOverdue(
  sql: Sql,
  acceptBefore: Date,
  cardBefore: Date,
  limit: number,
): Promise<PosTransaction[]> {
  const { rows } = await sql.query(
    `SELECT /* across merchants: the timeout sweep */ * FROM pos_transactions
     WHERE (status_id = ${PosStatus.TerminalConnecting} AND created_at <= $1)
        OR (status_id = ${PosStatus.TransactionProcessing} AND accepted_at <= $2)
     ORDER BY created_at LIMIT $3`,
    [acceptBefore, cardBefore, limit],
  );
  return rows.map(toPos);
}

/** Being paid by a node that is gone, or for longer than `before` allows: the sweep settles them. */
export async function findStuckPayments(sql: Sql, before: Date, limit: number): Promise<PosTransaction[]> {
  const { rows } = await sql.query(
    `SELECT /* across merchants: the recovery sweep */ * FROM pos_transactions
     WHERE status_id = ${PosStatus.TransactionSentToProcessor}
       AND (modified_at <= $1 OR (processing_node IS NOT NULL AND NOT tessera_node_alive(processing_node)))
     ORDER BY modified_at LIMIT $2`,
    [before, limit],
  );
  return rows.map(toPos);
}
