// The cluster test's checker: what must hold after a run, proved from the history (what clients were told) and the
// database (what happened). `check` is pure over a snapshot, so a test can feed it broken histories; `takeSnapshot`
// reads the snapshot from PostgreSQL once the cluster is quiet.
import type { Pool } from 'pg';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import type { AttemptRecord, HistoryRecord, OpRecord } from './history.js';

export interface SnapshotTransaction {
  id: string;
  method: 'card' | 'ach';
  statusId: number;
  referenceId: string | null;
  originalTransactionId: string | null;
  authorizedCents: number;
  capturedCents: number;
  refundedCents: number;
  /** An operation still in flight (its outcome unknown), or a card payment still Pending. */
  unresolved: boolean;
}

export interface Snapshot {
  transactions: SnapshotTransaction[];
  /** Events the cluster's webhook endpoint subscribed to, for the merchants of the run. */
  events: Array<{ id: string; type: string }>;
  /** Deliveries of those events to that endpoint. */
  deliveries: Array<{ id: string; eventId: string; status: string; attempts?: number; next?: string | null }>;
  /** What the loopback receiver got: the delivery id in the headers, the id in the body, whether it said 2xx. */
  received: Array<{ headerId: string; bodyId: string; accepted: boolean }>;
  /** Jobs due well before the end that did not run, or gave up. */
  overdueJobs: Array<{ id: number; queue: string; failed: boolean; lastError: string | null }>;
  /** Approved payments per subscription installment. */
  installmentPayments: Array<{ installmentId: string; approved: number }>;
  /** Transactions per POS transaction. */
  posPayments: Array<{ posTransactionId: string; transactions: number }>;
  /** Sessions made through the API, payment links and invoices, with the approved payments made for each. */
  checkouts: Checkout[];
  ledger: { ok: boolean; problems: string[] };
}

export interface Checkout {
  kind: 'session' | 'link' | 'invoice';
  id: string;
  /** Approved payments whose source is this session, link or invoice (refunds not counted), and their amount. */
  approved: number;
  approvedCents: number;
  /** Takes one payment at most: a session, a single-use link. */
  single: boolean;
  /** What the object itself counts: a session completed (1 or 0), a link's payment count; null for an invoice. */
  recordedCount: number | null;
  /** An invoice's paid amount, and its total (it is never paid above it); null for the others. */
  recordedCents: number | null;
  limitCents: number | null;
}

export interface Violation {
  invariant:
    | 'one-outcome-per-key'
    | 'acknowledged-exists'
    | 'once-per-reference'
    | 'refused-moved-nothing'
    | 'captured-once'
    | 'installment-paid-once'
    | 'pos-paid-once'
    | 'checkout-paid-once'
    | 'checkout-recorded'
    | 'event-delivered'
    | 'delivery-id-stable'
    | 'due-jobs-ran'
    | 'nothing-pending'
    | 'ledger-clean'
    | 'no-failed-request';
  detail: string;
}

/**
 * What a client saw fail (a rolling upgrade must show none): an attempt answered with a 5xx or not answered at all,
 * and an operation whose outcome the client never learned.
 */
export function clientFailures(history: HistoryRecord[]): Violation[] {
  const violations: Violation[] = [];
  for (const record of history) {
    if (record.t === 'attempt' && (record.error !== null || (record.status !== null && record.status >= 500))) {
      violations.push({
        invariant: 'no-failed-request',
        detail: `op ${record.opId} on ${record.node}: ${record.error ?? record.status} after ${record.ms} ms`,
      });
    }
    if (record.t === 'op' && record.outcome === 'unknown') {
      violations.push({ invariant: 'no-failed-request', detail: `op ${record.opId} (${record.kind}): no outcome` });
    }
  }
  return violations;
}

const CREATES: ReadonlySet<OpRecord['kind']> = new Set(['card.sale', 'card.sale.v2', 'card.auth', 'ach.debit']);
/** Operations whose answer names no transaction (a POS transaction, a subscription, a session, a link, an invoice). */
const NAMES_NO_TRANSACTION: ReadonlySet<OpRecord['kind']> = new Set([
  'pos.sale',
  'subscription.create',
  'session.create',
  'link.create',
  'invoice.create',
  'invoice.publish',
  'session.pay',
  'link.pay',
  'invoice.pay',
]);
const HOSTED_PAYMENTS: ReadonlySet<OpRecord['kind']> = new Set(['session.pay', 'link.pay', 'invoice.pay']);

