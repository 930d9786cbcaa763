// The Adyen connector under faults (the fake injects them): an answer dropped after Adyen recorded the request, a
// 5xx, an answer past the deadline, notifications before the answer, twice, held back and reordered, a technical
// cancel that Adyen refuses. Every one ends with exactly one charge or none, never two, and the payment in its true
// state. Then who may notify: Basic credentials and each item's HMAC, across a rotation of the keys.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { signItem } from '../fakes/adyen/fake-adyen-notifier.js';
import { eventually } from '../harness.js';
import {
  ACCOUNT,
  type AdyenWorld,
  assertClean,
  CARD,
  chargesAtAdyen,
  settle,
  startAdyenWorld,
  transactionWhen,
} from './adyen-helpers.js';

const status = (tx: Record<string, any>) => (tx.transactionStatus ?? tx.status) as string;
const compact = (id: string) => id.replaceAll('-', '');

describe('Adyen connector under faults', () => {
  let w: AdyenWorld;
  before(async () => {
    // A short deadline, so an answer can come too late within a test.
    w = await startAdyenWorld({ CONNECTOR_TIMEOUT_MS: '1000' });
  });
  after(() => w.stop());

  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await w.t.request('POST', `/pay-api/v1/transactions/${path}`, { token: w.m.token, body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const pay = (kind: 'sale' | 'auth', amount: number) =>
    post(kind, { amount, ...CARD, referenceId: randomUUID().slice(0, 20) });
  const paymentsSent = (id: string) =>
    w.fake.requests.filter((r) => r.path === '/v71/payments' && r.body.reference === compact(id)).length;

  it('a sale whose answer is dropped after Adyen recorded it: its notification settles it, charged once', async () => {
    w.fake.inject(/\/payments$/, { kind: 'drop-after-record' });
    const s = await pay('sale', 31);
    assert.equal(s.details.code, 'Pending', JSON.stringify(s));
    await transactionWhen(w, s.transactionId, (x) => status(x) === 'Captured');
    assert.equal(chargesAtAdyen(w, s.transactionId), 1);
    assert.equal(paymentsSent(s.transactionId), 1, 'never a second authorisation');
    await assertClean(w);
  });

  it('a sale that met a 5xx: a technical cancel by our reference settles it as not charged', async () => {
    w.fake.inject(/\/payments$/, { kind: 'status-500' });
    const s = await pay('sale', 32);
    assert.equal(s.details.code, 'Pending');
    const tx = await transactionWhen(w, s.transactionId, (x) => status(x) === 'Failed');
    assert.match(tx.details.message, /nothing was charged/);
    assert.ok(
      w.fake.requests.some((r) => r.path === '/v71/cancels' && r.body.paymentReference === compact(s.transactionId)),
    );
    assert.equal(chargesAtAdyen(w, s.transactionId), 0);
    await assertClean(w);
  });

  it('an authorization answered past the deadline: Adyen’s authorisation settles it, held once', async () => {
    w.fake.inject(/\/payments$/, { kind: 'delay', ms: 2500 });
    const a = await pay('auth', 33);
    assert.equal(a.details.code, 'Pending');
    await transactionWhen(w, a.transactionId, (x) => status(x) === 'Authorized');
    assert.equal(chargesAtAdyen(w, a.transactionId), 1);
    assert.equal(paymentsSent(a.transactionId), 1);
    await assertClean(w);
  });

  it('an authorization cut off while its notification is held: the technical cancel cancels it, nothing held', async () => {
    w.fake.notifier.hold = true;
    w.fake.inject(/\/payments$/, { kind: 'drop-after-record' });
    const a = await pay('auth', 34);
    await eventually(async () => {
      await w.t.drain();
      return w.fake.requests.some(
        (r) => r.path === '/v71/cancels' && r.body.paymentReference === compact(a.transactionId),
      );
    }, 15_000);
    await w.fake.notifier.release();
    await transactionWhen(w, a.transactionId, (x) => status(x) === 'Failed');
    assert.equal(w.fake.paymentByReference(compact(a.transactionId))!.state, 'cancelled');
    assert.equal(chargesAtAdyen(w, a.transactionId), 0);
    await assertClean(w);
  });

  it('a sale cut off whose technical cancel Adyen refuses (already captured): it stands, charged once', async () => {
    w.fake.notifier.hold = true;
    w.fake.inject(/\/payments$/, { kind: 'drop-after-record' });
    const s = await pay('sale', 35);
    await eventually(async () => {
      await w.t.drain();
      return w.fake.requests.some(
        (r) => r.path === '/v71/cancels' && r.body.paymentReference === compact(s.transactionId),
      );
    }, 15_000);
    // Released newest first: the refused cancel arrives before the authorisation it must wait for.
    await w.fake.notifier.release();
    await transactionWhen(w, s.transactionId, (x) => status(x) === 'Captured');
    assert.equal(chargesAtAdyen(w, s.transactionId), 1);
    await assertClean(w);
  });

  it('a capture whose answer is dropped: sent again under the same idempotency key, captured once', async () => {
    const a = await pay('auth', 36);
    // Held, so only the capture sent again (not its notification) can settle what the lost answer left unknown.
    w.fake.notifier.hold = true;
    w.fake.inject(/\/captures$/, { kind: 'drop-after-record' });
    const capture = await post('capture', { transactionId: a.transactionId, amount: 36 });
    assert.equal(capture.details.code, 'Pending');
    const captures = () =>
      w.fake.requests.filter(
        (r) => r.path.endsWith('/captures') && String(r.body.reference).startsWith(compact(a.transactionId)),
      );
    await eventually(async () => {
      await w.t.drain();
      return captures().length >= 2;
    }, 15_000);
    assert.equal(new Set(captures().map((r) => r.idempotencyKey)).size, 1, 'one idempotency key for every attempt');
    const waiting = await w.t.ok(w.m, 'GET', `/pay-api/v1/transactions/${a.transactionId}`);
    assert.equal(status(waiting), 'Authorized', 'not captured before the notification');
    await w.fake.notifier.release();
    await transactionWhen(w, a.transactionId, (x) => status(x) === 'Captured');
    assert.equal(w.fake.paymentByReference(compact(a.transactionId))!.capturedCents, 3600);
    await assertClean(w);
  });

  it('a refund notified before its answer, notifications twice and out of order: each applied once', async () => {
    const s = await pay('sale', 37);
    w.fake.inject(/\/refunds$/, { kind: 'notify-before-answer' });
    const refund = await post('return', { transactionId: s.transactionId, amount: 10 });
    await transactionWhen(w, refund.transactionId, (x) => status(x) === 'Refunded');

    w.fake.notifier.duplicate = true;
    w.fake.notifier.hold = true;
    const a = await pay('auth', 38);
    await post('capture', { transactionId: a.transactionId, amount: 38 });
    await w.fake.notifier.release(); // CAPTURE before AUTHORISATION, each twice
    w.fake.notifier.duplicate = false;
    await transactionWhen(w, a.transactionId, (x) => status(x) === 'Captured');
    const rows = await w.t.query<{ event_code: string; n: number }>(
      `SELECT event_code, count(*)::int AS n FROM processor_notifications
       WHERE notification->>'reference' LIKE $1 GROUP BY event_code ORDER BY event_code`,
      [`${a.transactionId}%`],
    );
    assert.deepEqual(rows, [
      { event_code: 'AUTHORISATION', n: 1 },
      { event_code: 'CAPTURE', n: 1 },
    ]);
    const captured = await w.t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'transaction.card.captured' AND resource_id = $1`,
      [a.transactionId],
    );
    assert.equal(captured[0]!.n, 1, 'one captured event, one webhook');
    await assertClean(w);
  });
});

describe('who may notify Tessera for an Adyen processor', () => {
  let w: AdyenWorld;
  before(async () => {
    w = await startAdyenWorld();
  });
  after(() => w.stop());

  function message(hmacKey: string, overrides: Record<string, unknown> = {}) {
    const item = {
      amount: { currency: 'USD', value: 100 },
      eventCode: 'CAPTURE',
      eventDate: '2026-11-27T10:00:00+00:00',
      merchantAccountCode: ACCOUNT.merchantAccount,
      merchantReference: `${randomUUID().replaceAll('-', '')}:capture:${randomUUID().replaceAll('-', '')}`,
      originalReference: 'QFQTPCQ8HXSKGK82',
      paymentMethod: 'visa',
      pspReference: randomUUID().slice(0, 16).toUpperCase(),
      reason: '',
      success: 'true' as const,
      ...overrides,
    };
    return {
      live: 'false',
      notificationItems: [
        { NotificationRequestItem: { ...item, additionalData: { hmacSignature: signItem(item, hmacKey) } } },
      ],
    };
  }
  const send = async (body: unknown, password = ACCOUNT.notificationPassword, url = w.notificationUrl) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${ACCOUNT.notificationUsername}:${password}`).toString('base64')}`,
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const recorded = async () =>
    (await w.t.query<{ n: number }>('SELECT count(*)::int AS n FROM processor_notifications'))[0]!.n;

  it('accepts a signed message with the right credentials, and refuses anything else with nothing recorded', async () => {
    const before = await recorded();
    const good = await send(message(ACCOUNT.hmacKey));
    assert.deepEqual(good, { status: 200, text: '[accepted]' });
    assert.equal(await recorded(), before + 1);

    const refusals = [
      await send(message(ACCOUNT.hmacKey), 'wrong-password'),
      await send(message('AB'.repeat(32))),
      await send({
        ...message(ACCOUNT.hmacKey),
        notificationItems: [
          {
            NotificationRequestItem: {
              ...message(ACCOUNT.hmacKey).notificationItems[0]!.NotificationRequestItem,
              additionalData: {},
            },
          },
        ],
      }),
      await send(message(ACCOUNT.hmacKey, { merchantAccountCode: 'SomeoneElse' })),
      await send(
        message(ACCOUNT.hmacKey),
        ACCOUNT.notificationPassword,
        w.notificationUrl.replace(w.processorId, randomUUID()),
      ),
    ];
    for (const refusal of refusals) assert.equal(refusal.status, 401, refusal.text);
    assert.equal(await recorded(), before + 1, 'nothing recorded from a refused message');

    // A message Adyen repeats is accepted again and recorded once.
    const repeated = message(ACCOUNT.hmacKey);
    assert.equal((await send(repeated)).status, 200);
    assert.equal((await send(repeated)).status, 200);
    assert.equal(await recorded(), before + 2);
    await settle(w);
  });

  it('records messages arriving together once each, with one apply job each, repeats among them included', async () => {
    // Concurrent messages are written in groups: a repeat in the same group as its first copy is still one record.
    const before = await recorded();
    const distinct = Array.from({ length: 12 }, () => message(ACCOUNT.hmacKey));
    const answers = await Promise.all([...distinct, ...distinct.slice(0, 6)].map((body) => send(body)));
    for (const answer of answers) assert.deepEqual(answer, { status: 200, text: '[accepted]' });
    assert.equal(await recorded(), before + 12);
    const references = distinct.map((body) => body.notificationItems[0]!.NotificationRequestItem.pspReference);
    const [jobs] = await w.t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs j JOIN processor_notifications p ON p.id::text = j.payload->>'id'
       WHERE j.queue = 'processor-notifications.apply' AND p.processor_reference = ANY($1)`,
      [references],
    );
    assert.equal(jobs!.n, 12);
    await settle(w);
  });

  it('takes the replaced HMAC key and password for the overlap, and not once it ends', async () => {
    const newKey = 'CD'.repeat(32);
    const path = `/admin/v1/merchants/${w.m.id}/processors/${w.processorId}`;
    await w.t.expectOk(
      w.t.admin('PATCH', path, { credentials: { hmacKey: newKey, notificationPassword: 'rotated-password-2' } }),
    );
    assert.equal((await send(message(ACCOUNT.hmacKey))).status, 200, 'the old key and password, inside the overlap');
    assert.equal((await send(message(newKey), 'rotated-password-2')).status, 200, 'the new ones');

    await w.t.expectOk(
      w.t.admin('PATCH', path, { credentials: { hmacKey: 'EF'.repeat(32) }, credentialOverlapHours: 0 }),
    );
    // Version 1 is still inside its own overlap; version 2 (replaced without one) is not.
    assert.equal((await send(message(newKey), 'rotated-password-2')).status, 401);
    assert.equal((await send(message(ACCOUNT.hmacKey))).status, 200);
  });
});
