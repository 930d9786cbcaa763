// The cluster test's load driver: clients that spread a seeded mix of operations over every live `serve` node, each
// with its idempotency key and reference, retrying on another node (same key, same body) until the answer is
// definitive or the operation's deadline passes, and writing every attempt and outcome to the history.
import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN } from '../harness.js';
import { pick, type Random } from '../random.js';
import { definitive } from './checker.js';
import type { Cluster } from './cluster.js';
import type { HistoryWriter, OpKind, OpRecord } from './history.js';
import { formSession, HostedPayer, type PayOutcome } from './hosted-pay.js';

export interface MerchantLoad {
  id: string;
  clientId: string;
  clientSecret: string;
  token: string;
  terminals: string[];
  /** Approved sales and authorizations the later operations act on (each is taken once). */
  sales: Array<{ id: string; cents: number }>;
  auths: Array<{ id: string; cents: number }>;
}

const APPROVE = '4111111111111111';
const DECLINE = '4000000010050005';
const ACCOUNT = '123456789';
const RETURNS_R01 = '100000001';
const OP_DEADLINE_MS = 45_000;
const ATTEMPT_TIMEOUT_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer's status word: v2 says `transactionStatus`, v1 and POS `status`. */
const statusWord = (body: any): string | null =>
  body && typeof body === 'object' ? (body.transactionStatus ?? body.status ?? null) : null;

export class LoadDriver {
  private opSeq = 0;
  readonly counts = { operations: 0, attempts: 0, acknowledged: 0, refused: 0, unknown: 0 };
  private readonly payer: HostedPayer;

  constructor(
    private readonly cluster: Cluster,
    private readonly history: HistoryWriter,
    private readonly random: Random,
  ) {
    this.payer = new HostedPayer(cluster, random);
  }

