import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Transaction, TransactionStatus } from '../../src/modules/payments/transactions.model.js';
import {
  findTransaction,
  insertUnlessDuplicate,
  transactionQueries,
} from '../../src/modules/payments/transactions.repo.js';
import { newId } from '../../src/platform/crypto/ids.js';
import { isExpectationFailure, withTransaction } from '../../src/platform/db/tx.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

// The grouped writes of new payments carry their rows as one json parameter (json_populate_recordset): every column
// must come back exactly as written, whatever its type (bytea, jsonb, timestamps, text with quotes and escapes).
describe('transactions written in groups (one statement for many rows)', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let sold: Transaction;
  before(async () => {
    t = await startNode();
    m = await t.merchant();
    const customer = await t.request('POST', '/pay-api/v1/customers', { token: m.token, body: { firstName: 'Ada' } });
    const method = await t.request('POST', `/pay-api/v1/customers/${customer.body.id}/payment-methods/cards`, {
      token: m.token,
      body: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
    });
    const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      body: { amount: 5, customerId: customer.body.id, paymentMethodId: method.body.id },
    });
    assert.equal(sale.body.status, 'Captured', sale.text);
    sold = (await findTransaction(t.ctx.pool, m.id, sale.body.transactionId))!;
    assert.ok(sold.customerId && sold.paymentMethodId && sold.batchId);
  });
  after(() => t.stop());

  /** A Pending payment with every column set, its text full of characters json and SQL treat specially. */
  const pending = (): Transaction => {
    const id = newId();
    const at = new Date(Date.now() - 1234);
    return {
      ...sold,
      id,
      statusId: TransactionStatus.Pending,
      originalTransactionId: sold.id,
      sourceId: newId(),
      referenceId: `ré"f'\\n\u00e9 ${id}`,
      customerInitiated: true,
      cardFingerprint: randomBytes(32),
      duplicateKey: randomBytes(32),
      billingAddress: {
        line1: '1 "Quoted" St\\',
        postalCode: '10001',
        city: "O'Hare\n",
      } as Transaction['billingAddress'],
      shippingAddress: { line1: '2 Ünïcödé Way' } as Transaction['shippingAddress'],
      contactInfo: {
        firstName: 'Zoë',
        lastName: null,
        companyName: 'A & "B"',
        email: 'a@b.example',
        mobilePhoneNumber: '+1 555',
        smsNotification: false,
      },
      avsResponse: {
        line1Match: true,
        postalCodeMatch: false,
        action: 'Allow',
      } as unknown as Transaction['avsResponse'],
      pendingOperation: { operation: 'sale', reference: id, amountCents: 500, startedAt: at.toISOString() },
      batchId: null,
      responseMessage: 'tab\there',
      detailsMessage: 'a\\b',
      createdAt: at,
      modifiedAt: at,
      capturedAt: null,
      voidedAt: null,
      settledAt: null,
    };
  };

  it('inserts many rows in one statement, each column as written, skipping a second row with a taken duplicate key', async () => {
    const first = pending();
    const second = pending();
    const twin = { ...pending(), duplicateKey: first.duplicateKey };
    const inserted = await insertUnlessDuplicate(t.ctx.pool, [first, twin, second]);
    assert.deepEqual([...inserted].sort(), [first.id, second.id].sort());
    assert.deepEqual(await findTransaction(t.ctx.pool, m.id, first.id), first);
    assert.deepEqual(await findTransaction(t.ctx.pool, m.id, second.id), second);
    assert.equal(await findTransaction(t.ctx.pool, m.id, twin.id), undefined);
    // A key held by a committed row refuses a later statement's row too.
    const late = { ...pending(), duplicateKey: second.duplicateKey };
    assert.equal((await insertUnlessDuplicate(t.ctx.pool, [late])).size, 0);
  });

  it('saves outcomes of many pending rows in one compare-and-set, and refuses the whole set if one row moved on', async () => {
    const [a, b, c] = [pending(), pending(), pending()];
    await insertUnlessDuplicate(t.ctx.pool, [a, b, c]);
    const outcome = (row: Transaction): Transaction => ({
      ...row,
      statusId: TransactionStatus.Captured,
      pendingOperation: null,
      duplicateKey: row === b ? null : row.duplicateKey,
      authorizedCents: row.totalCents,
      capturedCents: row.totalCents,
      batchId: sold.batchId,
      authCode: 'A"1',
      responseMessage: "Approved, 'fine'",
      modifiedAt: new Date(),
      capturedAt: new Date(),
    });
    const save = (rows: Transaction[]) =>
      withTransaction(t.ctx.pool, async (tx) => {
        tx.defer(
          transactionQueries.saveIfPending(rows.map((transaction) => ({ transaction, reference: transaction.id }))),
        );
      });
    const [savedA, savedB] = [outcome(a), outcome(b)];
    await save([savedA, savedB]);
    assert.deepEqual(await findTransaction(t.ctx.pool, m.id, a.id), savedA);
    assert.deepEqual(await findTransaction(t.ctx.pool, m.id, b.id), savedB);

    // a is no longer Pending: a set holding it fails as a whole, and c (still Pending) is left as it was.
    await assert.rejects(save([outcome(c), outcome(a)]), (error: unknown) => isExpectationFailure(error));
    assert.deepEqual(await findTransaction(t.ctx.pool, m.id, c.id), c);
    // The wrong reference in flight refuses it too.
    await assert.rejects(
      withTransaction(t.ctx.pool, async (tx) => {
        tx.defer(transactionQueries.saveIfPending([{ transaction: outcome(c), reference: 'someone else' }]));
      }),
      (error: unknown) => isExpectationFailure(error),
    );
    assert.deepEqual(await findTransaction(t.ctx.pool, m.id, c.id), c);
  });
});
