// The ACH batch statements reach transactions by primary key even when the statistics have never seen the merchant:
// a new merchant's first big window once made PostgreSQL rescan `transactions_merchant` for every entry (15 minutes
// for 100,000 entries). The plans are read with EXPLAIN after the statistics are made stale on purpose.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLAIM_WINDOW_SQL, FILE_ENTRIES_SQL, FILE_GROUPS_SQL } from '../../src/modules/payments/ach/ach-cutoff.js';
import { CLEAR_SLICE, CLEAR_SLICE_SQL } from '../../src/modules/payments/ach/clear.js';
import { RETURN_ENTRY_SQL } from '../../src/modules/payments/ach/returns.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type ExplainRow, planOf, scansOf } from '../query-plans.js';

const HISTORY = 3000; // rows of an older merchant, which the statistics know
const ENTRIES = 60; // the new merchant's window, which they do not

describe('ACH batch statements with statistics that predate the merchant', () => {
  let t: TestNode;
  let older: MerchantTenant;
  let fresh: MerchantTenant;

  const debit = (m: MerchantTenant, i: number) =>
    t.ok(m, 'POST', '/pay-api/v1/transactions/ach/payment', {
      amount: 10 + i,
      secCode: 1,
      requesterIPaddress: '203.0.113.7',
      accountNumber: String(100_000_000 + i),
      routingNumber: '021000021',
      accountHolderType: 2,
      ...ACH_PAYER,
    });

  const plan = async (sql: string, values: unknown[]) => {
    const rows = await t.query<ExplainRow>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
    return scansOf(planOf(rows), 'transactions');
  };
  const assertByPrimaryKey = (scans: string[], what: string) => {
    assert.ok(scans.length > 0, `${what}: the plan reads transactions`);
    for (const scan of scans) assert.match(scan, /^Index Scan transactions_pkey$/, `${what}: ${scans.join(', ')}`);
  };

  before(async () => {
    t = await startNode();
    older = await t.merchant();
    fresh = await t.merchant();
    const template = await debit(older, 0);
    // The older merchant's history, copied in SQL: only its size matters to the planner.
    await t.query(
      `INSERT INTO transactions
       SELECT (jsonb_populate_record(t, jsonb_build_object('id', gen_random_uuid(), 'idempotency_id', NULL,
         'duplicate_key', NULL))).*
       FROM transactions t, generate_series(1, $2) WHERE t.id = $1`,
      [template.transactionId, HISTORY],
    );
    await t.query('ALTER TABLE transactions SET (autovacuum_enabled = false)');
    await t.query('ALTER TABLE ach_entries SET (autovacuum_enabled = false)');
    await t.query('ANALYZE transactions');
    await t.query('ANALYZE ach_entries');
    for (let i = 1; i <= ENTRIES; i++) await debit(fresh, i);
  });
  after(() => t.stop());

  it('claims, totals, lists, clears and matches returns by primary key, and the file holds every entry', async () => {
    const [entry] = await t.query<{ processor_id: string; window_at: Date }>(
      'SELECT processor_id, window_at FROM ach_entries WHERE merchant_id = $1 LIMIT 1',
      [fresh.id],
    );
    const now = new Date();
    const newFile = '00000000-0000-4000-8000-000000000001';
    assertByPrimaryKey(
      await plan(CLAIM_WINDOW_SQL, [
        entry!.processor_id,
        entry!.window_at,
        now,
        newFile,
        newFile,
        '2030-01-02',
        '02100002',
        fresh.id,
      ]),
      'the claim',
    );

    const fileId = await t.ctx.services.ach.cutoff(entry!.processor_id, entry!.window_at);
    assert.ok(fileId, 'the cutoff wrote a file');
    const [file] = await t.query<{ entry_count: number }>('SELECT entry_count FROM ach_files WHERE id = $1', [fileId]);
    assert.equal(file!.entry_count, ENTRIES);

    assertByPrimaryKey(await plan(FILE_GROUPS_SQL, [fileId, fresh.id]), 'the batch totals');
    assertByPrimaryKey(await plan(FILE_ENTRIES_SQL, [fileId, fresh.id]), 'the file cursor');
    assertByPrimaryKey(
      await plan(CLEAR_SLICE_SQL, [fileId, now, fresh.id, '00000000-0000-0000-0000-000000000000', CLEAR_SLICE]),
      'the clearing',
    );
    const [traced] = await t.query<{ trace_number: string }>(
      'SELECT trace_number FROM ach_entries WHERE merchant_id = $1 AND file_id = $2 LIMIT 1',
      [fresh.id, fileId],
    );
    assertByPrimaryKey(
      await plan(RETURN_ENTRY_SQL, [entry!.processor_id, traced!.trace_number, fresh.id]),
      'the return match',
    );
  });
});
