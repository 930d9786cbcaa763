// The cluster test's checker must catch each violation it looks for: a clean history passes, and each broken one
// (fed by hand, the way a bug would leave it) is named by its invariant.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Checkout, check, clientFailures, type Snapshot, type Violation } from '../cluster/checker.js';
import type { AttemptRecord, HistoryRecord, OpRecord } from '../cluster/history.js';

const SALE = 'a0000000-0000-4000-8000-000000000001';
const AUTH = 'a0000000-0000-4000-8000-000000000002';
const EVENT = 'e0000000-0000-4000-8000-000000000001';
const DELIVERY = 'd0000000-0000-4000-8000-000000000001';
const SESSION = 'c0000000-0000-4000-8000-000000000001';
const LINK = 'c0000000-0000-4000-8000-000000000002';
const INVOICE = 'c0000000-0000-4000-8000-000000000003';

function checkout(kind: Checkout['kind'], id: string, facts: Partial<Checkout>): Checkout {
  return {
    kind,
    id,
    approved: 0,
    approvedCents: 0,
    single: kind !== 'invoice',
    recordedCount: null,
    recordedCents: null,
    limitCents: null,
    ...facts,
  };
}

function op(partial: Partial<OpRecord> & Pick<OpRecord, 'opId' | 'kind' | 'key'>): OpRecord {
  return {
    t: 'op',
    merchantId: 'm',
    referenceId: null,
    targetId: null,
    amountCents: null,
    outcome: 'acknowledged',
    status: 200,
    resultId: null,
    result: null,
    at: 0,
    ...partial,
  };
}

function attempt(partial: Partial<AttemptRecord> & Pick<AttemptRecord, 'opId' | 'key'>): AttemptRecord {
  return { t: 'attempt', node: 'serve-1', at: 0, ms: 5, status: 200, error: null, body: null, ...partial };
}

/** A small run that holds: a sale retried after a crash, an authorization captured, one event delivered. */
function cleanRun(): { history: HistoryRecord[]; snapshot: Snapshot } {
  const history: HistoryRecord[] = [
    attempt({ opId: 1, key: 'k1', status: null, error: 'ECONNRESET', node: 'serve-1' }),
    attempt({ opId: 1, key: 'k1', node: 'serve-2', body: { id: SALE, status: 'Captured' } }),
    attempt({ opId: 1, key: 'k1', node: 'serve-3', body: { id: SALE, status: 'Captured' } }),
    op({ opId: 1, kind: 'card.sale', key: 'k1', referenceId: 'r1', amountCents: 1000, resultId: SALE }),
    attempt({ opId: 2, key: 'k2', body: { id: AUTH, status: 'Authorized' } }),
    op({ opId: 2, kind: 'card.auth', key: 'k2', referenceId: 'r2', amountCents: 500, resultId: AUTH }),
    attempt({ opId: 3, key: 'k3', status: 409 }),
    attempt({ opId: 3, key: 'k3', body: { id: AUTH, status: 'Captured' } }),
    op({
      opId: 3,
      kind: 'card.capture',
      key: 'k3',
      targetId: AUTH,
      amountCents: 500,
      resultId: AUTH,
      result: 'Approved',
    }),
    // A capture the processor failed (a 200 with Failed) moved nothing and is not counted.
    op({
      opId: 5,
      kind: 'card.capture',
      key: 'k5',
      targetId: AUTH,
      amountCents: 500,
      resultId: AUTH,
      result: 'Failed',
    }),
    attempt({ opId: 4, key: 'k4', status: 400 }),
    op({ opId: 4, kind: 'card.sale', key: 'k4', referenceId: 'r4', outcome: 'refused', status: 400 }),
    { t: 'fault', at: 1, kind: 'sigkill', target: 'serve-1' },
    // Hosted pages: a session paid; a single-use link raced by two payers (one paid, one found it used); an invoice.
    op({ opId: 6, kind: 'session.pay', key: 'h6', targetId: SESSION, resultId: SESSION, result: 'completed' }),
    op({ opId: 7, kind: 'link.pay', key: 'h7', targetId: LINK, result: 'completed' }),
    op({ opId: 8, kind: 'link.pay', key: 'h8', targetId: LINK, outcome: 'refused', result: 'closed' }),
    op({ opId: 9, kind: 'invoice.pay', key: 'h9', targetId: INVOICE, result: 'completed' }),
  ];
  const snapshot: Snapshot = {
    transactions: [
      tx(SALE, 'r1', { capturedCents: 1000, authorizedCents: 1000 }),
      tx(AUTH, 'r2', { capturedCents: 500, authorizedCents: 500 }),
    ],
    events: [{ id: EVENT, type: 'transaction.card.captured' }],
    deliveries: [{ id: DELIVERY, eventId: EVENT, status: 'Delivered' }],
    received: [
      { headerId: DELIVERY, bodyId: DELIVERY, accepted: false },
      { headerId: DELIVERY, bodyId: DELIVERY, accepted: true },
    ],
    overdueJobs: [],
    installmentPayments: [{ installmentId: 'i1', approved: 1 }],
    posPayments: [{ posTransactionId: 'p1', transactions: 1 }],
    checkouts: [
      checkout('session', SESSION, { approved: 1, approvedCents: 700, recordedCount: 1 }),
      checkout('link', LINK, { approved: 1, approvedCents: 800, recordedCount: 1 }),
      checkout('invoice', INVOICE, { approved: 1, approvedCents: 900, recordedCents: 900, limitCents: 900 }),
    ],
    ledger: { ok: true, problems: [] },
  };
  return { history, snapshot };
}

