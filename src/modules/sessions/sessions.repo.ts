import type { QueryConfig } from 'pg';
import type { Sql } from '../../platform/db/pool.js';
import type { Tx } from '../../platform/db/tx.js';
import { withFields } from '../../platform/objects.js';
import type { PaymentSource } from '../payments/payments.service.js';
import {
  type EndReason,
  type PaymentSession,
  type SentSpellings,
  type SessionSettings,
  SessionStatus,
} from './sessions.model.js';

interface Row {
  id: string;
  merchant_id: string;
  surface: 'v2' | 'int';
  mode: number;
  status: number;
  amount_cents: string | null;
  tip_cents: string | null;
  tax_mode: number | null;
  tax_rate_mpct: number | null;
  tax_cents: string | null;
  skip_address_verification: boolean;
  reference_id: string | null;
  customer_id: string | null;
  customer_handling: number | null;
  return_url: string | null;
  card_enabled: boolean;
  card_processor_id: string | null;
  ach_enabled: boolean;
  ach_processor_id: string | null;
  ach_faster_processing: boolean;
  metadata: Record<string, string> | null;
  after_completion_message: string | null;
  page_name: string | null;
  payment_notes: string | null;
  is_multi_use: boolean;
  expires_at: Date | null;
  source_type_id: number | null;
  source_id: string | null;
  as_sent: SentSpellings | null;
  processing_node: number | null;
  created_at: Date;
  modified_at: Date;
  completed_at: Date | null;
  cancelled_at: Date | null;
  end_reason: EndReason | null;
  processing_token: string | null;
  processing_until: Date | null;
  failed_attempts: number;
  awaiting_outcome: boolean;
  transaction_id: string | null;
  vaulted_payment_method_id: string | null;
  paid_amount_cents: string | null;
  ach_account_last2: string | null;
  ach_routing_last2: string | null;
}

const cents = (value: string | null) => (value === null ? null : Number(value));

function toSession(r: Row): PaymentSession {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    surface: r.surface,
    mode: r.mode,
    status: r.status,
    amountCents: cents(r.amount_cents),
    tipCents: cents(r.tip_cents),
    taxMode: r.tax_mode,
    taxRateMpct: r.tax_rate_mpct,
    taxCents: cents(r.tax_cents),
    skipAddressVerification: r.skip_address_verification,
    referenceId: r.reference_id,
    customerId: r.customer_id,
    customerHandling: r.customer_handling,
    returnUrl: r.return_url,
    card: { enabled: r.card_enabled, processorId: r.card_processor_id },
    ach: { enabled: r.ach_enabled, processorId: r.ach_processor_id, fasterProcessing: r.ach_faster_processing },
    metadata: r.metadata,
    afterCompletionMessage: r.after_completion_message,
    pageName: r.page_name,
    paymentNotes: r.payment_notes,
    isMultiUse: r.is_multi_use,
    expiresAt: r.expires_at,
    asSent: r.as_sent ?? null,
    paymentSource:
      r.source_type_id !== null && r.source_id !== null
        ? { typeId: r.source_type_id as PaymentSource['typeId'], id: r.source_id }
        : null,
    createdAt: r.created_at,
    modifiedAt: r.modified_at,
    completedAt: r.completed_at,
    cancelledAt: r.cancelled_at,
    endReason: r.end_reason,
    processingToken: r.processing_token,
    processingUntil: r.processing_until,
    processingNode: r.processing_node ?? null,
    failedAttempts: r.failed_attempts,
    awaitingOutcome: r.awaiting_outcome,
    transactionId: r.transaction_id,
    vaultedPaymentMethodId: r.vaulted_payment_method_id,
    paidAmountCents: cents(r.paid_amount_cents),
    achAccountLast2: r.ach_account_last2,
    achRoutingLast2: r.ach_routing_last2,
  };
}

/** Several sessions' inserts in one round trip of the caller's transaction (each statement its own, in order). */
export async function insertSessions(
  tx: Tx,
  items: ReadonlyArray<{ id: string; settings: SessionSettings; now: Date; idempotencyId: string | null }>,
): Promise<PaymentSession[]> {
  const results = await tx.batch(
    items.map((item) => {
      const query = insertSessionQuery(item.id, item.settings, item.now, item.idempotencyId);
      return { ...query, text: `${query.text} RETURNING *` };
    }),
  );
  return results.map((result) => toSession(result.rows[0] as Row));
}

