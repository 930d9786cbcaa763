// A client of the event stream behind `tessera listen` (GET /pay-api/v1/events/stream) for tests.
import { type SseMessage, SseParser } from '../src/cli/sse.js';

export const EVENT_STREAM = '/pay-api/v1/events/stream';

/** An open stream: the messages so far, and a way to close it. */
export async function openEventStream(
  baseUrl: string,
  token: string,
  options: { query?: string; lastEventId?: string } = {},
) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}${EVENT_STREAM}${options.query ?? ''}`, {
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const messages: SseMessage[] = [];
  const parser = new SseParser();
  if (res.ok && res.body) {
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          messages.push(...parser.push(decoder.decode(chunk, { stream: true })));
        }
      } catch {
        // closed by the test
      }
    })();
  }
  return { res, messages, parser, close: () => controller.abort() };
}
