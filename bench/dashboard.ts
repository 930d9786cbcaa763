// The dashboard figures of `npm run bench`: a merchant with 1,000,000 transactions this month (a few hundred made
// through the API, cloned in SQL with their times spread from the start of the month to now), its owner signed in
// through the form, then the home page and the transactions list (first page, a status filter, an older page) one
// request at a time (the target: under 100 ms of server time, p99 measured at the client over loopback, so an upper
// bound) against the bare SELECT 1 route's p99 in the same run; the home page's first view (which keeps the month's
// figures) once; and the first page's weight (HTML and stylesheet, gzip-compressed: the target is under 300 KB).
import { gzipSync } from 'node:zlib';
import type autocannon from 'autocannon';
import pg from 'pg';
import { totpCode } from '../src/modules/dashboard/accounts/totp.js';
import { volumeColumns, volumeParams } from '../src/modules/dashboard/volume/volume-figures.js';
import { type Figure, runWithClients as run } from './fixed-clients.js';

export interface DashboardBenchOptions {
  api: string;
  baselineUrl: string;
  databaseUrl: string;
  adminToken: string;
  durationSeconds: number;
  /** Asks the server process for a dashboard owner of the merchant (bench/server.ts). */
  dashboardUser(merchantId: string): Promise<{ email: string; password: string; totpSecret: string }>;
}

const TRANSACTIONS = Number(process.env.BENCH_DASHBOARD_TRANSACTIONS ?? 1_000_000);
const TARGET_MS = 100;
const TARGET_BYTES = 300 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;
const CARD = {
  expirationMonth: 12,
  expirationYear: 2035,
  securityCode: '123',
  billingAddress: { line1: '123 Test St', postalCode: '10001' },
};

