// The payment-link figure of `npm run bench`: opening a link's page (the link is read, a payment session is created
// for it, and its checkout page rendered in the same answer), opened per second, against the
// hosted checkout page of an existing session rendered per second, on the same server in the same run. 32 clients
// each do one at a time; both figures count completed pages.
import { Agent, request } from 'undici';

export interface LinkBenchOptions {
  api: string;
  token: string;
  durationSeconds: number;
}

interface Rate {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const CLIENTS = 32;

async function loop(agent: Agent, durationMs: number, once: () => Promise<void>): Promise<Rate> {
  const latencies: number[] = [];
  const until = Date.now() + durationMs;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        await once();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!);
  void agent;
  return { perSecond: Math.round(latencies.length / elapsed), p50Ms: at(0.5), p99Ms: at(0.99) };
}

export async function linksBenchmark(o: LinkBenchOptions) {
  const agent = new Agent({ connections: CLIENTS + 4, pipelining: 1 });
  const get = async (url: string, expect: number) => {
    const response = await request(url, { dispatcher: agent });
    const body = await response.body.text();
    if (response.statusCode !== expect) throw new Error(`GET ${url}: ${response.statusCode} ${body.slice(0, 200)}`);
    return response.headers.location as string | undefined;
  };
  const post = async (path: string, body: unknown) => {
    const response = await request(`${o.api}${path}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`POST ${path}: ${response.statusCode} ${text}`);
    return JSON.parse(text);
  };
  const link = await post('/v2/payment-links', {
    paymentMethods: { card: { enabled: true }, ach: { enabled: true } },
    currencyCode: 'USD',
    baseAmount: 12.34,
    linkType: 'MultiUse',
    name: 'Bench link',
  });
  const session = await post('/v2/payment-sessions', { amount: 12.34 });
  const linkPath = new URL(link.shortUrl).pathname;
  const checkoutUrl = `${o.api}/checkout/${session.id}`;

  const openLink = () => get(`${o.api}${linkPath}`, 200).then(() => undefined);
  const checkoutPage = () => get(checkoutUrl, 200).then(() => undefined);

  const durationMs = o.durationSeconds * 1000;
  await loop(agent, 2000, checkoutPage); // warm-up
  await loop(agent, 2000, openLink);
  const checkout = await loop(agent, durationMs, checkoutPage);
  const opened = await loop(agent, durationMs, openLink);
  await agent.close();
  const line = (name: string, r: Rate) =>
    console.log(`  ${name.padEnd(52)} ${String(r.perSecond).padStart(7)} /s     p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms`);
  line('checkout page of an existing session (32 clients)', checkout);
  line('link page opened: a new session + its checkout page', opened);
  return {
    checkoutPage: checkout,
    linkOpened: opened,
    throughputRatio: Math.round((opened.perSecond / checkout.perSecond) * 100) / 100,
    p99Ratio: Math.round((opened.p99Ms / Math.max(1, checkout.p99Ms)) * 100) / 100,
  };
}
