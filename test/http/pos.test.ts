// POS transactions through the API on sandbox terminals driven by the operator's controls (the virtual terminal: no
// simulator process here; test/e2e/terminals.test.ts runs the same over the real WebSocket with `tessera
// terminal-sim`): every type, declines, cancels, printing, the one-at-a-time rule under concurrency, long-polls and
// the sweeps.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 };
const DECLINED = '4000000010050005';

describe('POS transactions', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let serial = 0;
  const base = '/pos-api/v1/pos-transactions';

  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  async function terminal(modeId = 2, tenant = m): Promise<string> {
    const created = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${tenant.id}/terminals`, {
        serialNumber: `POS-${++serial}-${Date.now()}`,
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP2',
        terminalModeId: modeId,
      }),
    );
    return created.id;
  }
  const act = (terminalId: string, action: Record<string, unknown>) =>
    t.expectOk(t.admin('POST', `/admin/v1/sandbox/terminals/${terminalId}/actions`, action));
  const create = (body: Record<string, unknown>, tenant = m) =>
    t.request('POST', base, { token: tenant.token, body: { transactionTypeId: 2, ...body } });
  const get = (id: string, query = '') => t.expectOk(t.request('GET', `${base}/${id}${query}`, { token: m.token }));
  const final = (id: string) => get(id, '?waitForTransactionProcessing=true');

  it('a sale with the card presented first: Completed, card present, source 3, with its receipt', async () => {
    const terminalId = await terminal();
    await act(terminalId, { action: 'present-card', ...CARD, readingMethod: 'tap' });
    const tipped = await create({ terminalId, amount: 12.5, tipAmount: 1 });
    assert.equal(tipped.status, 400, 'tips are off for this merchant');
    assert.ok(tipped.body.errors.tipAmount);
    const created = await t.expectOk(
      create({ terminalId, amount: 12.5, posDeviceId: 'till-1', referenceId: 'order-1' }),
    );
    assert.deepEqual(Object.keys(created).sort(), ['posTransactionId', 'status', 'statusId']);
    const done = await final(created.posTransactionId);
    assert.equal(done.posTransactionStatus, 'Completed', done.errorMessage);
    assert.equal(done.posTransactionStatusId, 6);
    assert.equal(done.isCompleted, true);
    assert.equal(done.transactionType, 'Sale');
    assert.equal(done.amount, 12.5);
    assert.equal(done.posDeviceId, 'till-1');
    assert.equal(done.cardDataSource, 'EMVContactless');
    assert.equal(done.transaction.transactionId, done.transactionId);
    assert.equal(done.transactionReceipt.maskedPan.endsWith('1111'), true);
    assert.equal(done.transactionReceipt.amount.totalAmount, 12.5);
    const [row] = await t.query(
      'SELECT create_method_id, card_data_source_id, source_id, status_id, avs_response FROM transactions WHERE id = $1',
      [done.transactionId],
    );
    assert.deepEqual(row, {
      create_method_id: 3,
      card_data_source_id: 5,
      source_id: created.posTransactionId,
      status_id: 2,
      avs_response: null,
    });
    const stored = await t.query(
      'SELECT 1 FROM sandbox_terminals WHERE presented_card IS NOT NULL AND terminal_id = $1',
      [terminalId],
    );
    assert.equal(stored.length, 0, 'the presented card is gone once read');
  });

  it('takes readingMethod at create (rule 4), by id or label, as well as readingMethodId', async () => {
    for (const [sent, stored] of [
      [{ readingMethod: 'KeyedIn' }, 2],
      [{ readingMethod: 'KeyedEntry' }, 2],
      [{ readingMethod: 2 }, 2],
      [{ readingMethod: 'Reading' }, 1],
      [{ readingMethod: 'Regular', readingMethodId: 1 }, 1],
      [{ readingMethodId: 2 }, 2],
      [{}, 1],
    ] as const) {
      const created = await create({ terminalId: await terminal(), amount: 3, ...sent });
      assert.equal(created.status, 200, `${JSON.stringify(sent)}: ${created.text}`);
      const [row] = await t.query<{ reading_method_id: number }>(
        'SELECT reading_method_id FROM pos_transactions WHERE id = $1',
        [created.body.posTransactionId],
      );
      assert.equal(row!.reading_method_id, stored, JSON.stringify(sent));
      await t.expectOk(t.request('POST', `${base}/${created.body.posTransactionId}/cancel`, { token: m.token }));
    }
    const disagree = await create({
      terminalId: await terminal(),
      amount: 3,
      readingMethod: 'KeyedIn',
      readingMethodId: 1,
    });
    assert.equal(disagree.status, 400, disagree.text);
    assert.deepEqual(Object.keys(disagree.body.errors), ['readingMethod']);
    const unknown = await create({ terminalId: await terminal(), amount: 3, readingMethod: 'Swiped' });
    assert.equal(unknown.status, 400, unknown.text);
  });

  it('waits for the card: accepted, Busy, then a long-poll released by the card read', async () => {
    const terminalId = await terminal();
    const created = await t.expectOk(create({ terminalId, amount: 3, waitForAcceptanceByTerminal: true }));
    assert.equal(created.status, 'TransactionProcessing');
    const status = await t.expectOk(t.request('GET', `/pos-api/v1/terminals/${terminalId}/status`, { token: m.token }));
    assert.equal(status.terminalPosStatus, 'Busy');
    const polled = final(created.posTransactionId);
    const current = await get(created.posTransactionId);
    assert.equal(current.isCompleted, false);
    await act(terminalId, { action: 'present-card', ...CARD, readingMethod: 'chip' });
    const done = await polled;
    assert.equal(done.posTransactionStatus, 'Completed');
    assert.equal(done.cardDataSource, 'EMV');
  });

  it('declined by the card network, and cancelled on the terminal by the cardholder', async () => {
    const a = await terminal();
    await act(a, { action: 'present-card', ...CARD, pan: DECLINED, readingMethod: 'swipe' });
    const declined = await final((await t.expectOk(create({ terminalId: a, amount: 5 }))).posTransactionId);
    assert.equal(declined.posTransactionStatus, 'DeclinedByProcessor');
    assert.equal(declined.transaction.transactionStatus ?? declined.transaction.status, 'Declined');
    const b = await terminal();
    const waiting = await t.expectOk(create({ terminalId: b, amount: 5, waitForAcceptanceByTerminal: true }));
    await act(b, { action: 'decline' });
    const cancelled = await get(waiting.posTransactionId);
    assert.equal(cancelled.posTransactionStatus, 'CancelByTerminal');
    assert.equal(cancelled.transactionId, null);
  });

  it('cancel only before the card is read; exactly one of a cancel and a read wins', async () => {
    const terminalId = await terminal();
    const pos = await t.expectOk(create({ terminalId, amount: 2 }));
    const cancelled = await t.expectOk(t.request('POST', `${base}/${pos.posTransactionId}/cancel`, { token: m.token }));
    assert.deepEqual(cancelled, { posTransactionId: pos.posTransactionId, status: 'CancelByPos', statusId: 4 });
    const again = await t.request('POST', `${base}/${pos.posTransactionId}/cancel`, { token: m.token });
    assert.equal(again.status, 400);
    for (let n = 0; n < 5; n++) {
      const race = await t.expectOk(create({ terminalId, amount: 2 }));
      const [cancel] = await Promise.all([
        t.request('POST', `${base}/${race.posTransactionId}/cancel`, { token: m.token }),
        act(terminalId, { action: 'present-card', ...CARD }),
      ]);
      const end = await final(race.posTransactionId);
      if (cancel.status === 200) {
        assert.equal(end.posTransactionStatus, 'CancelByPos');
        assert.equal(end.transactionId, null);
        // The card waits for the next transaction: take it away.
        await t.query('UPDATE sandbox_terminals SET presented_card = NULL WHERE terminal_id = $1', [terminalId]);
      } else {
        assert.equal(cancel.status, 400);
        assert.equal(end.posTransactionStatus, 'Completed');
      }
    }
  });

  it('refuses Standalone, offline, deactivated and busy terminals, and bad follow-ups, naming the field', async () => {
    const standalone = await terminal(1);
    const refused = await create({ terminalId: standalone, amount: 1 });
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors.terminalId[0], /Standalone/);
    const offline = await terminal();
    await act(offline, { action: 'connection', online: false });
    assert.match((await create({ terminalId: offline, amount: 1 })).body.errors.terminalId[0], /offline/);
    const gone = await terminal();
    await t.expectOk(t.admin('POST', `/admin/v1/terminals/${gone}/deactivate`));
    assert.equal((await create({ terminalId: gone, amount: 1 })).status, 400);
    const noAmount = await create({ terminalId: await terminal() });
    assert.ok(noAmount.body.errors.amount);
    const noTarget = await create({ terminalId: await terminal(), transactionTypeId: 3 });
    assert.ok(noTarget.body.errors.targetTransactionId);
    const online = await t.expectOk(
      t.request('POST', '/pay-api/v1/transactions/sale', {
        token: m.token,
        body: { amount: 1, accountNumber: CARD.pan, expirationMonth: 12, expirationYear: 2031 },
      }),
    );
    const notPresent = await create({
      terminalId: await terminal(),
      transactionTypeId: 5,
      targetTransactionId: online.transactionId,
    });
    assert.ok(notPresent.body.errors.targetTransactionId, 'a card-not-present sale is not refunded on a terminal');
    const consent = await create({ terminalId: await terminal(), amount: 1, requestPaymentMethodStorageConsent: true });
    assert.ok(consent.body.errors.customerId);
  });

  it('one transaction at a time per terminal, also for creates sent at the same instant', async () => {
    const terminalId = await terminal();
    const answers = await Promise.all(Array.from({ length: 8 }, () => create({ terminalId, amount: 1 })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) {
      assert.match(a.body.errors.terminalId[0], /already in progress/);
    }
  });

  it('authorization then capture, void, and a refund that must read the same card', async () => {
    const terminalId = await terminal();
    await act(terminalId, { action: 'present-card', ...CARD });
    const auth = await final(
      (await t.expectOk(create({ terminalId, amount: 20, transactionTypeId: 1 }))).posTransactionId,
    );
    assert.equal(auth.posTransactionStatus, 'Completed');
    assert.equal(auth.transaction.transactionStatus ?? auth.transaction.status, 'Authorized');
    const capture = await final(
      (
        await t.expectOk(
          create({ terminalId, transactionTypeId: 3, targetTransactionId: auth.transactionId, amount: 15 }),
        )
      ).posTransactionId,
    );
    assert.equal(capture.posTransactionStatus, 'Completed');
    assert.equal(capture.cardDataSource, null, 'a capture reads no card');

    await act(terminalId, { action: 'present-card', ...CARD });
    const sale = await final((await t.expectOk(create({ terminalId, amount: 9 }))).posTransactionId);
    const voided = await final(
      (await t.expectOk(create({ terminalId, transactionTypeId: 4, targetTransactionId: sale.transactionId })))
        .posTransactionId,
    );
    assert.equal(voided.posTransactionStatus, 'Completed');
    const [sold] = await t.query('SELECT status_id FROM transactions WHERE id = $1', [sale.transactionId]);
    assert.equal(sold!.status_id, 3, 'voided');

    await act(terminalId, { action: 'present-card', ...CARD });
    const paid = await final((await t.expectOk(create({ terminalId, amount: 7 }))).posTransactionId);
    await act(terminalId, { action: 'present-card', ...CARD, pan: '5555555555554444' });
    const wrongCard = await final(
      (await t.expectOk(create({ terminalId, transactionTypeId: 5, targetTransactionId: paid.transactionId })))
        .posTransactionId,
    );
    assert.equal(wrongCard.posTransactionStatus, 'Error');
    assert.match(wrongCard.errorMessage, /not the card/);
    await act(terminalId, { action: 'present-card', ...CARD });
    const refunded = await final(
      (
        await t.expectOk(
          create({ terminalId, transactionTypeId: 5, targetTransactionId: paid.transactionId, amount: 3 }),
        )
      ).posTransactionId,
    );
    assert.equal(refunded.posTransactionStatus, 'Completed');
    assert.equal(refunded.transaction.transactionType ?? refunded.transaction.type, 'Refund');
    // More than is left to refund (7 paid, 3 refunded): refused at create, as /transactions/return refuses it, before
    // anyone is asked to tap a card.
    const tooMuch = await create({
      terminalId,
      transactionTypeId: 5,
      targetTransactionId: paid.transactionId,
      amount: 4.01,
    });
    assert.equal(tooMuch.status, 400, tooMuch.text);
    assert.match(tooMuch.body.errors.amount[0], /refundable amount 4\.00/);
    const stillRefundable = await create({
      terminalId,
      transactionTypeId: 5,
      targetTransactionId: paid.transactionId,
      amount: 4,
    });
    assert.equal(stillRefundable.status, 200, stillRefundable.text);
    await t.expectOk(t.request('POST', `${base}/${stillRefundable.body.posTransactionId}/cancel`, { token: m.token }));
    assert.deepEqual((await verifyLedger(t.ctx.pool)).problems, []);
  });

  it('prints a completed receipt again; out of paper is a 400 and terminal.out_of_paper', async () => {
    const terminalId = await terminal();
    const open = await t.expectOk(create({ terminalId, amount: 4 }));
    assert.equal((await t.request('POST', `${base}/${open.posTransactionId}/print`, { token: m.token })).status, 400);
    await act(terminalId, { action: 'present-card', ...CARD });
    await final(open.posTransactionId);
    const printed = await t.request('POST', `${base}/${open.posTransactionId}/print`, { token: m.token });
    assert.equal(printed.status, 200);
    assert.equal(printed.text, '');
    const v2 = await t.request('POST', `/v2/pos/transactions/${open.posTransactionId}/print-receipt`, {
      token: m.token,
      body: { terminalId },
    });
    assert.equal(v2.status, 200);
    await act(terminalId, { action: 'paper', paperOut: true });
    const status = await t.expectOk(t.request('GET', `/pos-api/v1/terminals/${terminalId}/status`, { token: m.token }));
    assert.equal(status.printerStatus, 'NotNormal');
    const noPaper = await t.request('POST', `${base}/${open.posTransactionId}/print`, { token: m.token });
    assert.equal(noPaper.status, 400);
    const events = await t.query<{ type: string }>(
      "SELECT type FROM events WHERE resource_id = $1 AND type = 'terminal.out_of_paper'",
      [terminalId],
    );
    assert.equal(events.length, 2, 'when it ran out, and when a print failed for it');
  });

  it('the sweep settles a payment whose node died: the one it made, or none (nothing charged)', async () => {
    const DEAD_NODE = 2_000_000_000;
    const stuck = async (pay: boolean) => {
      const terminalId = await terminal();
      const pos = await t.expectOk(create({ terminalId, amount: 6, waitForAcceptanceByTerminal: true }));
      if (pay) {
        // What the dead node got as far as: the payment, made under the POS transaction's id.
        await t.ctx.services.payments.charge({
          merchantId: m.id,
          source: { typeId: 3, id: pos.posTransactionId },
          amount: { baseCents: 600 },
          instrument: { kind: 'card', accountNumber: CARD.pan, expirationMonth: 12, expirationYear: 2031 },
          initiator: 'customer',
          cardDataSource: 4,
          skipAddressVerification: true,
          idempotency: { id: pos.posTransactionId, recovering: false },
        });
      }
      await t.query('UPDATE pos_transactions SET status_id = 10, processing_node = $2 WHERE id = $1', [
        pos.posTransactionId,
        DEAD_NODE,
      ]);
      return pos.posTransactionId as string;
    };
    const paid = await stuck(true);
    const lost = await stuck(false);
    await t.drain();
    await t.advanceClock(16, m);
    await t.drain();
    const settled = await get(paid);
    assert.equal(settled.posTransactionStatus, 'Completed');
    const [made] = await t.query<{ id: string }>('SELECT id FROM transactions WHERE source_id = $1', [paid]);
    assert.equal(settled.transactionId, made!.id, 'the payment the dead node made, not a second one');
    const ended = await get(lost);
    assert.equal(ended.posTransactionStatus, 'Error');
    assert.match(ended.errorMessage, /nothing was charged/);
    // The failure is recorded under the POS transaction's id, so the dead node, were it only paused, charges nothing
    // when it wakes up and gets to its own record.
    const recorded = await t.query<{ status_id: number; captured_cents: number }>(
      'SELECT status_id, captured_cents FROM transactions WHERE source_id = $1',
      [lost],
    );
    assert.deepEqual(recorded, [{ status_id: 92, captured_cents: 0 }]);
    const late = await t.ctx.services.payments.charge({
      merchantId: m.id,
      source: { typeId: 3, id: lost },
      amount: { baseCents: 600 },
      instrument: { kind: 'card', accountNumber: CARD.pan, expirationMonth: 12, expirationYear: 2031 },
      initiator: 'customer',
      cardDataSource: 4,
      skipAddressVerification: true,
      idempotency: { id: lost, recovering: false },
    });
    assert.equal(late.outcome, 'failed');
    assert.equal(late.processedCents, 0);
    assert.equal((await t.query('SELECT 1 FROM transactions WHERE source_id = $1', [lost])).length, 1);
  });

  it('a read of a payment whose node died settles it at once, with or without waiting', async () => {
    const DEAD_NODE = 2_000_000_001;
    const stuck = async () => {
      const terminalId = await terminal();
      const pos = await t.expectOk(create({ terminalId, amount: 7, waitForAcceptanceByTerminal: true }));
      await t.query('UPDATE pos_transactions SET status_id = 10, processing_node = $2 WHERE id = $1', [
        pos.posTransactionId,
        DEAD_NODE,
      ]);
      return pos.posTransactionId as string;
    };
    // No clock advance and no sweep: the read itself settles each (nothing was charged, so each ends in Error).
    const waited = await get(await stuck(), '?waitForTransactionProcessing=true');
    assert.equal(waited.posTransactionStatus, 'Error');
    assert.match(waited.errorMessage, /nothing was charged/);
    const read = await get(await stuck());
    assert.equal(read.posTransactionStatus, 'Error');
  });

  it('lists by terminal with paging; the sweep ends what a terminal never took up', async () => {
    const terminalId = await terminal();
    const waiting = await t.expectOk(create({ terminalId, amount: 1, waitForAcceptanceByTerminal: true }));
    await t.drain(); // the sweep's schedule exists from here on the business clock
    const listed = await t.expectOk(t.request('GET', `${base}?terminalId=${terminalId}`, { token: m.token }));
    assert.equal(listed.total, 1);
    assert.equal(listed.items[0].id, waiting.posTransactionId);
    assert.equal(listed.items[0].isCompleted, false);
    await t.advanceClock(5 * 60 + 20, m);
    await t.drain();
    const ended = await get(waiting.posTransactionId);
    assert.equal(ended.posTransactionStatus, 'Error');
    assert.match(ended.errorMessage, /No card/);
    const other = await t.merchant();
    assert.equal((await t.request('GET', `${base}/${waiting.posTransactionId}`, { token: other.token })).status, 404);
    assert.equal((await create({ terminalId, amount: 1 }, other)).status, 404);
  });
});
