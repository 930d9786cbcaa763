// A jump of the sandbox clock past a file's cutoff and its settlement date at once makes both its submit job and its
// clearing job due; whichever runs first, an entry the bank refuses must fail, never clear. Workers are off here, so
// the jobs run exactly when told, the clearing one first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AchStatus } from '../../src/modules/payments/ach/ach.model.js';
import { ACH_PAYER } from '../ach-fixtures.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('ACH clearing that runs before the file was submitted', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  const debit = async (accountNumber: string) =>
    (
      await t.expectOk(
        t.request('POST', '/pay-api/v1/transactions/ach/payment', {
          token: m.token,
          body: {
            amount: 3,
            requesterIPaddress: '203.0.113.9',
            accountNumber,
            routingNumber: '021000021',
            accountHolderType: 2,
            ...ACH_PAYER,
          },
        }),
      )
    ).transactionId as string;

  it('submits the file first: the refused entry fails and the other clears', async () => {
    const refused = await debit('100000900'); // the sandbox bank refuses it on a processing error
    const accepted = await debit('200000001');
    const [entry] = await t.query<{ processor_id: string; window_at: Date }>(
      'SELECT processor_id, window_at FROM ach_entries WHERE transaction_id = $1',
      [refused],
    );
    const fileId = await t.ctx.services.ach.cutoff(entry!.processor_id, entry!.window_at);
    assert.ok(fileId);
    const [file] = await t.query<{ submitted_at: Date | null }>('SELECT submitted_at FROM ach_files WHERE id = $1', [
      fileId,
    ]);
    assert.equal(file!.submitted_at, null, 'not yet at the bank when the clearing job runs');
    await t.ctx.services.ach.clearFile(fileId);
    const status = async (id: string) =>
      (await t.query<{ status_id: number }>('SELECT status_id FROM transactions WHERE id = $1', [id]))[0]!.status_id;
    assert.equal(await status(refused), AchStatus.Failed);
    assert.equal(await status(accepted), AchStatus.Cleared);
    // The submit job running after it changes nothing.
    await t.ctx.services.ach.submitFile(fileId);
    assert.equal(await status(refused), AchStatus.Failed);
    assert.equal(await status(accepted), AchStatus.Cleared);
  });
});
