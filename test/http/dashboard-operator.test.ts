// The operator's console: only the deployment's operator users see the files exchanged with banks; a merchant's
// user gets 404, as for anything that is not theirs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession } from '../dashboard-helpers.js';
import { startNode, type TestNode } from '../harness.js';

describe('dashboard for the operator', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode();
  });
  after(() => t.stop());

  it('shows the bank files to an operator, and to nobody else', async () => {
    const operator = await dashboardSession(t, {}, 'analyst');
    const home = await operator.get('/dashboard');
    assert.equal(home.status, 200);
    assert.match(home.text, /Operator console/);
    assert.match(home.text, /href="\/dashboard\/operator\/bank-files"/);
    const files = await operator.get('/dashboard/operator/bank-files');
    assert.equal(files.status, 200);
    assert.match(files.text, /No files yet|Files \(/);
    const m = await t.merchant();
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    assert.equal((await owner.get('/dashboard/operator/bank-files')).status, 404);
    assert.doesNotMatch((await owner.get('/dashboard')).text, /Bank files/);
  });
});
