// `tessera listen`: the merchant's events as they happen (the server's event stream, Server-Sent Events), each signed
// exactly as a webhook delivery and posted to a local URL. Public API only: any Tessera deployment, no database, no
// public URL, no webhook endpoint. The stream resumes from the last event forwarded, so a restart of the server (or
// of the connection) loses nothing.

import type { TesseraClient } from '@tessera/client';
import { newSigningSecret, signMessage } from '../modules/webhooks/signing.js';
import { connect } from './api-client.js';
import { type SseMessage, SseParser } from './sse.js';

export interface ListenOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  forwardTo: string;
  /** Only these event types (default: all). */
  events?: string[];
  /** The signing secret (default: a new one, shown at start). */
  secret?: string;
  /** The branded header prefix (`<prefix>-Webhook-*`), as the server's WEBHOOK_HEADER_PREFIX. */
  headerPrefix: string;
  /** Where each line goes: text, or one JSON object per line. */
  out: (line: string) => void;
  json: boolean;
  signal?: AbortSignal;
}

export interface Forwarded {
  seq: string;
  id: string;
  type: string;
  status: number | null;
  ms: number;
  error?: string;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export class Listener {
  readonly secret: string;
  private readonly api: TesseraClient;
  private lastId: string | undefined;

  constructor(private readonly options: ListenOptions) {
    this.secret = options.secret ?? newSigningSecret();
    this.api = connect(options);
  }

  /** Until aborted: connect, forward every event, reconnect after a break from the last one forwarded. */
  async run(): Promise<void> {
    const { out, json, forwardTo } = this.options;
    out(
      json
        ? JSON.stringify({ ready: true, forwardTo, secret: this.secret })
        : `Ready. Forwarding events to ${forwardTo}\nWebhook signing secret (raw format): ${this.secret}`,
    );
    let backoff = 250;
    while (!this.options.signal?.aborted) {
      try {
        await this.follow();
        backoff = 250;
      } catch (error) {
        if (this.options.signal?.aborted) break;
        const message = error instanceof Error ? error.message : String(error);
        out(json ? JSON.stringify({ reconnecting: true, error: message }) : `Reconnecting (${message})`);
      }
      await sleep(backoff, this.options.signal);
      backoff = Math.min(backoff * 2, 5000);
    }
  }

  /** One connection to the stream, until it ends. */
  private async follow(): Promise<void> {
    const query = this.options.events?.length ? `?types=${encodeURIComponent(this.options.events.join(','))}` : '';
    const res = await this.api.fetch(`/pay-api/v1/events/stream${query}`, {
      headers: { accept: 'text/event-stream', ...(this.lastId ? { 'last-event-id': this.lastId } : {}) },
      signal: this.options.signal,
    });
    if (!res.ok || !res.body) throw new Error(`the event stream answered ${res.status}`);
    const { out, json } = this.options;
    out(json ? JSON.stringify({ connected: true, after: this.lastId ?? null }) : 'Connected to the event stream.');
    const parser = new SseParser();
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
        await this.forward(message);
      }
      // Before the first event, the position the stream started from: a reconnect then misses nothing either.
      this.lastId ??= parser.lastEventId;
    }
    throw new Error('the event stream ended');
  }

  private async forward(message: SseMessage): Promise<void> {
    if (!message.id || !message.data) return;
    const { id: eventId, type } = JSON.parse(message.data) as { id: string; type: string };
    const signed = signMessage(this.options.headerPrefix, this.secret, eventId, message.data);
    const started = Date.now();
    const result: Forwarded = { seq: message.id, id: eventId, type, status: null, ms: 0 };
    try {
      const res = await fetch(this.options.forwardTo, {
        method: 'POST',
        headers: signed.headers,
        body: signed.body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      result.status = res.status;
    } catch (error) {
      result.error = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    }
    result.ms = Date.now() - started;
    // Forwarded (whatever the local answer): the stream goes on after it, as a webhook endpoint's would not retry.
    this.lastId = message.id;
    this.options.out(
      this.options.json
        ? JSON.stringify(result)
        : `${new Date().toISOString()}  ${type}  ${eventId}  -> ${result.status ?? result.error} (${result.ms} ms)`,
    );
  }
}
