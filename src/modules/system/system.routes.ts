import Type from 'typebox';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import type { App } from '../../platform/http/server.js';
import type { Metrics } from '../../platform/observability/metrics.js';

const Status = (value: string) => Type.Object({ status: Type.String() }, { examples: [{ status: value }] });

/** What these routes use. */
export interface SystemRouteDeps {
  pool: Pool;
  metrics: Metrics;
  clock: Clock;
  /** sandbox or production: tools refuse what only a sandbox may do (`tessera trigger`). */
  environment: 'sandbox' | 'production';
}

export function systemRoutes(app: App, deps: SystemRouteDeps): void {
  app.get(
    '/healthz',
    {
      config: { auth: 'public' },
      schema: { tags: ['Operations'], summary: 'Liveness: the process is up', response: { 200: Status('ok') } },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/pay-int-api/ping',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Operations'],
        summary: 'Ping: the API answers (what the vendor CLI’s `ping` calls)',
        description:
          'No authentication; `timestamp` is the server’s business time, `environment` says whether this is a ' +
          'sandbox (test cards, a clock the operator moves) or production.',
        response: {
          200: Type.Object(
            {
              status: Type.String(),
              timestamp: Type.String({ format: 'date-time' }),
              environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
            },
            { examples: [{ status: 'ok', timestamp: '2026-11-24T10:00:00.000Z', environment: 'sandbox' }] },
          ),
        },
      },
    },
    async () => ({ status: 'ok', timestamp: deps.clock.now().toISOString(), environment: deps.environment }),
  );

  app.get(
    '/readyz',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Operations'],
        summary: 'Readiness: the database answers',
        response: { 200: Status('ready'), 503: Status('unavailable') },
      },
    },
    async (_request, reply) => {
      try {
        await Promise.race([
          deps.pool.query('SELECT 1'),
          new Promise((_, reject) => setTimeout(() => reject(new Error('database timeout')), 2000).unref()),
        ]);
        return { status: 'ready' };
      } catch {
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );

  app.get(
    '/metrics',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Operations'],
        summary: 'Prometheus metrics',
        produces: ['text/plain'],
        response: { 200: Type.String({ examples: ['# HELP tessera_http_request_duration_seconds ...'] }) },
      },
    },
    async (_request, reply) => {
      reply.header('content-type', deps.metrics.registry.contentType);
      return deps.metrics.registry.metrics();
    },
  );
}
