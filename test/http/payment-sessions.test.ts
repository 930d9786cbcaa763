// Payment sessions through the merchant's API: both create surfaces with every rule, idempotency, retrieval,
// cancellation and expiry on the clock. Paying a session is in checkout.test.ts (HTTP) and the browser tests.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sanitizeMetadata } from '../../src/modules/sessions/metadata.js';
import { expireIfDue, expireSession, findSession } from '../../src/modules/sessions/sessions.repo.js';
import { returnUrlProblem } from '../../src/modules/sessions/sessions.service.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const V2 = '/v2/payment-sessions';
const INT = '/pay-int-api/payment-sessions';

describe('payment sessions API', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode({ workers: true });
    m = await t.merchant();
  });
  after(() => t.stop());

  const create = (body: unknown, url = V2, token = m.token, headers: Record<string, string> = {}) =>
    t.request('POST', url, { token, body, headers });
  const expect400 = async (body: unknown, field: string, url = V2) => {
    const res = await create(body, url);
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 120)} → ${res.text}`);
    assert.ok(res.body.errors?.[field], `errors name ${field}: ${JSON.stringify(res.body.errors)}`);
    return res.body;
  };

  it('creates a version 2 session with the merchant default processors, and records payment_session.created', async () => {
    const res = await create({ amount: 49.99, referenceId: 'order-1', pageName: 'Shop' });
    assert.equal(res.status, 200, res.text);
    const { id, checkoutUrl, paymentMethods } = res.body;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(checkoutUrl, `${t.config.publicBaseUrl}/checkout/${id}`);
    const processors = await t.query<{ id: string; method: string }>(
      'SELECT id, method FROM payment_processors WHERE merchant_id = $1 AND is_default',
      [m.id],
    );
    assert.deepEqual(paymentMethods, {
      card: { enabled: true, processorId: processors.find((p) => p.method === 'card')!.id },
      ach: {
        enabled: true,
        processorId: processors.find((p) => p.method === 'ach')!.id,
        achAllowFasterProcessing: false,
      },
    });
    const events = await t.query('SELECT type, resource_type, merchant_id FROM events WHERE resource_id = $1', [id]);
    assert.deepEqual(events, [
      { type: 'payment_session.created', resource_type: 'payment_session', merchant_id: m.id },
    ]);

    const view = await t.expectOk(t.request('GET', `${V2}/${id}`, { token: m.token }));
    assert.equal(view.status, 'Created');
    assert.equal(view.statusId, 1);
    assert.equal(view.mode, 'Payment');
    assert.equal(view.amount, 49.99);
    assert.equal(view.referenceId, 'order-1');
    assert.equal(view.expiresAt, null, 'version 2 without expiresAt never expires');
    assert.equal(view.transactionDetails, null);
    assert.equal(view.vaultedPaymentMethodId, null);
    // POST retrieve is the same read.
    assert.deepEqual(await t.expectOk(t.request('POST', `${V2}/${id}`, { token: m.token })), view);
  });

  it('refuses a partner token on the version 2 create (403), and another merchant sees 404', async () => {
    const partner = await t.partner();
    const refused = await create({ amount: 5 }, V2, partner.token);
    assert.equal(refused.status, 403);
    const { id } = await t.expectOk(create({ amount: 5 }));
    const other = await t.merchant();
    for (const [method, url] of [
      ['GET', `${V2}/${id}`],
      ['POST', `${V2}/${id}`],
      ['POST', `${V2}/${id}/cancel`],
      ['GET', `${INT}/${id}`],
      ['POST', `${INT}/${id}/cancel`],
    ] as const) {
      assert.equal((await t.request(method, url, { token: other.token })).status, 404, `${method} ${url}`);
    }
    assert.equal((await t.request('GET', `${V2}/${id}`, { token: m.token })).body.status, 'Created');
  });

  const sessionCount = async (merchantId: string) =>
    Number(
      (
        await t.query<{ count: string }>('SELECT count(*) FROM payment_sessions WHERE merchant_id = $1', [merchantId])
      )[0]!.count,
    );

  it('checks amount against the mode, tips, tax, limits and expiry, naming the field', async () => {
    const stored = await sessionCount(m.id);
    await expect400({ amount: 0 }, 'amount');
    await expect400({ amount: -1 }, 'amount');
    await expect400({ amount: 1.234 }, 'amount');
    await expect400({ mode: 'SaveMethod', amount: 5 }, 'amount');
    await expect400({ mode: 'SaveMethod' }, 'amount');
    await expect400({ mode: 'PaymentAndSave', amount: 0 }, 'amount');
    await expect400({ mode: 'Refund', amount: 5 }, 'mode');
    await expect400({ amount: 5, tipAmount: 0 }, 'tipAmount');
    await expect400({ amount: 5, tipAmount: 1 }, 'tipAmount'); // tips are off for this merchant
    await expect400({ amount: 5, taxMode: 'Exclusive', taxRate: 5, taxAmount: 1 }, 'taxRate');
    await expect400({ amount: 5, taxMode: 'Exclusive' }, 'taxMode');
    await expect400({ amount: 5, taxRate: 5 }, 'taxMode');
    await expect400({ amount: 5, taxMode: 'Exclusive', taxRate: 100.5 }, 'taxRate');
    await expect400({ amount: 5, taxMode: 'Exclusive', taxRate: 8.8755 }, 'taxRate');
    await expect400({ amount: null, taxMode: 'Exclusive', taxAmount: 1 }, 'taxAmount');
    await expect400({ amount: 5, taxMode: 'Inclusive', taxAmount: 6 }, 'taxAmount');
    await expect400({ amount: 5, taxMode: 'Exclusive', taxAmount: -1 }, 'taxAmount');
    await expect400({ mode: 'SaveMethod', amount: 0, taxMode: 'Exclusive', taxRate: 5 }, 'taxMode');
    await expect400({ amount: 5, referenceId: 'r'.repeat(51) }, 'referenceId');
    await expect400({ amount: 5, pageName: 'p'.repeat(201) }, 'pageName');
    await expect400({ amount: 5, paymentNotes: 'n'.repeat(501) }, 'paymentNotes');
    await expect400({ amount: 5, afterCompletionMessage: 'a'.repeat(501) }, 'afterCompletionMessage');
    await expect400({ amount: 5, returnUrl: `https://shop.example.com/${'x'.repeat(2000)}` }, 'returnUrl');
    await expect400({ amount: 5, returnUrl: 'ftp://shop.example.com/done' }, 'returnUrl');
    await expect400({ amount: 5, returnUrl: 'not a url' }, 'returnUrl');
    await expect400({ amount: 5, expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt');
    await expect400({ amount: 5, expiresAt: 'tomorrow' }, 'expiresAt');
    await expect400({ amount: 5, customerHandling: 'Sometimes' }, 'customerHandling');
    await expect400({ amount: 5, colour: 'red' }, 'colour');
    await expect400({ amount: 5, paymentMethods: {} }, 'paymentMethods');
    await expect400(
      { amount: 5, paymentMethods: { card: { enabled: false }, ach: { enabled: false } } },
      'paymentMethods',
    );
    await expect400(
      { amount: 5, paymentMethods: { card: { enabled: true, processorId: randomUUID() } } },
      'paymentMethods.card.processorId',
    );
    // Another merchant's processor is not this merchant's.
    const other = await t.merchant();
    const [foreign] = await t.query<{ id: string }>(
      "SELECT id FROM payment_processors WHERE merchant_id = $1 AND method = 'ach'",
      [other.id],
    );
    await expect400(
      { amount: 5, paymentMethods: { ach: { enabled: true, processorId: foreign!.id } } },
      'paymentMethods.ach.processorId',
    );
    // A customer must be the merchant's own.
    const stranger = await t.expectOk(
      t.request('POST', '/pay-api/v1/customers', { token: other.token, body: { firstName: 'S' } }),
    );
    assert.equal((await create({ amount: 5, customerId: stranger.id })).status, 404);
    assert.equal(await sessionCount(m.id), stored, 'no refused request stored a session');
  });

  it('accepts every valid combination: flexible amounts, SaveMethod with 0, tax by rate or amount, tips when enabled', async () => {
    const flexible = await t.expectOk(create({ amount: null, taxMode: 'Exclusive', taxRate: 8.875 }));
    const view = await t.expectOk(t.request('GET', `${V2}/${flexible.id}`, { token: m.token }));
    assert.equal(view.amount, null);
    assert.equal(view.taxRate, 8.875);
    assert.equal(view.taxAmount, null, 'taxAmount only when tax was configured as an amount');
    const fixedTax = await t.expectOk(create({ amount: 20, taxMode: 'Inclusive', taxAmount: 1.5 }));
    const fixedView = await t.expectOk(t.request('GET', `${V2}/${fixedTax.id}`, { token: m.token }));
    assert.equal(fixedView.taxAmount, 1.5);
    assert.equal(fixedView.taxMode, 'Inclusive');
    const save = await t.expectOk(create({ mode: 'SaveMethod', amount: 0, customerHandling: 'TokenOnly' }));
    assert.equal((await t.request('GET', `${V2}/${save.id}`, { token: m.token })).body.mode, 'SaveMethod');
    const cardOnly = await t.expectOk(create({ amount: 3, paymentMethods: { card: { enabled: true } } }));
    assert.equal(cardOnly.paymentMethods.ach.enabled, false);
    assert.equal(cardOnly.paymentMethods.ach.processorId, null);

    const tipper = await t.merchant();
    await t.expectOk(t.admin('PATCH', `/admin/v1/merchants/${tipper.id}`, { settings: { isTipsEnabled: true } }));
    const tipped = await t.expectOk(create({ amount: 10, tipAmount: 2 }, V2, tipper.token));
    assert.equal((await t.request('GET', `${V2}/${tipped.id}`, { token: tipper.token })).body.tipAmount, 2);
  });

  it('limits, cleans and returns metadata (object or list of pairs; null means none)', async () => {
    const controls = `a\u0000b\u0007c\u001fd\u007fe`;
    const created = await t.expectOk(
      create({ amount: 5, metadata: [{ orderId: 'A-1' }, { note: controls }, { count: 3 }, { vip: true }] }),
    );
    const view = await t.expectOk(t.request('GET', `${V2}/${created.id}`, { token: m.token }));
    assert.deepEqual(view.metadata, { orderId: 'A-1', note: 'abcde', count: '3', vip: 'true' });
    const none = await t.expectOk(create({ amount: 5, metadata: null }));
    assert.equal((await t.request('GET', `${V2}/${none.id}`, { token: m.token })).body.metadata, null);

    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    await expect400({ amount: 5, metadata: many }, 'metadata');
    await expect400({ amount: 5, metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata');
    await expect400({ amount: 5, metadata: { note: 'v'.repeat(501) } }, 'metadata.note');
    // 50 pairs of 200 characters: each within its limits, together over 8 KB.
    const big = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, 'é'.repeat(100)]));
    await expect400({ amount: 5, metadata: big }, 'metadata');
    await expect400({ amount: 5, metadata: { nested: { a: 1 } } }, 'metadata.nested');
    await expect400({ amount: 5, metadata: 'text' }, 'metadata');
    // The integration surface takes string values only, and no list form.
    await expect400({ amount: 5, metadata: [] }, 'metadata', INT);
    await expect400({ amount: 5, metadata: { count: 3 } }, 'metadata.count', INT);
    assert.deepEqual({ ...sanitizeMetadata({ a: 'x\u0085y' }, true) }, { a: 'xy' });
  });

  it('creates on the integration surface: integer enums, lowercase types, defaults, placeholder replaced', async () => {
    const before = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const res = await create(
      {
        amount: 12.5,
        mode: 3,
        paymentMethodTypes: ['card'],
        returnUrl: 'https://shop.example.com/paid/{{paymentSessionId}}?again={{paymentSessionId}}',
        metadata: { orderId: 'B-2' },
        taxMode: 1,
        taxRate: 5,
      },
      INT,
      m.token,
      { 'x-api-version': '1' },
    );
    assert.equal(res.status, 200, res.text);
    const body = res.body;
    assert.equal(body.mode, 'PaymentAndSave');
    assert.equal(body.returnUrl, `https://shop.example.com/paid/${body.id}?again=${body.id}`);
    assert.equal(body.CheckoutUrl, `${t.config.publicBaseUrl}/checkout/${body.id}`);
    assert.equal(body.checkoutUrl, body.CheckoutUrl);
    const expiry = new Date(body.expiresAt).getTime() - new Date(body.createdAt).getTime();
    assert.equal(expiry, 30 * 60_000, 'default expiry is 30 minutes');
    assert.ok(new Date(body.createdAt).getTime() >= before.getTime());

    const view = await t.expectOk(t.request('GET', `${INT}/${body.id}`, { token: m.token }));
    assert.equal(view.mode, 3);
    assert.equal(view.modeName, 'PaymentAndSave');
    assert.equal(view.statusId, 1);
    assert.equal(view.status, 'Created');
    assert.equal(view.customerHandling, 'CreateCustomer');
    assert.deepEqual(view.paymentMethodTypes, ['card'], 'echoed as sent');
    assert.equal(view.paymentMethods.ach.enabled, false);
    assert.deepEqual(view.metadata, { orderId: 'B-2' });
    // Either surface reads the other's sessions, each in its own encoding.
    assert.equal((await t.request('GET', `${V2}/${body.id}`, { token: m.token })).body.mode, 'PaymentAndSave');

    const both = await t.expectOk(create({ amount: 1, paymentMethodTypes: ['ACH', 'Card'] }, INT));
    const bothView = await t.expectOk(t.request('GET', `${INT}/${both.id}`, { token: m.token }));
    assert.deepEqual(bothView.paymentMethodTypes, ['ACH', 'Card']);
    assert.equal(bothView.paymentMethods.card.enabled && bothView.paymentMethods.ach.enabled, true);
    // The vendor's suite sends lowercase types and an expiry without milliseconds, and reads both back as sent.
    const expiresAt = new Date(before.getTime() + 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const sent = await t.expectOk(create({ amount: 1, paymentMethodTypes: ['card', 'ach'], expiresAt }, INT));
    assert.equal(sent.expiresAt, expiresAt);
    const sentView = await t.expectOk(t.request('GET', `${INT}/${sent.id}`, { token: m.token }));
    assert.deepEqual(sentView.paymentMethodTypes, ['card', 'ach']);
    assert.equal(sentView.expiresAt, expiresAt);
    const defaulted = await t.expectOk(t.request('GET', `${INT}/${both.id}`, { token: m.token }));
    assert.match(defaulted.expiresAt, /\.\d{3}Z$/, 'a default expiry is ISO 8601 with milliseconds');
    const vault = await t.expectOk(create({ mode: 2 }, INT));
    assert.equal(vault.mode, 'SaveMethod');

    await expect400({ amount: 1, mode: 4 }, 'mode', INT);
    await expect400({ amount: 1, taxMode: 3, taxRate: 5 }, 'taxMode', INT);
    await expect400({ amount: 1, paymentMethodTypes: ['cash'] }, 'paymentMethodTypes', INT);
    await expect400({ amount: 1, paymentMethodTypes: [] }, 'paymentMethodTypes', INT);
    await expect400({ amount: 1, mode: 'Payment' }, 'mode', INT);
    await expect400({ mode: 2, amount: 1 }, 'amount', INT);
  });

  it('replays, conflicts and serialises on the idempotency key (only one session is created)', async () => {
    const key = randomUUID();
    const body = { amount: 7.77, referenceId: 'idem' };
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () => create(body, V2, m.token, { 'idempotency-key': key })),
    );
    const ok = attempts.filter((r) => r.status === 200);
    const busy = attempts.filter((r) => r.status === 409);
    assert.equal(ok.length + busy.length, 8, attempts.map((r) => r.status).join(','));
    for (const r of busy) assert.equal(r.body.errorCode, 'IdempotencyKeyInProgress');
    const ids = new Set(ok.map((r) => r.body.id));
    assert.equal(ids.size, 1, 'every success is the same session');
    const replay = await create(body, V2, m.token, { 'idempotency-key': key });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.text, ok[0]!.text, 'the replay is the original response unchanged');
    const conflict = await create({ ...body, amount: 7.78 }, V2, m.token, { 'idempotency-key': key });
    assert.equal(conflict.status, 422);
    assert.equal(conflict.body.errorCode, 'IdempotencyKeyConflict');
    const rows = await t.query("SELECT id FROM payment_sessions WHERE merchant_id = $1 AND reference_id = 'idem'", [
      m.id,
    ]);
    assert.equal(rows.length, 1);
    // A refused request (400) is stored like any other answer: the retry gets the same 400.
    const badKey = randomUUID();
    const first = await create({ amount: 0 }, V2, m.token, { 'idempotency-key': badKey });
    const second = await create({ amount: 0 }, V2, m.token, { 'idempotency-key': badKey });
    assert.equal(first.status, 400);
    assert.equal(second.text, first.text);
    const long = await create(body, V2, m.token, { 'idempotency-key': 'k'.repeat(256) });
    assert.equal(long.status, 400);
  });

  it('cancels only in Created: a repeat is a 400 and the session keeps its record', async () => {
    const { id } = await t.expectOk(create({ amount: 5, metadata: { keep: 'me' } }));
    const cancel = await t.request('POST', `${V2}/${id}/cancel`, { token: m.token });
    assert.equal(cancel.status, 200);
    assert.equal(cancel.text, '');
    const again = await t.request('POST', `${INT}/${id}/cancel`, { token: m.token });
    assert.equal(again.status, 400);
    assert.match(again.body.details, /only in Created/);
    const view = await t.expectOk(t.request('GET', `${INT}/${id}`, { token: m.token }));
    assert.equal(view.statusId, 2);
    assert.equal(view.status, 'Cancelled');
    assert.equal(view.cancellationReason, 'Cancelled');
    assert.deepEqual(view.metadata, { keep: 'me' });
    assert.ok(view.cancelledAt);
  });

  it('cancels an expired session by itself on the clock', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const soon = await t.expectOk(create({ amount: 5, expiresAt: new Date(now.getTime() + 90_000).toISOString() }));
    const later = await t.expectOk(create({ amount: 5, expiresAt: new Date(now.getTime() + 3_600_000).toISOString() }));
    const int = await t.expectOk(create({ amount: 5 }, INT));
    await t.advanceClock(120, m);
    // The expiry job runs without anyone reading the session.
    await eventually(async () => {
      const [row] = await t.query<{ status: number; end_reason: string }>(
        'SELECT status, end_reason FROM payment_sessions WHERE id = $1',
        [soon.id],
      );
      return row?.status === 2 && row.end_reason === 'expired';
    }, 10_000);
    const view = await t.expectOk(t.request('GET', `${V2}/${soon.id}`, { token: m.token }));
    assert.equal(view.status, 'Cancelled');
    assert.equal(view.cancellationReason, 'Expired');
    assert.equal((await t.request('GET', `${V2}/${later.id}`, { token: m.token })).body.status, 'Created');
    assert.equal((await t.request('GET', `${INT}/${int.id}`, { token: m.token })).body.status, 'Created');
    await t.advanceClock(30 * 60, m);
    assert.equal((await t.request('GET', `${INT}/${int.id}`, { token: m.token })).body.status, 'Cancelled');
    assert.equal((await t.request('POST', `${V2}/${soon.id}/cancel`, { token: m.token })).status, 400);
  });

  it('answers an expiry another node won with the expired session, not the open copy read before it', async () => {
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const s = await t.expectOk(create({ amount: 5, expiresAt: new Date(now.getTime() + 60_000).toISOString() }));
    const stale = await findSession(t.ctx.pool, m.id, s.id);
    assert.equal(stale?.status, 1);
    const past = new Date(now.getTime() + 61_000);
    // The expiry job on another node gets there between this reader's SELECT and its UPDATE.
    assert.equal((await expireSession(t.ctx.pool, s.id, past))?.status, 2);
    const seen = await expireIfDue(t.ctx.pool, stale!, past);
    assert.equal(seen.status, 2);
    assert.equal(seen.endReason, 'expired');
  });

  it('requires https return URLs in production, and also takes http in sandbox', () => {
    assert.equal(returnUrlProblem('https://shop.example.com/done', 'production'), undefined);
    assert.match(returnUrlProblem('http://shop.example.com/done', 'production')!, /https/);
    assert.equal(returnUrlProblem('http://localhost:3000/done/{{paymentSessionId}}', 'sandbox'), undefined);
    assert.match(returnUrlProblem('javascript:alert(1)', 'sandbox')!, /https/);
    assert.match(returnUrlProblem('https://user:pw@shop.example.com/', 'sandbox')!, /password/);
  });
});
