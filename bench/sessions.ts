// Payment sessions: create on both surfaces and retrieve at 32 connections, as ratios to the foundation's baseline
// (bare Fastify + SELECT 1 on the same pool) measured on the same server; then the hosted checkout page one request
// at a time: time to first byte and the bytes a first visit transfers (HTML, stylesheet, script).
import http from 'node:http';
import type autocannon from 'autocannon';

interface Figure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface SessionsBenchHelpers {
  api: string;
  baselineUrl: string;
  /** The write baseline (BEGIN, two INSERTs, COMMIT on the same pool): session creates are measured against it. */
  paymentBaselineUrl: string;
  token: string;
  measure(name: string, options: autocannon.Options): Promise<Figure | undefined>;
  /** BENCH_PG_STATEMENTS: the statements a measurement ran, per session created. */
  profiled<T>(label: string, work: () => Promise<T>): Promise<T>;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** One GET on a fresh connection: milliseconds to the first byte of the response, and the body's size. */
function timedGet(url: string): Promise<{ ttfbMs: number; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(url, { agent: false }, (response) => {
      const ttfbMs = Number(process.hrtime.bigint() - started) / 1e6;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
        else resolve({ ttfbMs, bytes: body.length, body: body.toString('utf8') });
      });
    });
    request.on('error', reject);
  });
}

export async function sessionsBenchmark(h: SessionsBenchHelpers) {
  const headers = { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' };
  const baseline = await h.measure('sessions baseline: bare Fastify + SELECT 1', { url: h.baselineUrl });
  const paymentBaseline = await h.measure('sessions write baseline: BEGIN, 2 INSERTs, COMMIT', {
    url: h.paymentBaselineUrl,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 49.99 }),
  });
  const createV2 = await h.profiled('POST /v2/payment-sessions', () =>
    h.measure('POST /v2/payment-sessions', {
      url: `${h.api}/v2/payment-sessions`,
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: 49.99, referenceId: 'bench', metadata: { orderId: '1042' } }),
    }),
  );
  const createInt = await h.profiled('POST /pay-int-api/payment-sessions', () =>
    h.measure('POST /pay-int-api/payment-sessions', {
      url: `${h.api}/pay-int-api/payment-sessions`,
      method: 'POST',
      headers: { ...headers, 'x-api-version': '1' },
      body: JSON.stringify({ amount: 49.99, mode: 1, paymentMethodTypes: ['Card', 'ACH'] }),
    }),
  );
  const created = (await (
    await fetch(`${h.api}/v2/payment-sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount: 25,
        pageName: 'Bench Shop',
        paymentNotes: 'Two items',
        taxMode: 'Exclusive',
        taxRate: 8.875,
      }),
    })
  ).json()) as { id: string; checkoutUrl: string };
  const retrieve = await h.measure('GET /v2/payment-sessions/{id}', {
    url: `${h.api}/v2/payment-sessions/${created.id}`,
    headers: { authorization: `Bearer ${h.token}` },
  });
  const checkoutUnderLoad = await h.measure('GET /checkout/{id} (the page)', {
    url: `${h.api}/checkout/${created.id}`,
  });
  const baselineAgain = await h.measure('sessions baseline again (drift check)', { url: h.baselineUrl });

  // The page as a payer's first visit gets it: one request at a time, each on a new connection.
  const pageUrl = `${h.api}/checkout/${created.id}`;
  for (let i = 0; i < 20; i++) await timedGet(pageUrl); // warm-up
  const ttfb: number[] = [];
  let page = { ttfbMs: 0, bytes: 0, body: '' };
  for (let i = 0; i < 300; i++) {
    page = await timedGet(pageUrl);
    ttfb.push(page.ttfbMs);
  }
  const assetUrls = [...page.body.matchAll(/(?:href|src)="(\/checkout\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  let assetBytes = 0;
  for (const asset of assetUrls) assetBytes += (await timedGet(`${h.api}${asset}`)).bytes;
  const totalBytes = page.bytes + assetBytes;

  const ratioTo = (figure: Figure | undefined, base: Figure | undefined) =>
    figure && base ? Math.round((figure.requestsPerSecond / base.requestsPerSecond) * 100) / 100 : undefined;
  const ratio = (figure: Figure | undefined) => ratioTo(figure, baseline);
  const checkoutPage = {
    ttfbP50Ms: Math.round(percentile(ttfb, 50) * 100) / 100,
    ttfbP99Ms: Math.round(percentile(ttfb, 99) * 100) / 100,
    htmlBytes: page.bytes,
    assetBytes,
    totalBytes,
    assets: assetUrls.length,
  };
  console.log(
    `  ${'checkout page, one at a time (300 GETs)'.padEnd(52)}   first byte p50 ${checkoutPage.ttfbP50Ms} ms  p99 ${checkoutPage.ttfbP99Ms} ms  ${totalBytes} bytes (HTML ${page.bytes} + ${assetUrls.length} assets ${assetBytes})`,
  );
  return {
    baseline,
    baselineAgain,
    paymentBaseline,
    createV2: createV2 && { ...createV2, throughputRatio: ratioTo(createV2, paymentBaseline) },
    createIntegration: createInt && { ...createInt, throughputRatio: ratioTo(createInt, paymentBaseline) },
    retrieve: retrieve && { ...retrieve, throughputRatio: ratio(retrieve) },
    checkoutPageUnderLoad: checkoutUnderLoad && { ...checkoutUnderLoad, throughputRatio: ratio(checkoutUnderLoad) },
    checkoutPage,
  };
}
