// The hosted checkout page over HTTP (form posts as a browser without JavaScript sends them): paying by card and
// ACH, declines, saving methods, flexible amounts, double submission, CSRF, rate limits and the ended pages.
// The same flows in a real browser are in test/browser/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const GOOD = '4111111111111111';
const DECLINED = '4000000010050005';

interface Page {
  status: number;
  html: string;
  headers: Record<string, unknown>;
  cookie: string;
  csrf: string;
}

describe('hosted checkout page', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode({ workers: true, env: { CHECKOUT_SUBMISSIONS_PER_SESSION_PER_MINUTE: '7' } });
    m = await t.merchant();
  });
  after(() => t.stop());

  async function session(body: Record<string, unknown>, url = '/v2/payment-sessions', merchant = m) {
    return t.expectOk(t.request('POST', url, { token: merchant.token, body }));
  }

  async function open(id: string, cookie = ''): Promise<Page> {
    const res = await t.request('GET', `/checkout/${id}`, { headers: cookie ? { cookie } : {} });
    const setCookie = String(res.headers['set-cookie'] ?? '');
    return {
      status: res.status,
      html: res.text,
      headers: res.headers,
      cookie: setCookie ? setCookie.split(';')[0]! : cookie,
      csrf: /name="csrf" value="([^"]+)"/.exec(res.text)?.[1] ?? '',
    };
  }

  async function submit(id: string, fields: Record<string, string>, page?: Page) {
    const p = page ?? (await open(id));
    const payload = new URLSearchParams({ csrf: p.csrf, ...fields }).toString();
    return t.request('POST', `/checkout/${id}`, {
      payload,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: p.cookie },
    });
  }

  const card = (number = GOOD, extra: Record<string, string> = {}) => ({
    method: 'card',
    cardName: 'Ada Lovelace',
    cardNumber: number.replace(/(\d{4})/g, '$1 ').trim(),
    expiry: '12/30',
    cvc: '123',
    line1: '123 Test St',
    city: 'New York',
    state: 'NY',
    postalCode: '10001',
    email: 'ada@example.com',
    ...extra,
  });
  const ach = (extra: Record<string, string> = {}) => ({
    method: 'ach',
    achFirstName: 'Grace',
    achLastName: 'Hopper',
    routingNumber: '021000021',
    accountNumber: '123456789',
    accountType: '1',
    accountHolderType: '2',
    phone: '(212) 555-0100',
    achConsent: 'yes',
    line1: '1 Navy Way',
    city: 'Arlington',
    state: 'VA',
    postalCode: '22201',
    ...extra,
  });
  const view = (id: string, merchant = m) =>
    t.expectOk(t.request('GET', `/v2/payment-sessions/${id}`, { token: merchant.token }));

  it('renders a small, labelled, locked-down page with the amounts computed like the API', async () => {
    const surcharger = await t.merchant();
    await t.expectOk(
      t.admin('PATCH', `/admin/v1/merchants/${surcharger.id}`, {
        settings: { zeroCostProcessingOptionId: 4, defaultSurchargeRate: 3, isTipsEnabled: true },
      }),
    );
    const s = await session(
      {
        amount: 100,
        tipAmount: 5,
        taxMode: 'Exclusive',
        taxRate: 8.875,
        pageName: 'Shop <b>',
        paymentNotes: 'Two items',
      },
      '/v2/payment-sessions',
      surcharger,
    );
    const page = await open(s.id);
    assert.equal(page.status, 200);
    const csp = String(page.headers['content-security-policy']);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ]) {
      assert.ok(csp.includes(directive), `CSP has ${directive}: ${csp}`);
    }
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(String(page.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
    assert.ok(page.html.includes('Shop &lt;b&gt;'), 'page name is escaped');
    assert.ok(!page.html.includes('<b>'));
    assert.ok(page.html.includes('Two items'));
    // 100 + 5 tip + 8.875% tax (8.88) + 3% surcharge on credit (3.00) = 116.88, the number a sale would charge.
    const quote = await t.expectOk(
      t.request('GET', '/pay-api/v1/transactions/calculate-amount?amount=100&tipAmount=5', { token: surcharger.token }),
    );
    assert.equal(quote.creditCard.surchargeAmount, 3);
    assert.ok(page.html.includes('$116.88'), 'the card total');
    assert.ok(page.html.includes('surcharge'), 'the surcharge is disclosed');
    assert.ok(page.html.includes('Bank account: $113.88'));
    // Every input has a visible label.
    const ids = [...page.html.matchAll(/<(?:input|select) id="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(ids.length >= 15);
    for (const id of ids)
      assert.ok(
        page.html.includes(`for="${id}"`) || page.html.includes(`id="${id}" name="${id}" value="yes"`),
        `${id} has a label`,
      );
    // Under 50 KB with its stylesheet and script, which are cached for a year.
    let total = Buffer.byteLength(page.html);
    for (const [, asset] of page.html.matchAll(/(?:href|src)="(\/checkout\/assets\/[^"]+)"/g)) {
      const res = await t.request('GET', asset!);
      assert.equal(res.status, 200);
      assert.match(String(res.headers['cache-control']), /immutable/);
      total += Buffer.byteLength(res.text);
    }
    assert.ok(total < 50 * 1024, `${total} bytes`);
  });

  it('pays by card, redirects to the return URL, and shows a completed page after (never a form)', async () => {
    const s = await session({
      amount: 25.5,
      returnUrl: 'https://shop.example.com/done/{{paymentSessionId}}',
      referenceId: 'c-1',
    });
    const res = await submit(s.id, card());
    assert.equal(res.status, 303, res.text.slice(0, 400));
    assert.equal(res.headers.location, `https://shop.example.com/done/${s.id}`);
    const v = await view(s.id);
    assert.equal(v.status, 'Completed');
    assert.equal(v.transactionDetails.transactionStatus, 'Captured');
    assert.equal(v.transactionDetails.amount.totalAmount, 25.5);
    const txn = await t.expectOk(
      t.request('GET', `/pay-api/v1/transactions/${v.transactionDetails.transactionId}`, { token: m.token }),
    );
    assert.equal(txn.source.id, s.id, 'the transaction names its session as source');
    assert.equal(txn.source.type, 'WebComponent');
    assert.equal(txn.avsResponse.responseCode, 'Y', 'AVS ran with the billing address');
    const events = await t.query<{ type: string }>(
      `SELECT type FROM events WHERE resource_id IN ($1, $2) ORDER BY seq`,
      [s.id, txn.transactionId],
    );
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'payment_session.created',
        'transaction.card.authorized',
        'transaction.card.captured',
        'payment_session.completed',
      ],
    );
    const after = await open(s.id);
    assert.ok(after.html.includes('Payment complete'));
    assert.ok(!after.html.includes('<form'));
    assert.ok(after.html.includes('$25.50'));
    // A late second submission pays nothing.
    const again = await submit(s.id, card(), after.csrf ? after : await open(s.id));
    assert.equal(again.status, 200);
    assert.ok(again.text.includes('Payment complete'));
    const charged = await t.query('SELECT id FROM transactions WHERE source_id = $1', [s.id]);
    assert.equal(charged.length, 1);
  });

  it('shows a decline with a way to try another card, then completes with a good one', async () => {
    const s = await session({ amount: 10, afterCompletionMessage: 'Thanks, see you soon' });
    const declined = await submit(s.id, card(DECLINED));
    assert.equal(declined.status, 200);
    assert.match(declined.text, /Your card was declined: Do not honor/);
    assert.ok(declined.text.includes('<form'), 'the form is shown again');
    assert.ok(!declined.text.includes(DECLINED), 'the card number is not echoed');
    assert.ok(declined.text.includes('value="Ada Lovelace"'), 'other fields are kept');
    assert.equal((await view(s.id)).status, 'Created');
    const ok = await submit(s.id, card());
    assert.equal(ok.status, 200);
    assert.ok(ok.text.includes('Thanks, see you soon'));
    const v = await view(s.id);
    assert.equal(v.status, 'Completed');
    assert.deepEqual(
      v.transactionDetails.history.map((h: any) => h.status),
      ['Declined', 'Captured'],
    );
  });

  it('shows field errors next to the fields and charges nothing', async () => {
    const s = await session({ amount: 10 });
    const res = await submit(s.id, card('4111111111111112', { expiry: '13/30', cvc: '1', line1: '' }));
    assert.equal(res.status, 400);
    for (const field of ['expiry', 'cvc', 'line1']) {
      assert.match(
        res.text,
        new RegExp(`id="${field}" name="${field}"[^>]*aria-describedby="${field}-error" aria-invalid="true"`),
      );
      assert.ok(res.text.includes(`id="${field}-error"`));
    }
    // A Luhn-invalid number passes the form's shape check and is refused by the card service, on its field.
    const luhn = await submit(s.id, card('4111111111111112'));
    assert.equal(luhn.status, 400);
    assert.match(luhn.text, /id="cardNumber-error"/);
    assert.equal((await t.query('SELECT id FROM transactions WHERE source_id = $1', [s.id])).length, 0);
  });

  it('pays by ACH (a WEB debit from the payer address) and keeps the last two digits', async () => {
    const s = await session({ amount: 42, paymentMethods: { ach: { enabled: true } } });
    const page = await open(s.id);
    assert.ok(!page.html.includes('id="cardNumber"'), 'card is not offered');
    const missingConsent = await submit(s.id, ach({ achConsent: '' }), page);
    assert.equal(missingConsent.status, 400);
    assert.match(missingConsent.text, /id="achConsent-error"/);
    const res = await submit(s.id, ach(), page);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.ok(res.text.includes('Payment complete'));
    const v = await view(s.id);
    assert.equal(v.status, 'Completed');
    assert.equal(v.transactionDetails.paymentMethodType, 'ACH');
    assert.equal(v.transactionDetails.transactionStatus, 'Scheduled');
    assert.equal(v.achAccountLast2, '89');
    assert.equal(v.achRoutingLast2, '21');
    const [entry] = await t.query<{ sec_code: number; requester_ip: string }>(
      'SELECT sec_code, requester_ip FROM ach_entries WHERE transaction_id = $1',
      [v.transactionDetails.transactionId],
    );
    assert.equal(entry!.sec_code, 1);
    assert.ok(entry!.requester_ip);
  });

  it('saves a verified card for a new customer (SaveMethod, integration surface) and for a named one', async () => {
    const created = await session({ mode: 2 }, '/pay-int-api/payment-sessions');
    const res = await submit(created.id, card());
    assert.equal(res.status, 200);
    assert.ok(res.text.includes('Payment method saved'), res.text.slice(0, 300));
    const v = await t.expectOk(t.request('GET', `/pay-int-api/payment-sessions/${created.id}`, { token: m.token }));
    assert.equal(v.statusId, 3);
    assert.ok(v.vaultedPaymentMethodId);
    assert.ok(v.customerId, 'a customer was created');
    assert.equal(v.transactionDetails.transactionType, 'CardAuthentication');
    const customer = await t.expectOk(t.request('GET', `/pay-api/v1/customers/${v.customerId}`, { token: m.token }));
    assert.equal(customer.firstName, 'Ada');
    assert.equal(customer.defaultPaymentMethodId, v.vaultedPaymentMethodId);

    const named = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', {
        token: m.token,
        body: { firstName: 'Named', lastName: 'Customer' },
      }),
    );
    const both = await session({
      mode: 'PaymentAndSave',
      amount: 9.99,
      customerId: named.id,
      customerHandling: 'CreateCustomer',
    });
    await submit(both.id, card());
    const bv = await view(both.id);
    assert.equal(bv.status, 'Completed');
    assert.equal(bv.customerId, named.id);
    const methods = await t.expectOk(
      t.request('GET', `/pay-api/v1/customers/${named.id}/payment-methods`, { token: m.token }),
    );
    assert.ok(JSON.stringify(methods).includes(bv.vaultedPaymentMethodId));
    const txn = await t.expectOk(
      t.request('GET', `/pay-api/v1/transactions/${bv.transactionDetails.transactionId}`, { token: m.token }),
    );
    assert.equal(txn.customerId, named.id, 'the payment is the customer’s');

    // A declined PaymentAndSave keeps nothing in the vault.
    const token = await session({ mode: 'PaymentAndSave', amount: 5, customerHandling: 'TokenOnly' });
    const before = await t.query('SELECT id FROM payment_methods WHERE merchant_id = $1 AND deleted_at IS NULL', [
      m.id,
    ]);
    await submit(token.id, card(DECLINED));
    const afterDecline = await t.query('SELECT id FROM payment_methods WHERE merchant_id = $1 AND deleted_at IS NULL', [
      m.id,
    ]);
    assert.equal(afterDecline.length, before.length);
    await submit(token.id, card());
    const tv = await view(token.id);
    assert.equal(tv.customerId, null, 'TokenOnly vaults without a customer');
    assert.ok(tv.vaultedPaymentMethodId);
  });

  it('takes a flexible amount from the payer and adds the configured tax', async () => {
    const s = await session({ amount: null, taxMode: 'Exclusive', taxRate: 10 });
    const page = await open(s.id);
    assert.ok(page.html.includes('id="amount"'));
    const bad = await submit(s.id, card(GOOD, { amount: '1.234' }), page);
    assert.equal(bad.status, 400);
    assert.match(bad.text, /id="amount-error"/);
    await submit(s.id, card(GOOD, { amount: '12.34' }), page);
    const v = await view(s.id);
    assert.equal(v.status, 'Completed');
    assert.equal(v.transactionDetails.amount.baseAmount, 12.34);
    assert.equal(v.transactionDetails.amount.taxAmount, 1.23);
    assert.equal(v.transactionDetails.amount.totalAmount, 13.57);
  });

  it('charges once when the same form is submitted many times at once', async () => {
    const s = await session({ amount: 31 });
    const page = await open(s.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(s.id, card(), page)));
    for (const r of results) assert.ok([200, 303].includes(r.status), `${r.status}`);
    const charged = await t.query<{ status_id: number }>('SELECT status_id FROM transactions WHERE source_id = $1', [
      s.id,
    ]);
    assert.equal(charged.length, 1, 'one payment');
    assert.equal(charged[0]!.status_id, 2);
    assert.equal((await view(s.id)).status, 'Completed');
  });

  it('refuses a post without the CSRF pair or from another origin, and charges nothing', async () => {
    const s = await session({ amount: 11 });
    const page = await open(s.id);
    const noCookie = await submit(s.id, card(), { ...page, cookie: '' });
    assert.equal(noCookie.status, 403);
    const otherCookie = await submit(s.id, card(), { ...page, cookie: 'tessera_checkout=AAAAAAAAAAAAAAAAAAAAAAAA' });
    assert.equal(otherCookie.status, 403);
    const crossSite = await t.request('POST', `/checkout/${s.id}`, {
      payload: new URLSearchParams({ csrf: page.csrf, ...card() }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: page.cookie,
        origin: 'https://evil.example',
      },
    });
    assert.equal(crossSite.status, 403);
    assert.equal((await t.query('SELECT id FROM transactions WHERE source_id = $1', [s.id])).length, 0);
    assert.ok(!t.logs.join('').includes(GOOD), 'no card number in the logs');
  });

  it('shows clear pages for cancelled, expired and unknown sessions', async () => {
    const cancelled = await session({ amount: 3 });
    await t.expectOk(t.request('POST', `/v2/payment-sessions/${cancelled.id}/cancel`, { token: m.token }));
    const c = await open(cancelled.id);
    assert.ok(c.html.includes('This payment was cancelled'));
    assert.ok(!c.html.includes('<form'));
    assert.equal((await submit(cancelled.id, card(), { ...c, csrf: 'x' })).status, 200);
    assert.equal((await t.query('SELECT id FROM transactions WHERE source_id = $1', [cancelled.id])).length, 0);

    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const expiring = await session({ amount: 3, expiresAt: new Date(now.getTime() + 60_000).toISOString() });
    assert.ok((await open(expiring.id)).html.includes('<form'));
    await t.advanceClock(61, m);
    const e = await open(expiring.id);
    assert.ok(e.html.includes('This payment page has expired'));
    assert.ok(!e.html.includes('<form'));
    assert.equal((await view(expiring.id)).status, 'Cancelled');

    assert.equal((await open('01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c99')).status, 404);
    assert.equal((await open('not-a-session')).status, 404);
  });

  it('ends a session as Failed after five declines, and limits submissions per session', async () => {
    const s = await session({ amount: 4 });
    let last = '';
    for (let i = 0; i < 5; i++) last = (await submit(s.id, card(DECLINED))).text;
    assert.ok(last.includes('too many unsuccessful attempts'), last.slice(0, 300));
    const v = await view(s.id);
    assert.equal(v.status, 'Failed');
    assert.equal(v.statusId, 4);
    assert.equal(v.cancellationReason, 'TooManyAttempts');

    const limited = await session({ amount: 4 });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await submit(limited.id, card(GOOD, { cvc: '' }))).status);
    assert.deepEqual(statuses.slice(0, 7), [400, 400, 400, 400, 400, 400, 400]);
    assert.equal(statuses[7], 429);
  });

  it('pays through the elements frame endpoint only with its frame token from its own origin', async () => {
    const s = await session({ amount: 8 });
    const frame = await t.request(
      'GET',
      `/elements/v1/frame/${s.id}?parent=${encodeURIComponent('https://shop.example.com')}`,
    );
    assert.equal(frame.status, 200);
    assert.match(String(frame.headers['content-security-policy']), /frame-ancestors https:\/\/shop\.example\.com/);
    assert.equal(frame.headers['x-frame-options'], undefined, 'the frame may be framed by its parent');
    const token = /data-frame-token="([^"]+)"/.exec(frame.text)![1]!;
    const pay = (headers: Record<string, string>) =>
      t.request('POST', `/elements/v1/frame/${s.id}/pay`, { body: card(), headers });
    assert.equal((await pay({ origin: t.config.publicBaseUrl })).status, 403, 'no token');
    assert.equal(
      (await pay({ 'x-tessera-frame': token, origin: 'https://shop.example.com' })).status,
      403,
      'wrong origin',
    );
    const ok = await pay({ 'x-tessera-frame': token, origin: t.config.publicBaseUrl });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.status, 'completed');
    assert.equal((await view(s.id)).status, 'Completed');
    assert.equal((await t.request('GET', `/elements/v1/frame/${s.id}?parent=javascript:alert(1)`)).status, 400);
    // A wildcard or anything else a CSP source list would read more into is not an origin of one page.
    for (const parent of ['https://*', 'https://*.example.com', 'http://*:443', "https://a.example 'unsafe-inline'"]) {
      const refused = await t.request('GET', `/elements/v1/frame/${s.id}?parent=${encodeURIComponent(parent)}`);
      assert.equal(refused.status, 400, parent);
      assert.ok(!String(refused.headers['content-security-policy'] ?? '').includes('*'), parent);
    }
    for (const parent of ['http://127.0.0.1:8443', 'https://[::1]:9443', 'https://shop-1.example.co.uk']) {
      const framed = await t.request('GET', `/elements/v1/frame/${s.id}?parent=${encodeURIComponent(parent)}`);
      assert.equal(framed.status, 200, parent);
      assert.match(
        String(framed.headers['content-security-policy']),
        new RegExp(`frame-ancestors ${parent.replace(/[.[\]]/g, '\\$&')}`),
      );
    }
    const script = await t.request('GET', '/elements/v1/elements.js');
    assert.equal(script.status, 200);
    assert.match(String(script.headers['content-type']), /javascript/);
  });

  it('leaves a session whose completing write failed after an approval to the sweep, which completes it once', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const s = await session({ amount: 7, expiresAt: new Date(now.getTime() + 60_000).toISOString() });
    // The database refuses this session's completion once (as a failover between the approval and the write would).
    const fn = `fail_completion_${s.id.replace(/-/g, '')}`;
    await t.query(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.id = '${s.id}' AND NEW.status = 3 THEN RAISE EXCEPTION 'injected'; END IF; RETURN NEW; END $$`,
    );
    await t.query(`CREATE TRIGGER ${fn} BEFORE UPDATE ON payment_sessions FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const res = await submit(s.id, card());
      assert.ok(res.text.includes('being processed'), res.text.slice(0, 300));
      assert.equal((await view(s.id)).status, 'Created');
      const [row] = await t.query<{ awaiting_outcome: boolean }>(
        'SELECT awaiting_outcome FROM payment_sessions WHERE id = $1',
        [s.id],
      );
      assert.equal(row?.awaiting_outcome, true, 'the sweep will settle it');
    } finally {
      await t.query(`DROP TRIGGER ${fn} ON payment_sessions`);
      await t.query(`DROP FUNCTION ${fn}()`);
    }
    // Past its expiry: the approved payment completes the session, and no second charge is made.
    await t.advanceClock(120, m);
    await eventually(async () => (await view(s.id)).status === 'Completed', 15_000, 200);
    const charged = await t.query<{ id: string; status_id: number }>(
      'SELECT id, status_id FROM transactions WHERE source_id = $1',
      [s.id],
    );
    assert.deepEqual(
      charged.map((c) => c.status_id),
      [2],
    );
    assert.equal((await view(s.id)).transactionDetails?.transactionId, charged[0]!.id);
  });

  it('completes a session whose payment outcome was unknown once the processor knows, even past its expiry', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const s = await session({ amount: 6, expiresAt: new Date(now.getTime() + 60_000).toISOString() });
    const res = await submit(s.id, card('4000000020910008'));
    assert.ok(res.text.includes('being processed'), res.text.slice(0, 200));
    assert.equal((await view(s.id)).status, 'Created');
    const busy = await open(s.id);
    assert.ok(busy.html.includes('being processed') && !busy.html.includes('<form'));
    const cancel = await t.request('POST', `/v2/payment-sessions/${s.id}/cancel`, { token: m.token });
    assert.equal(cancel.status, 400, 'a payment in flight cannot be cancelled');
    assert.match(cancel.body.details, /being processed/);
    // The expiry passes while the outcome is unknown: the payment decides, not the clock.
    await t.advanceClock(120, m);
    await eventually(async () => (await view(s.id)).status === 'Completed', 15_000, 200);
    const charged = await t.query<{ status_id: number }>('SELECT status_id FROM transactions WHERE source_id = $1', [
      s.id,
    ]);
    assert.deepEqual(
      charged.map((c) => c.status_id),
      [2],
    );
  });
});
