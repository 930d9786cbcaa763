// The event stream behind `tessera listen` (GET /pay-api/v1/events/stream): a merchant's own events only, in order,
// from where a reconnecting client left off, filtered by type on request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SseMessage, SseParser } from '../../src/cli/sse.js';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const STREAM = '/pay-api/v1/events/stream';

/** An open stream: the messages so far, and a way to close it. */
async function open(baseUrl: string, token: string, options: { query?: string; lastEventId?: string } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}${STREAM}${options.query ?? ''}`, {
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const messages: SseMessage[] = [];
  const parser = new SseParser();
  if (res.ok && res.body) {
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          messages.push(...parser.push(decoder.decode(chunk, { stream: true })));
        }
      } catch {
        // closed by the test
      }
    })();
  }
  return { res, messages, parser, close: () => controller.abort() };
}

describe('event stream', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let other: MerchantTenant;
  const streams: Array<{ close: () => void }> = [];

  before(async () => {
    t = await startNode({ listen: true });
    m = await t.merchant();
    other = await t.merchant();
  });
  after(async () => {
    for (const s of streams) s.close();
    await t.stop();
  });

  // A payment session is the cheapest thing that announces itself: payment_session.created.
  const session = (tenant: MerchantTenant, referenceId: string) =>
    t.expectOk(t.request('POST', '/v2/payment-sessions', { token: tenant.token, body: { amount: 5, referenceId } }));
  const sale = (tenant: MerchantTenant) =>
    t.expectOk(
      t.request('POST', '/pay-api/v1/transactions/sale', {
        token: tenant.token,
        body: { amount: 3, accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2035 },
      }),
    );

  it("sends the merchant's new events in order, never another merchant's, and resumes after Last-Event-ID", async () => {
    await session(m, 'Before');
    const stream = await open(t.baseUrl, m.token);
    streams.push(stream);
    assert.equal(stream.res.status, 200);
    assert.match(stream.res.headers.get('content-type') ?? '', /^text\/event-stream/);
    // It says where it starts before any event: a client cut off now resumes from there.
    const start = await eventually(async () => stream.parser.lastEventId, 5000);
    assert.match(start, /^\d+$/);
    const mine = [await session(m, 'One'), await session(m, 'Two')];
    await session(other, 'Theirs');
    await eventually(async () => stream.messages.length >= 2, 5000);
    const bodies = stream.messages.map((message) => JSON.parse(message.data));
    assert.deepEqual(
      bodies.map((body) => body.data.object.id),
      mine.map((created) => created.id),
      'only what happened after the stream opened, only this merchant, in order',
    );
    assert.equal(stream.messages[0]!.event, bodies[0].type);
    assert.ok(Number(stream.messages[1]!.id) > Number(stream.messages[0]!.id));
    assert.ok(Number(stream.messages[0]!.id) > Number(start));
    stream.close();

    // Reconnecting after the first event: the second comes again, and what happened meanwhile.
    const third = await session(m, 'Three');
    const resumed = await open(t.baseUrl, m.token, { lastEventId: stream.messages[0]!.id });
    streams.push(resumed);
    await eventually(async () => resumed.messages.length >= 2, 5000);
    assert.deepEqual(
      resumed.messages.map((message) => JSON.parse(message.data).data.object.id),
      [mine[1]!.id, third.id],
    );
    resumed.close();
  });

  it('sends only the types asked for', async () => {
    const stream = await open(t.baseUrl, m.token, { query: '?types=payment_session.created' });
    streams.push(stream);
    await sale(m);
    const created = await session(m, 'Filtered');
    await eventually(async () => stream.messages.length >= 1, 5000);
    // The sale's events were passed over, not held back: the session's came through after them.
    assert.deepEqual(
      stream.messages.map((message) => message.event),
      ['payment_session.created'],
    );
    assert.equal(JSON.parse(stream.messages[0]!.data).data.object.id, created.id);
    stream.close();
  });

  it('refuses a caller without a merchant token, and a cursor that is not one', async () => {
    assert.equal((await fetch(`${t.baseUrl}${STREAM}`)).status, 401);
    const partner = await t.partner();
    assert.equal(
      (await fetch(`${t.baseUrl}${STREAM}`, { headers: { authorization: `Bearer ${partner.token}` } })).status,
      403,
    );
    const bad = await open(t.baseUrl, m.token, { lastEventId: 'yesterday' });
    assert.equal(bad.res.status, 400);
    for (const query of ['?after=-1', '?after=1e3', `?types=${'x'.repeat(2001)}`, '?since=1']) {
      assert.equal((await open(t.baseUrl, m.token, { query })).res.status, 400, query);
    }
  });
});
