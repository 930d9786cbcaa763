// An approval the merchant's AVS profile refuses is a decline for the merchant, and its hold at the issuer is released
// by a void: a recorded reversal, tried again (with backoff, and by the reconcile sweep) until the network approves
// it. Here the network refuses the first void and loses the answer of the second; the third releases the hold, once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { CardOutcome, FollowUpRequest } from '../../src/connectors/card/card-connector.js';
import { SandboxCardNetwork } from '../../src/connectors/card/sandbox-card-network.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
const PARTIAL = { line1: '1 Other Rd', postalCode: '10001' }; // Z: postal code only, refused by the Strict profile

describe('AVS reversals', () => {
  let t: TestNode;
  let strict: MerchantTenant;
  const original = SandboxCardNetwork.prototype.void;
  let plan: Array<'refuse' | 'lose' | 'pass'> = [];

  before(async () => {
    t = await startNode();
    strict = await t.merchant({ body: { settings: { avs: { isEnabled: true, profileId: 3 } } } });
    // The network's void, with the answers this test plans for the reversals' attempts.
    SandboxCardNetwork.prototype.void = async function (this: SandboxCardNetwork, request: FollowUpRequest, options) {
      if (request.reference.includes(':avs-void:')) {
        const next = plan.shift() ?? 'pass';
        if (next === 'refuse') {
          return { kind: 'failed', responseCode: '96', message: 'Issuer unavailable' } satisfies CardOutcome;
        }
        if (next === 'lose') throw new Error('connection reset while waiting for the answer');
      }
      return original.call(this, request, options);
    };
  });
  after(async () => {
    SandboxCardNetwork.prototype.void = original;
    await t.stop();
  });

  const reversal = async (transactionId: string) =>
    (
      await t.query<{ attempts: number; last_outcome: string | null; reversed_at: Date | null }>(
        'SELECT attempts, last_outcome, reversed_at FROM card_avs_reversals WHERE transaction_id = $1',
        [transactionId],
      )
    )[0]!;

  it('records the reversal with the decline and tries again until the network voids the hold, once', async () => {
    plan = ['refuse', 'lose'];
    const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: strict.token,
      body: { amount: 8, ...CARD, billingAddress: PARTIAL, referenceId: randomUUID().slice(0, 20) },
    });
    assert.equal(sale.status, 200, sale.text);
    assert.equal(sale.body.status, 'Declined');
    const id = sale.body.transactionId as string;
    assert.equal((await reversal(id)).attempts, 0, 'recorded before anything was tried');

    await t.drain();
    assert.deepEqual(
      { ...(await reversal(id)), reversed_at: null },
      {
        attempts: 1,
        last_outcome: 'failed',
        reversed_at: null,
      },
    );
    await t.advanceClock(15, strict);
    await t.drain();
    assert.equal((await reversal(id)).last_outcome, 'unknown', 'the second answer was lost');
    await t.advanceClock(30, strict);
    await t.drain();
    const done = await reversal(id);
    assert.equal(done.attempts, 3);
    assert.equal(done.last_outcome, 'approved');
    assert.ok(done.reversed_at);

    // At the network: exactly one approved void of the approval; the lost attempt was refused from then on.
    const voids = await t.query<{ reference: string; kind: string }>(
      `SELECT reference, outcome->>'kind' AS kind FROM sandbox_card_network
       WHERE original_reference = $1 AND operation = 'void' ORDER BY reference`,
      [id],
    );
    assert.deepEqual(
      voids.filter((v) => v.kind === 'approved').map((v) => v.reference),
      [`${id}:avs-void:3`],
    );
    // Nothing more to do: later runs change nothing.
    await t.advanceClock(120, strict);
    await t.drain();
    assert.equal((await reversal(id)).attempts, 3);
  });

  it('hands a reversal whose job gave up back to a job from the reconcile sweep', async () => {
    plan = ['refuse'];
    const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: strict.token,
      body: { amount: 9, ...CARD, billingAddress: PARTIAL, referenceId: randomUUID().slice(0, 20) },
    });
    const id = sale.body.transactionId as string;
    await t.drain();
    assert.equal((await reversal(id)).last_outcome, 'failed');
    // The job gave up (parked as failed): the sweep must pick the reversal up again.
    await t.query(`UPDATE jobs SET failed_at = now() WHERE queue = 'cards.avs-reversal' AND singleton_key = $1`, [id]);
    await t.advanceClock(120, strict);
    await t.drain();
    assert.ok((await reversal(id)).reversed_at, 'released after the sweep');
  });
});
