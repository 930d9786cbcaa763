// The production cutoff of one window, in processes of its own so peak memory is the cutoff's:
//   ach-cutoff.ts setup <entries>   creates a merchant whose next window holds <entries> Scheduled ACH debits and
//                                   prints {processorId, window, merchantId}
//   ach-cutoff.ts run <processorId> <window> <merchantId>
//                                   runs AchPaymentsService.cutoff and prints seconds, peak and starting RSS (MiB),
//                                   then reads the stored file back and checks it against the database; then clears
//                                   the file (its settlement date reached: state, ledger lines, events, in slices)
//                                   and prints that too.
// Setup makes one debit through the API and copies it in SQL (each copy's account sealed again under its own id):
// creating 100,000 through HTTP would measure the API, not the cutoff.
import { loadConfig } from '../src/config.js';
import { parseNacha } from '../src/connectors/ach/nacha.js';
import { AchFileStore } from '../src/modules/payments/ach/ach-file-store.js';
import { encryptWith } from '../src/modules/vault/data-keys.js';
import { createNode } from '../src/node.js';
import { newId } from '../src/platform/crypto/ids.js';
import { createLogger } from '../src/platform/observability/logger.js';

const config = loadConfig({ ...process.env, WORKERS: '0', LOG_LEVEL: 'warn' });
const node = await createNode(config, { logger: createLogger('warn'), databaseUrl: process.env.BENCH_DATABASE_URL! });
const { pool } = node.ctx;
const admin = { authorization: `Bearer ${config.adminToken}` };

async function inject(method: 'GET' | 'POST', url: string, body?: unknown, headers = admin) {
  const res = await node.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

async function setup(count: number) {
  const merchant = await inject('POST', '/admin/v1/merchants', { companyName: `Bench ACH ${count}` });
  const key = await inject('POST', '/admin/v1/api-keys', { merchantId: merchant.id });
  const token = await node.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: key.clientId,
      client_secret: key.clientSecret,
    }).toString(),
  });
  const bearer = { authorization: `Bearer ${token.json().access_token}` };
  const template = await inject(
    'POST',
    '/pay-api/v1/transactions/ach/payment',
    {
      amount: 12.34,
      secCode: 2,
      requesterIPaddress: '203.0.113.7',
      accountNumber: '123456789',
      routingNumber: '021000021',
      accountHolderType: 2,
      billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, countryId: 1, postalCode: '10001' },
      contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550100' },
    },
    bearer,
  );
  const { rows } = await pool.query(
    'SELECT processor_id, window_at, data_key_version FROM ach_entries WHERE transaction_id = $1',
    [template.transactionId],
  );
  const { processor_id: processorId, window_at: window, data_key_version: version } = rows[0]!;
  const dataKey = await node.ctx.services.vault.dataKeys.get(merchant.id, version);
  const SLICE = 10_000;
  for (let done = 1; done < count; done += SLICE) {
    const n = Math.min(SLICE, count - done);
    const ids = Array.from({ length: n }, () => newId());
    const accounts = ids.map((_, i) => String(100_000_000 + (((done + i) * 7919) % 899_999_999)));
    await pool.query(
      `WITH v AS (SELECT * FROM unnest($2::uuid[], $3::int[]) AS v(id, cents))
       INSERT INTO transactions
       SELECT (jsonb_populate_record(t, jsonb_build_object('id', v.id, 'base_cents', v.cents, 'total_cents', v.cents,
         'authorized_cents', v.cents))).*
       FROM transactions t, v WHERE t.id = $1`,
      [template.transactionId, ids, ids.map((_, i) => 100 + (((done + i) * 37) % 100_000))],
    );
    await pool.query(
      `INSERT INTO ach_entries
       SELECT (jsonb_populate_record(a, jsonb_build_object('transaction_id', v.id,
                 'account_mask', '*****' || right(v.account, 4)))).*
       FROM ach_entries a, unnest($2::uuid[], $3::text[]) AS v(id, account) WHERE a.transaction_id = $1`,
      [template.transactionId, ids, accounts],
    );
    await pool.query(
      `UPDATE ach_entries a SET account_sealed = v.sealed FROM unnest($1::uuid[], $2::bytea[]) AS v(id, sealed)
       WHERE a.transaction_id = v.id`,
      [ids, ids.map((id, i) => encryptWith(dataKey, accounts[i]!, id))],
    );
  }
  console.log(JSON.stringify({ processorId, window: window.toISOString(), merchantId: merchant.id }));
}

async function run(processorId: string, window: string, merchantId: string) {
  const { ach } = node.ctx.services;
  // With --expose-gc, the live heap (what survives a full collection) is sampled while the cutoff runs: the
  // memory a cutoff holds, without the garbage a collector has not yet reclaimed.
  const gc = (globalThis as { gc?: () => void }).gc;
  const live = () => {
    gc!();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const liveBefore = gc ? live() : 0;
  let livePeak = liveBefore;
  const sampler = gc ? setInterval(() => (livePeak = Math.max(livePeak, live())), 20) : undefined;
  const before = process.memoryUsage.rss();
  const started = process.hrtime.bigint();
  const fileId = await ach.cutoff(processorId, new Date(window));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peak = process.resourceUsage().maxRSS * 1024;
  clearInterval(sampler);
  if (!fileId) throw new Error('the cutoff made no file');
  // Checked after the measurement: the stored file parses, and its totals are the database's.
  const text = await new AchFileStore(pool, node.ctx.services.vault.dataKeys).text(merchantId, fileId);
  const parsed = parseNacha(text);
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n, sum(t.total_cents)::text AS cents FROM ach_entries a
     JOIN transactions t ON t.id = a.transaction_id WHERE a.file_id = $1`,
    [fileId],
  );
  const entries = parsed.batches.reduce((sum, b) => sum + b.entries.length, 0);
  if (entries !== rows[0].n || parsed.control.totalDebitCents.toString() !== rows[0].cents) {
    throw new Error(`file and database disagree: ${entries} entries vs ${rows[0].n}`);
  }
  // At the bank before its settlement date, as the submit job after the cutoff puts it (clearing waits for that).
  await ach.submitFile(fileId);
  // The file's settlement date: every entry clears, measured like the cutoff (its own live-heap peak).
  const clearBefore = gc ? live() : 0;
  let clearPeak = clearBefore;
  const clearSampler = gc ? setInterval(() => (clearPeak = Math.max(clearPeak, live())), 20) : undefined;
  const clearStarted = process.hrtime.bigint();
  const cleared = await ach.clearFile(fileId);
  const clearSeconds = Number(process.hrtime.bigint() - clearStarted) / 1e9;
  clearInterval(clearSampler);
  if (cleared !== entries) throw new Error(`the clearing cleared ${cleared} of ${entries} entries`);
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  console.log(
    JSON.stringify({
      entries,
      seconds,
      peakRssMiB: mib(peak),
      startRssMiB: mib(before),
      ...(gc ? { liveHeapGrowthMiB: mib(livePeak - liveBefore) } : {}),
      clearSeconds,
      ...(gc ? { clearLiveHeapGrowthMiB: mib(clearPeak - clearBefore) } : {}),
      bytes: text.length,
    }),
  );
}

try {
  if (process.argv[2] === 'setup') await setup(Number(process.argv[3]));
  else await run(process.argv[3]!, process.argv[4]!, process.argv[5]!);
} finally {
  await node.stop();
}
