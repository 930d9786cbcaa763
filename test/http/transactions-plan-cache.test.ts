// The compare-and-set that saves grouped payment outcomes is a prepared statement: its plan is made on a connection's
// first executions and kept. Made while `transactions` was small, it scanned the whole table for every group ever
// after (5,500 rows, 3 ms a group in the card-sale benchmark; 2.2 ms a POS sale). Planned as the outcome writer plans
// it (INDEX_ACCESS_ONLY first in its transaction), it must reach its rows by primary key once the table has grown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INDEX_ACCESS_ONLY } from '../../src/modules/payments/card/payment-outcome.js';
import { findTransaction, transactionQueries } from '../../src/modules/payments/transactions.repo.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type ExplainRow, planOf, scansOf, withGenericPlan } from '../query-plans.js';

const GROWN_TO = 3000;

describe('the grouped outcome compare-and-set, planned while transactions was small', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('keeps reaching its rows by primary key after the table grew', async () => {
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', {
      amount: 5,
      accountNumber: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2031,
    });
    const sold = (await findTransaction(t.ctx.pool, m.id, sale.transactionId))!;
    const { text } = transactionQueries.saveIfPending([{ transaction: sold, reference: 'r' }]);
    await t.query('ALTER TABLE transactions SET (autovacuum_enabled = false)');
    await t.query('ANALYZE transactions');

    // The plan made and kept as the writer's connection makes it: in its transaction, after INDEX_ACCESS_ONLY.
    await withGenericPlan(t.ctx.pool, 'save_if_pending', text, async (client) => {
      await client.query('BEGIN');
      await client.query(INDEX_ACCESS_ONLY);
      await client.query(`EXPLAIN EXECUTE save_if_pending('[]', '{}', 0)`);
      await client.query('COMMIT');

      await t.query(
        `INSERT INTO transactions
         SELECT (jsonb_populate_record(t, jsonb_build_object('id', gen_random_uuid(), 'idempotency_id', NULL,
           'duplicate_key', NULL))).*
         FROM transactions t, generate_series(1, $2) WHERE t.id = $1`,
        [sold.id, GROWN_TO],
      );
      const { rows } = await client.query<ExplainRow>(`EXPLAIN (FORMAT JSON) EXECUTE save_if_pending('[]', '{}', 0)`);
      const scans = scansOf(planOf(rows), 'transactions');
      assert.ok(scans.length > 0, 'the plan reads transactions');
      for (const scan of scans) assert.match(scan, /^Index Scan transactions_pkey$/, scans.join(', '));
    });
  });
});
