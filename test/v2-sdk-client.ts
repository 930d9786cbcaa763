// A client of the version 2 surface written the way the vendor's official SDK works (its README and examples): an
// OAuth 2.0 client-credentials token fetched and cached, `x-api-version` and a generated `Idempotency-Key` on every
// state-changing call, the token refreshed once after a 401 and the request retried with the same key, and errors
// carrying the answer's `x-request-id`. Over real HTTP with fetch, nothing of Tessera's own code.
import { randomUUID } from 'node:crypto';

export class V2ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
    readonly requestId: string | null,
  ) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
  }
}

type Query = Record<string, string | number | boolean | undefined>;

export class V2SdkClient {
  private token: string | undefined;
  /** How many tokens were fetched, and how many requests were retried after a 401 (what the tests check). */
  readonly stats = { tokensFetched: 0, retriedAfter401: 0 };

  constructor(
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  private async accessToken(force = false): Promise<string> {
    if (this.token && !force) return this.token;
    const response = await fetch(`${this.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.clientId,
        client_secret: this.clientSecret,
      }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!response.ok || !body.access_token) throw new V2ApiError(response.status, body, null);
    this.stats.tokensFetched++;
    this.token = body.access_token;
    return this.token;
  }

  async request<T = any>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const idempotencyKey = method === 'GET' ? undefined : randomUUID();
    const send = async (token: string) =>
      fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'x-api-version': '2.0',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
    let response = await send(await this.accessToken());
    if (response.status === 401) {
      this.stats.retriedAfter401++;
      response = await send(await this.accessToken(true));
    }
    const text = await response.text();
    const body = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) throw new V2ApiError(response.status, body, response.headers.get('x-request-id'));
    return body as T;
  }

  // The SDK's calls, as its resources name them.
  readonly settings = { getPaymentSettings: () => this.request('GET', '/v2/settings/payment-config') };

  readonly transactions = {
    calculateAmount: (query: Query) => this.request('GET', '/v2/transactions/calculate-amount', { query }),
    sale: (body: Record<string, any>) => this.create(body, 'Auto'),
    authorize: (body: Record<string, any>) => this.create(body, 'Manual'),
    capture: (id: string, body?: { amount?: number }) =>
      this.request('POST', `/v2/transactions/${id}/capture`, body === undefined ? {} : { body }),
    void: (id: string) => this.request('POST', `/v2/transactions/${id}/reversal`, { body: {} }),
    refund: (id: string, body: { amount?: number }) =>
      this.request('POST', `/v2/transactions/${id}/reversal`, { body }),
    list: (query: Query = {}) => this.request('GET', '/v2/transactions', { query }),
    retrieve: (id: string) => this.request('GET', `/v2/transactions/${id}`),
  };

  private create(body: Record<string, any>, captureMethod: 'Auto' | 'Manual') {
    const card = body.transactionDetails?.cardData;
    const transactionDetails = card
      ? { ...body.transactionDetails, cardData: { ...card, captureMethod } }
      : body.transactionDetails;
    return this.request('POST', '/v2/transactions', { body: { ...body, transactionDetails } });
  }
}
