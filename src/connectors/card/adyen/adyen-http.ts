import { Agent, request } from 'undici';
import type { AdyenServiceError } from './adyen-wire.js';

/** An answer from Adyen: its HTTP status and JSON body (undefined when it had none or not JSON). */
export interface AdyenAnswer<T> {
  status: number;
  body: T | undefined;
}

/** Adyen did not answer usably (a dropped connection, a timeout, a 5xx): the outcome is unknown. */
export class AdyenUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdyenUnavailable';
  }
}

/**
 * The HTTP side of the Adyen connector: one keep-alive agent for every processor, JSON both ways, the API key and
 * an idempotency key on every call, the caller's signal aborting the call at its deadline. A 5xx or a failure to
 * get an answer throws AdyenUnavailable (the payments core records the outcome as unknown); a 4xx is Adyen's refusal
 * of the request and is returned. Nothing here logs a request or an answer (card data and keys pass through).
 */
export class AdyenHttp {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });

  async post<T>(
    url: string,
    body: unknown,
    headers: { apiKey: string; idempotencyKey: string },
    signal?: AbortSignal,
  ): Promise<AdyenAnswer<T | AdyenServiceError>> {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-key': headers.apiKey,
          'idempotency-key': headers.idempotencyKey,
        },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw new AdyenUnavailable(`No answer from Adyen: ${(error as Error).message}`);
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw new AdyenUnavailable(`Adyen's answer was cut off: ${(error as Error).message}`);
    }
    if (response.statusCode >= 500) throw new AdyenUnavailable(`Adyen answered ${response.statusCode}`);
    let parsed: T | AdyenServiceError | undefined;
    try {
      parsed = text ? (JSON.parse(text) as T) : undefined;
    } catch {
      if (response.statusCode < 300) throw new AdyenUnavailable('Adyen answered something that is not JSON');
      parsed = undefined;
    }
    return { status: response.statusCode, body: parsed };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
