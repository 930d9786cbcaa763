// A generated invoice number comes from the merchant's counter without reading its invoices: the walk to the next free
// number once ran on every create, and with statistics that had not seen the merchant the planner (believing it had
// one invoice) read all of the merchant's invoices for each probe, under the counter's row lock — 7 ms a create after
// five seconds of the benchmark, and growing with every invoice. The walk now runs only after the counter's next
// number turned out taken (a client chose it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertInvoiceQuery } from '../../src/modules/invoices/invoices.repo.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type ExplainRow, planOf, scansOf } from '../query-plans.js';

const HISTORY = 3000; // invoices of an older merchant, which the statistics know
const FRESH = 2000; // the new merchant's, which they do not

describe('the next invoice number with statistics that predate the merchant', () => {
  let t: TestNode;
  let older: MerchantTenant;
  let fresh: MerchantTenant;

  const insertNumbered = (merchantId: string, prefix: string, count: number) =>
    t.query(
      `INSERT INTO invoices (id, merchant_id, number, status_id, issue_date, due_date, lines, payment_method_type_id,
         total_cents, created_at, modified_at)
       SELECT gen_random_uuid(), $1, $2 || lpad(n::text, 6, '0'), 1, now(), now(), '[]', 1, 0, now(), now()
       FROM generate_series(1, $3::int) AS n`,
      [merchantId, prefix, count],
    );

  before(async () => {
    t = await startNode();
    older = await t.merchant();
    fresh = await t.merchant();
    await insertNumbered(older.id, 'OLD-', HISTORY);
    await t.query('ALTER TABLE invoices SET (autovacuum_enabled = false)');
    await t.query('ANALYZE invoices');
    await insertNumbered(fresh.id, 'INV-', FRESH);
    await t.query('INSERT INTO invoice_number_counters (merchant_id, last_value) VALUES ($1, $2)', [fresh.id, FRESH]);
  });
  after(() => t.stop());

  it('takes the counter’s next number without reading the merchant’s invoices, and walks past one a client chose', async () => {
    const query = insertInvoiceQuery({
      id: '00000000-0000-4000-8000-000000000001',
      merchantId: fresh.id,
      number: null,
      customerId: null,
      customer: null,
      issueDate: new Date(),
      dueDate: new Date(),
      lines: [],
      discountMpct: null,
      taxMpct: null,
      shippingFeeCents: null,
      feesMpct: null,
      notes: null,
      paymentMethodTypeId: 1,
      referenceId: null,
      totalCents: 0,
      at: new Date(),
    });
    const rows = await t.query<ExplainRow>(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
    assert.deepEqual(scansOf(planOf(rows), 'invoices'), []);

    const create = (number?: string) =>
      t.ok(fresh, 'POST', '/pay-int-api/invoices', {
        ...(number ? { number } : {}),
        customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        lineItems: [{ productName: 'Consulting', quantity: 1, unitPrice: 10 }],
      });
    assert.equal((await create()).number, `INV-00${FRESH + 1}`);
    // The client takes the next two generated numbers: the next create collides, walks, and gets the one after.
    await create(`INV-00${FRESH + 2}`);
    await create(`INV-00${FRESH + 3}`);
    assert.equal((await create()).number, `INV-00${FRESH + 4}`);
    assert.equal((await create()).number, `INV-00${FRESH + 5}`);
  });
});
