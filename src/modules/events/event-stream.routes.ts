// The merchant's events as they happen, over Server-Sent Events: what `tessera listen` forwards to a developer's
// machine. Each event is the body a webhook delivery of it carries (message id = event id); `id:` is an opaque
// position, so a client that reconnects with Last-Event-ID (to any node) misses nothing and sees nothing twice.
import type { ServerResponse } from 'node:http';
import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { RateLimitedError, ValidationError } from '../../platform/http/errors.js';
import { ListParam, listValues } from '../../platform/http/paging.js';
import { MERCHANT_ONLY, merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { Logger } from '../../platform/observability/logger.js';
import { envelope } from '../webhooks/signing.js';
import type { EventStreams } from './event-streams.js';

export interface EventStreamDeps {
  streams: EventStreams;
  logger: Logger;
  /** Streams one merchant may have open at once (EVENT_STREAMS_PER_MERCHANT), for the documentation. */
  cap: number;
}

const HEARTBEAT_MS = 15_000;

const StreamQuery = Type.Object(
  {
    types: ListParam('Event types to receive (default: every type).', { maxLength: 2000 }),
    after: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'Resume after this position (the `id:` of the last event received); same as Last-Event-ID.',
      }),
    ),
  },
  { additionalProperties: false },
);

const StreamBody = Type.String({
  description:
    'text/event-stream. One message per event: `id` its position (opaque), `event` its type, `data` the JSON body a ' +
    'webhook delivery of it carries (`id` is the event id). Comment lines keep an idle connection open.',
  examples: [
    'id: vJ3kq0R1o2...\nevent: transaction.card.captured\ndata: {"id":"01a2...","type":"transaction.card.captured","created":1764151200,"apiVersion":"v2","data":{"object":{"id":"01a2...","resourceType":"transaction"}}}\n\n',
  ],
});

export function eventStreamRoutes(app: App, deps: EventStreamDeps): void {
  const open = new Set<ServerResponse>();
  // A stream never ends by itself: closing the server ends them (clients reconnect, to this node or another).
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  const heartbeat = setInterval(() => {
    for (const res of open) res.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  app.get(
    '/pay-api/v1/events/stream',
    {
      config: { auth: MERCHANT_ONLY },
      schema: {
        tags: ['Events'],
        summary: "Stream the merchant's events as they happen (Server-Sent Events)",
        description:
          'Starts after what is visible now, or after `Last-Event-ID` (or `after`) to resume. Events appear once ' +
          'their transaction has committed, each once. A merchant may have ' +
          `${deps.cap} streams open at once (on all nodes together): one more is a 429. Used by \`tessera listen\`.`,
        querystring: StreamQuery,
        produces: ['text/event-stream'],
        response: { 200: StreamBody, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      const merchantId = merchantOf(request).merchantId;
      const resume = request.query.after ?? request.headers['last-event-id'];
      if (resume !== undefined && typeof resume !== 'string') {
        throw ValidationError.field('Last-Event-ID', 'Last-Event-ID is the `id` of an event of this stream.');
      }
      const listed = listValues(request.query.types);
      const types = listed && listed.length > 0 ? new Set(listed) : null;
      const res = reply.raw;
      let started = false;
      const opened = await deps.streams.openStream(merchantId, resume, (type) => !types || types.has(type), {
        start: (cursor) => {
          reply.hijack();
          res.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-store',
            connection: 'keep-alive',
            'x-accel-buffering': 'no',
            'x-correlation-id': request.id,
          });
          // A reconnect after one second, and the position the stream starts from: a client cut off before any
          // event resumes from here (an `id` without `data` sets the last event id and dispatches nothing).
          res.write(`retry: 1000\nid: ${cursor}\n: stream of merchant ${merchantId}\n\n`);
          started = true;
        },
        event: (event, cursor) => {
          const body = envelope({
            messageId: event.id,
            eventType: event.type,
            occurredAt: event.occurredAt,
            resourceId: event.resourceId,
            resourceType: event.resourceType,
          });
          res.write(`id: ${cursor}\nevent: ${event.type}\ndata: ${body}\n\n`);
        },
        end: () => res.end(),
      });
      if (opened.kind === 'bad-cursor') {
        throw ValidationError.field('Last-Event-ID', 'Last-Event-ID is the `id` of an event of this stream.');
      }
      if (opened.kind === 'too-many') {
        throw new RateLimitedError(
          5,
          `This merchant has ${deps.cap} event streams open already; close one (or wait for one to end).`,
        );
      }
      if (!started) return; // cannot happen: a stream that opens has started
      open.add(res);
      res.on('close', () => {
        open.delete(res);
        void opened.stream.close();
      });
      if (res.destroyed) {
        open.delete(res);
        await opened.stream.close();
      }
    },
  );
}