/** The insert as a statement (a caller may send it with its COMMIT and use `freshSession` meanwhile). */
export function insertSessionQuery(
  id: string,
  d: SessionSettings,
  now: Date,
  idempotencyId: string | null,
): QueryConfig {
  return {
    text: `INSERT INTO payment_sessions (id, merchant_id, surface, mode, amount_cents, tip_cents, tax_mode, tax_rate_mpct,
       tax_cents, skip_address_verification, reference_id, customer_id, customer_handling, return_url, card_enabled,
       card_processor_id, ach_enabled, ach_processor_id, ach_faster_processing, metadata, after_completion_message,
       page_name, payment_notes, is_multi_use, expires_at, created_at, modified_at, idempotency_id, source_type_id,
       source_id, as_sent)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$26,$27,
       $28,$29,$30)`,
    values: [
      id,
      d.merchantId,
      d.surface,
      d.mode,
      d.amountCents,
      d.tipCents,
      d.taxMode,
      d.taxRateMpct,
      d.taxCents,
      d.skipAddressVerification,
      d.referenceId,
      d.customerId,
      d.customerHandling,
      d.returnUrl,
      d.card.enabled,
      d.card.processorId,
      d.ach.enabled,
      d.ach.processorId,
      d.ach.fasterProcessing,
      d.metadata === null ? null : JSON.stringify(d.metadata),
      d.afterCompletionMessage,
      d.pageName,
      d.paymentNotes,
      d.isMultiUse,
      d.expiresAt,
      now,
      idempotencyId,
      d.paymentSource?.typeId ?? null,
      d.paymentSource?.id ?? null,
      d.asSent ? JSON.stringify(d.asSent) : null,
    ],
  };
}

/** A session as `insertSessionQuery` writes it: what reading the new row back would answer. */
export function freshSession(id: string, d: SessionSettings, now: Date): PaymentSession {
  return withFields(d, {
    id,
    status: SessionStatus.Created,
    createdAt: now,
    modifiedAt: now,
    completedAt: null,
    cancelledAt: null,
    endReason: null,
    processingToken: null,
    processingUntil: null,
    processingNode: null,
    failedAttempts: 0,
    awaitingOutcome: false,
    transactionId: null,
    vaultedPaymentMethodId: null,
    paidAmountCents: null,
    achAccountLast2: null,
    achRoutingLast2: null,
  });
}

/** The session the request holding idempotency claim `claimId` created, if it committed. */
export async function findSessionByIdempotencyId(
  sql: Sql,
  merchantId: string,
  claimId: string,
): Promise<PaymentSession | undefined> {
  const { rows } = await sql.query<Row>(
    'SELECT * FROM payment_sessions WHERE idempotency_id = $1 AND merchant_id = $2',
    [claimId, merchantId],
  );
  return rows[0] ? toSession(rows[0]) : undefined;
}

/** Whether `error` is the insert of a second session for one idempotency claim (a race with a dead node's). */
export function isSessionIdempotencyIdTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'payment_sessions_idempotency';
}

