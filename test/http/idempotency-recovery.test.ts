// A request cut off with its node (it died, or lost its liveness session) leaves an idempotency claim and perhaps an
// operation in flight. The next retry takes the claim over at once and answers with what the first attempt did,
// settling it first where needed; it never does the work a second time. The node here is made "dead" by handing its
// claim and operation to a node id that holds no liveness lock, which is exactly what a SIGKILL leaves behind (the
// end-to-end test kills real processes).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { findUnresolved } from '../../src/modules/payments/transactions-list.repo.js';
import { NODE_LOCK_CLASS } from '../../src/platform/cluster/node-liveness.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
const DEAD = 7; // a node id nobody holds (checked below)
let seq = 0;
const ref = () => `recovery-${++seq}`;

describe('idempotent retries after the first attempt was cut off', () => {
  let slow: TestNode; // its sandbox network answers after 1.6 s: 0.8 s there, 0.8 s back
  let b: TestNode;
  let m: MerchantTenant;
  before(async () => {
    slow = await startNode({ env: { SANDBOX_CARD_LATENCY_MS: '1600' } });
    b = await startNode({ database: slow.database });
    m = await b.merchant({ body: { settings: { isTipsEnabled: true } } });
    const [alive] = await b.query<{ alive: boolean }>('SELECT tessera_node_alive($1) AS alive', [DEAD]);
    assert.equal(alive!.alive, false);
  });
  after(async () => {
    await b.stop();
    await slow.stop();
  });

  const post = (node: TestNode, path: string, body: unknown, key?: string) =>
    node.request('POST', path, { token: m.token, body, headers: key ? { 'idempotency-key': key } : {} });
  const sale = (node: TestNode, body: Record<string, unknown>, key?: string) =>
    post(node, '/pay-api/v1/transactions/sale', { amount: 12, ...CARD, ...body }, key);

  /** The node holding `key` dies: its claim and the operation it has in flight now belong to nobody alive. */
  async function dies(key: string, transactionId?: string) {
    await b.query('UPDATE idempotency_keys SET holder = $2 WHERE key = $1', [key, DEAD]);
    if (transactionId) {
      await b.query(
        `UPDATE transactions SET pending_operation = jsonb_set(pending_operation, '{node}', to_jsonb($2::int))
         WHERE id = $1 AND pending_operation IS NOT NULL`,
        [transactionId, DEAD],
      );
    }
  }

  /** The node died after its work committed, before it stored the response. */
  async function diedBeforeAnswering(key: string) {
    await b.query(
      `UPDATE idempotency_keys SET state = 'in_progress', status_code = NULL, content_type = NULL,
         response_body = NULL, holder = $2 WHERE key = $1`,
      [key, DEAD],
    );
  }

  const pendingSale = (referenceId: string) =>
    eventually(
      async () => {
        const [row] = await b.query<{ id: string; at_network: boolean }>(
          `SELECT t.id, EXISTS (SELECT 1 FROM sandbox_card_network n WHERE n.reference = t.id::text) AS at_network
         FROM transactions t WHERE t.reference_id = $1 AND t.status_id = 24`,
          [referenceId],
        );
        return row;
      },
      5000,
      5,
    );

  it('holds node liveness as an advisory lock of the class the SQL function reads', async () => {
    const migration = readFileSync('src/platform/db/migrations/0019_node_liveness.sql', 'utf8');
    assert.match(migration, new RegExp(`classid = ${NODE_LOCK_CLASS}::oid`));
    const held = await b.query<{ objid: number; alive: boolean }>(
      `SELECT objid::text::int AS objid, tessera_node_alive(objid::text::int) AS alive FROM pg_locks
       WHERE locktype = 'advisory' AND classid = $1::oid AND database = (
         SELECT oid FROM pg_database WHERE datname = current_database())`,
      [NODE_LOCK_CLASS],
    );
    assert.equal(held.length, 2, 'one liveness lock per node');
    assert.ok(held.every((row) => row.alive));
  });

  it('a sale the network approved: the retry settles it and answers Captured, as does the first node', async () => {
    const key = ref();
    const referenceId = ref();
    const first = sale(slow, { referenceId }, key);
    const pending = await eventually(
      async () => {
        const row = await pendingSale(referenceId);
        return row.at_network ? row : undefined;
      },
      5000,
      5,
    );
    await dies(key, pending.id);
    const retry = await sale(b, { referenceId }, key);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.transactionId, pending.id);
    assert.equal(retry.body.status, 'Captured');
    assert.equal(retry.body.processedAmount, 12);
    // The node taken for dead finishes too: its outcome lost the compare-and-set and it reports the row as it is.
    const late = await first;
    assert.equal(late.status, 200, late.text);
    assert.equal(late.body.transactionId, pending.id);
    assert.equal(late.body.status, 'Captured');
    // Its response was not stored over the retry's: the claim is the retry's.
    const replay = await sale(b, { referenceId }, key);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.text, retry.text);
    const rows = await b.query('SELECT id FROM transactions WHERE reference_id = $1', [referenceId]);
    assert.equal(rows.length, 1);
    const approvals = await b.query(
      "SELECT 1 FROM sandbox_card_network WHERE reference = $1 AND outcome->>'kind' = 'approved'",
      [pending.id],
    );
    assert.equal(approvals.length, 1);
    assert.deepEqual((await verifyLedger(b.ctx.pool)).problems, []);
  });

  it('a sale not yet at the network: the retry refuses its reference there, and both answer Failed', async () => {
    const key = ref();
    const referenceId = ref();
    const first = sale(slow, { referenceId }, key);
    const pending = await pendingSale(referenceId);
    assert.equal(pending.at_network, false);
    await dies(key, pending.id);
    // The reconciler sweep sees it at once too: its node is gone.
    assert.ok((await findUnresolved(b.ctx.pool, new Date(0), 500)).includes(pending.id));
    const retry = await sale(b, { referenceId }, key);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.transactionId, pending.id);
    assert.equal(retry.body.status, 'Failed');
    const late = await first;
    assert.equal(late.body.transactionId, pending.id);
    assert.equal(late.body.status, 'Failed');
    const network = await b.query<{ operation: string; kind: string }>(
      "SELECT operation, outcome->>'kind' AS kind FROM sandbox_card_network WHERE reference = $1",
      [pending.id],
    );
    assert.deepEqual(network, [{ operation: 'reversed', kind: 'failed' }], 'the late call was refused');
    // Nothing was charged, so the same card, amount and referenceId may be paid again with a new key.
    const again = await sale(b, { referenceId }, ref());
    assert.equal(again.body.status, 'Captured', again.text);
  });

  it('a sale whose node died after it finished: the answer is the sale, not IsDuplicate or a second sale', async () => {
    const key = ref();
    const referenceId = ref();
    const first = await sale(b, { referenceId }, key);
    assert.equal(first.body.status, 'Captured');
    await diedBeforeAnswering(key);
    const retry = await sale(b, { referenceId }, key);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.transactionId, first.body.transactionId);
    assert.equal(retry.body.status, 'Captured');
    assert.equal(retry.body.processedAmount, first.body.processedAmount);
    assert.equal(retry.body.details.authCode, first.body.details.authCode);
    assert.equal((await b.query('SELECT 1 FROM transactions WHERE reference_id = $1', [referenceId])).length, 1);
  });

  it('a capture, a refund and a tip adjustment whose node died are answered, not repeated', async () => {
    const auth = await post(b, '/pay-api/v1/transactions/auth', { amount: 20, ...CARD, referenceId: ref() });
    const id = auth.body.transactionId;
    const captureKey = ref();
    const capture = await post(b, '/pay-api/v1/transactions/capture', { transactionId: id, amount: 15 }, captureKey);
    assert.equal(capture.body.status, 'Captured', capture.text);
    await diedBeforeAnswering(captureKey);
    const captureRetry = await post(
      b,
      '/pay-api/v1/transactions/capture',
      { transactionId: id, amount: 15 },
      captureKey,
    );
    assert.equal(captureRetry.status, 200, captureRetry.text);
    assert.equal(captureRetry.body.status, 'Captured');
    assert.equal(captureRetry.body.processedAmount, 15);
    const captures = await b.query(
      "SELECT 1 FROM sandbox_card_network WHERE operation = 'capture' AND original_reference = $1",
      [id],
    );
    assert.equal(captures.length, 1, 'captured once at the network');

    const tipKey = ref();
    const tip = await post(b, '/pay-api/v1/transactions/tip-adjustment', { transactionId: id, tipAmount: 2 }, tipKey);
    assert.equal(tip.status, 200, tip.text);
    await diedBeforeAnswering(tipKey);
    const tipRetry = await post(
      b,
      '/pay-api/v1/transactions/tip-adjustment',
      { transactionId: id, tipAmount: 2 },
      tipKey,
    );
    assert.equal(tipRetry.status, 200, tipRetry.text);
    assert.equal(tipRetry.body.processedAmount, tip.body.processedAmount);

    const refundKey = ref();
    const refund = await post(b, '/pay-api/v1/transactions/return', { transactionId: id, amount: 5 }, refundKey);
    assert.equal(refund.body.status, 'Refunded', refund.text);
    await diedBeforeAnswering(refundKey);
    const refundRetry = await post(b, '/pay-api/v1/transactions/return', { transactionId: id, amount: 5 }, refundKey);
    assert.equal(refundRetry.status, 200, refundRetry.text);
    assert.equal(refundRetry.body.transactionId, refund.body.transactionId);
    assert.equal(refundRetry.body.processedAmount, 5);
    const refunds = await b.query('SELECT 1 FROM transactions WHERE original_transaction_id = $1', [id]);
    assert.equal(refunds.length, 1, 'one refund');
    assert.deepEqual((await verifyLedger(b.ctx.pool)).problems, []);
  });

  it('a capture still in flight when its node died is settled by the retry', async () => {
    const auth = await post(slow, '/pay-api/v1/transactions/auth', { amount: 20, ...CARD, referenceId: ref() });
    const id = auth.body.transactionId;
    const key = ref();
    const first = post(slow, '/pay-api/v1/transactions/capture', { transactionId: id }, key);
    await eventually(
      async () => {
        const [row] = await b.query<{ done: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM sandbox_card_network WHERE operation = 'capture' AND original_reference = $1)
           AS done`,
          [id],
        );
        return row!.done;
      },
      5000,
      5,
    );
    await dies(key, id);
    const retry = await post(b, '/pay-api/v1/transactions/capture', { transactionId: id }, key);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.status, 'Captured');
    assert.equal(retry.body.processedAmount, 20);
    assert.equal((await first).body.status, 'Captured');
    assert.deepEqual((await verifyLedger(b.ctx.pool)).problems, []);
  });

  it('ACH debits, ACH holds and payment sessions whose node died are answered, not repeated', async () => {
    const achKey = ref();
    const referenceId = ref();
    const body = {
      amount: 10.37,
      secCode: 1,
      requesterIPaddress: '203.0.113.7',
      accountNumber: '123456789',
      routingNumber: '021000021',
      accountHolderType: 2,
      ...ACH_PAYER,
    };
    const debit = await post(b, '/pay-api/v1/transactions/ach/payment', body, achKey);
    assert.equal(debit.status, 200, debit.text);
    await diedBeforeAnswering(achKey);
    const debitRetry = await post(b, '/pay-api/v1/transactions/ach/payment', body, achKey);
    assert.equal(debitRetry.status, 200, debitRetry.text);
    assert.equal(debitRetry.body.transactionId, debit.body.transactionId);
    const [count] = await b.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM transactions WHERE method = 'ach' AND merchant_id = $1 AND total_cents = 1037",
      [m.id],
    );
    assert.equal(count!.n, 1, 'one ACH debit');

    const holdKey = ref();
    const path = `/pay-api/v1/transactions/ach/${debit.body.transactionId}/hold`;
    const hold = await b.request('POST', path, { token: m.token, headers: { 'idempotency-key': holdKey } });
    assert.equal(hold.status, 200, hold.text);
    await diedBeforeAnswering(holdKey);
    const holdRetry = await b.request('POST', path, { token: m.token, headers: { 'idempotency-key': holdKey } });
    assert.equal(holdRetry.status, 200, holdRetry.text);
    assert.equal(holdRetry.body.status, hold.body.status);
    // Without a key (or with a new one) holding a Held transaction is still refused.
    assert.equal((await b.request('POST', path, { token: m.token })).status, 400);

    const sessionKey = ref();
    const session = await post(b, '/v2/payment-sessions', { amount: 4.5, referenceId }, sessionKey);
    assert.equal(session.status, 200, session.text);
    await diedBeforeAnswering(sessionKey);
    const sessionRetry = await post(b, '/v2/payment-sessions', { amount: 4.5, referenceId }, sessionKey);
    assert.equal(sessionRetry.status, 200, sessionRetry.text);
    assert.equal(sessionRetry.body.id, session.body.id);
    const sessions = await b.query('SELECT 1 FROM payment_sessions WHERE reference_id = $1', [referenceId]);
    assert.equal(sessions.length, 1, 'one session');
  });

  it('a claim held by a live node is not taken, whatever its age below the stuck limit', async () => {
    const key = ref();
    const referenceId = ref();
    const first = sale(slow, { referenceId }, key);
    await pendingSale(referenceId);
    const busy = await sale(b, { referenceId }, key);
    assert.equal(busy.status, 409, busy.text);
    assert.equal(busy.body.errorCode, 'IdempotencyKeyInProgress');
    assert.equal((await first).body.status, 'Captured');
  });
});
