// A billing run of due subscription installments, in processes of its own so peak memory is the run's:
//   subscriptions.ts setup <installments>   a merchant with <installments> subscriptions, each with one installment
//                                           due now; prints {merchantId}
//   subscriptions.ts run <merchantId>       charges everything due as the billing jobs do (CHARGERS charging jobs at
//                                           once), prints seconds, installments/s and memory, then checks that every
//                                           installment was paid exactly once and that the ledger balances.
// Setup creates one subscription through the API and copies it in SQL: creating 100,000 through HTTP would measure the
// API, not the billing run.
import { loadConfig } from '../src/config.js';
import { verifyLedger } from '../src/modules/ledger/verify.js';
import { chargeDue } from '../src/modules/subscriptions/billing.js';
import { createNode } from '../src/node.js';
import { newId } from '../src/platform/crypto/ids.js';
import { createLogger } from '../src/platform/observability/logger.js';

/** As many charging jobs as one billing run starts (subscriptions.jobs.ts), all in this one worker. */
const CHARGERS = 4;

const config = loadConfig({ ...process.env, WORKERS: '0', LOG_LEVEL: 'warn', SANDBOX_CARD_LATENCY_MS: '0' });
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
  const merchant = await inject('POST', '/admin/v1/merchants', { companyName: `Bench Subscriptions ${count}` });
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
  const customer = await inject('POST', '/pay-api/v1/customers', { firstName: 'Bench' }, bearer);
  const card = await inject(
    'POST',
    `/pay-api/v1/customers/${customer.id}/payment-methods/cards`,
    { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2035 },
    bearer,
  );
  const configuration = await inject('GET', '/pay-api/v1/configurations/payments', undefined, bearer);
  const processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1);
  const now = node.ctx.clock.now();
  const template = await inject(
    'POST',
    '/sub-api/v1/subscriptions',
    {
      customerId: customer.id,
      paymentMethodId: card.id,
      amount: 12.34,
      paymentFrequencyUnit: 3,
      paymentFrequency: 1,
      transactionType: 2,
      requesterIpAddress: '203.0.113.7',
      paymentProcessorId: processor.id,
      paymentStartDateTime: new Date(now.getTime() + 86_400_000).toISOString(),
    },
    bearer,
  );
  // The template's own planned installment goes; every copy gets one installment due a minute ago.
  await pool.query('DELETE FROM subscription_installments WHERE subscription_id = $1', [template.id]);
  const due = new Date(now.getTime() - 60_000);
  const SLICE = 10_000;
  for (let done = 0; done < count; done += SLICE) {
    const n = Math.min(SLICE, count - done);
    const ids = Array.from({ length: n }, (_, i) => (done + i === 0 ? template.id : newId()));
    const copies = ids.filter((id) => id !== template.id);
    await pool.query(
      `INSERT INTO subscriptions
       SELECT (jsonb_populate_record(s, jsonb_build_object('id', v.id, 'idempotency_id', null))).*
       FROM subscriptions s, unnest($2::uuid[]) AS v(id) WHERE s.id = $1`,
      [template.id, copies],
    );
    await pool.query(
      `UPDATE subscriptions SET planned_order = 1, next_due_at = $2::timestamptz + interval '1 month'
       WHERE id = ANY($1::uuid[])`,
      [ids, due],
    );
    await pool.query(
      `INSERT INTO subscription_installments (id, subscription_id, merchant_id, payment_order, due_at, amount_cents,
         status_id, next_attempt_at, created_at, modified_at)
       SELECT v.id, v.subscription_id, $3, 1, $4, v.cents, 1, $4, $4, $4
       FROM unnest($1::uuid[], $2::uuid[], $5::int[]) AS v(id, subscription_id, cents)`,
      [ids.map(() => newId()), ids, merchant.id, due, ids.map((_, i) => 100 + ((done + i) % 9_900))],
    );
  }
  console.log(JSON.stringify({ merchantId: merchant.id }));
}

async function run(merchantId: string) {
  const billing = node.ctx.services.subscriptions.billing;
  // With --expose-gc, the live heap (what survives a full collection) is sampled during the run: the memory the run
  // holds, without the garbage a collector has not reclaimed yet.
  const gc = (globalThis as { gc?: () => void }).gc;
  const live = () => {
    gc!();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const liveBefore = gc ? live() : 0;
  let livePeak = liveBefore;
  const sampler = gc ? setInterval(() => (livePeak = Math.max(livePeak, live())), 250) : undefined;
  const before = process.memoryUsage.rss();
  const started = process.hrtime.bigint();
  const claimed = (await Promise.all(Array.from({ length: CHARGERS }, () => chargeDue(billing)))).reduce(
    (a, b) => a + b,
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peak = process.resourceUsage().maxRSS * 1024;
  clearInterval(sampler);

  // Checked after the measurement: every installment paid, by exactly one approved sale of its amount.
  const { rows } = await pool.query<{ installments: number; paid: number; sales: number; cents_match: boolean }>(
    `SELECT count(*)::int AS installments, count(*) FILTER (WHERE i.status_id = 3)::int AS paid,
       (SELECT count(*)::int FROM transactions t WHERE t.merchant_id = $1 AND t.create_method_id = 7
          AND t.status_id IN (2, 6)) AS sales,
       coalesce(bool_and(t.total_cents = i.amount_cents), false) AS cents_match
     FROM subscription_installments i LEFT JOIN transactions t ON t.id = i.transaction_id
     WHERE i.merchant_id = $1`,
    [merchantId],
  );
  const check = rows[0]!;
  const ledger = await verifyLedger(pool);
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  console.log(
    JSON.stringify({
      installments: check.installments,
      claimed,
      paid: check.paid,
      sales: check.sales,
      amountsMatch: check.cents_match,
      ledgerProblems: ledger.problems.length,
      seconds,
      perSecond: Math.round(check.paid / seconds),
      peakRssMiB: mib(peak),
      startRssMiB: mib(before),
      ...(gc ? { liveHeapGrowthMiB: mib(livePeak - liveBefore) } : {}),
    }),
  );
}

try {
  if (process.argv[2] === 'setup') await setup(Number(process.argv[3]));
  else await run(process.argv[3]!);
} finally {
  await node.stop();
}
