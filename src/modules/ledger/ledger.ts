import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import type { Tx } from '../../platform/db/tx.js';

/**
 * The accounts every merchant has. Signs: debit positive, credit negative.
 * - card_holds / card_holds_offset: a memo pair for authorization holds (money reserved on the card, not moved).
 * - processor_receivable: what the processor owes for captured, unsettled card payments (an asset).
 * - merchant_payable: what is owed to the merchant for them (a liability).
 * Settlement pays the net out: merchant_payable is debited and processor_receivable credited.
 */
export type LedgerAccount = 'card_holds' | 'card_holds_offset' | 'processor_receivable' | 'merchant_payable';
export const LEDGER_ACCOUNTS: readonly LedgerAccount[] = [
  'card_holds',
  'card_holds_offset',
  'processor_receivable',
  'merchant_payable',
];

export type EntryKind =
  | 'authorization_hold'
  | 'hold_release'
  | 'capture'
  | 'capture_reversal'
  | 'refund'
  | 'tip_adjustment'
  | 'ach_clearing'
  | 'ach_return'
  | 'settlement';

export interface Posting {
  merchantId: string;
  kind: EntryKind;
  transactionId?: string | null;
  batchId?: string | null;
  lines: Array<{ account: LedgerAccount; amountCents: number }>;
}

/**
 * Balance rows per account. A posting adds to the slot of its database session (backend pid), so concurrent
 * transactions, which run on distinct sessions, rarely touch the same row; an account's balance is the sum of its slots.
 */
const BALANCE_SLOTS = 32;

const POST_SQL = `
  WITH lines AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::uuid[], $6::uuid[], $7::bigint[])
      AS l(merchant_id, entry_set_id, account_id, kind, transaction_id, batch_id, amount)
  ),
  entries AS (
    INSERT INTO ledger_entries
      (merchant_id, entry_set_id, account_id, kind, transaction_id, batch_id, amount_cents, created_at)
    SELECT merchant_id, entry_set_id, account_id, kind, transaction_id, batch_id, amount, $8 FROM lines
  )
  INSERT INTO ledger_balances AS b (merchant_id, account_id, slot, balance_cents)
  SELECT merchant_id, account_id, pg_backend_pid() % ${BALANCE_SLOTS}, sum(amount) FROM lines
  GROUP BY merchant_id, account_id ORDER BY account_id
  ON CONFLICT (account_id, slot) DO UPDATE SET balance_cents = b.balance_cents + EXCLUDED.balance_cents`;

/**
 * Posts balanced entry sets in the caller's transaction, so money moves exactly when the state change commits.
 * A posting is checked at once but written with COMMIT (the last statement before it, in the same round trip), all
 * of a transaction's postings in one statement: balance rows are the hottest rows in the system, and written last
 * their locks are held for one round trip.
 * Account ids are immutable once created, so each node remembers them.
 */
export class Ledger {
  private readonly accountIds = new Map<string, Map<LedgerAccount, number>>();
  private readonly queued = new WeakMap<Tx, Posting[]>();

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  async post(tx: Tx, posting: Posting): Promise<void> {
    const lines = posting.lines.filter((line) => line.amountCents !== 0);
    if (lines.length === 0) return;
    const sum = lines.reduce((total, line) => total + line.amountCents, 0);
    if (sum !== 0) throw new Error(`Unbalanced ${posting.kind} posting (${sum})`);
    let queue = this.queued.get(tx);
    if (!queue) {
      const postings: Posting[] = [];
      queue = postings;
      this.queued.set(tx, postings);
      tx.beforeCommit(() => this.write(tx, postings));
    }
    queue.push({ ...posting, lines });
  }

