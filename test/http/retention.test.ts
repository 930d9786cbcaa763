// Retention by time partitions (docs/operations.md, "Retention"): the events, webhook deliveries, delivery logs and
// messages (by month) and the request log (by day) of a database that predates them become partitioned tables while a
// node serves (and an event stream stays open), and nothing the API shows changes across it; new rows land in their
// period's partition once the clock passes the boundary, rows the default partition took move into their month when
// the sweep creates it, and a partition wholly past the retention is dropped, the old table too.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { REQUEST_LOG_PARTITIONS } from '../../src/modules/request-logs/request-log-writer.js';
import { discoverMigrations, migrate } from '../../src/platform/db/migrator.js';
import { createPool } from '../../src/platform/db/pool.js';
import { sweepPartitions } from '../../src/platform/db/time-partitions.js';
import { openEventStream } from '../event-stream-client.js';
import {
  createTestDatabase,
  eventually,
  type MerchantTenant,
  startNode,
  type TestDatabase,
  type TestNode,
} from '../harness.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';

/** The last migration before the tables were partitioned. */
const BEFORE_PARTITIONS = 73;
const SALE = {
  accountNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '1 Retention Rd', postalCode: '10001' },
};

describe('retention by time partitions', () => {
  let database: TestDatabase;
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let receiver: Receiver;

  before(async () => {
    database = await createTestDatabase({ empty: true });
    await migrate(
      database.url,
      discoverMigrations().filter((migration) => migration.version <= BEFORE_PARTITIONS),
    );
    receiver = await startReceiver();
    t = await startNode({
      database,
      listen: true,
      env: {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        MESSAGE_RETENTION_DAYS: '31',
        EVENT_RETENTION_DAYS: '31',
        DUPLICATE_CHECK_MINUTES: '0',
      },
    });
    m = await t.merchant();
    const endpoint = await t.request('POST', '/v2/webhooks/endpoints', {
      token: m.token,
      body: { name: 'retention', endpointUrl: receiver.url, eventTypes: ['transaction.card.captured'] },
    });
    assert.ok(endpoint.status < 300, endpoint.text);
  });
  after(async () => {
    await t?.stop();
    await receiver?.close();
    await database?.drop();
  });

  /** A sale, its webhook delivered (a delivery log) and its receipt sent by SMS (a message). */
  const paid = async (amount: number) => {
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', { ...SALE, amount, referenceId: randomUUID() });
    const receipt = await t.call(m, 'POST', `/v2/transactions/${sale.transactionId}/send-receipt`, {
      mobileNumber: '+15551234567',
      customerConsent: true,
    });
    assert.equal(receipt.status, 200, receipt.text);
    await t.drain();
    return sale.transactionId as string;
  };
  /** Everything the API shows of the delivery logs and the messages. */
  const shown = async () => {
    const logs = await t.expectOk(t.request('GET', '/v2/webhooks/delivery-logs?pageSize=100', { token: m.token }));
    const details = [];
    for (const item of logs.items) {
      details.push(
        await t.expectOk(
          t.request('GET', `/v2/webhooks/delivery-logs/${item.deliveryLogId ?? item.id}`, { token: m.token }),
        ),
      );
    }
    const exported = await t.request('GET', '/v2/webhooks/delivery-logs/export?format=Json', { token: m.token });
    const outbox = await t.expectOk(t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}&pageSize=100`));
    return { logs: logs.items, details, exported: exported.text, outbox: outbox.items };
  };
  /** The merchant's request log lines of its sales (without their opaque positions), oldest first. */
  const saleLines = async (after = '') => {
    const page = await t.expectOk(
      t.request('GET', `/pay-api/v1/request-logs?path=/pay-api/v1/transactions/sale&limit=200${after}`, {
        token: m.token,
      }),
    );
    return page.items as Array<{ cursor: string; correlationId: string; status: number }>;
  };
  const withoutCursor = (lines: Array<{ cursor: string }>) => lines.map(({ cursor: _, ...line }) => line);
  /** A partitioned table's partitions, by name, and whether each is logged ('p') or unlogged ('u'). */
  const partitionsOf = (table: string) =>
    t.query<{ name: string; persistence: string }>(
      `SELECT c.relname AS name, c.relpersistence AS persistence FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
      [table],
    );
  const partitionNames = async (table: string) => (await partitionsOf(table)).map((p) => p.name);
  const homeOf = async (table: string, where: string) =>
    (await t.query<{ home: string }>(`SELECT tableoid::regclass::text AS home FROM ${table} WHERE ${where}`)).map(
      (r) => r.home,
    );

  /** Sales made while the tables were converted. */
  let salesDuring = 0;

  it('partitions the tables under a serving node, and the API shows the same before and after', async () => {
    for (const amount of [11, 12, 13]) await paid(amount);
    const before = await shown();
    assert.equal(before.logs.length, 3);
    assert.equal(before.outbox.length, 3);
    const linesBefore = await eventually(async () => {
      const lines = await saleLines();
      return lines.length === 3 ? lines : undefined;
    }, 5000);

    // A stream of the captures stays open across the conversion: it reads the events table as it changes.
    const stream = await openEventStream(t.baseUrl, m.token, { query: '?types=transaction.card.captured' });
    assert.equal(stream.res.status, 200);
    await eventually(async () => stream.parser.lastEventId, 5000);
    // Sales keep coming while the tables are converted (each writes a delivery log when drained later).
    let converting = true;
    const during: number[] = [];
    const duringIds: string[] = [];
    const traffic = (async () => {
      while (converting && during.length < 50) {
        const res = await t.call(m, 'POST', '/pay-api/v1/transactions/sale', {
          ...SALE,
          amount: 20 + during.length,
          referenceId: randomUUID(),
        });
        during.push(res.status);
        if (res.status === 200) duringIds.push(res.body.transactionId);
      }
    })();
    const report = await migrate(database.url).finally(() => {
      converting = false;
    });
    await traffic;
    assert.ok(during.length > 0 && during.every((status) => status === 200), during.join());
    assert.ok(
      report.applied.some((name) => name.endsWith('_webhook_delivery_logs_partitioned')),
      report.applied.join(),
    );
    assert.ok(report.applied.some((name) => name.endsWith('_messages_partitioned')));
    assert.ok(report.applied.some((name) => name.endsWith('_events_partitioned')));
    assert.ok(report.applied.some((name) => name.endsWith('_webhook_deliveries_partitioned')));
    const kinds = await t.query<{ relname: string; relkind: string }>(
      `SELECT relname, relkind FROM pg_class
       WHERE relname IN ('events', 'webhook_deliveries', 'webhook_delivery_logs', 'messages') ORDER BY 1`,
    );
    assert.deepEqual(kinds, [
      { relname: 'events', relkind: 'p' },
      { relname: 'messages', relkind: 'p' },
      { relname: 'webhook_deliveries', relkind: 'p' },
      { relname: 'webhook_delivery_logs', relkind: 'p' },
    ]);
    assert.deepEqual(await shown(), before, 'the API shows exactly what it showed');

    const later = await paid(14);
    const after = await shown();
    assert.equal(after.logs.length, 4 + during.length, 'the sales during the conversion delivered too');
    assert.deepEqual(after.details.slice(-3), before.details, 'older entries unchanged, newest first');
    salesDuring = during.length;
    assert.deepEqual(await homeOf('messages', `related_id = '${later}'`), ['messages_legacy']);
    assert.deepEqual(await homeOf('events', `resource_id = '${later}' AND type = 'transaction.card.captured'`), [
      'events_legacy',
    ]);

    // The request log kept its lines and took those of every sale since, in order; a client following it from its
    // last position before the conversion reads on without a gap.
    const lines = await eventually(async () => {
      const all = await saleLines();
      return all.length === 3 + during.length + 1 ? all : undefined;
    }, 5000);
    assert.deepEqual(withoutCursor(lines.slice(0, 3)), withoutCursor(linesBefore));
    const followed = await saleLines(`&after=${encodeURIComponent(linesBefore.at(-1)!.cursor)}`);
    assert.deepEqual(withoutCursor(followed), withoutCursor(lines.slice(3)));
    assert.ok(followed.every((line) => line.status === 200));

    // The open stream sent every capture from before, during and after the conversion, once each, in order.
    const captured = [...duringIds, later];
    await eventually(async () => stream.messages.length >= captured.length, 10_000);
    assert.deepEqual(
      stream.messages.map((message) => JSON.parse(message.data).data.object.id),
      captured,
    );
    stream.close();
    // Sequence numbers go on from the old table's, with none repeated.
    const [numbers] = await t.query<{ all: number; distinct: number; newest: boolean }>(
      `SELECT count(*)::int AS all, count(DISTINCT seq)::int AS distinct,
              max(seq) = max(seq) FILTER (WHERE resource_id = '${later}') AS newest FROM events`,
    );
    assert.equal(numbers!.all, numbers!.distinct);
    assert.ok(numbers!.newest, 'the last sale has the highest sequence number');
  });

  it('puts rows past the boundary in month partitions, moves what the default took, and drops what is past retention', async () => {
    const boundary = (
      await t.query<{ boundary: Date }>(
        `SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS boundary
         FROM pg_class c WHERE c.relname = 'messages_legacy'`,
      )
    )[0]!.boundary;
    const oldest = (await shown()).outbox.length;
    // Six months past the boundary: further than the partitions the migration made, so the row lands in the default
    // partition until the sweep (in the drain after it) makes its month and moves it there.
    const now = new Date((await t.expectOk(t.admin('GET', '/admin/v1/clock'))).now);
    const target = new Date(Date.UTC(boundary.getUTCFullYear(), boundary.getUTCMonth() + 6, 15));
    await t.advanceClock(Math.ceil((target.getTime() - now.getTime()) / 1000), m);
    const sale = await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', {
      ...SALE,
      amount: 15,
      referenceId: randomUUID(),
    });
    const receipt = await t.call(m, 'POST', `/v2/transactions/${sale.transactionId}/send-receipt`, {
      mobileNumber: '+15551234567',
      customerConsent: true,
    });
    assert.equal(receipt.status, 200, receipt.text);
    assert.deepEqual(await homeOf('messages', `related_id = '${sale.transactionId}'`), ['messages_default']);
    // An operator sees rows waiting in default partitions (the TesseraPartitionsBehind alert), until the sweep.
    const waiting = async (table: string) => {
      const text = (await t.request('GET', '/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith(`tessera_partition_default_rows{table="${table}"}`));
      return Number(line?.split(' ').at(-1));
    };
    assert.equal(await waiting('messages'), 1);
    assert.equal(await waiting('events'), 2);
    await t.drain();
    assert.equal(await waiting('messages'), 0);
    assert.equal(await waiting('events'), 0);
    const month = `y${target.getUTCFullYear()}m${String(target.getUTCMonth() + 1).padStart(2, '0')}`;
    assert.deepEqual(await homeOf('messages', `related_id = '${sale.transactionId}'`), [`messages_${month}`]);
    assert.deepEqual(await homeOf('webhook_delivery_logs', `created_at >= '${target.toISOString().slice(0, 10)}'`), [
      `webhook_delivery_logs_${month}`,
    ]);
    assert.deepEqual(await homeOf('events', `resource_id = '${sale.transactionId}'`), [
      `events_${month}`,
      `events_${month}`,
    ]);
    assert.deepEqual(await homeOf('webhook_deliveries', `created_at >= '${target.toISOString().slice(0, 10)}'`), [
      `webhook_deliveries_${month}`,
    ]);
    // Each delivery partition the sweep makes leaves room on its pages for the lease (migration 0072).
    const [storage] = await t.query<{ options: string[] }>(
      `SELECT reloptions AS options FROM pg_class WHERE relname = 'webhook_deliveries_${month}'`,
    );
    assert.deepEqual(storage!.options, ['fillfactor=60']);

    // Messages keep 31 days: the old table's rows (all before the boundary) and the first months are gone; the
    // delivery logs keep everything (the specification records a delivery's last failure permanently).
    const messageParts = await partitionNames('messages');
    assert.ok(!messageParts.includes('messages_legacy'), messageParts.join());
    assert.ok(messageParts.includes(`messages_${month}`));
    const outbox = (await t.expectOk(t.admin('GET', `/admin/v1/sandbox/outbox?merchantId=${m.id}&pageSize=100`)))
      .items as Array<{ relatedId: string }>;
    assert.deepEqual(
      outbox.map((o) => o.relatedId),
      [sale.transactionId],
      `the ${oldest} messages from before the boundary went with their partition`,
    );
    const logs = await t.expectOk(t.request('GET', '/v2/webhooks/delivery-logs?pageSize=100', { token: m.token }));
    assert.equal(logs.items.length, 5 + salesDuring, 'every delivery log kept');

    // Events and deliveries keep 31 days too (EVENT_RETENTION_DAYS): the old tables went, the new month stays.
    for (const table of ['events', 'webhook_deliveries']) {
      const parts = await partitionNames(table);
      assert.ok(!parts.includes(`${table}_legacy`), parts.join());
      assert.ok(parts.includes(`${table}_${month}`), parts.join());
    }
    // A log outlives its delivery: asking to retry one whose delivery went with its month says so (the log, as if its
    // attempt had failed, since only failures are retried).
    const first = logs.items.at(-1) as { deliveryLogId: string };
    await t.query("UPDATE webhook_delivery_logs SET status = 'Failure' WHERE id = $1", [first.deliveryLogId]);
    const retried = await t.request('POST', `/v2/webhooks/delivery-logs/${first.deliveryLogId}/retry`, {
      token: m.token,
    });
    assert.equal(retried.status, 400, retried.text);
    assert.match(retried.text, /past the retention of events and deliveries/);
  });

  it('keeps the request log by day, in unlogged partitions, and drops each day past its 24 hours', async () => {
    // The request log is written in real time (not the sandbox clock); its sweep runs on each node's writer. Here it
    // is run as that writer runs it, at instants ahead of now.
    const pool = createPool(database.url, 2, 'tessera-tests');
    try {
      const parts = () => partitionsOf('request_logs');
      const day = (at: Date) =>
        `request_logs_y${at.getUTCFullYear()}m${String(at.getUTCMonth() + 1).padStart(2, '0')}d${String(at.getUTCDate()).padStart(2, '0')}`;
      const now = new Date();
      await sweepPartitions(pool, REQUEST_LOG_PARTITIONS, now);
      const ready = await parts();
      assert.ok(
        ready.every((p) => p.persistence === 'u'),
        JSON.stringify(ready),
      );
      assert.ok(ready.some((p) => p.name === 'request_logs_legacy'));
      assert.ok(await t.query(`SELECT 1 FROM request_logs_legacy LIMIT 1`).then((rows) => rows.length === 1));

      // Five days on: the old table (every line below a boundary two days ahead) and the days before yesterday are
      // past their 24 hours; the days from yesterday on stay, and three more are made ahead.
      const later = new Date(now.getTime() + 5 * 86_400_000);
      const sweep = await sweepPartitions(pool, REQUEST_LOG_PARTITIONS, later);
      assert.ok(sweep.dropped.includes('request_logs_legacy'), sweep.dropped.join());
      const names = await partitionNames('request_logs');
      assert.ok(!names.includes('request_logs_legacy'));
      for (const offset of [-1, 0, 1, 2, 3]) {
        assert.ok(names.includes(day(new Date(later.getTime() + offset * 86_400_000))), `${offset}: ${names.join()}`);
      }
      assert.ok(!names.includes(day(new Date(later.getTime() - 2 * 86_400_000))), names.join());
      assert.deepEqual(await saleLines(), [], 'the lines went with their partition');
      assert.ok((await parts()).every((p) => p.persistence === 'u'));
    } finally {
      await pool.end();
    }
  });
});
