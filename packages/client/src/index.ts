// The Tessera API client: typed paths and bodies from the server's OpenAPI document (openapi-fetch over the
// generated types), an access token from client credentials that renews itself and is retried once after a 401, an
// idempotency key on every call to an operation that honours one, and webhook verification.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { takesIdempotencyKey } from './idempotency.js';
import { type ClientCredentials, TokenSource } from './tokens.js';

export type { components, operations, paths } from './generated/openapi.js';
export { takesIdempotencyKey } from './idempotency.js';
export { type ClientCredentials, type TokenClaims, TokenError, TokenSource } from './tokens.js';
export { verifyWebhook, type WebhookEvent, WebhookVerificationError } from './webhooks.js';

export interface TesseraClientOptions extends ClientCredentials {
  /** The server's base URL, e.g. http://127.0.0.1:8080 (no trailing path). */
  baseUrl: string;
  /** Another fetch (a test's, a proxy's). */
  fetch?: typeof fetch;
  /** How long an attempt waits for the answer to begin, ms (default 30 s). */
  timeoutMs?: number;
}

export interface TesseraClient {
  /** Typed calls: `api.GET('/v2/customers/{customerId}', { params: { path: { customerId } } })`. */
  api: Client<paths>;
  /** The token source (a script may want the raw token, e.g. for an event stream). */
  tokens: TokenSource;
  /** The authenticated fetch under both: a path (or URL) and init, with the token, key and 401 retry. */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  baseUrl: string;
}

export function createTesseraClient(options: TesseraClientOptions): TesseraClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const tokens = new TokenSource(`${baseUrl}/oauth2/token`, options, fetchImpl);
  const timeoutMs = options.timeoutMs ?? 30_000;

  /**
   * One call: the idempotency key is chosen once, before the first attempt, so the retry after a 401 (which the
   * server refused before doing anything) reuses it.
   */
  const call = async (
    url: string,
    method: string,
    given: RequestInit['headers'],
    body: ArrayBuffer | undefined,
    signal: AbortSignal | null | undefined,
  ): Promise<Response> => {
    const headers = new Headers(given);
    if (!headers.has('idempotency-key') && takesIdempotencyKey(method, new URL(url).pathname)) {
      headers.set('idempotency-key', crypto.randomUUID());
    }
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.accessToken();
      headers.set('authorization', `Bearer ${token}`);
      const res = await attemptOnce(url, { method, headers, ...(body ? { body } : {}) }, signal);
      if (res.status !== 401 || attempt > 0) return res;
      await res.arrayBuffer();
      tokens.invalidate(token);
    }
  };

  /**
   * One attempt. The deadline is for the answer to begin; a long body (an event stream) is the caller's to end with
   * its signal, which is linked by a listener of its own (a signal combined by AbortSignal.any, or a Request's, may
   * be collected during a long stream and stop passing the abort on).
   */
  const attemptOnce = async (url: string, init: RequestInit, signal: AbortSignal | null | undefined) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const forward = () => controller.abort(signal?.reason);
    if (signal?.aborted) forward();
    signal?.addEventListener('abort', forward, { once: true });
    const release = () => signal?.removeEventListener('abort', forward);
    let res: Response;
    try {
      res = await fetchImpl(url, { ...init, signal: controller.signal });
    } catch (error) {
      release();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (!res.body || !signal) {
      release();
      return res;
    }
    // The caller's listener goes once the body has been read to its end.
    const body = res.body.pipeThrough(new TransformStream({ flush: release }));
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };

  const viaRequest = async (request: Request) =>
    call(
      request.url,
      request.method,
      request.headers,
      request.body ? await request.arrayBuffer() : undefined,
      request.signal,
    );

  const api = createClient<paths>({ baseUrl, fetch: viaRequest });
  return {
    api,
    tokens,
    baseUrl,
    fetch: async (path, init = {}) => {
      const body =
        init.body === undefined || init.body === null ? undefined : await new Response(init.body).arrayBuffer();
      return call(
        /^https?:/.test(path) ? path : `${baseUrl}${path}`,
        init.method ?? 'GET',
        init.headers,
        body,
        init.signal,
      );
    },
  };
}
