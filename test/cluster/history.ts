// The cluster test's history: every request the load driver sent and what came back, every logical operation with
// its outcome, and every fault injected, as JSON lines (one file per run, replayable by its seed).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

/** One logical operation of the load: one idempotency key, however many attempts it took. */
export interface OpRecord {
  t: 'op';
  opId: number;
  kind: OpKind;
  merchantId: string;
  key: string;
  /** The operation's own reference (its `referenceId`), unique per operation; null for follow-ups. */
  referenceId: string | null;
  /** The transaction a follow-up acts on (capture, reversal). */
  targetId: string | null;
  amountCents: number | null;
  /** acknowledged: a 2xx; refused: a definitive 4xx; unknown: no definitive answer before the deadline. */
  outcome: 'acknowledged' | 'refused' | 'unknown';
  status: number | null;
  /** What the answer named: the transaction (or POS transaction) it made or moved. */
  resultId: string | null;
  /** The answer's own status word (Approved, Captured, Declined, Failed, ...): a 200 can carry a failure. */
  result: string | null;
  at: number;
}

export type OpKind =
  | 'card.sale'
  | 'card.sale.v2'
  | 'card.auth'
  | 'card.capture'
  | 'card.reversal'
  | 'ach.debit'
  | 'pos.sale'
  | 'subscription.create'
  | 'session.create'
  | 'link.create'
  | 'invoice.create'
  | 'invoice.publish'
  /** Paid through a hosted page (no idempotency key): targetId is the session, link or invoice. */
  | 'session.pay'
  | 'link.pay'
  | 'invoice.pay';

/** One HTTP attempt of an operation. */
export interface AttemptRecord {
  t: 'attempt';
  opId: number;
  key: string;
  node: string;
  at: number;
  ms: number;
  status: number | null;
  error: string | null;
  /** The answer's identifying fields (never card data). */
  body: { id: string | null; status: string | null } | null;
}

export interface FaultRecord {
  t: 'fault';
  at: number;
  kind:
    | 'sigkill'
    | 'restart'
    | 'sigstop'
    | 'sigcont'
    | 'pg-crash'
    | 'pg-restart'
    | 'clock-advance'
    | 'latency'
    | 'injector-error'
    | 'exited'
    | 'failover'
    | 'upgrade';
  target: string;
  detail?: string;
}

export type HistoryRecord = OpRecord | AttemptRecord | FaultRecord;

export class HistoryWriter {
  constructor(readonly file: string) {
    writeFileSync(file, '');
  }

  write(record: HistoryRecord): void {
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }
}

export function readHistory(file: string): HistoryRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HistoryRecord);
}
