import { randomInt } from 'node:crypto';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';

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
  | 'settlement';

export interface Posting {
  merchantId: string;
  kind: EntryKind;
  transactionId?: string | null;
  batchId?: string | null;
  lines: Array<{ account: LedgerAccount; amountCents: number }>;
}

const BALANCE_SLOTS = 8;

const POST_SQL = `
  WITH lines AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS l(account_id, amount)),
  entries AS (
    INSERT INTO ledger_entries (entry_set_id, account_id, kind, transaction_id, batch_id, amount_cents, created_at)
    SELECT $3, account_id, $4, $5, $6, amount, $7 FROM lines
  )
  INSERT INTO ledger_balances AS b (account_id, slot, balance_cents)
  SELECT account_id, $8, sum(amount) FROM lines GROUP BY account_id
  ON CONFLICT (account_id, slot) DO UPDATE SET balance_cents = b.balance_cents + EXCLUDED.balance_cents`;

/**
 * Posts balanced entry sets in the caller's transaction, so money moves exactly when the state change commits.
 * Account ids are immutable once created, so each node remembers them.
 */
export class Ledger {
  private readonly accountIds = new Map<string, Map<LedgerAccount, number>>();

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  async post(tx: Sql, posting: Posting): Promise<void> {
    const lines = posting.lines.filter((line) => line.amountCents !== 0);
    if (lines.length === 0) return;
    const sum = lines.reduce((total, line) => total + line.amountCents, 0);
    if (sum !== 0) throw new Error(`Unbalanced ${posting.kind} posting (${sum})`);
    const accounts = this.accountIds.get(posting.merchantId) ?? (await this.accountsIn(tx, posting.merchantId));
    await tx.query({
      name: 'ledger.post',
      text: POST_SQL,
      values: [
        lines.map((line) => accounts.get(line.account)!),
        lines.map((line) => line.amountCents),
        newId(),
        posting.kind,
        posting.transactionId ?? null,
        posting.batchId ?? null,
        this.clock.now(),
        randomInt(BALANCE_SLOTS),
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
