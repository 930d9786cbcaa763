import Type from 'typebox';
import type { Pool } from '../../platform/db/pool.js';
import type { App } from '../../platform/http/server.js';
import type { Metrics } from '../../platform/observability/metrics.js';

const Status = (value: string) => Type.Object({ status: Type.String() }, { examples: [{ status: value }] });

/** What these routes use. */
export interface SystemRouteDeps {
  pool: Pool;
  metrics: Metrics;
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
