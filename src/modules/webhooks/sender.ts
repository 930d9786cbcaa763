import { isIP } from 'node:net';
import { Agent } from 'undici';
import { dictionary } from '../../platform/dictionary.js';
import { addressProblem, BlockedTargetError, guardedLookup, hostOf, type TargetPolicy } from './target-policy.js';

/** Response headers and bodies are kept in the log up to this size; the rest is not even read. */
export const RESPONSE_CAPTURE_BYTES = 16 * 1024;

export interface AttemptOutcome {
  delivered: boolean;
  statusCode: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  durationMs: number;
  errorMessage: string | null;
}

/**
 * Posts webhook messages. One keep-alive connection pool per origin; every new connection resolves through the
 * target policy (IP literals are checked before sending, since no lookup happens for them). Redirects are never
 * followed (a 3xx is a failure), no cookies or credentials are ever sent, and the response is read only up to
 * RESPONSE_CAPTURE_BYTES.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly targets = new Map<string, { origin: string; path: string } | { problem: string }>();

  constructor(
    private readonly policy: TargetPolicy,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(policy), timeout: timeoutMs },
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  async post(target: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (message: string): AttemptOutcome => ({
      delivered: false,
      statusCode: null,
      responseHeaders: null,
      responseBody: null,
      durationMs: elapsed(),
      errorMessage: message,
    });
    const where = this.target(target);
    if ('problem' in where) return failed(where.problem);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    try {
      const response = await this.agent.request({
        origin: where.origin,
        path: where.path,
        method: 'POST',
        headers,
        body,
        signal: abort.signal,
      });
      const captured = await readCapped(response.body, RESPONSE_CAPTURE_BYTES);
      const statusCode = response.statusCode;
      return {
        delivered: statusCode >= 200 && statusCode < 300,
        statusCode,
        responseHeaders: flattenHeaders(response.headers),
        responseBody: captured,
        durationMs: elapsed(),
        errorMessage: statusCode >= 200 && statusCode < 300 ? null : `The endpoint answered HTTP ${statusCode}`,
      };
    } catch (error) {
      if (abort.signal.aborted) return failed(`No answer within ${this.timeoutMs} ms`);
      return failed(describeError(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Where a target URL sends to, or why it cannot be sent to: parsed and checked once per URL (the policy does not
   * change), since an endpoint's every message goes to the same one. Host names are still checked on each new
   * connection, when they resolve (guardedLookup).
   */
  private target(target: string): { origin: string; path: string } | { problem: string } {
    let known = this.targets.get(target);
    if (!known) {
      known = parseTarget(target, this.policy);
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      this.targets.set(target, known);
    }
    return known;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const TARGETS_KEPT = 1000;

function parseTarget(target: string, policy: TargetPolicy): { origin: string; path: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { problem: 'The endpoint URL is not valid' };
  }
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const problem = addressProblem(host, policy);
    if (problem) return { problem: `Blocked: ${problem}` };
  }
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      // Stop reading: the rest of a large (or endless) answer is dropped with the connection.
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = dictionary();
  let size = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    size += name.length + text.length;
    if (size > RESPONSE_CAPTURE_BYTES) break;
    flat[name] = text;
  }
  return flat;
}

function describeError(error: unknown): string {
  if (error instanceof BlockedTargetError) return `Blocked: ${error.message}`;
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof BlockedTargetError) return `Blocked: ${cause.message}`;
  const code = (error as { code?: string })?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name does not resolve';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'No answer within the timeout';
    default:
      return error instanceof Error ? error.message.slice(0, 500) : 'Delivery failed';
  }
}
