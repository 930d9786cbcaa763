// `tessera trigger` against a running sandbox with its workers: every event type of the catalog a merchant can
// cause is triggered once and arrives, signed like a webhook delivery, at a loopback handler through `tessera
// listen`'s forwarding (verified with the standardwebhooks package); the command itself answers JSON; a production
// server is refused before anything is made.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTesseraClient } from '@tessera/client';
import { Webhook } from 'standardwebhooks';
import { Listener } from '../../src/cli/listen.js';
import { NOT_TRIGGERABLE, RECIPES, runTrigger, triggerList } from '../../src/cli/trigger/run-trigger.js';
import { EVENT_TYPES } from '../../src/modules/events/event-catalog.js';
import { ADMIN_TOKEN, eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';

const SECRET = 'c'.repeat(64);

describe('tessera trigger', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let receiver: Receiver;
  const stop = new AbortController();
  let listening: Promise<void>;

  before(async () => {
    t = await startNode({ listen: true, workers: true });
    m = await t.merchant();
    receiver = await startReceiver();
    // The stream starts where it connects: an event made before that is not forwarded, so the triggers wait for it
    // (under a loaded CI machine the first recipe once ran before the listener had connected).
    let connected = false;
    const listener = new Listener({
      baseUrl: t.baseUrl,
      clientId: m.clientId,
      clientSecret: m.clientSecret,
      forwardTo: receiver.url,
      secret: SECRET,
      headerPrefix: 'Service',
      json: true,
      out: (line) => {
        if ((JSON.parse(line) as { connected?: boolean }).connected) connected = true;
      },
      signal: stop.signal,
    });
    listening = listener.run();
    await eventually(async () => connected, 30_000);
  });
  after(async () => {
    stop.abort();
    await listening;
    await receiver?.close();
    await t?.stop();
  });

  it('has a recipe for every event type of the catalog but those no merchant causes', () => {
    for (const entry of EVENT_TYPES) {
      assert.ok(
        entry.eventType in RECIPES || entry.eventType in NOT_TRIGGERABLE,
        `${entry.eventType}: neither a recipe nor a reason`,
      );
    }
    assert.equal(triggerList().filter((e) => e.triggerable).length, Object.keys(RECIPES).length);
  });

  it('causes each event, which then arrives signed at the local handler', async () => {
    const client = createTesseraClient({ baseUrl: t.baseUrl, clientId: m.clientId, clientSecret: m.clientSecret });
    const verifier = new Webhook(SECRET, { format: 'raw' });
    for (const event of Object.keys(RECIPES)) {
      const from = receiver.hits.length;
      const report = await runTrigger({
        event,
        count: 1,
        client,
        admin: { baseUrl: t.baseUrl, token: ADMIN_TOKEN },
        progress: () => {},
      });
      assert.ok(report.made.length > 0, `${event}: made something`);
      await eventually(
        async () => receiver.hits.slice(from).some((hit) => (JSON.parse(hit.body) as { type: string }).type === event),
        60_000,
        50,
      ).catch(() => {
        const seen = receiver.hits.slice(from).map((hit) => JSON.parse(hit.body).type);
        throw new Error(`${event} did not arrive; arrived: ${seen.join(', ')}`);
      });
    }
    for (const hit of receiver.hits) {
      verifier.verify(hit.body, hit.headers as Record<string, string>);
    }
  });

  it('answers JSON from the command, and lists what it can trigger', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/main.ts'), 'trigger', ...args], {
          env: {
            ...process.env,
            TESSERA_BASE_URL: t.baseUrl,
            TESSERA_CLIENT_ID: m.clientId,
            TESSERA_CLIENT_SECRET: m.clientSecret,
            TESSERA_CONFIG_DIR: path.join(t.config.dataDir, 'cli'),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
    const declined = await run(['payment.card.declined', '--json', '--amount', '7.25']);
    assert.equal(declined.code, 0, declined.stderr);
    const report = JSON.parse(declined.stdout);
    assert.equal(report.event, 'transaction.card.declined', 'either name of the catalog');
    assert.match(report.made[0].detail, /Declined/);
    assert.match(declined.stderr, /\[1\/1\] transaction\.card\.declined/, 'progress on stderr');
    const list = await run(['--list', '--json']);
    assert.equal(list.code, 0, list.stderr);
    const merchantCreated = JSON.parse(list.stdout).find((e: { event: string }) => e.event === 'merchant.created');
    assert.equal(merchantCreated.triggerable, false);
    const unknown = await run(['no.such.event']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown event type/);
  });

  it('refuses a production server before making anything', async () => {
    const production = await startNode({
      listen: true,
      env: { TESSERA_ENV: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' },
    });
    try {
      const other = await production.merchant();
      const client = createTesseraClient({
        baseUrl: production.baseUrl,
        clientId: other.clientId,
        clientSecret: other.clientSecret,
      });
      await assert.rejects(
        runTrigger({ event: 'transaction.card.captured', count: 1, client, admin: null, progress: () => {} }),
        /production server/,
      );
      const made = await production.query('SELECT count(*)::int AS n FROM transactions');
      assert.equal(made[0]!.n, 0);
    } finally {
      await production.stop();
    }
  });
});
