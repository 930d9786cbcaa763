// Paying through the hosted pages the way a browser without JavaScript does, over any live `serve` node: open the
// page (a checkout, a payment link, an invoice's pay button), post its form with the CSRF cookie it set, and follow
// where it sends the payer. A node that dies mid-payment is the payer pressing reload on another one: the page says
// whether the payment went through, and an open form is submitted again (the session pays at most once).
import { cardForm } from '../../src/cli/trigger/hosted-checkout.js';
import { pick, type Random } from '../random.js';
import type { Cluster } from './cluster.js';

const ATTEMPT_TIMEOUT_MS = 15_000;
const DEADLINE_MS = 45_000;
const COMPLETE = /<h1>Payment complete<\/h1>/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type PayOutcome = 'completed' | 'declined' | 'closed' | 'unknown';

interface Page {
  status: number;
  html: string;
  location: string | null;
  cookie: string;
}

export class HostedPayer {
  constructor(
    private readonly cluster: Cluster,
    private readonly random: Random,
  ) {}

  private async send(path: string, init: { method: string; body?: string; cookie?: string }): Promise<Page | null> {
    const nodes = this.cluster.liveServeUrls();
    if (nodes.length === 0) return null;
    try {
      const res = await fetch(`${pick(this.random, nodes).url}${path}`, {
        method: init.method,
        redirect: 'manual',
        headers: {
          ...(init.body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          ...(init.cookie ? { cookie: init.cookie } : {}),
        },
        ...(init.body === undefined ? {} : { body: init.body }),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      return {
        status: res.status,
        html: await res.text(),
        location: res.headers.get('location'),
        cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
      };
    } catch {
      return null;
    }
  }

  /** GETs a page until a node answers it (not 5xx, not 429). */
  async open(path: string): Promise<Page | null> {
    const started = Date.now();
    while (Date.now() - started < DEADLINE_MS) {
      const page = await this.send(path, { method: 'GET' });
      if (page && page.status < 500 && page.status !== 429) return page;
      await sleep(250);
    }
    return null;
  }

  /** POSTs a bodyless form (an invoice's pay button) until a node answers; where it sends the payer. */
  async press(path: string): Promise<Page | null> {
    const started = Date.now();
    while (Date.now() - started < DEADLINE_MS) {
      const page = await this.send(path, { method: 'POST', body: '' });
      if (page && page.status < 500 && page.status !== 429) return page;
      await sleep(250);
    }
    return null;
  }

  /**
   * Pays the session whose checkout form `first` is (or opens it): submits, and after an answer that says nothing
   * (a dead node, a 5xx, the busy page) opens the checkout again and goes on from what it shows.
   */
  async pay(sessionId: string, first?: Page): Promise<PayOutcome> {
    const started = Date.now();
    let page: Page | null = first ?? null;
    while (Date.now() - started < DEADLINE_MS) {
      page ??= await this.open(`/checkout/${sessionId}`);
      if (!page) return 'unknown';
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)?.[1];
      if (!csrf) {
        if (COMPLETE.test(page.html)) return 'completed';
        if (!/being processed/.test(page.html)) return 'closed';
        // In flight on some node: the page refreshes itself; so does the payer.
        page = null;
        await sleep(500);
        continue;
      }
      const answer = await this.send(`/checkout/${sessionId}`, {
        method: 'POST',
        body: new URLSearchParams({ csrf, ...cardForm('4111111111111111') }).toString(),
        cookie: page.cookie,
      });
      page = null;
      // Completed: sent to the return URL, or (none given) shown the receipt right there.
      if (answer?.status === 303 || (answer?.status === 200 && COMPLETE.test(answer.html))) return 'completed';
      if (answer?.status === 200 && /declined|not accepted/i.test(answer.html)) return 'declined';
      // The form again with what stopped it (a single-use link paid by someone else meanwhile): the payer stops.
      if (answer?.status === 400) return 'closed';
      await sleep(250);
    }
    return 'unknown';
  }
}

/** The session id in a checkout form's action (`/checkout/{id}`). */
export function formSession(html: string): string | null {
  return /action="\/checkout\/([0-9a-f-]{36})"/.exec(html)?.[1] ?? null;
}
