// Invoices: create (inline customer or a customer, catalog and manual lines, settings defaults and refusals, numbers
// generated gap-free under concurrency), the calculations, every lifecycle move allowed or refused, publish making a
// customer, the list's filters, and expiry on the business clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invoicePaymentId } from '../../src/modules/invoices/invoice-payments.js';
import { type HttpResult, type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('invoices', () => {
  let t: TestNode;
  let m: MerchantTenant;
  const base = '/pay-int-api/invoices';
  const req = (method: string, url: string, body?: unknown, tenant = m) =>
    t.request(method, url, { token: tenant.token, ...(body === undefined ? {} : { body }) });
  const ok = (method: string, url: string, body?: unknown, tenant = m) => t.expectOk(req(method, url, body, tenant));
  const manual = (extra: Record<string, unknown> = {}) => ({
    customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    lineItems: [{ productName: 'Work', quantity: 1, unitPrice: 100 }],
    ...extra,
  });
  const settingsPath = () => `/pay-int-api/merchants/${m.id}/invoices/settings`;
  async function settings(change: Record<string, unknown>) {
    const { merchantId: _, ...current } = await ok('GET', settingsPath());
    return ok('PUT', settingsPath(), { ...current, ...change });
  }

  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('creates a Draft from catalog and manual lines, with its totals, a generated number and invoice.created', async () => {
    const item = await ok('POST', '/pay-int-api/line-items', {
      productName: 'Consulting',
      unitPrice: 150,
      unitTypeId: 7,
      taxRate: 8.875,
    });
    const invoice = await ok(
      'POST',
      base,
      manual({
        lineItems: [
          { lineItemId: item.id, quantity: 2 },
          { productName: 'Travel', quantity: 1.5, unitPrice: 33.33 },
        ],
        taxPercentage: 5,
        referenceId: 'PO-77',
      }),
    );
    assert.equal(invoice.status, 1);
    assert.equal(invoice.statusName, 'Draft');
    assert.match(invoice.number, /^INV-\d{6}$/);
    assert.equal(invoice.customerName, 'Ada Lovelace');
    assert.equal(invoice.lineItems[0].productName, 'Consulting');
    assert.equal(invoice.lineItems[0].unitType, 'Hour');
    assert.equal(invoice.lineItems[0].taxRate, 8.875, 'the catalog rate');
    assert.equal(invoice.lineItems[1].taxRate, null, 'the invoice rate applies');
    // 300 + 26.63 tax; 50.00 (1.5 × 33.33 = 49.995) + 2.50 tax: 379.13.
    assert.equal(invoice.subtotalAmount, 350);
    assert.equal(invoice.taxAmount, 29.13);
    assert.equal(invoice.totalAmount, 379.13);
    assert.equal(invoice.amountDue, 379.13);
    const calculations = await ok('GET', `${base}/${invoice.id}/calculations`);
    assert.equal(calculations.totalAmount, invoice.totalAmount);
    assert.equal(calculations.lines[1].amount, 50);
    assert.equal(calculations.lines[1].taxRate, 5);
    assert.equal(calculations.cardTotalAmount, 379.13, 'no zero-cost program on this merchant');
    const events = await t.query<{ type: string; resource_type: string }>(
      'SELECT type, resource_type FROM events WHERE resource_id = $1',
      [invoice.id],
    );
    assert.deepEqual(events, [{ type: 'invoice.created', resource_type: 'invoice' }]);
    const due = (Date.parse(invoice.dueDate) - Date.parse(invoice.issueDate)) / 86_400_000;
    assert.equal(due, 30, 'due after the settings dueDateAfterDays');
  });

  it('applies the settings: disabled adjustments refused, enabled ones defaulted, locked catalog prices', async () => {
    const refused = await req('POST', base, manual({ discountPercentage: 5, shippingFeeAmount: 3, feesPercentage: 1 }));
    assert.equal(refused.status, 400);
    assert.deepEqual(Object.keys(refused.body.errors).sort(), [
      'discountPercentage',
      'feesPercentage',
      'shippingFeeAmount',
    ]);
    await settings({
      isDiscountEnabled: true,
      discountPercentage: 10,
      isShippingFeeEnabled: true,
      shippingFeeAmount: 7.5,
      dueDateAfterDays: 14,
      notes: 'Thanks!',
      canOverWriteInvoiceLineItemPrice: false,
      allowStaffToSetDiscountAndLineItemDiscount: false,
    });
    const defaulted = await ok('POST', base, manual());
    assert.equal(defaulted.discountPercentage, 10);
    assert.equal(defaulted.discountAmount, 10);
    assert.equal(defaulted.shippingFeeAmount, 7.5);
    assert.equal(defaulted.totalAmount, 97.5);
    assert.equal(defaulted.notes, 'Thanks!');
    assert.equal((Date.parse(defaulted.dueDate) - Date.parse(defaulted.issueDate)) / 86_400_000, 14);
    const item = await ok('POST', '/pay-int-api/line-items', { productName: 'Fixed', unitPrice: 20 });
    const changedPrice = await req(
      'POST',
      base,
      manual({ lineItems: [{ lineItemId: item.id, quantity: 1, unitPrice: 19 }] }),
    );
    assert.ok(changedPrice.body.errors['lineItems[0].unitPrice']);
    assert.equal(
      (await req('POST', base, manual({ lineItems: [{ lineItemId: item.id, quantity: 1, unitPrice: 20 }] }))).status,
      200,
    );
    const lineDiscount = await req(
      'POST',
      base,
      manual({ lineItems: [{ productName: 'X', quantity: 1, unitPrice: 1, discountPercentage: 5 }] }),
    );
    assert.ok(lineDiscount.body.errors['lineItems[0].discountPercentage']);
    for (const [body, field] of [
      [{ lineItems: [{ productName: 'X', quantity: 1, unitPrice: 1 }] }, 'customerId'],
      [manual({ lineItems: [{ quantity: 1, unitPrice: 1 }] }), 'lineItems[0].productName'],
      [manual({ lineItems: [{ productName: 'X', quantity: 1 }] }), 'lineItems[0].unitPrice'],
      [manual({ issueDate: '2026-12-10T00:00:00Z', dueDate: '2026-12-01T00:00:00Z' }), 'dueDate'],
    ] as const) {
      const answer = await req('POST', base, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.ok(answer.body.errors[field], `${field}: ${JSON.stringify(answer.body.errors)}`);
    }
    for (const quantity of [0, 1.0005]) {
      assert.equal(
        (await req('POST', base, manual({ lineItems: [{ productName: 'X', quantity, unitPrice: 1 }] }))).status,
        400,
      );
    }
    await settings({
      isDiscountEnabled: false,
      discountPercentage: null,
      isShippingFeeEnabled: false,
      shippingFeeAmount: null,
      canOverWriteInvoiceLineItemPrice: true,
      allowStaffToSetDiscountAndLineItemDiscount: true,
      dueDateAfterDays: 30,
      notes: null,
    });
  });

  it('numbers: chosen ones unique, generated ones consecutive with no gaps under concurrent creates', async () => {
    const tenant = await t.merchant();
    const chosen = await ok('POST', base, manual({ number: 'A-1' }), tenant);
    assert.equal(chosen.number, 'A-1');
    const taken = await req('POST', base, manual({ number: 'A-1' }), tenant);
    assert.ok(taken.body.errors.number);
    const created = await Promise.all(Array.from({ length: 10 }, () => ok('POST', base, manual(), tenant)));
    assert.deepEqual(
      created.map((v) => v.number).sort(),
      Array.from({ length: 10 }, (_, n) => `INV-${String(n + 1).padStart(6, '0')}`),
    );
    // A number a client chose in the generated form is skipped.
    await ok('POST', base, manual({ number: 'INV-000012' }), tenant);
    const next = await Promise.all([1, 2].map(() => ok('POST', base, manual(), tenant)));
    assert.deepEqual(next.map((v) => v.number).sort(), ['INV-000011', 'INV-000013']);
    // A merchant with more than a thousand invoices (every early number taken) still gets its next one.
    await t.query(
      `INSERT INTO invoices (id, merchant_id, number, status_id, issue_date, due_date, lines, payment_method_type_id,
         total_cents, created_at, modified_at)
       SELECT gen_random_uuid(), $1, 'INV-' || lpad(n::text, 6, '0'), 1, now(), now(), '[]', 1, 0, now(), now()
       FROM generate_series(14, 1500) AS n`,
      [tenant.id],
    );
    await t.query('UPDATE invoice_number_counters SET last_value = 1500 WHERE merchant_id = $1', [tenant.id]);
    assert.equal((await ok('POST', base, manual(), tenant)).number, 'INV-001501');
  });

  it('allows exactly the moves of the state table, and refuses every other with a 400 naming status', async () => {
    const draft = async () => (await ok('POST', base, manual())).id as string;
    const publish = (id: string) => req('POST', `${base}/publish`, { invoiceId: id });
    const moves: Record<string, (id: string) => Promise<HttpResult>> = {
      replace: (id) =>
        req('PUT', `${base}/${id}`, manual({ lineItems: [{ productName: 'New', quantity: 2, unitPrice: 5 }] })),
      delete: (id) => req('DELETE', `${base}/${id}`),
      publish,
      cancel: (id) => req('PUT', `${base}/${id}/cancel`),
      markAsPaid: (id) => req('PUT', `${base}/${id}/mark-as-paid`, { note: 'Check #12' }),
    };
    const inState = {
      Draft: draft,
      Published: async () => {
        const id = await draft();
        await t.expectOk(publish(id));
        return id;
      },
      Paid: async () => {
        const id = await inState.Published();
        await t.expectOk(moves.markAsPaid!(id));
        return id;
      },
      Canceled: async () => {
        const id = await inState.Published();
        await t.expectOk(moves.cancel!(id));
        return id;
      },
    };
    const allowed: Record<keyof typeof inState, string[]> = {
      Draft: ['replace', 'delete', 'publish'],
      Published: ['cancel', 'markAsPaid'],
      Paid: [],
      Canceled: [],
    };
    for (const [state, make] of Object.entries(inState) as Array<[keyof typeof inState, () => Promise<string>]>) {
      for (const [name, move] of Object.entries(moves)) {
        const id = await make();
        const answer = await move(id);
        const expected = allowed[state].includes(name) ? 200 : 400;
        assert.equal(answer.status, expected, `${name} on ${state}`);
        if (expected === 400) assert.ok(answer.body?.errors?.status, `${name} on ${state} names status`);
      }
    }
    const paid = await inState.Paid();
    const record = await ok('GET', `${base}/${paid}`);
    assert.equal(record.statusName, 'Paid');
    assert.equal(record.amountPaid, 100);
    assert.equal(record.amountDue, 0);
    assert.equal(record.paidNote, 'Check #12');
    assert.ok(record.paymentDate);
    assert.deepEqual(record.transactionIds, []);
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      paid,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['invoice.created', 'invoice.paid'],
    );
    const concurrent = await inState.Published();
    const both = await Promise.all([moves.cancel!(concurrent), moves.markAsPaid!(concurrent)]);
    assert.deepEqual(both.map((a) => a.status).sort(), [200, 400], 'one of two concurrent moves wins');
  });

  it('answers create and publish with exactly what a read of the invoice answers afterwards', async () => {
    // Neither answer is read back after COMMIT: create's is read in its group's transaction, publish's is made from
    // the locked read and the move. Each must be what the invoice is.
    const customer = await ok('POST', '/pay-api/v1/customers', { firstName: 'Grace', lastName: 'Hopper' });
    for (const body of [
      manual(),
      manual({ customer: { companyName: 'Acme Corp', email: 'billing@acme.test' } }),
      { customerId: customer.id, lineItems: [{ productName: 'Work', quantity: 2, unitPrice: 12.5 }] },
    ]) {
      const created = await ok('POST', base, body);
      assert.deepEqual(created, await ok('GET', `${base}/${created.id}`));
      const published = await ok('POST', `${base}/publish`, { invoiceId: created.id });
      assert.equal(published.statusName, 'Published');
      assert.deepEqual(published, await ok('GET', `${base}/${created.id}`));
    }
  });

  it('publish makes the inline customer a customer; the list filters by status, dates and search', async () => {
    const tenant = await t.merchant();
    const invoice = await ok(
      'POST',
      base,
      manual({
        customer: { companyName: 'Acme Corp', email: 'billing@acme.test' },
        issueDate: '2026-03-15T12:00:00Z',
        dueDate: '2026-04-14T12:00:00Z',
      }),
      tenant,
    );
    assert.equal(invoice.customerId, null);
    const published = await ok('POST', `${base}/publish`, { invoiceId: invoice.id }, tenant);
    assert.ok(published.customerId);
    const customer = await ok('GET', `/pay-api/v1/customers/${published.customerId}`, undefined, tenant);
    assert.equal(customer.companyName, 'Acme Corp');
    assert.equal(customer.email, 'billing@acme.test');
    await ok('POST', base, manual({ issueDate: '2026-05-01T00:00:00Z', dueDate: '2026-05-31T00:00:00Z' }), tenant);
    const list = (query: string) => ok('GET', `${base}${query}`, undefined, tenant);
    const all = await list('');
    assert.equal(all.total, 2);
    assert.deepEqual(Object.keys(all.items[0]).sort(), [
      'customerName',
      'dueDate',
      'id',
      'issueDate',
      'number',
      'paymentDate',
      'status',
      'totalAmount',
    ]);
    assert.deepEqual(
      (await list('?status=2')).items.map((i: { id: string }) => i.id),
      [invoice.id],
    );
    assert.deepEqual(
      (await list('?issueDateFrom=2026-03&issueDateTo=2026-03')).items.map((i: { id: string }) => i.id),
      [invoice.id],
    );
    assert.equal((await list('?dueDateFrom=2026-05-01')).total, 1);
    assert.deepEqual(
      (await list('?search=acme')).items.map((i: { id: string }) => i.id),
      [invoice.id],
    );
    assert.equal((await req('GET', `${base}?issueDateFrom=2026-13`, undefined, tenant)).status, 400);
  });

  it('is paid by card once: approved → Paid, declined → payable again, concurrent payments charge once', async () => {
    const card = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
    const published = async () => {
      const invoice = await ok('POST', base, manual());
      await ok('POST', `${base}/publish`, { invoiceId: invoice.id });
      return invoice.id as string;
    };
    const draft = await ok('POST', base, manual());
    assert.equal((await req('POST', `${base}/${draft.id}/submit`, card)).status, 400, 'a Draft is not payable');

    const declinedFirst = await published();
    const declined = await ok('POST', `${base}/${declinedFirst}/submit`, {
      ...card,
      accountNumber: '4000000010050005',
    });
    assert.equal(declined.transaction.approved, false);
    assert.equal(declined.invoice.statusName, 'Published');
    assert.ok(declined.invoice.lastPaymentError);
    const paid = await ok('POST', `${base}/${declinedFirst}/submit`, card);
    assert.equal(paid.transaction.approved, true);
    assert.equal(paid.invoice.statusName, 'Paid');
    assert.equal(paid.invoice.amountDue, 0);
    assert.ok(paid.invoice.paymentDate);
    assert.deepEqual(paid.invoice.transactionIds, [declined.transaction.transactionId, paid.transaction.transactionId]);
    const [row] = await t.query('SELECT create_method_id, source_id, total_cents FROM transactions WHERE id = $1', [
      paid.transaction.transactionId,
    ]);
    assert.deepEqual(row, { create_method_id: 4, source_id: declinedFirst, total_cents: 10_000 });
    assert.equal((await req('POST', `${base}/${declinedFirst}/submit`, card)).status, 400, 'paid once');
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      declinedFirst,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['invoice.created', 'invoice.paid'],
    );

    const raced = await published();
    const answers = await Promise.all(Array.from({ length: 6 }, () => req('POST', `${base}/${raced}/submit`, card)));
    // One pays; the others meet it being made (409, not stored under a key: a retry is answered anew) or made (400).
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
    assert.ok(
      statuses.every((s) => s === 200 || s === 400 || s === 409),
      JSON.stringify(statuses),
    );
    const busy = answers.find((a) => a.status === 409);
    if (busy) assert.equal(busy.body.errorCode, 'PaymentInProgress');
    const approved = await t.query('SELECT 1 FROM transactions WHERE source_id = $1 AND status_id = 2', [raced]);
    assert.equal(approved.length, 1, 'one charge');
  });

  it('on every zero-cost program the invoice asks its total and a credit card pays the total plus the program', async () => {
    const card = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
    const programs = [
      { settings: { zeroCostProcessingOptionId: 4, defaultSurchargeRate: 3 }, surcharge: 3, increment: 0 },
      { settings: { zeroCostProcessingOptionId: 2, defaultCashDiscountRate: 4 }, surcharge: 0, increment: 4 },
      { settings: { zeroCostProcessingOptionId: 3, defaultDualPricingRate: 3.5 }, surcharge: 0, increment: 3.5 },
    ];
    for (const { settings, surcharge, increment } of programs) {
      const tenant = await t.merchant({ body: { settings } });
      const invoice = await ok('POST', base, manual(), tenant);
      await ok('POST', `${base}/publish`, { invoiceId: invoice.id }, tenant);
      const calculations = await ok('GET', `${base}/${invoice.id}/calculations`, undefined, tenant);
      const label = JSON.stringify(settings);
      assert.equal(calculations.totalAmount, 100, label);
      assert.equal(calculations.surchargeAmount, surcharge, label);
      assert.equal(calculations.cashDiscountAmount, increment, label);
      assert.equal(
        calculations.cardTotalAmount,
        calculations.totalAmount + calculations.surchargeAmount + calculations.cashDiscountAmount,
        label,
      );
      const paid = await ok('POST', `${base}/${invoice.id}/submit`, { ...card, useCardPrice: true }, tenant);
      assert.equal(paid.invoice.statusName, 'Paid', label);
      assert.equal(paid.invoice.amountPaid, 100, `${label}: the invoice records what it asked`);
      const [row] = await t.query<{ total_cents: number }>('SELECT total_cents FROM transactions WHERE id = $1', [
        paid.transaction.transactionId,
      ]);
      assert.equal(row!.total_cents, Math.round(calculations.cardTotalAmount * 100), `${label}: the card paid this`);
    }
  });

  it('is paid by ACH: ProcessingPayment until the debit clears (Paid), and unpaid again when it comes back', async () => {
    const publishedTo = async () => {
      const invoice = await ok('POST', base, manual());
      await ok('POST', `${base}/publish`, { invoiceId: invoice.id });
      return invoice.id as string;
    };
    const clean = await publishedTo();
    const returning = await publishedTo();
    await t.drain();
    const account = (accountNumber: string) => ({
      accountNumber,
      routingNumber: '021000021',
      accountType: 1,
      accountHolderType: 2,
      billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, postalCode: '10001', countryId: 1 },
      contactInfo: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        mobilePhoneNumber: '+12125550100',
      },
    });
    const { billingAddress: _, ...withoutAddress } = account('100000099');
    const refused = await req('POST', `${base}/${clean}/ach/submit`, withoutAddress);
    assert.ok(refused.body.errors.billingAddress, 'the ACH rules apply');
    assert.equal((await ok('GET', `${base}/${clean}`)).statusName, 'Published', 'a refused debit leaves it payable');
    const started = await ok('POST', `${base}/${clean}/ach/submit`, account('100000099'));
    assert.equal(started.invoice.statusName, 'ProcessingPayment');
    assert.equal(started.transaction.approved, true);
    assert.deepEqual(started.invoice.transactionIds, [started.transaction.transactionId]);
    assert.equal(
      (
        await req('POST', `${base}/${clean}/submit`, {
          accountNumber: '4111111111111111',
          expirationMonth: 12,
          expirationYear: 2031,
        })
      ).status,
      400,
      'one payment at a time',
    );
    assert.equal((await req('PUT', `${base}/${clean}/mark-as-paid`)).status, 400);
    await ok('POST', `${base}/${returning}/ach/submit`, account('100000001')); // returns R01 after settling
    const status = async (id: string) => (await ok('GET', `${base}/${id}`)).statusName as string;
    let paidBeforeReturn = false;
    const start = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now).getTime();
    for (let day = 1; day <= 8; day++) {
      await t.advanceClockTo(new Date(start + day * 86_400_000), m);
      await t.drain();
      if ((await status(returning)) === 'Paid') paidBeforeReturn = true;
      if (paidBeforeReturn && (await status(returning)) === 'Published') break;
    }
    const paid = await ok('GET', `${base}/${clean}`);
    assert.equal(paid.statusName, 'Paid');
    assert.equal(paid.amountPaid, 100);
    assert.ok(paid.paymentDate);
    assert.ok(paidBeforeReturn, 'the returning debit cleared and paid the invoice first');
    const unpaid = await ok('GET', `${base}/${returning}`);
    assert.equal(unpaid.statusName, 'Published');
    assert.equal(unpaid.amountPaid, 0);
    assert.equal(unpaid.paymentDate, null);
    assert.match(unpaid.lastPaymentError, /came back/);
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      clean,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['invoice.created', 'invoice.paid'],
    );
    await ok('POST', `/pay-api/v1/transactions/ach/${started.transaction.transactionId}/refund`);
    assert.equal((await ok('GET', `${base}/${clean}`)).statusName, 'Refunded', 'its debit refunded');
  });

  it('a payment refunded in full makes its invoice Refunded (a partial refund does not)', async () => {
    const invoice = await ok('POST', base, manual());
    await ok('POST', `${base}/publish`, { invoiceId: invoice.id });
    const paid = await ok('POST', `${base}/${invoice.id}/submit`, {
      accountNumber: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2031,
    });
    const transactionId = paid.transaction.transactionId;
    const refund = (amount: number) =>
      ok('POST', '/pay-api/v1/transactions/return', { transactionId, amount, cardDataSource: 1 });
    await refund(40);
    assert.equal((await ok('GET', `${base}/${invoice.id}`)).statusName, 'Paid', 'partly refunded: still paid');
    await refund(60);
    assert.equal((await ok('GET', `${base}/${invoice.id}`)).statusName, 'Refunded');
    assert.equal((await req('PUT', `${base}/${invoice.id}/cancel`)).status, 400);
  });

  it('a card payment cut off with its request is settled by the sweep (nothing charged: payable again)', async () => {
    const invoice = await ok('POST', base, manual());
    await ok('POST', `${base}/publish`, { invoiceId: invoice.id });
    // What a node that died right after starting the payment leaves behind.
    await t.query(
      `UPDATE invoices SET status_id = 6, payment_attempts = payment_attempts + 1, processing_method = 'card',
         processing_since = processing_since WHERE id = $1`,
      [invoice.id],
    );
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    await t.query('UPDATE invoices SET processing_since = $2 WHERE id = $1', [invoice.id, now]);
    assert.equal((await req('PUT', `${base}/${invoice.id}/cancel`)).status, 400, 'not while a payment is being made');
    await t.drain();
    await t.advanceClock(3 * 60, m);
    await t.drain();
    const settled = await ok('GET', `${base}/${invoice.id}`);
    assert.equal(settled.statusName, 'Published');
    assert.match(settled.lastPaymentError, /nothing was charged/);
    // The request was only stalled (a paused node): when it gets to its payment, the sweep's record under the same
    // id is there first, and nothing is charged after the invoice was shown payable again.
    const [row] = await t.query<{ attempts: number }>(
      'SELECT payment_attempts AS attempts FROM invoices WHERE id = $1',
      [invoice.id],
    );
    const late = await t.ctx.services.payments.charge({
      merchantId: m.id,
      source: { typeId: 4, id: invoice.id },
      amount: { baseCents: 10_000 },
      instrument: { kind: 'card', accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031 },
      initiator: 'customer',
      cardDataSource: 1,
      idempotency: { id: invoicePaymentId(invoice.id, row!.attempts), recovering: false },
    });
    assert.equal(late.outcome, 'failed');
    assert.equal(late.processedCents, 0);
    const made = await t.query<{ status_id: number; captured_cents: number }>(
      'SELECT status_id, captured_cents FROM transactions WHERE source_id = $1',
      [invoice.id],
    );
    assert.deepEqual(made, [{ status_id: 92, captured_cents: 0 }], 'the failure only: no charge');
    const paid = await ok('POST', `${base}/${invoice.id}/submit`, {
      accountNumber: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2031,
    });
    assert.equal(paid.transaction.approved, true);
    assert.equal(paid.invoice.statusName, 'Paid', 'payable again, and paid once');
  });

  it('a payment left by a dead node is settled by the next request (nothing made: payable again), card or ACH', async () => {
    const DEAD_NODE = 2_000_000_001; // no process holds this liveness id
    const card = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
    const bank = {
      accountNumber: '123456789',
      routingNumber: '021000021',
      accountType: 1,
      accountHolderType: 2,
      billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, postalCode: '10001', countryId: 1 },
      contactInfo: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        mobilePhoneNumber: '2125550100',
      },
    };
    for (const [method, path, body] of [
      ['card', 'submit', card],
      ['ach', 'ach/submit', bank],
    ] as const) {
      const invoice = await ok('POST', base, manual());
      await ok('POST', `${base}/publish`, { invoiceId: invoice.id });
      // What a request that died with its node leaves: ProcessingPayment, held by that node, nothing made yet.
      await t.query(
        `UPDATE invoices SET status_id = 6, payment_attempts = payment_attempts + 1, processing_method = $2,
           processing_since = now(), processing_node = $3 WHERE id = $1`,
        [invoice.id, method, DEAD_NODE],
      );
      const paid = await req('POST', `${base}/${invoice.id}/${path}`, body);
      assert.equal(paid.status, 200, `${method}: ${paid.text}`);
      assert.equal(paid.body.transaction.approved, true, method);
      const made = await t.query<{ status_id: number; idempotency_id: string }>(
        'SELECT status_id, idempotency_id FROM transactions WHERE source_id = $1 ORDER BY created_at',
        [invoice.id],
      );
      // The dead attempt is closed with a Failed record under its payment id (a stalled request would meet it), and
      // the new one is made under the next attempt's id.
      assert.deepEqual(
        made.map((m) => [m.status_id, m.idempotency_id]),
        [
          [92, invoicePaymentId(invoice.id, 1)],
          [method === 'card' ? 2 : 21, invoicePaymentId(invoice.id, 2)],
        ],
        method,
      );
    }
  });

  it('a Published, unpaid invoice expires INVOICE_EXPIRY_DAYS after its due date, on the business clock', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const dueDate = new Date(now.getTime() + 86_400_000).toISOString();
    const invoice = await ok('POST', base, manual({ issueDate: now.toISOString(), dueDate }));
    await ok('POST', `${base}/publish`, { invoiceId: invoice.id });
    await t.drain();
    await t.advanceClock(30 * 86_400, m);
    await t.drain();
    assert.equal((await ok('GET', `${base}/${invoice.id}`)).statusName, 'Published', 'not yet: 30 days after due');
    await t.advanceClock(2 * 86_400, m);
    await t.drain();
    assert.equal((await ok('GET', `${base}/${invoice.id}`)).statusName, 'Expired');
    assert.equal((await req('PUT', `${base}/${invoice.id}/cancel`)).status, 400);
  });

  it('keeps the per-status counts the list totals read equal to the invoices, after every kind of move', async () => {
    const kept = await t.query(
      `SELECT merchant_id, status_id, sum(n)::int AS n FROM invoice_counts GROUP BY 1, 2 HAVING sum(n) <> 0
       ORDER BY 1, 2`,
    );
    const actual = await t.query(
      'SELECT merchant_id, status_id, count(*)::int AS n FROM invoices GROUP BY 1, 2 ORDER BY 1, 2',
    );
    assert.ok(actual.length >= 4, 'several statuses were reached above');
    assert.deepEqual(kept, actual);
    for (const status of ['', '&status=2', '&status=3']) {
      const fromCounts = await ok('GET', `${base}?pageSize=1${status}`);
      // A date filter that holds everything makes the list count the rows themselves.
      const counted = await ok('GET', `${base}?pageSize=1${status}&issueDateFrom=2000-01`);
      assert.equal(fromCounts.total, counted.total, `total${status}`);
    }
  });
});
