// The merchant's events as they happen, over Server-Sent Events: what `tessera listen` forwards to a developer's
// machine. Each event is the body a webhook delivery of it carries (message id = event id); `id:` is its position,
// so a client that reconnects with Last-Event-ID misses nothing and sees nothing twice.
import type { ServerResponse } from 'node:http';
import Type from 'typebox';
import type { Pool } from '../../platform/db/pool.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { ListParam, listValues } from '../../platform/http/paging.js';
import { MERCHANT_ONLY, merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { Logger } from '../../platform/observability/logger.js';
import { envelope } from '../webhooks/signing.js';
import { eventsAfter, latestSeq, type StreamedEvent } from './event-stream.repo.js';

export interface EventStreamDeps {
  pool: Pool;
  logger: Logger;
  /** How often an idle stream looks for new events. */
  pollMs?: number;
}

const BATCH = 100;
const HEARTBEAT_MS = 15_000;
const CURSOR = /^\d{1,18}$/;

const StreamQuery = Type.Object(
  {
    types: ListParam('Event types to receive (default: every type).', { maxLength: 2000 }),
    after: Type.Optional(
      Type.String({
        pattern: CURSOR.source,
        description: 'Resume after this event position (the `id:` of the last event received); same as Last-Event-ID.',
      }),
    ),
  },
  { additionalProperties: false },
);

const StreamBody = Type.String({
  description:
    'text/event-stream. One message per event: `id` its position, `event` its type, `data` the JSON body a webhook ' +
    'delivery of it carries (`id` is the event id). Comment lines keep an idle connection open.',
  examples: [
    'id: 1042\nevent: transaction.card.captured\ndata: {"id":"01a2...","type":"transaction.card.captured","created":1764151200,"apiVersion":"v2","data":{"object":{"id":"01a2...","resourceType":"transaction"}}}\n\n',
  ],
});

export function eventStreamRoutes(app: App, deps: EventStreamDeps): void {
  const open = new Set<ServerResponse>();
  // A stream never ends by itself: closing the server ends them (clients reconnect, to this node or another).
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get(
    '/pay-api/v1/events/stream',
    {
      config: { auth: MERCHANT_ONLY },
      schema: {
        tags: ['Events'],
        summary: "Stream the merchant's events as they happen (Server-Sent Events)",
        description:
          'Starts after the latest event, or after `Last-Event-ID` (or `after`) to resume. Events appear once their ' +
          'transaction has committed, in order. Used by `tessera listen`.',
        querystring: StreamQuery,
        produces: ['text/event-stream'],
        response: { 200: StreamBody, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      const merchantId = merchantOf(request).merchantId;
      const resume = request.query.after ?? request.headers['last-event-id'];
      if (resume !== undefined && (typeof resume !== 'string' || !CURSOR.test(resume))) {
        throw ValidationError.field('Last-Event-ID', 'Last-Event-ID is the `id` of an event of this stream.');
      }
      const listed = listValues(request.query.types);
      const types = listed && listed.length > 0 ? new Set(listed) : null;
      let cursor = resume === undefined ? await latestSeq(deps.pool, merchantId) : Number(resume);

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-correlation-id': request.id,
      });
      // A reconnect after one second, and the position the stream starts from: a client that loses the connection
      // before any event resumes from here (an `id` without `data` sets the last event id and dispatches nothing).
      res.write(`retry: 1000\nid: ${cursor}\n: stream of merchant ${merchantId}\n\n`);
      open.add(res);
      let wake: (() => void) | undefined;
      let closed = false;
      res.on('close', () => {
        closed = true;
        open.delete(res);
        wake?.();
      });

      const send = (event: StreamedEvent) => {
        const body = envelope({
          messageId: event.id,
          eventType: event.type,
          occurredAt: event.occurredAt,
          resourceId: event.resourceId,
          resourceType: event.resourceType,
        });
        res.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${body}\n\n`);
      };

      let quietSince = Date.now();
      try {
        while (!closed) {
          const batch = await eventsAfter(deps.pool, merchantId, cursor, BATCH);
          for (const event of batch) {
            cursor = event.seq;
            if (!types || types.has(event.type)) send(event);
          }
          if (batch.length > 0) quietSince = Date.now();
          if (batch.length === BATCH) continue;
          if (Date.now() - quietSince >= HEARTBEAT_MS) {
            res.write(': keep-alive\n\n');
            quietSince = Date.now();
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, deps.pollMs ?? 250);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      } catch (error) {
        // The database went away: the client reconnects with its last id and misses nothing.
        deps.logger.warn({ err: error, merchantId }, 'event stream ended');
      } finally {
        open.delete(res);
        if (!res.writableEnded) res.end();
      }
    },
  );
}
