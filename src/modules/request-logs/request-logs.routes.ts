// The merchant's own recent API requests (GET /pay-api/v1/request-logs), what `tessera logs tail` follows.
import Type from 'typebox';
import type { OpaqueCursors } from '../../platform/crypto/opaque-cursors.js';
import type { Pool } from '../../platform/db/pool.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { MERCHANT_ONLY, merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { listRequestLogs } from './request-logs.repo.js';

const STATUS_CLASSES: Record<string, [number, number]> = {
  '2xx': [200, 299],
  '3xx': [300, 399],
  '4xx': [400, 499],
  '5xx': [500, 599],
};

const Query = Type.Object(
  {
    status: Type.Optional(
      Type.String({ pattern: '^([2345]xx|[1-5][0-9]{2})$', description: 'A class (`4xx`) or one status (`404`).' }),
    ),
    path: Type.Optional(Type.String({ maxLength: 200, description: 'Only paths starting with this.' })),
    after: Type.Optional(
      Type.String({ maxLength: 200, description: 'Requests after this `cursor` (or `next`), oldest first.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);

const Entry = Type.Object({
  cursor: Type.String({ description: 'Its position (opaque): pass the last one as `after` to follow.' }),
  at: Type.String({ format: 'date-time' }),
  method: Type.String(),
  path: Type.String({ description: 'As the server logs it: secrets in the query string are redacted.' }),
  route: Type.String(),
  status: Type.Integer(),
  durationMs: Type.Number(),
  correlationId: Type.String({ description: 'The `x-correlation-id` the answer carried.' }),
});

const Page = Type.Object(
  {
    items: Type.Array(Entry),
    next: Type.Union([Type.String(), Type.Null()], {
      description: 'The `after` for the next call: the last item, or the one given when there is none.',
    }),
  },
  {
    examples: [
      {
        items: [
          {
            cursor: 'x3Jc0tq1vUo7WbN2kR4mZg8sPqL5aHd0fE9yTw',
            at: '2026-11-26T10:00:00.000Z',
            method: 'POST',
            path: '/pay-api/v1/transactions/sale',
            route: '/pay-api/v1/transactions/sale',
            status: 400,
            durationMs: 3.2,
            correlationId: '6c1f8d0e-8a53-4d0e-9a5b-1d2f3c4b5a69',
          },
        ],
        next: 'x3Jc0tq1vUo7WbN2kR4mZg8sPqL5aHd0fE9yTw',
      },
    ],
  },
);

/** A line's position as the client sees it: sealed to the merchant, so it says nothing of other tenants' volume. */
const scope = (merchantId: string) => `request-log:${merchantId}`;

export function requestLogsRoutes(app: App, deps: { pool: Pool; cursors: OpaqueCursors }): void {
  app.get(
    '/pay-api/v1/request-logs',
    {
      config: { auth: MERCHANT_ONLY },
      schema: {
        tags: ['Developer tools'],
        summary: "The merchant's recent API requests (what `tessera logs tail` shows)",
        description:
          'Method, path, status, duration and correlation id of each request made with one of the merchant\u2019s ' +
          'tokens in the last 24 hours; never a body. Without `after`, the latest `limit`; with it, the ones after ' +
          'it, oldest first. A line appears within a second of its answer.',
        querystring: Query,
        response: { 200: Page, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const merchantId = merchantOf(request).merchantId;
      const range = q.status ? (STATUS_CLASSES[q.status] ?? [Number(q.status), Number(q.status)]) : undefined;
      let after: number | undefined;
      if (q.after !== undefined) {
        const opened = deps.cursors.open(scope(merchantId), q.after);
        after = opened !== undefined && /^\d{1,16}$/.test(opened) ? Number(opened) : undefined;
        if (after === undefined) throw ValidationError.field('after', "'after' is the `cursor` of a line of this log.");
      }
      const items = await listRequestLogs(deps.pool, {
        merchantId,
        after,
        statusFrom: range?.[0],
        statusTo: range?.[1],
        pathPrefix: q.path,
        limit: q.limit ?? 50,
      });
      const cursor = (seq: number) => deps.cursors.seal(scope(merchantId), String(seq));
      return {
        items: items.map(({ seq, ...item }) => ({ cursor: cursor(seq), ...item, at: item.at.toISOString() })),
        next: items.length > 0 ? cursor(items.at(-1)!.seq) : (q.after ?? null),
      };
    },
  );
}