  private async write(tx: Tx, postings: Posting[]): Promise<void> {
    this.queued.delete(tx);
    const columns = {
      merchants: [] as string[],
      sets: [] as string[],
      accounts: [] as number[],
      kinds: [] as string[],
      transactions: [] as Array<string | null>,
      batches: [] as Array<string | null>,
      amounts: [] as number[],
    };
    // Accounts read inside this transaction are not remembered past it (it may roll back), but they are for the rest
    // of this write: a batch of postings of one merchant not yet known here reads them once, not once per posting.
    const readHere = new Map<string, Map<LedgerAccount, number>>();
    for (const posting of postings) {
      let accounts = this.accountIds.get(posting.merchantId) ?? readHere.get(posting.merchantId);
      if (!accounts) {
        accounts = await this.accountsIn(tx, posting.merchantId);
        readHere.set(posting.merchantId, accounts);
      }
      const setId = newId();
      for (const line of posting.lines) {
        columns.merchants.push(posting.merchantId);
        columns.sets.push(setId);
        columns.accounts.push(accounts.get(line.account)!);
        columns.kinds.push(posting.kind);
        columns.transactions.push(posting.transactionId ?? null);
        columns.batches.push(posting.batchId ?? null);
        columns.amounts.push(line.amountCents);
      }
    }
    tx.defer({
      name: 'ledger.post',
      text: POST_SQL,
      values: [
        columns.merchants,
        columns.sets,
        columns.accounts,
        columns.kinds,
        columns.transactions,
        columns.batches,
        columns.amounts,
        this.clock.now(),
      ],
    });
  }

  /**
   * Creates and remembers a merchant's accounts outside any transaction (idempotent). Services call it before they
   * open the transaction that posts, so a posting never waits for a second pool connection while holding one.
   */
  async warm(merchantId: string): Promise<void> {
    if (!this.accountIds.has(merchantId)) await this.accounts(merchantId);
  }

  /** A transaction's entries, in the order they were posted (its page in the dashboard shows them). */
  async entriesOf(
    merchantId: string,
    transactionId: string,
  ): Promise<Array<{ account: string; kind: string; amountCents: number; createdAt: Date }>> {
    const { rows } = await this.pool.query<{ code: string; kind: string; amount_cents: string; created_at: Date }>(
      `SELECT a.code, e.kind, e.amount_cents, e.created_at
       FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
       WHERE e.merchant_id = $1 AND e.transaction_id = $2 ORDER BY e.id`,
      [merchantId, transactionId],
    );
    return rows.map((r) => ({
      account: r.code,
      kind: r.kind,
      amountCents: Number(r.amount_cents),
      createdAt: r.created_at,
    }));
  }

  /** Fallback inside the caller's transaction; not cached, since the transaction may roll back. */
  private async accountsIn(tx: Sql, merchantId: string): Promise<Map<LedgerAccount, number>> {
    await tx.query(
      `INSERT INTO ledger_accounts (merchant_id, code) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [merchantId, LEDGER_ACCOUNTS],
    );
    const { rows } = await tx.query<{ id: number; code: LedgerAccount }>(
      'SELECT id, code FROM ledger_accounts WHERE merchant_id = $1',
      [merchantId],
    );
    return new Map(rows.map((row) => [row.code, row.id]));
  }

  private async accounts(merchantId: string): Promise<Map<LedgerAccount, number>> {
    const known = this.accountIds.get(merchantId);
    if (known) return known;
    await this.pool.query(
      `INSERT INTO ledger_accounts (merchant_id, code) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [merchantId, LEDGER_ACCOUNTS],
    );
    const { rows } = await this.pool.query<{ id: number; code: LedgerAccount }>(
      'SELECT id, code FROM ledger_accounts WHERE merchant_id = $1',
      [merchantId],
    );
    const map = new Map(rows.map((row) => [row.code, row.id]));
    if (this.accountIds.size > 100_000) this.accountIds.clear();
    this.accountIds.set(merchantId, map);
    return map;
  }
}

/** Entry lines for each money movement, so the services and the tests speak the same vocabulary. */
export const lines = {
  hold: (cents: number) => [
    { account: 'card_holds' as const, amountCents: cents },
    { account: 'card_holds_offset' as const, amountCents: -cents },
  ],
  releaseHold: (cents: number) => [
    { account: 'card_holds' as const, amountCents: -cents },
    { account: 'card_holds_offset' as const, amountCents: cents },
  ],
  capture: (cents: number) => [
    { account: 'processor_receivable' as const, amountCents: cents },
    { account: 'merchant_payable' as const, amountCents: -cents },
  ],
  reverseCapture: (cents: number) => [
    { account: 'processor_receivable' as const, amountCents: -cents },
    { account: 'merchant_payable' as const, amountCents: cents },
  ],
  settle: (netCents: number) => [
    { account: 'merchant_payable' as const, amountCents: netCents },
    { account: 'processor_receivable' as const, amountCents: -netCents },
  ],
};