/** An answer that ends an operation: a 2xx, or a 4xx that is not "retry" (401 token, 409 in progress, 429). */
export function definitive(status: number | null): boolean {
  return status !== null && status < 500 && ![401, 408, 409, 429].includes(status);
}

export function check(history: HistoryRecord[], snapshot: Snapshot): Violation[] {
  const violations: Violation[] = [];
  const add = (invariant: Violation['invariant'], detail: string) => violations.push({ invariant, detail });
  const ops = history.filter((r): r is OpRecord => r.t === 'op');
  const attempts = history.filter((r): r is AttemptRecord => r.t === 'attempt');
  const byId = new Map(snapshot.transactions.map((t) => [t.id, t]));

  // Every idempotency key has one outcome, and every retry that got a definitive answer saw that same one.
  const answers = new Map<string, AttemptRecord[]>();
  for (const a of attempts) {
    if (!definitive(a.status)) continue;
    answers.set(a.key, [...(answers.get(a.key) ?? []), a]);
  }
  for (const [key, list] of answers) {
    const first = list[0]!;
    for (const other of list.slice(1)) {
      if (other.status !== first.status || other.body?.id !== first.body?.id) {
        add(
          'one-outcome-per-key',
          `key ${key}: ${first.status} ${first.body?.id} on ${first.node}, then ${other.status} ${other.body?.id} on ${other.node}`,
        );
      }
    }
  }

  // Every acknowledged payment exists, exactly once; a refused one made nothing; unknown ones at most once.
  const perReference = new Map<string, SnapshotTransaction[]>();
  for (const t of snapshot.transactions) {
    if (t.referenceId) perReference.set(t.referenceId, [...(perReference.get(t.referenceId) ?? []), t]);
  }
  for (const op of ops) {
    if (op.outcome === 'acknowledged' && op.resultId && !NAMES_NO_TRANSACTION.has(op.kind)) {
      if (!byId.has(op.resultId)) add('acknowledged-exists', `op ${op.opId} (${op.kind}) was told ${op.resultId}`);
    }
    if (!CREATES.has(op.kind) || !op.referenceId) continue;
    const made = perReference.get(op.referenceId) ?? [];
    if (made.length > 1) {
      add('once-per-reference', `op ${op.opId} (${op.kind}, ${op.referenceId}): ${made.length} transactions`);
    }
    if (op.outcome === 'acknowledged' && made.length === 0) {
      add('acknowledged-exists', `op ${op.opId} (${op.kind}, ${op.referenceId}): acknowledged, no transaction`);
    }
    if (op.outcome === 'refused' && made.length > 0) {
      add('refused-moved-nothing', `op ${op.opId} (${op.kind}) was refused (${op.status}) yet made ${made[0]!.id}`);
    }
  }

  // A capture moves the amount once, whatever the retries: the authorization's captured total is what was asked.
  const captures = new Map<string, number>();
  for (const op of ops) {
    // An acknowledged capture the processor did not approve (a 200 Failed or Declined) moved nothing.
    if (op.kind !== 'card.capture' || op.outcome !== 'acknowledged' || op.result !== 'Approved') continue;
    if (op.targetId && op.amountCents !== null) {
      captures.set(op.targetId, (captures.get(op.targetId) ?? 0) + op.amountCents);
    }
  }
  for (const [id, asked] of captures) {
    const t = byId.get(id);
    if (t && t.capturedCents !== asked) add('captured-once', `${id}: captured ${t.capturedCents}, asked ${asked}`);
  }
  for (const t of snapshot.transactions) {
    if (t.refundedCents > t.capturedCents) {
      add('captured-once', `${t.id}: refunded ${t.refundedCents} of ${t.capturedCents}`);
    }
  }
  for (const row of snapshot.installmentPayments) {
    if (row.approved > 1) add('installment-paid-once', `installment ${row.installmentId}: ${row.approved} payments`);
  }
  for (const row of snapshot.posPayments) {
    if (row.transactions > 1) add('pos-paid-once', `POS ${row.posTransactionId}: ${row.transactions} payments`);
  }

  // Sessions, links and invoices: a payment the payer was shown as complete exists; nothing took a second payment
  // (a session, a single-use link) or more than the invoice asked; what each object counts is what was paid.
  const checkouts = new Map(snapshot.checkouts.map((c) => [c.id, c]));
  for (const op of ops) {
    if (!HOSTED_PAYMENTS.has(op.kind) || op.outcome !== 'acknowledged' || !op.targetId) continue;
    const paid = checkouts.get(op.targetId);
    if (!paid || paid.approved === 0) {
      add('acknowledged-exists', `op ${op.opId} (${op.kind}) was shown paid; ${op.targetId} has no payment`);
    }
  }
  for (const c of snapshot.checkouts) {
    if ((c.single && c.approved > 1) || (c.limitCents !== null && c.approvedCents > c.limitCents)) {
      add('checkout-paid-once', `${c.kind} ${c.id}: ${c.approved} payments, ${c.approvedCents} cents`);
    }
    if (
      (c.recordedCount !== null && c.recordedCount !== c.approved) ||
      (c.recordedCents !== null && c.recordedCents !== c.approvedCents)
    ) {
      add(
        'checkout-recorded',
        `${c.kind} ${c.id}: records ${c.recordedCount ?? c.recordedCents}, paid ${c.approved} (${c.approvedCents} cents)`,
      );
    }
  }

  // Every committed event reached the receiver at least once, under one message id on every attempt.
  const delivered = new Map<string, Snapshot['deliveries'][number]>();
  for (const d of snapshot.deliveries) delivered.set(d.eventId, d);
  const seen = new Map<string, Set<string>>();
  const accepted = new Set<string>();
  for (const hit of snapshot.received) {
    seen.set(hit.headerId, (seen.get(hit.headerId) ?? new Set()).add(hit.bodyId));
    if (hit.accepted) accepted.add(hit.headerId);
  }
  for (const event of snapshot.events) {
    const delivery = delivered.get(event.id);
    if (!delivery) add('event-delivered', `event ${event.id} (${event.type}): no delivery`);
    else if (delivery.status !== 'Delivered' || !accepted.has(delivery.id)) {
      add(
        'event-delivered',
        `event ${event.id} (${event.type}): delivery ${delivery.id} ${delivery.status} after ${delivery.attempts} ` +
          `attempts, next ${delivery.next}`,
      );
    }
  }
  for (const [headerId, bodyIds] of seen) {
    if (bodyIds.size !== 1 || !bodyIds.has(headerId)) {
      add('delivery-id-stable', `message ${headerId} carried body ids ${[...bodyIds].join(', ')}`);
    }
  }

  for (const job of snapshot.overdueJobs) {
    add('due-jobs-ran', `job ${job.id} (${job.queue}) ${job.failed ? `gave up: ${job.lastError}` : 'never ran'}`);
  }
  for (const t of snapshot.transactions) {
    if (t.unresolved) add('nothing-pending', `${t.id} (${t.method}) is still unresolved`);
  }
  if (!snapshot.ledger.ok) add('ledger-clean', snapshot.ledger.problems.join('; '));
  return violations;
}

