// The invoicing figures of `npm run bench`:
// 1. Create + publish: each virtual client creates an invoice (two lines, an inline customer with an email, so
//    publication also queues the email) and publishes it; pairs per second against the 2-INSERT baseline measured on
//    the same server in the same run.
// 2. PDFs: `GET /download-pdf` of one invoice, rendered per request, per second; and what the rendering does to the
//    node's event loop: a plain route's p99 on the same process while PDFs render, against its p99 alone. Run with
//    the worker threads (the default) and with PDF_RENDER_THREADS=0 (inline) for the comparison (run.ts).
// 3. The list with 100,000 invoices of one merchant: `GET /pay-int-api/invoices` (first page, a status filter, a
//    search), p50/p99 one request at a time and under 8 concurrent clients, against the bare SELECT 1 route's p99.
import autocannon from 'autocannon';
import pg from 'pg';
import { type Figure, runWithClients as run } from './fixed-clients.js';

export interface InvoiceBenchOptions {
  api: string;
  baselineUrl: string;
  paymentBaselineUrl: string;
  databaseUrl: string;
  token: string;
  durationSeconds: number;
  measure(name: string, options: autocannon.Options): Promise<Figure | undefined>;
  /** BENCH_PG_STATEMENTS: the statements a measurement ran, per invoice created. */
  profiled?<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** Which figures (default all): the inline-rendering comparison runs only the PDF part. */
  parts?: Array<'create' | 'pdf' | 'list'>;
  label?: string;
}

const LIST_SIZE = Number(process.env.BENCH_INVOICES ?? 100_000);

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function invoicesBenchmark(o: InvoiceBenchOptions) {
  const headers = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${o.api}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string; merchantId: string };
  };
  const invoiceBody = JSON.stringify({
    customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    lineItems: [
      { productName: 'Consulting', quantity: 2.5, unitPrice: 120, taxRate: 8.875 },
      { productName: 'Travel', quantity: 1, unitPrice: 45.5 },
    ],
    notes: 'Thank you.',
  });

  const parts = new Set(o.parts ?? ['create', 'pdf', 'list']);
  const label = o.label ? ` ${o.label}` : '';
  let createPublish: Record<string, unknown> | undefined;
  let pdfFigures: Record<string, unknown> | undefined;
  let listFigures: Record<string, unknown> | undefined;

  // 1. Create + publish.
  if (parts.has('create')) {
    const paymentBaseline = (await o.measure('invoice baseline: bare Fastify + BEGIN, 2 INSERTs, COMMIT', {
      url: o.paymentBaselineUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 12.34 }),
    }))!;
    const profiled = o.profiled ?? ((_label, work) => work());
    const pairs = (await profiled('invoice create + publish', () =>
      o.measure('invoice create + publish (2 requests each)', {
        url: o.api,
        requests: [
          {
            method: 'POST',
            path: '/pay-int-api/invoices',
            headers,
            body: invoiceBody,
            onResponse: (_status: number, body: string, context: Record<string, unknown>) => {
              context.invoiceId = (JSON.parse(body) as { id: string }).id;
            },
          },
          {
            method: 'POST',
            path: '/pay-int-api/invoices/publish',
            headers,
            setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => ({
              ...request,
              body: JSON.stringify({ invoiceId: context.invoiceId }),
            }),
          },
        ],
      } as unknown as autocannon.Options),
    ))!;
    createPublish = {
      paymentBaseline,
      requests: pairs,
      publishedPerSecond: Math.round(pairs.requestsPerSecond / 2),
      throughputRatio: round2(pairs.requestsPerSecond / paymentBaseline.requestsPerSecond),
    };
  }

  // 2. PDFs, and the event loop while they render.
  const sample = await post('/pay-int-api/invoices', JSON.parse(invoiceBody));
  await post('/pay-int-api/invoices/publish', { invoiceId: sample.id });
  const pdfUrl = `${o.api}/pay-int-api/invoices/${sample.id}/download-pdf`;
  if (parts.has('pdf')) {
    const pdf = (await o.measure(`GET /download-pdf (rendered per request)${label}`, {
      url: pdfUrl,
      headers: { authorization: headers.authorization },
    }))!;
    const quiet = await run(`plain route p99, alone (4 clients)${label}`, { url: o.baselineUrl }, 4, o.durationSeconds);
    const [duringPdf] = await Promise.all([
      run(`plain route p99 while PDFs render (4 clients)${label}`, { url: o.baselineUrl }, 4, o.durationSeconds),
      autocannon({
        url: pdfUrl,
        headers: { authorization: headers.authorization },
        connections: 16,
        duration: o.durationSeconds + 2,
      }),
    ]);

    pdfFigures = {
      ...pdf,
      pdfsPerSecond: pdf.requestsPerSecond,
      plainRouteP99AloneMs: quiet.p99Ms,
      plainRouteP99DuringPdfMs: duringPdf.p99Ms,
      p99Ratio: round2(duringPdf.p99Ms / Math.max(1, quiet.p99Ms)),
    };
  }

  // 3. The list with LIST_SIZE invoices.
  if (parts.has('list')) {
    const db = new pg.Pool({ connectionString: o.databaseUrl, max: 2 });
    await db.query(
      `INSERT INTO invoices (id, merchant_id, number, status_id, customer, issue_date, due_date, lines,
       payment_method_type_id, total_cents, created_at, modified_at)
     SELECT gen_random_uuid(), $1, 'B-' || n, 1 + (n % 5),
       jsonb_build_object('firstName', 'Customer', 'lastName', 'No ' || n, 'email', 'c' || n || '@example.com'),
       now() - make_interval(mins => n), now() - make_interval(mins => n) + interval '30 days',
       '[{"lineItemId": null, "productName": "Work", "description": null, "quantityMilli": 1000,
          "unitPriceCents": 10000, "unitTypeId": 1, "discountMpct": null, "taxMpct": null}]'::jsonb,
       1, 10000, now() - make_interval(mins => n), now() - make_interval(mins => n)
     FROM generate_series(1, $2) AS n`,
      [sample.merchantId, LIST_SIZE],
    );
    await db.query('VACUUM ANALYZE invoices');
    await db.end();
    const auth = { authorization: headers.authorization };
    const list = `${o.api}/pay-int-api/invoices`;
    const baselineOne = await run(
      'list baseline: SELECT 1 route (1 client)',
      { url: o.baselineUrl },
      1,
      o.durationSeconds,
    );
    const firstPage = await run(
      `invoice list, first page (${LIST_SIZE} invoices, 1 client)`,
      { url: list, headers: auth },
      1,
      o.durationSeconds,
    );
    const filtered = await run(
      'invoice list, status=2 (1 client)',
      { url: `${list}?status=2`, headers: auth },
      1,
      o.durationSeconds,
    );
    const searched = await run(
      'invoice list, search=B-4242 (1 client)',
      { url: `${list}?search=B-4242`, headers: auth },
      1,
      o.durationSeconds,
    );
    const concurrent = await run(
      'invoice list, first page (8 clients)',
      { url: list, headers: auth },
      8,
      o.durationSeconds,
    );

    listFigures = {
      invoices: LIST_SIZE,
      baseline: baselineOne,
      firstPage,
      filtered,
      searched,
      concurrent,
      p99Ratio: round2(firstPage.p99Ms / Math.max(1, baselineOne.p99Ms)),
    };
  }
  return { createPublish, pdf: pdfFigures, list: listFigures };
}
