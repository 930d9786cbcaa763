import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { EMPTY_OK } from './v2-empty.js';

/** `GET /v2/ping` (the published revision): the token works; 200 with no body. */
export function v2PingRoutes(app: App): void {
  app.get(
    '/v2/ping',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Ping with a merchant token',
        description: '200 with an empty body when the bearer token is a valid merchant token; 401 otherwise.',
        response: { 200: EMPTY_OK, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      merchantOf(request);
      return reply.send();
    },
  );
}