/** The database's side, read once the cluster is quiet: each merchant of the run has its webhook endpoint. */
export async function takeSnapshot(
  pool: Pool,
  run: { endpoints: Array<{ merchantId: string; endpointId: string }>; received: Snapshot['received'] },
): Promise<Snapshot> {
  const merchants = run.endpoints.map((e) => e.merchantId);
  const endpoints = run.endpoints.map((e) => e.endpointId);
  const { rows: transactions } = await pool.query(
    `SELECT id, method, status_id, reference_id, original_transaction_id, authorized_cents::int, captured_cents::int,
            refunded_cents::int,
            (pending_operation IS NOT NULL OR (method = 'card' AND status_id = 24)) AS unresolved
     FROM transactions WHERE merchant_id = ANY($1)`,
    [merchants],
  );
  const { rows: events } = await pool.query(
    `SELECT e.id, e.type FROM events e JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id
     WHERE w.id = ANY($1) AND e.type = ANY(w.event_types) AND e.occurred_at >= w.created_at`,
    [endpoints],
  );
  const { rows: deliveries } = await pool.query(
    `SELECT id, event_id, status, attempts, next_attempt_at, locked_by, locked_until
     FROM webhook_deliveries WHERE endpoint_id = ANY($1)`,
    [endpoints],
  );
  // Due a minute (of business time) before now and still there: it never ran, or it gave up.
  const { rows: overdueJobs } = await pool.query(
    `SELECT id, queue, failed_at IS NOT NULL AS failed, last_error FROM jobs
     WHERE failed_at IS NOT NULL OR run_at < (SELECT now() + offset_ms * interval '1 millisecond'
                                               FROM clock_state) - interval '1 minute'`,
  );
  const { rows: installments } = await pool.query(
    `SELECT a.installment_id, count(*) FILTER (WHERE t.status_id IN (2, 4, 6, 21, 22, 24, 25))::int AS approved
     FROM subscription_attempts a JOIN transactions t ON t.id = a.transaction_id
     WHERE t.merchant_id = ANY($1) GROUP BY a.installment_id`,
    [merchants],
  );
  const { rows: pos } = await pool.query(
    `SELECT p.id, count(t.id)::int AS n FROM pos_transactions p LEFT JOIN transactions t ON t.source_id = p.id
     WHERE p.merchant_id = ANY($1) GROUP BY p.id`,
    [merchants],
  );
  // Approved payments (refunds and the refunded state not told apart: the payment itself is what counts) by source.
  const { rows: checkouts } = await pool.query(
    `WITH paid AS (
       SELECT source_id, count(*)::int AS n, coalesce(sum(captured_cents), 0)::int AS cents FROM transactions
       WHERE merchant_id = ANY($1) AND source_id IS NOT NULL AND original_transaction_id IS NULL
         AND status_id IN (2, 4, 6, 21, 22, 24, 25)
       GROUP BY source_id)
     SELECT 'session' AS kind, s.id, coalesce(p.n, 0) AS approved, coalesce(p.cents, 0) AS approved_cents, true AS single,
            (s.completed_at IS NOT NULL)::int AS recorded_count, NULL::int AS recorded_cents, NULL::int AS limit_cents
     FROM payment_sessions s LEFT JOIN paid p ON p.source_id = s.id
     WHERE s.merchant_id = ANY($1) AND s.source_id IS NULL AND s.mode = 1
     UNION ALL
     SELECT 'link', l.id, coalesce(p.n, 0), coalesce(p.cents, 0), l.single_use, l.payment_count, NULL, NULL
     FROM payment_links l LEFT JOIN paid p ON p.source_id = l.id WHERE l.merchant_id = ANY($1)
     UNION ALL
     SELECT 'invoice', v.id, coalesce(p.n, 0), coalesce(p.cents, 0), false, NULL, v.paid_cents::int, v.total_cents::int
     FROM invoices v LEFT JOIN paid p ON p.source_id = v.id WHERE v.merchant_id = ANY($1)`,
    [merchants],
  );
  const ledger = await verifyLedger(pool);
  return {
    transactions: transactions.map((r) => ({
      id: r.id,
      method: r.method,
      statusId: r.status_id,
      referenceId: r.reference_id,
      originalTransactionId: r.original_transaction_id,
      authorizedCents: r.authorized_cents,
      capturedCents: r.captured_cents,
      refundedCents: r.refunded_cents,
      unresolved: r.unresolved,
    })),
    events: events.map((r) => ({ id: r.id, type: r.type })),
    deliveries: deliveries.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      status: r.status,
      attempts: r.attempts,
      next: `${r.next_attempt_at?.toISOString()} (locked by ${r.locked_by} until ${r.locked_until?.toISOString()})`,
    })),
    received: run.received,
    overdueJobs: overdueJobs.map((r) => ({
      id: Number(r.id),
      queue: r.queue,
      failed: r.failed,
      lastError: r.last_error,
    })),
    installmentPayments: installments.map((r) => ({ installmentId: r.installment_id, approved: r.approved })),
    posPayments: pos.map((r) => ({ posTransactionId: r.id, transactions: r.n })),
    checkouts: checkouts.map((r) => ({
      kind: r.kind,
      id: r.id,
      approved: r.approved,
      approvedCents: r.approved_cents,
      single: r.single,
      recordedCount: r.recorded_count,
      recordedCents: r.recorded_cents,
      limitCents: r.limit_cents,
    })),
    ledger: { ok: ledger.ok, problems: ledger.problems.map((p) => `${p.check}: ${p.detail}`) },
  };
}