/** Tenant-scoped read; `lock` takes the row for an update in the caller's transaction. */
export async function findSession(
  sql: Sql,
  merchantId: string,
  id: string,
  lock = false,
): Promise<PaymentSession | undefined> {
  const { rows } = await sql.query<Row>(
    `SELECT * FROM payment_sessions WHERE id = $1 AND merchant_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, merchantId],
  );
  return rows[0] ? toSession(rows[0]) : undefined;
}

/**
 * The payer's read: by id alone. The id is the only thing the payer's browser holds (the checkout URL), so this is
 * the one read not scoped by a token; what it returns is rendered for the payer, never the merchant's data.
 */
export async function findSessionForPayer(sql: Sql, id: string): Promise<PaymentSession | undefined> {
  const { rows } = await sql.query<Row>(
    `SELECT /* across merchants: the payer's checkout knows only the session id */ * FROM payment_sessions
     WHERE id = $1`,
    [id],
  );
  return rows[0] ? toSession(rows[0]) : undefined;
}

/**
 * Created → Cancelled by the clock, if it is still open and past its expiry. Not while a payment holds it or its
 * outcome is unknown (not even a stale lease: a crashed node's payment may have gone through, and the sweep decides
 * that first).
 */
export async function expireSession(sql: Sql, id: string, now: Date): Promise<PaymentSession | undefined> {
  const { rows } = await sql.query<Row>(
    `UPDATE /* across merchants: the expiry job and the payer's checkout know only the session id */
       payment_sessions SET status = 2, end_reason = 'expired', cancelled_at = expires_at, modified_at = $2
     WHERE id = $1 AND status = 1 AND expires_at <= $2 AND processing_until IS NULL AND NOT awaiting_outcome
     RETURNING *`,
    [id, now],
  );
  return rows[0] ? toSession(rows[0]) : undefined;
}

/**
 * The session as it stands at `now`: an open one past its expiry is expired first (see expireSession). When the
 * update finds nothing to change, another node (the expiry job) or a payment got there first, so the row is read
 * again rather than answering with the open session this caller saw before.
 */
export async function expireIfDue(sql: Sql, session: PaymentSession, now: Date): Promise<PaymentSession> {
  if (session.status !== 1 || !session.expiresAt || session.expiresAt > now) return session;
  const expired = await expireSession(sql, session.id, now);
  return expired ?? (await findSessionForPayer(sql, session.id)) ?? session;
}

/** Open sessions whose expiry passed (the sweep's backstop for a missed expiry job). */
export async function findExpired(sql: Sql, now: Date, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT /* across merchants: the expiry sweep */ id FROM payment_sessions
     WHERE status = 1 AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Open sessions with a payment to resolve: its outcome was unknown, or its lease ran out (a node died mid-payment).
 */
export async function findUnresolvedSessions(sql: Sql, now: Date, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT /* across merchants: the outcome sweep */ id FROM payment_sessions
     WHERE status = 1 AND (awaiting_outcome OR processing_until IS NOT NULL)
       AND (processing_until IS NULL OR processing_until < $1
         OR (processing_node IS NOT NULL AND NOT tessera_node_alive(processing_node)))
     LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Takes the session's payment lease: at most one submission pays at a time, whatever node it reaches. Returns the
 * session when this caller holds the lease, undefined when the session is not open or another payment holds it.
 */
export async function claimForPayment(
  sql: Sql,
  id: string,
  token: string,
  now: Date,
  leaseUntil: Date,
  options: { evenIfExpired?: boolean; node?: number } = {},
): Promise<PaymentSession | undefined> {
  // A lease whose node died is free at once: that submission will not finish, and the taker settles what it started.
  const { rows } = await sql.query<Row>(
    `UPDATE /* across merchants: the payer's checkout knows only the session id */
       payment_sessions SET processing_token = $2, processing_until = $4, processing_node = $6
     WHERE id = $1 AND status = 1 AND ($5 OR expires_at IS NULL OR expires_at > $3)
       AND (processing_until IS NULL OR processing_until < $3
         OR (processing_node IS NOT NULL AND NOT tessera_node_alive(processing_node)))
     RETURNING *`,
    [id, token, now, leaseUntil, options.evenIfExpired ?? false, options.node ?? null],
  );
  return rows[0] ? toSession(rows[0]) : undefined;
}

export type AttemptChanges = Partial<{
  status: number;
  end_reason: EndReason;
  completed_at: Date;
  failed_attempts: number;
  awaiting_outcome: boolean;
  transaction_id: string | null;
  vaulted_payment_method_id: string | null;
  paid_amount_cents: number;
  ach_account_last2: string;
  ach_routing_last2: string;
  customer_id: string;
}>;

/**
 * Writes what a payment attempt learned, as the holder of the lease (`token`; null for the sweep acting on a
 * session nobody holds). `release` gives the lease up with it. Undefined when the caller no longer holds it.
 */
export async function updateAttempt(
  sql: Sql,
  session: { merchantId: string; id: string },
  token: string | null,
  changes: AttemptChanges,
  now: Date,
  release = true,
): Promise<PaymentSession | undefined> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = entries.map(([column], i) => `${column} = $${i + 4}`);
  if (release) sets.push('processing_token = NULL', 'processing_until = NULL');
  const { rows } = await sql.query<Row>(
    `UPDATE payment_sessions SET ${[...sets, 'modified_at = $3'].join(', ')}
     WHERE merchant_id = $${entries.length + 4} AND id = $1 AND status = 1 AND processing_token IS NOT DISTINCT FROM $2
     RETURNING *`,
    [session.id, token, now, ...entries.map(([, v]) => v), session.merchantId],
  );
  return rows[0] ? toSession(rows[0]) : undefined;
}

export async function cancelSession(sql: Sql, merchantId: string, id: string, now: Date) {
  const { rows } = await sql.query<Row>(
    `UPDATE payment_sessions SET status = 2, end_reason = 'cancelled', cancelled_at = $3, modified_at = $3
     WHERE id = $1 AND merchant_id = $2 AND status = 1 AND processing_until IS NULL AND NOT awaiting_outcome
     RETURNING *`,
    [id, merchantId, now],
  );
  return rows[0] ? toSession(rows[0]) : undefined;
}
