import type { Sql } from '../../platform/db/pool.js';
import { sqlIds } from '../../platform/db/sql-ids.js';
import { REFUND_TYPES, SALE_TYPES, TransactionStatus } from '../payments/transactions.model.js';
import { BatchStatus } from '../settlements/settlements.model.js';

const SALES = sqlIds(...SALE_TYPES);
const REFUNDS = sqlIds(...REFUND_TYPES);
/**
 * What a transaction should have posted to the processor receivable: nothing once returned (ACH) or voided, minus
 * what a refund paid back, else what it captured.
 */
const EXPECTED_POSTED = `CASE WHEN t.method = 'ach' AND t.status_id = ${TransactionStatus.ChargedBack} THEN 0
                 WHEN t.type_id IN (${REFUNDS}) THEN -t.captured_cents
                 WHEN t.status_id = ${TransactionStatus.Voided} THEN 0 ELSE t.captured_cents END`;

export interface LedgerProblem {
  check: string;
  detail: string;
}

export interface LedgerReport {
  ok: boolean;
  checked: { entrySets: number; accounts: number; settledTransactions: number; batches: number };
  problems: LedgerProblem[];
}

/**
 * `tessera ledger verify`: the books must agree with themselves and with the transactions.
 * 1. Every entry set balances (its lines sum to zero).
 * 2. Every stored balance equals the sum of its account's entries.
 * 3. Every settled transaction is in exactly one batch, and that batch is Settled.
 * 4. Every closed batch's totals equal the sums of its transactions.
 * 5. Every card and ACH transaction's receivable entries equal the money it moved (captured or cleared; negative
 *    for refunds and ACH credits; a returned ACH entry moved nothing).
 */
export async function verifyLedger(sql: Sql, limit = 50): Promise<LedgerReport> {
  const problems: LedgerProblem[] = [];

  const unbalanced = await sql.query<{ entry_set_id: string; sum: number }>(
    `SELECT /* across merchants: the audit */ entry_set_id, sum(amount_cents)::bigint AS sum FROM ledger_entries
     GROUP BY merchant_id, entry_set_id HAVING sum(amount_cents) <> 0 LIMIT $1`,
    [limit],
  );
  for (const row of unbalanced.rows) {
    problems.push({ check: 'entry-set-balances', detail: `entry set ${row.entry_set_id} sums to ${row.sum}` });
  }

  const balances = await sql.query<{
    account_id: number;
    code: string;
    merchant_id: string;
    stored: number;
    entries: number;
  }>(
    `SELECT /* across merchants: the audit */ a.id AS account_id, a.code, a.merchant_id,
            coalesce((SELECT sum(balance_cents) FROM ledger_balances b
                      WHERE b.merchant_id = a.merchant_id AND b.account_id = a.id), 0)::bigint AS stored,
            coalesce((SELECT sum(amount_cents) FROM ledger_entries e
                      WHERE e.merchant_id = a.merchant_id AND e.account_id = a.id), 0)::bigint AS entries
     FROM ledger_accounts a`,
  );
  for (const row of balances.rows) {
    if (row.stored !== row.entries) {
      problems.push({
        check: 'stored-balance',
        detail: `account ${row.code} of merchant ${row.merchant_id}: stored ${row.stored}, entries sum ${row.entries}`,
      });
    }
  }

  const orphans = await sql.query<{ id: string; batch_id: string | null; batch_status: number | null }>(
    `SELECT /* across merchants: the audit */ t.id, t.batch_id, b.status_id AS batch_status FROM transaction_amounts t
     LEFT JOIN batch_states b ON b.merchant_id = t.merchant_id AND b.id = t.batch_id
     WHERE (t.status_id = ${TransactionStatus.Settled} OR t.settled_at IS NOT NULL)
       AND (b.id IS NULL OR b.status_id <> ${BatchStatus.Settled}) LIMIT $1`,
    [limit],
  );
  for (const row of orphans.rows) {
    problems.push({
      check: 'settled-in-one-batch',
      detail: `transaction ${row.id} is settled but its batch ${row.batch_id ?? '(none)'} is ${row.batch_status ?? 'missing'}`,
    });
  }

  const batches = await sql.query<{
    id: string;
    transaction_count: number;
    sales_cents: number;
    refunds_cents: number;
    net_cents: number;
    live_count: number;
    live_sales: number;
    live_refunds: number;
  }>(
    `SELECT /* across merchants: the audit */ b.id, b.transaction_count, b.sales_cents, b.refunds_cents, b.net_cents,
            count(t.id)::int AS live_count,
            coalesce(sum(t.captured_cents) FILTER (WHERE t.type_id IN (${SALES})), 0)::bigint AS live_sales,
            coalesce(sum(t.captured_cents) FILTER (WHERE t.type_id IN (${REFUNDS})), 0)::bigint AS live_refunds
     FROM batch_states b LEFT JOIN transaction_amounts t ON t.merchant_id = b.merchant_id AND t.batch_id = b.id
     WHERE b.status_id <> ${BatchStatus.Open}
     GROUP BY b.merchant_id, b.id, b.transaction_count, b.sales_cents, b.refunds_cents, b.net_cents`,
  );
  for (const b of batches.rows) {
    const ok =
      b.transaction_count === b.live_count &&
      b.sales_cents === b.live_sales &&
      b.refunds_cents === b.live_refunds &&
      b.net_cents === b.live_sales - b.live_refunds;
    if (!ok) {
      problems.push({
        check: 'batch-totals',
        detail: `batch ${b.id}: stored count/sales/refunds/net ${b.transaction_count}/${b.sales_cents}/${b.refunds_cents}/${b.net_cents}, transactions say ${b.live_count}/${b.live_sales}/${b.live_refunds}/${b.live_sales - b.live_refunds}`,
      });
    }
  }

  const moved = await sql.query<{ id: string; expected: number; posted: number }>(
    `SELECT /* across merchants: the audit */ t.id,
            ${EXPECTED_POSTED}::bigint AS expected,
            coalesce(sum(e.amount_cents), 0)::bigint AS posted
     FROM transaction_amounts t
     LEFT JOIN (ledger_entries e JOIN ledger_accounts a
                ON a.merchant_id = e.merchant_id AND a.id = e.account_id AND a.code = 'processor_receivable')
       ON e.merchant_id = t.merchant_id AND e.transaction_id = t.id
     GROUP BY t.merchant_id, t.id, t.method, t.type_id, t.status_id, t.captured_cents
     HAVING coalesce(sum(e.amount_cents), 0) <> ${EXPECTED_POSTED}
     LIMIT $1`,
    [limit],
  );
  for (const row of moved.rows) {
    problems.push({
      check: 'transaction-postings',
      detail: `transaction ${row.id}: captured ${row.expected}, receivable posted ${row.posted}`,
    });
  }

  const counts = await sql.query<{ sets: number; settled: number }>(
    `SELECT /* across merchants: the audit */ (SELECT count(DISTINCT entry_set_id) FROM ledger_entries)::int AS sets,
            (SELECT count(*) FROM transaction_amounts WHERE settled_at IS NOT NULL)::int AS settled`,
  );
  return {
    ok: problems.length === 0,
    checked: {
      entrySets: counts.rows[0]!.sets,
      accounts: balances.rows.length,
      settledTransactions: counts.rows[0]!.settled,
      batches: batches.rows.length,
    },
    problems,
  };
}
