import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { scoped } from './modules/compose.js';
import { MODULES, OPERATIONS } from './modules/index.js';
import type { AppContext } from './modules/manifest.js';
import { operatorRoutes } from './modules/operator/operator.routes.js';
import { type AuthPolicy, MERCHANT_ONLY } from './platform/http/principal.js';
import { type App, createHttpServer, type HttpDeps } from './platform/http/server.js';
import { isOptionalBody } from './platform/http/validation.js';

export interface BuildAppOptions {
  /** Extra routes (tests register probes for shared mechanisms, e.g. a slow idempotent route). */
  configure?: (app: App) => void;
}

const API_DESCRIPTION = `Tessera payments API.

Authenticate with OAuth 2.0 client credentials at \`POST /oauth2/token\` and send \`Authorization: Bearer <access_token>\`.
Errors use one body shape (\`errors\`, \`details\`, \`statusCode\`, \`errorCode\`, \`correlationId\`, ...); every response
carries \`x-correlation-id\`. Lists take \`page\` (0-based), \`pageSize\` (default 15, at most 100), \`orderBy\`, \`asc\`
and \`search\` and answer \`{items, total}\`. Amounts are USD numbers with at most two decimals.`;

/**
 * A route's security requirement. A bearer route lists the token kinds it takes as roles (OpenAPI 3.1 allows role
 * names for non-OAuth schemes), one alternative per kind: `[{bearer: ['merchant']}, {bearer: ['partner']}]`.
 */
function securityOf(auth: AuthPolicy | undefined): Array<Record<string, string[]>> {
  const policy = auth ?? MERCHANT_ONLY;
  if (policy === 'public') return [];
  if (policy === 'operator') return [{ operator: [] }];
  if (policy === 'identity') return [{ identity: [] }];
  return policy.tokens.map((kind) => ({ bearer: [kind] }));
}

/** Documents the `idempotency-key` header on the routes that honour it (generated clients send one there). */
function withIdempotencyHeader<S extends { headers?: unknown }>(schema: S): S {
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as {
    properties?: Record<string, unknown>;
  };
  return {
    ...schema,
    headers: {
      ...headers,
      type: 'object',
      properties: {
        ...headers.properties,
        'idempotency-key': {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description:
            'Makes a retry safe: the same key with the same request answers the first response again (a key ' +
            'is kept 24 hours; another request with the key is a 422). docs/api-conventions.md.',
        },
      },
    },
  };
}

/** `POST /v1/things/{id}` for a route's method and URL, in Fastify's (`:id`) or OpenAPI's (`{id}`) spelling. */
function operationKey(method: string | string[], url: string): string {
  return `${[method].flat()[0]!.toUpperCase()} ${url.replace(/:(\w+)/g, '{$1}')}`;
}

/** The HTTP application: the kernel, every module's routes (the module list) and the OpenAPI document. Does not listen. */
export async function buildApp(ctx: AppContext, http: HttpDeps, options: BuildAppOptions = {}): Promise<App> {
  const app = createHttpServer(http);
  const optionalBodies = new Set<string>();

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Tessera API', version: '1.0.0', description: API_DESCRIPTION },
      servers: [{ url: ctx.config.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Access token from POST /oauth2/token.',
          },
          operator: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN (operator API only).' },
          identity: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A service-account identity token (partner portfolio API only; docs/partner-api.md).',
          },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      if (isOptionalBody(schema?.body)) optionalBodies.add(operationKey(route.method, url));
      const documented = { ...schema, security: securityOf(route.config?.auth) } as typeof schema;
      return { schema: route.config?.idempotent ? withIdempotencyHeader(documented) : documented, url };
    },
    // @fastify/swagger marks every request body required; an optional one (Type.Optional) may be left out.
    transformObject: (document) => {
      const openapiObject = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
      for (const [path, item] of Object.entries(openapiObject.paths ?? {})) {
        for (const [method, operation] of Object.entries(item ?? {})) {
          const body = (operation as { requestBody?: { required?: boolean } }).requestBody;
          if (body && optionalBodies.has(operationKey(method, path))) body.required = false;
        }
      }
      return openapiObject;
    },
  });
  // The reference UI's own routes (HTML, scripts, the OpenAPI document it loads) are public documentation.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), auth: 'public' };
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  // The terminal channel (docs/terminals.md); frames are small JSON messages.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  // Routes are registered inside one plugin so the documentation plugins above see every one of them.
  await app.register(async (api) => {
    const scope = api as unknown as App;
    for (const module of MODULES) {
      const services = scoped(ctx.services, module);
      module.routes?.(scope, services, ctx);
      if (ctx.sandbox) module.sandbox?.routes?.(scope, services, ctx);
    }
    operatorRoutes(scope, ctx, OPERATIONS);
    options.configure?.(scope);
  });

  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return app.swagger();
  });

  await app.ready();
  return app;
}
