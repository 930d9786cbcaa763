// The event stream behind `tessera listen` (GET /pay-api/v1/events/stream): a merchant's own events only, in order,
// from where a reconnecting client left off, filtered by type on request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../src/platform/db/pool.js';
import { EVENT_STREAM, openEventStream as open } from '../event-stream-client.js';
import { eventually, type MerchantTenant, sleep, startNode, type TestNode } from '../harness.js';

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
    assert.ok(start.length > 20);
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
    // Positions are opaque: they reveal nothing of the deployment's volume, and differ from message to message.
    for (const id of [start, stream.messages[0]!.id, stream.messages[1]!.id]) assert.ok(!/^\d+$/.test(id ?? ''), id);
    assert.notEqual(stream.messages[0]!.id, stream.messages[1]!.id);
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
    assert.equal((await fetch(`${t.baseUrl}${EVENT_STREAM}`)).status, 401);
    const partner = await t.partner();
    assert.equal(
      (await fetch(`${t.baseUrl}${EVENT_STREAM}`, { headers: { authorization: `Bearer ${partner.token}` } })).status,
      403,
    );
    const bad = await open(t.baseUrl, m.token, { lastEventId: 'yesterday' });
    assert.equal(bad.res.status, 400);
    // Another merchant's position is refused like a forged one.
    const theirs = await open(t.baseUrl, other.token);
    streams.push(theirs);
    const theirStart = await eventually(async () => theirs.parser.lastEventId, 5000);
    assert.equal((await open(t.baseUrl, m.token, { lastEventId: theirStart })).res.status, 400);
    for (const query of [
      '?after=-1',
      '?after=1e3',
      `?after=${'x'.repeat(2001)}`,
      `?types=${'x'.repeat(2001)}`,
      '?since=1',
    ]) {
      assert.equal((await open(t.baseUrl, m.token, { query })).res.status, 400, query);
    }
  });
});

describe('event stream: late commits, one reader per node, and the cap', () => {
  let a: TestNode & { baseUrl: string };
  let b: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  const streams: Array<{ close: () => void }> = [];
  const CAP = 3;

  before(async () => {
    a = await startNode({ listen: true, env: { EVENT_STREAMS_PER_MERCHANT: String(CAP) } });
    b = await startNode({ listen: true, database: a.database, env: { EVENT_STREAMS_PER_MERCHANT: String(CAP) } });
    m = await a.merchant();
  });
  after(async () => {
    for (const s of streams) s.close();
    await b.stop();
    await a.stop();
  });

  const rawEvent = (client: { query: (text: string, values: unknown[]) => Promise<unknown> }, tag: string) =>
    client.query(
      `INSERT INTO events (id, type, merchant_id, resource_type, resource_id, occurred_at)
       VALUES (gen_random_uuid(), 'payment_session.created', $1, 'payment_session', $2, now())`,
      [m.id, tag],
    );
  const tags = (messages: Array<{ data: string }>) => messages.map((msg) => JSON.parse(msg.data).data.object.id);

  it('never skips an event whose transaction committed after a later event was sent, live or on resume', async () => {
    const stream = await open(a.baseUrl, m.token);
    streams.push(stream);
    await eventually(async () => stream.parser.lastEventId, 5000);
    const slow = createClient(a.database.url, 'tessera-tests');
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await rawEvent(slow, 'early-seq-late-commit'); // takes the lower seq, commits last
      await rawEvent(a.ctx.pool, 'later-seq-first-commit');
      await eventually(async () => tags(stream.messages).includes('later-seq-first-commit'), 5000);
      const afterLater = stream.messages.at(-1)!.id!;
      await slow.query('COMMIT');
      await eventually(async () => tags(stream.messages).includes('early-seq-late-commit'), 5000);
      assert.deepEqual(tags(stream.messages), ['later-seq-first-commit', 'early-seq-late-commit']);
      // A client that was cut off right after the later event gets the late one on another node, once.
      const onB = (await b.token(m.clientId, m.clientSecret)).access_token;
      const resumed = await open(b.baseUrl, onB, { lastEventId: afterLater });
      streams.push(resumed);
      await eventually(async () => resumed.messages.length >= 1, 5000);
      await rawEvent(a.ctx.pool, 'after-resume');
      await eventually(async () => tags(resumed.messages).includes('after-resume'), 5000);
      assert.deepEqual(tags(resumed.messages), ['early-seq-late-commit', 'after-resume']);
      stream.close();
      resumed.close();
    } finally {
      await slow.end();
    }
  });

  it('reads once a tick for all its streams: fifteen idle streams of five merchants cost what one does', async () => {
    const pool = a.ctx.pool as unknown as { query: (...args: unknown[]) => unknown };
    const original = pool.query;
    // The reads of events (other statements, a rate limit's counters, come and go with the requests).
    let statements = 0;
    pool.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as string | { text?: string };
      if ((typeof q === 'string' ? q : (q.text ?? '')).includes('FROM events')) statements++;
      return original.apply(this, args);
    };
    const count = async (ms: number) => {
      statements = 0;
      await sleep(ms);
      return statements;
    };
    try {
      const big = await a.merchant();
      const many: Array<{ close: () => void }> = [];
      // The cap is per merchant: fifty merchants with a stream each, and their channels share the one read.
      const tenants = [big, ...(await Promise.all(Array.from({ length: 4 }, () => a.merchant())))];
      const one = await open(a.baseUrl, tenants[0]!.token);
      many.push(one);
      await eventually(async () => one.parser.lastEventId, 5000);
      const withOne = await count(2000);
      for (let n = 0; n < 14; n++) {
        const s = await open(a.baseUrl, tenants[n % tenants.length]!.token);
        if (s.res.status === 200) many.push(s);
      }
      assert.ok(many.length >= tenants.length * CAP - 1, `${many.length} streams open`);
      await eventually(async () => (a.ctx.services.eventStreams.open as number) >= many.length, 5000);
      const withMany = await count(2000);
      for (const s of many) s.close();
      assert.ok(
        withMany <= withOne + 4,
        `statements in 2 s: ${withOne} with one stream, ${withMany} with ${many.length}`,
      );
    } finally {
      pool.query = original;
    }
  });

  it('refuses a merchant more than its cap of streams, counted across nodes (429), and frees a place on close', async () => {
    const tenant = await a.merchant();
    const onB = { token: (await b.token(tenant.clientId, tenant.clientSecret)).access_token };
    const opened = [
      await open(a.baseUrl, tenant.token),
      await open(b.baseUrl, onB.token),
      await open(a.baseUrl, tenant.token),
    ];
    streams.push(...opened);
    assert.deepEqual(
      opened.map((s) => s.res.status),
      [200, 200, 200],
    );
    const refused = await open(b.baseUrl, onB.token);
    assert.equal(refused.res.status, 429);
    assert.ok(Number(refused.res.headers.get('retry-after')) > 0);
    const body = (await refused.res.json()) as { details: string };
    assert.match(body.details, /3 event streams open/);
    opened[1]!.close();
    const again = await eventually(async () => {
      const s = await open(b.baseUrl, onB.token);
      if (s.res.status === 200) return s;
      s.close();
      return undefined;
    }, 5000);
    streams.push(again);
  });
});