function tx(id: string, referenceId: string | null, amounts: Partial<Snapshot['transactions'][number]> = {}) {
  return {
    id,
    method: 'card' as const,
    statusId: 2,
    referenceId,
    originalTransactionId: null,
    authorizedCents: 0,
    capturedCents: 0,
    refundedCents: 0,
    unresolved: false,
    ...amounts,
  };
}

const invariants = (violations: Violation[]) => [...new Set(violations.map((v) => v.invariant))].sort();

describe('the cluster checker', () => {
  it('passes a run that holds', () => {
    const { history, snapshot } = cleanRun();
    assert.deepEqual(check(history, snapshot), []);
  });

  const broken: Array<[string, Violation['invariant'], (run: ReturnType<typeof cleanRun>) => void]> = [
    [
      'a retry answered with another transaction',
      'one-outcome-per-key',
      ({ history }) =>
        history.push(attempt({ opId: 1, key: 'k1', node: 'serve-3', body: { id: AUTH, status: 'Captured' } })),
    ],
    [
      'a retry answered with another status',
      'one-outcome-per-key',
      ({ history }) => history.push(attempt({ opId: 1, key: 'k1', status: 400 })),
    ],
    [
      'an acknowledged sale is not in the database',
      'acknowledged-exists',
      ({ snapshot }) => {
        snapshot.transactions = snapshot.transactions.filter((t) => t.id !== SALE);
      },
    ],
    [
      'one reference charged twice',
      'once-per-reference',
      ({ snapshot }) => snapshot.transactions.push(tx('a0000000-0000-4000-8000-000000000009', 'r1')),
    ],
    [
      'a refused sale moved money',
      'refused-moved-nothing',
      ({ snapshot }) => snapshot.transactions.push(tx('a0000000-0000-4000-8000-000000000008', 'r4')),
    ],
    [
      'a capture applied twice',
      'captured-once',
      ({ snapshot }) => {
        snapshot.transactions[1]!.capturedCents = 1000;
      },
    ],
    [
      'refunds above the captured amount',
      'captured-once',
      ({ snapshot }) => {
        snapshot.transactions[0]!.refundedCents = 1500;
      },
    ],
    [
      'an installment paid twice',
      'installment-paid-once',
      ({ snapshot }) => {
        snapshot.installmentPayments[0]!.approved = 2;
      },
    ],
    [
      'a POS transaction paid twice',
      'pos-paid-once',
      ({ snapshot }) => {
        snapshot.posPayments[0]!.transactions = 2;
      },
    ],
    [
      'a session paid twice',
      'checkout-paid-once',
      ({ snapshot }) => {
        Object.assign(snapshot.checkouts[0]!, { approved: 2, approvedCents: 1400, recordedCount: 2 });
      },
    ],
    [
      'a single-use link paid by both payers',
      'checkout-paid-once',
      ({ snapshot }) => {
        Object.assign(snapshot.checkouts[1]!, { approved: 2, approvedCents: 1600, recordedCount: 2 });
      },
    ],
    [
      'an invoice paid above its total',
      'checkout-paid-once',
      ({ snapshot }) => {
        Object.assign(snapshot.checkouts[2]!, { approved: 2, approvedCents: 1800, recordedCents: 1800 });
      },
    ],
    [
      'a link that did not count its payment',
      'checkout-recorded',
      ({ snapshot }) => {
        snapshot.checkouts[1]!.recordedCount = 0;
      },
    ],
    [
      'an invoice paid but not marked paid',
      'checkout-recorded',
      ({ snapshot }) => {
        snapshot.checkouts[2]!.recordedCents = 0;
      },
    ],
    [
      'a payer shown "Payment complete" for a session that has no payment',
      'acknowledged-exists',
      ({ snapshot }) => {
        Object.assign(snapshot.checkouts[0]!, { approved: 0, approvedCents: 0, recordedCount: 0 });
      },
    ],
    [
      'an event never delivered',
      'event-delivered',
      ({ snapshot }) => {
        snapshot.received = [];
      },
    ],
    [
      'an event with no delivery at all',
      'event-delivered',
      ({ snapshot }) => {
        snapshot.deliveries = [];
      },
    ],
    [
      'a repeated delivery under another body id',
      'delivery-id-stable',
      ({ snapshot }) => snapshot.received.push({ headerId: DELIVERY, bodyId: EVENT, accepted: true }),
    ],
    [
      'a due job that never ran',
      'due-jobs-ran',
      ({ snapshot }) => snapshot.overdueJobs.push({ id: 7, queue: 'ach.cutoff', failed: false, lastError: null }),
    ],
    [
      'a payment left in flight',
      'nothing-pending',
      ({ snapshot }) => {
        snapshot.transactions[0]!.unresolved = true;
      },
    ],
    [
      'books that do not balance',
      'ledger-clean',
      ({ snapshot }) => {
        snapshot.ledger = { ok: false, problems: ['entry-set-balances: entry set 9 sums to 1'] };
      },
    ],
    [
      'an event the receiver refused every time, marked delivered',
      'event-delivered',
      ({ snapshot }) => {
        snapshot.received = snapshot.received.filter((hit) => !hit.accepted);
      },
    ],
  ];

  for (const [name, invariant, breakIt] of broken) {
    it(`catches ${name}`, () => {
      const run = cleanRun();
      breakIt(run);
      assert.deepEqual(invariants(check(run.history, run.snapshot)), [invariant]);
    });
  }
});

