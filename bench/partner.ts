// The partner portfolio figure of `npm run bench`: `GET /api/partner/merchants` with 100,000 merchants and
// page_size 200 (identity token verified, principal and rate limit checked, the page and its total_count read),
// one request at a time and under 8 clients, for a system principal and for a partner principal whose partner owns
// the 100,000 (the target: p99 under 50 ms); also a deep page, a sort, the filters and a search (reported). Against
// the bare SELECT 1 route's p99 in the same run.
import type autocannon from 'autocannon';
import pg from 'pg';
import { type Figure, runWithClients as run } from './fixed-clients.js';

export interface PartnerBenchOptions {
  api: string;
  baselineUrl: string;
  databaseUrl: string;
  adminToken: string;
  durationSeconds: number;
}

const MERCHANTS = Number(process.env.BENCH_PARTNER_MERCHANTS ?? 100_000);
const TARGET_P99_MS = 50;
const round2 = (n: number) => Math.round(n * 100) / 100;

export async function partnerBenchmark(o: PartnerBenchOptions) {
  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${o.api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${o.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  };
  const partner = await admin('/admin/v1/partners', { name: 'Bench Portfolio Partner' });
  const tokenOf = async (principal: Record<string, unknown>) => {
    const { id } = await admin('/admin/v1/partner-principals', principal);
    return (await admin('/admin/v1/sandbox/identity-tokens', { principalId: id, ttlSeconds: 3600 })).token!;
  };
  const systemToken = await tokenOf({ subject: 'bench-system', system: true });
  const partnerToken = await tokenOf({ subject: 'bench-partner', partnerId: partner.id });

  // The portfolio, written directly: 100,000 merchants of one partner, a tenth closed, some terminated or other,
  // a third with a compliance standing.
  const db = new pg.Pool({ connectionString: o.databaseUrl, max: 2 });
  await db.query(
    `INSERT INTO merchants (id, partner_id, company_name, legal_name, mcc_code, status_id, created_at, modified_at)
     SELECT gen_random_uuid(), $1, 'Merchant ' || md5(n::text), 'Legal ' || md5((n * 7)::text), '5812',
       CASE WHEN n % 10 = 0 THEN 3 WHEN n % 10 = 1 THEN 2 ELSE 1 END,
       now() - make_interval(mins => n), now()
     FROM generate_series(1, $2) AS n`,
    [partner.id, MERCHANTS],
  );
  await db.query(
    `INSERT INTO merchant_portfolios (merchant_id, partner_id, dba_name, legal_name, status, onboarding_date, close_date,
       processor, mcc_code, city, state, primary_agent_id, primary_agent_name, pci_status, pci_saq_due_date,
       pci_last_updated, last_data_refresh)
     SELECT m.id, m.partner_id, substr(m.company_name, 10, 12), m.legal_name,
       CASE m.status_id WHEN 1 THEN 'active' WHEN 3 THEN 'closed' ELSE 'other' END, m.created_at,
       CASE WHEN m.status_id = 3 THEN least(now(), m.created_at + interval '12 hours') END, 'Sandbox Card', '5812', 'Austin', 'TX', 'AG-1', 'Agent',
       (ARRAY['compliant', 'non_compliant', 'unknown'])[1 + abs(hashtext(m.id::text)) % 3],
       current_date + 300, now(), now()
     FROM merchants m WHERE m.partner_id = $1`,
    [partner.id],
  );
  await db.query('VACUUM ANALYZE merchants');
  // As autovacuum leaves them: the seeding's trigger rewrote the count rows 200,000 times.
  await db.query('VACUUM ANALYZE merchant_portfolios');
  await db.query('VACUUM ANALYZE merchant_portfolio_counts');
  await db.end();

  const list = `${o.api}/api/partner/merchants`;
  const as = (token: string, query = ''): autocannon.Options => ({
    url: `${list}?page_size=200${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const d = o.durationSeconds;
  const baseline = await run('partner list baseline: SELECT 1 route (1 client)', { url: o.baselineUrl }, 1, d);
  const system = await run(`merchants, page_size 200 (${MERCHANTS} merchants, system)`, as(systemToken), 1, d);
  const own = await run('merchants, page_size 200 (partner principal)', as(partnerToken), 1, d);
  const deep = await run('merchants, page 250: offset 49,800 (partner principal)', as(partnerToken, '&page=250'), 1, d);
  const sorted = await run(
    'merchants, sort_by=onboarding_date desc',
    as(partnerToken, '&sort_by=onboarding_date&sort_order=desc'),
    1,
    d,
  );
  const filtered = await run(
    'merchants, status=closed&pci_status=non_compliant',
    as(partnerToken, '&status=closed&pci_status=non_compliant'),
    1,
    d,
  );
  const searched = await run('merchants, search=abc (DBA part)', as(partnerToken, '&search=abc'), 1, d);
  const since = await run(
    'merchants, updated_since (last 7 days)',
    as(partnerToken, `&updated_since=${encodeURIComponent(new Date(Date.now() - 7 * 86_400_000).toISOString())}`),
    1,
    d,
  );
  const concurrent = await run('merchants, page_size 200 (8 clients)', as(partnerToken), 8, d);
  const worst = Math.max(...[system, own, deep, sorted, filtered, searched, since].map((f: Figure) => f.p99Ms));
  const listP99 = Math.max(system.p99Ms, own.p99Ms);
  return {
    merchants: MERCHANTS,
    pageSize: 200,
    baseline,
    system,
    own,
    deep,
    sorted,
    filtered,
    searched,
    since,
    concurrent,
    p99Ratio: round2(own.p99Ms / Math.max(1, baseline.p99Ms)),
    worstP99Ms: worst,
    targetP99Ms: TARGET_P99_MS,
    listP99Ms: listP99,
    meetsTarget: listP99 < TARGET_P99_MS,
  };
}
