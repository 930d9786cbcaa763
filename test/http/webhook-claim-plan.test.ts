// The delivery worker's claim reads the due deliveries in the order they came due and stops after a few times its
// batch. Under a backlog (60,000 queued in the benchmark) the planner once started from the endpoint, read every queued
// delivery of it and sorted them all, then looked each candidate up by scanning a partial index: 23,000 rows read per
// claim to lease 64, a claim costing as much as the backlog was long. Planned as a long-lived worker connection keeps
// it (generic), with statistics taken after the backlog came and before it, the claim must read about what it leases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLAIM_IN_DUE_ORDER, claimDueStatement } from '../../src/modules/webhooks/webhooks.repo.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type ExplainRow, planOf, rowsRead, withGenericPlan } from '../query-plans.js';

const BACKLOG = 20_000;
const LIMIT = 100;
/** The candidates (four times the batch), the batch looked up by key, the batch leased, and a little room. */
const READ_AT_MOST = 7 * LIMIT;

describe('the webhook claim under a backlog', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    // The endpoint is never called (no workers run): loopback is only a URL the target check accepts.
    t = await startNode({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    m = await t.merchant();
    await t.ok(m, 'POST', '/v2/webhooks/endpoints', {
      name: 'backlog',
      endpointUrl: 'http://127.0.0.1:9/backlog',
      eventTypes: ['transaction.card.captured'],
    });
  });
  after(() => t.stop());

  /** Events the endpoint subscribes to: the fan-out queues a delivery for each. */
  const record = (count: number) =>
    t.query(
      `INSERT INTO events (id, type, merchant_id, resource_type, resource_id, occurred_at)
       SELECT gen_random_uuid(), 'transaction.card.captured', $1, 'transaction', gen_random_uuid()::text, now()
       FROM generate_series(1, $2)`,
      [m.id, count],
    );

  /** Rows of the deliveries the claim reads, planned generic, run in a transaction rolled back. */
  async function rowsReadByClaim(): Promise<number> {
    const { text } = claimDueStatement([]);
    return withGenericPlan(t.ctx.pool, 'claim', text, async (client) => {
      await client.query('BEGIN');
      try {
        await client.query(CLAIM_IN_DUE_ORDER);
        const { rows } = await client.query<ExplainRow>(
          `EXPLAIN (ANALYZE, FORMAT JSON)
           EXECUTE claim(now() + interval '1 minute', ${LIMIT}, 'plan-test', 60000, '{}', '{}', '{}', 64)`,
        );
        return rowsRead(planOf(rows), 'webhook_deliveries');
      } finally {
        await client.query('ROLLBACK');
      }
    });
  }

  it('reads about what it leases with statistics taken before the backlog came', async () => {
    await record(BACKLOG);
    // What was queued has been delivered when the statistics are taken; then a backlog comes.
    await t.query(`UPDATE webhook_deliveries SET status = 'Delivered', next_attempt_at = NULL`);
    await t.query('ANALYZE webhook_deliveries');
    await t.query('ANALYZE webhook_endpoints');
    await record(BACKLOG);
    const read = await rowsReadByClaim();
    assert.ok(read >= LIMIT, `read ${read}: the claim reads at least the batch it leases`);
    assert.ok(read <= READ_AT_MOST, `read ${read} delivery rows to lease at most ${LIMIT}`);
  });

  it('reads about what it leases with statistics that have seen the backlog', async () => {
    await t.query('ANALYZE webhook_deliveries');
    const read = await rowsReadByClaim();
    assert.ok(read >= LIMIT, `read ${read}: the claim reads at least the batch it leases`);
    assert.ok(read <= READ_AT_MOST, `read ${read} delivery rows to lease at most ${LIMIT}`);
  });
});