describe('what a client saw fail (upgrade runs)', () => {
  it('is nothing when every attempt was answered below 500 and every operation got its outcome', () => {
    const history: HistoryRecord[] = [
      attempt({ opId: 1, key: 'k1', status: 409 }),
      attempt({ opId: 1, key: 'k1' }),
      op({ opId: 1, kind: 'card.sale', key: 'k1' }),
      attempt({ opId: 2, key: 'k2', status: 400 }),
      op({ opId: 2, kind: 'card.sale', key: 'k2', outcome: 'refused', status: 400 }),
    ];
    assert.deepEqual(clientFailures(history), []);
  });

  it('names a 5xx, an attempt without an answer, and an operation without an outcome', () => {
    const history: HistoryRecord[] = [
      attempt({ opId: 1, key: 'k1', status: 503 }),
      attempt({ opId: 1, key: 'k1', status: null, error: 'UND_ERR_SOCKET' }),
      attempt({ opId: 1, key: 'k1' }),
      op({ opId: 1, kind: 'card.sale', key: 'k1' }),
      op({ opId: 2, kind: 'card.sale', key: 'k2', outcome: 'unknown', status: null }),
    ];
    assert.deepEqual(
      clientFailures(history).map((v) => v.detail),
      ['op 1 on serve-1: 503 after 5 ms', 'op 1 on serve-1: UND_ERR_SOCKET after 5 ms', 'op 2 (card.sale): no outcome'],
    );
  });
});
