import { errorResponses } from '../../platform/http/error-schemas.js';
import type { App } from '../../platform/http/server.js';
import type { AppContext, OperatorOperation } from '../manifest.js';

/** The operator API (`/admin/v1`): every module's operator operations, as routes. */
export function operatorRoutes(app: App, ctx: AppContext, operations: readonly OperatorOperation[]): void {
  for (const operation of operations) {
    // Production does not have sandbox-only routes at all: they answer 404 like any unknown path.
    if (operation.sandboxOnly && ctx.config.env !== 'sandbox') continue;
    app.route({
      method: operation.method,
      url: operation.path,
      config: { auth: 'operator', idempotent: operation.idempotent ?? false },
      schema: {
        tags: ['Operator'],
        summary: operation.summary,
        description:
          'Operator API: `Authorization: Bearer <ADMIN_TOKEN>`. Mirrored by `tessera admin` on the command line.',
        ...(operation.params ? { params: operation.params } : {}),
        ...(operation.querystring ? { querystring: operation.querystring } : {}),
        ...(operation.body ? { body: operation.body } : {}),
        response: { 200: operation.response, ...errorResponses(400, 401, 404, 500) },
      },
      handler: async (request) =>
        operation.run(ctx, { params: request.params, body: request.body, query: request.query }),
    });
  }
}