  /** A JSON request to any live serve node, retried (plain, no idempotency) until it succeeds: setup and admin. */
  async admin(method: string, path: string, body?: unknown, token = ADMIN_TOKEN): Promise<any> {
    const started = Date.now();
    for (;;) {
      const nodes = this.cluster.liveServeUrls();
      if (nodes.length > 0) {
        try {
          const res = await fetch(`${pick(this.random, nodes).url}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
          });
          const text = await res.text();
          if (res.ok) return text ? JSON.parse(text) : undefined;
          if (res.status < 500 && res.status !== 409 && res.status !== 429) {
            throw new Error(`${method} ${path}: ${res.status} ${text}`);
          }
        } catch (error) {
          if (error instanceof Error && /^(GET|POST|PUT|PATCH|DELETE) /.test(error.message)) throw error;
        }
      }
      if (Date.now() - started > OP_DEADLINE_MS) throw new Error(`${method} ${path}: no node answered`);
      await sleep(250);
    }
  }

  async refreshToken(m: MerchantLoad): Promise<void> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: m.clientId,
      client_secret: m.clientSecret,
    });
    for (let i = 0; i < 40; i++) {
      const nodes = this.cluster.liveServeUrls();
      if (nodes.length > 0) {
        try {
          const res = await fetch(`${pick(this.random, nodes).url}/oauth2/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
            signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
          });
          if (res.ok) {
            m.token = ((await res.json()) as { access_token: string }).access_token;
            return;
          }
        } catch {
          // try another node
        }
      }
      await sleep(250);
    }
  }

  async merchant(name: string): Promise<MerchantLoad> {
    const merchant = await this.admin('POST', '/admin/v1/merchants', { companyName: name });
    const key = await this.admin('POST', '/admin/v1/api-keys', { merchantId: merchant.id });
    const m: MerchantLoad = {
      id: merchant.id,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
      token: '',
      terminals: [],
      sales: [],
      auths: [],
    };
    await this.refreshToken(m);
    return m;
  }

  /**
   * One logical operation: one idempotency key and one body, sent to random live nodes until a definitive answer
   * (2xx, or a 4xx other than 401/408/409/429) or the deadline. 401 refreshes the token; everything else waits and
   * tries another node.
   */
  async perform(
    m: MerchantLoad,
    kind: OpKind,
    request: { method: string; path: string; body?: unknown },
    facts: { referenceId?: string | null; targetId?: string | null; amountCents?: number | null },
    resultIdOf: (body: any) => string | null,
  ): Promise<OpRecord & { body: any }> {
    const opId = ++this.opSeq;
    const key = randomUUID();
    const started = Date.now();
    let status: number | null = null;
    let answer: any;
    let outcome: OpRecord['outcome'] = 'unknown';
    for (let delay = 100; Date.now() - started < OP_DEADLINE_MS; delay = Math.min(delay * 2, 2000)) {
      const nodes = this.cluster.liveServeUrls();
      if (nodes.length === 0) {
        await sleep(200);
        continue;
      }
      const node = pick(this.random, nodes);
      const at = Date.now();
      let error: string | null = null;
      let body: any;
      status = null;
      try {
        const res = await fetch(`${node.url}${request.path}`, {
          method: request.method,
          headers: {
            authorization: `Bearer ${m.token}`,
            'idempotency-key': key,
            ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        status = res.status;
        const text = await res.text();
        body = text ? JSON.parse(text) : undefined;
      } catch (caught) {
        error = (caught as { cause?: { code?: string } }).cause?.code ?? (caught as Error).name;
      }
      this.counts.attempts++;
      this.history.write({
        t: 'attempt',
        opId,
        key,
        node: node.name,
        at,
        ms: Date.now() - at,
        status,
        error,
        body:
          status !== null && body && typeof body === 'object'
            ? { id: resultIdOf(body), status: statusWord(body) }
            : null,
      });
      if (status === 401) {
        await this.refreshToken(m);
        continue;
      }
      if (definitive(status)) {
        answer = body;
        outcome = status! < 300 ? 'acknowledged' : 'refused';
        break;
      }
      await sleep(delay);
    }
    const record: OpRecord = {
      t: 'op',
      opId,
      kind,
      merchantId: m.id,
      key,
      referenceId: facts.referenceId ?? null,
      targetId: facts.targetId ?? null,
      amountCents: facts.amountCents ?? null,
      outcome,
      status: outcome === 'unknown' ? null : status,
      resultId: outcome === 'acknowledged' ? resultIdOf(answer) : null,
      result: outcome === 'acknowledged' ? statusWord(answer) : null,
      at: started,
    };
    this.history.write(record);
    this.counts.operations++;
    this.counts[outcome]++;
    return { ...record, body: answer };
  }

  /** A payment made through a hosted page: one operation, its outcome as the pages told the payer. */
  private hosted(m: MerchantLoad, kind: OpKind, targetId: string, sessionId: string | null, outcome: PayOutcome) {
    const record: OpRecord = {
      t: 'op',
      opId: ++this.opSeq,
      kind,
      merchantId: m.id,
      key: `${kind}:${sessionId ?? targetId}:${this.opSeq}`,
      referenceId: null,
      targetId,
      amountCents: null,
      outcome: outcome === 'completed' ? 'acknowledged' : outcome === 'unknown' ? 'unknown' : 'refused',
      status: null,
      resultId: sessionId,
      result: outcome,
      at: Date.now(),
    };
    this.history.write(record);
    this.counts.operations++;
    this.counts[record.outcome]++;
  }

  /** A payment session made through the API, paid on its hosted checkout. */
  private async sessionPay(m: MerchantLoad, amount: number, cents: number, referenceId: string): Promise<void> {
    const created = await this.perform(
      m,
      'session.create',
      {
        method: 'POST',
        path: '/v2/payment-sessions',
        body: { amount, referenceId, returnUrl: 'https://shop.example.com/paid' },
      },
      { referenceId, amountCents: cents },
      (b) => b?.id ?? null,
    );
    if (created.outcome !== 'acknowledged' || !created.resultId) return;
    this.hosted(m, 'session.pay', created.resultId, created.resultId, await this.payer.pay(created.resultId));
  }

  /** A single-use payment link, opened and paid by two payers at once on any nodes: it takes one payment. */
  private async linkPay(m: MerchantLoad, amount: number, cents: number): Promise<void> {
    const link = await this.perform(
      m,
      'link.create',
      {
        method: 'POST',
        path: '/v2/payment-links',
        body: {
          paymentMethods: { card: { enabled: true } },
          currencyCode: 'USD',
          baseAmount: amount,
          linkType: 'SingleUse',
          name: 'Cluster link',
        },
      },
      { amountCents: cents },
      (b) => b?.paymentLinkId ?? null,
    );
    if (link.outcome !== 'acknowledged' || !link.resultId) return;
    const path = new URL(link.body.shortUrl).pathname;
    await Promise.all(
      [1, 2].map(async () => {
        const page = await this.payer.open(path);
        const sessionId = page ? formSession(page.html) : null;
        const outcome = sessionId ? await this.payer.pay(sessionId, page!) : page ? 'closed' : 'unknown';
        this.hosted(m, 'link.pay', link.resultId!, sessionId, outcome);
      }),
    );
  }

  /** An invoice published and paid from its hosted page; one time in three a second payer presses pay too. */
  private async invoicePay(m: MerchantLoad, amount: number, cents: number): Promise<void> {
    const invoice = await this.perform(
      m,
      'invoice.create',
      {
        method: 'POST',
        path: '/pay-int-api/invoices',
        body: {
          customer: { firstName: 'Cluster', lastName: 'Payer', email: 'payer@example.com' },
          lineItems: [{ productName: 'Work', quantity: 1, unitPrice: amount }],
        },
      },
      { amountCents: cents },
      (b) => b?.id ?? null,
    );
    if (invoice.outcome !== 'acknowledged' || !invoice.resultId) return;
    const published = await this.perform(
      m,
      'invoice.publish',
      { method: 'POST', path: '/pay-int-api/invoices/publish', body: { invoiceId: invoice.resultId } },
      { targetId: invoice.resultId },
      (b) => b?.id ?? null,
    );
    if (published.outcome !== 'acknowledged' || !published.body?.payUrl) return;
    const pay = `${new URL(published.body.payUrl).pathname}/pay`;
    const payers = this.random() < 1 / 3 ? 2 : 1;
    await Promise.all(
      Array.from({ length: payers }, async () => {
        const pressed = await this.payer.press(pay);
        const sessionId =
          pressed?.status === 303 ? /\/checkout\/([0-9a-f-]{36})/.exec(pressed.location ?? '')?.[1] : null;
        const outcome = sessionId ? await this.payer.pay(sessionId) : pressed ? 'closed' : 'unknown';
        this.hosted(m, 'invoice.pay', invoice.resultId!, sessionId ?? null, outcome);
      }),
    );
  }

  /** A read as the merchant, on any live node, renewing the token when the business clock expired it. */
  private async read(m: MerchantLoad, path: string): Promise<any> {
    for (let i = 0; i < 3; i++) {
      try {
        return await this.admin('GET', path, undefined, m.token);
      } catch (error) {
        if (!String(error).includes(' 401 ')) return undefined;
        await this.refreshToken(m);
      }
    }
    return undefined;
  }

  /** One operation of the mix, chosen by the seed. */
  async step(m: MerchantLoad): Promise<void> {
    const roll = this.random();
    const cents = 100 + Math.floor(this.random() * 9900);
    const amount = cents / 100;
    const referenceId = `cl-${randomUUID()}`;
    if (roll < 0.2) {
      const pan = this.random() < 0.9 ? APPROVE : DECLINE;
      const sale = await this.perform(
        m,
        'card.sale',
        {
          method: 'POST',
          path: '/pay-api/v1/transactions/sale',
          body: {
            amount,
            accountNumber: pan,
            expirationMonth: 12,
            expirationYear: 2035,
            securityCode: '123',
            referenceId,
          },
        },
        { referenceId, amountCents: cents },
        (b) => b?.transactionId ?? null,
      );
      if (sale.outcome === 'acknowledged' && sale.body?.status === 'Captured')
        m.sales.push({ id: sale.resultId!, cents });
    } else if (roll < 0.32) {
      const sale = await this.perform(
        m,
        'card.sale.v2',
        {
          method: 'POST',
          path: '/v2/transactions',
          body: {
            baseAmount: amount,
            referenceId,
            transactionDetails: {
              cardData: { paymentMethodDetails: { cardNumber: APPROVE, expirationMonth: 12, expirationYear: 2035 } },
            },
          },
        },
        { referenceId, amountCents: cents },
        (b) => b?.transactionId ?? null,
      );
      if (sale.outcome === 'acknowledged' && sale.body?.transactionStatus === 'Approved') {
        m.sales.push({ id: sale.resultId!, cents });
      }
    } else if (roll < 0.42) {
      const auth = await this.perform(
        m,
        'card.auth',
        {
          method: 'POST',
          path: '/pay-api/v1/transactions/auth',
          body: { amount, accountNumber: APPROVE, expirationMonth: 12, expirationYear: 2035, referenceId },
        },
        { referenceId, amountCents: cents },
        (b) => b?.transactionId ?? null,
      );
      if (auth.outcome === 'acknowledged' && auth.body?.status === 'Authorized')
        m.auths.push({ id: auth.resultId!, cents });
    } else if (roll < 0.5) {
      const auth = m.auths.shift();
      if (!auth) return;
      await this.perform(
        m,
        'card.capture',
        { method: 'POST', path: `/v2/transactions/${auth.id}/capture`, body: { amount: auth.cents / 100 } },
        { targetId: auth.id, amountCents: auth.cents },
        (b) => b?.transactionId ?? null,
      );
    } else if (roll < 0.56) {
      const sale = m.sales.shift();
      if (!sale) return;
      await this.perform(
        m,
        'card.reversal',
        { method: 'POST', path: `/v2/transactions/${sale.id}/reversal`, body: {} },
        { targetId: sale.id },
        (b) => b?.transactionId ?? null,
      );
    } else if (roll < 0.68) {
      await this.perform(
        m,
        'ach.debit',
        {
          method: 'POST',
          path: '/v2/transactions',
          body: {
            baseAmount: amount,
            referenceId,
            billingAddress: { line1: '1 Main St', city: 'New York', stateCode: 'NY', postalCode: '10001' },
            contactInfo: { firstName: 'Load', lastName: 'Driver', mobileNumber: '+12125550100' },
            transactionDetails: {
              achData: {
                paymentMethodDetails: {
                  routingNumber: '021000021',
                  accountNumber: this.random() < 0.8 ? ACCOUNT : RETURNS_R01,
                  accountHolderType: 'Personal',
                  accountType: 'Checking',
                },
                requesterIpAddress: '203.0.113.10',
              },
            },
          },
        },
        { referenceId, amountCents: cents },
        (b) => b?.transactionId ?? null,
      );
    } else if (roll < 0.8) {
      await this.posSale(m, amount, cents);
    } else if (roll < 0.87) {
      await this.sessionPay(m, amount, cents, referenceId);
    } else if (roll < 0.94) {
      await this.linkPay(m, amount, cents);
    } else {
      await this.invoicePay(m, amount, cents);
    }
  }

  /** A card presented on a free terminal of the merchant, then a POS sale on it, followed until final. */
  private async posSale(m: MerchantLoad, amount: number, cents: number): Promise<void> {
    const terminalId = m.terminals.shift();
    if (!terminalId) return;
    try {
      await this.admin('POST', `/admin/v1/sandbox/terminals/${terminalId}/actions`, {
        action: 'present-card',
        pan: APPROVE,
        expirationMonth: 12,
        expirationYear: 2035,
        readingMethod: 'tap',
      });
      const pos = await this.perform(
        m,
        'pos.sale',
        { method: 'POST', path: '/v2/pos/transactions', body: { terminalId, amount, transactionType: 'Sale' } },
        { amountCents: cents },
        (b) => b?.posTransactionId ?? null,
      );
      if (pos.outcome !== 'acknowledged') return;
      // Not an operation of its own: the terminal is free again once the transaction is final.
      for (let i = 0; i < 20; i++) {
        const view = await this.read(m, `/v2/pos/transactions/${pos.resultId}?waitForTransactionProcessing=true`);
        if (
          view &&
          !['TerminalConnecting', 'TransactionProcessing', 'TransactionSentToProcessor'].includes(view.status)
        ) {
          m.terminals.push(terminalId);
          return;
        }
        await sleep(500);
      }
    } catch {
      // The terminal stays out of the rotation: its transaction is left to the POS sweep.
    }
  }
}