export async function dashboardBenchmark(o: DashboardBenchOptions) {
  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${o.api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${o.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  };
  const merchant = await admin('/admin/v1/merchants', { companyName: 'Bench Busy Merchant' });
  const key = await admin('/admin/v1/api-keys', { merchantId: merchant.id });
  const token = (
    (await (
      await fetch(`${o.api}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: key.clientId!,
          client_secret: key.clientSecret!,
        }).toString(),
      })
    ).json()) as { access_token: string }
  ).access_token;
  // Real rows first: approvals, declines, refunds, as the payments core writes them.
  for (let n = 0; n < 200; n++) {
    const declined = n % 10 === 0;
    const response = await fetch(`${o.api}/pay-api/v1/transactions/sale`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: 5 + (n % 50),
        referenceId: `BENCH-${n}`,
        accountNumber: declined ? '4000000010050005' : '4111111111111111',
        ...CARD,
      }),
    });
    const sale = (await response.json()) as { transactionId: string };
    if (n % 7 === 1) {
      await fetch(`${o.api}/pay-api/v1/transactions/return`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ transactionId: sale.transactionId, amount: 1, cardDataSource: 1 }),
      });
    }
  }
  // Then cloned to a million, their times spread from the start of the month (UTC) to now; the unique keys dropped.
  const db = new pg.Pool({ connectionString: o.databaseUrl, max: 2 });
  const { rows: columns } = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'transactions'
     ORDER BY ordinal_position`,
  );
  const override: Record<string, string> = {
    id: 'gen_random_uuid()',
    created_at: `date_trunc('month', now()) + (now() - date_trunc('month', now())) * random()`,
    modified_at: 'now()',
    duplicate_key: 'NULL',
    idempotency_id: 'NULL',
    reference_id: `'CLONE-' || g`,
  };
  const names = columns.map((c) => c.column_name);
  const { rows: seeded } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1',
    [merchant.id],
  );
  const { rows: originals } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1 AND reference_id LIKE 'BENCH-%'`,
    [merchant.id],
  );
  const copies = Math.ceil((TRANSACTIONS - seeded[0]!.n) / originals[0]!.n);
  const seedStarted = Date.now();
  for (let done = 0; done < copies; done += 500) {
    await db.query(
      `INSERT INTO transactions (${names.join(', ')})
       SELECT ${names.map((n) => override[n] ?? `t.${n}`).join(', ')}
       FROM transactions t, generate_series($2::int, $3::int) g
       WHERE t.merchant_id = $1 AND t.reference_id LIKE 'BENCH-%'`,
      [merchant.id, done + 1, Math.min(copies, done + 500)],
    );
  }
  await db.query('VACUUM ANALYZE transactions');
  const { rows: total } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1',
    [merchant.id],
  );
  const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);
  const somewhere = await db.query<{ status_id: number }>(
    `SELECT status_id FROM transactions WHERE merchant_id = $1 GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    [merchant.id],
  );
  // What the home page cost before it kept its figures: one scan of the month's rows (timed three times, the best).
  const scans: number[] = [];
  for (let n = 0; n < 3; n++) {
    const started = performance.now();
    await db.query(
      `SELECT ${volumeColumns(3)} FROM transaction_amounts
       WHERE merchant_id = $1 AND created_at >= date_trunc('month', now()) AND created_at <= $2`,
      [merchant.id, new Date(), ...volumeParams()],
    );
    scans.push(performance.now() - started);
  }
  const monthScanMs = Math.round(Math.min(...scans));
  await db.end();

  // The owner signs in through the form, as a person would.
  const user = await o.dashboardUser(merchant.id!);
  const signIn = await fetch(`${o.api}/dashboard/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: o.api },
    body: new URLSearchParams({ email: user.email, password: user.password, code: totpCode(user.totpSecret) }),
    redirect: 'manual',
  });
  const cookie = /tessera_dashboard=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')?.[0];
  if (signIn.status !== 303 || !cookie) throw new Error(`dashboard sign-in: ${signIn.status}`);
  const get = (path: string) => fetch(`${o.api}${path}`, { headers: { cookie } });

  const firstViewStarted = performance.now();
  const home = await get('/dashboard');
  const firstViewMs = Math.round(performance.now() - firstViewStarted);
  const homeHtml = await home.text();
  if (home.status !== 200 || !/Today by hour/.test(homeHtml)) throw new Error(`home: ${home.status}`);
  const cssPath = /href="(\/dashboard\/assets\/[^"]+\.css)"/.exec(homeHtml)![1]!;
  const css = Buffer.from(await (await get(cssPath)).arrayBuffer());
  const firstPage = await get('/dashboard/transactions');
  const listHtml = await firstPage.text();
  const older = /href="([^"]*)" rel="next">Older/.exec(listHtml)?.[1]?.replaceAll('&amp;', '&');
  if (!older) throw new Error('the transactions list has no older page');
  const weight = {
    homeHtmlBytes: Buffer.byteLength(homeHtml),
    cssBytes: css.length,
    homeGzipBytes: gzipSync(homeHtml).length + gzipSync(css).length,
    transactionsGzipBytes: gzipSync(listHtml).length + gzipSync(css).length,
  };

  const as = (path: string): autocannon.Options => ({ url: `${o.api}${path}`, headers: { cookie } });
  const d = o.durationSeconds;
  const baseline = await run('dashboard baseline: SELECT 1 route (1 client)', { url: o.baselineUrl }, 1, d);
  const homePage = await run(`dashboard home (${total[0]!.n} transactions this month)`, as('/dashboard'), 1, d);
  const list = await run('dashboard transactions, first page', as('/dashboard/transactions'), 1, d);
  const filtered = await run(
    'dashboard transactions, a status filter',
    as(`/dashboard/transactions?statusId=${somewhere.rows[0]!.status_id}`),
    1,
    d,
  );
  const olderPage = await run('dashboard transactions, an older page', as(older), 1, d);
  const concurrent = await run('dashboard home (8 clients)', as('/dashboard'), 8, d);
  const worst = Math.max(...[homePage, list, filtered, olderPage].map((f: Figure) => f.p99Ms));
  return {
    transactions: total[0]!.n,
    seedSeconds,
    firstViewMs,
    monthScanMs,
    weight,
    baseline,
    home: homePage,
    list,
    filtered,
    olderPage,
    concurrent,
    p99Ratio: round2(Math.max(homePage.p99Ms, list.p99Ms) / Math.max(1, baseline.p99Ms)),
    worstP99Ms: worst,
    targetMs: TARGET_MS,
    meetsTarget: worst < TARGET_MS && weight.homeGzipBytes < TARGET_BYTES,
  };
}
