import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Config } from '../../config.js';
import { errorBody } from '../../platform/http/error-handler.js';
import { errorResponses } from '../../platform/http/error-schemas.js';
import { AppError } from '../../platform/http/errors.js';
import type { App } from '../../platform/http/server.js';
import type { Logger } from '../../platform/observability/logger.js';
import { OAuthError } from './oauth.errors.js';
import type { OAuthService, TokenRequest } from './oauth.service.js';

const TokenForm = Type.Object(
  {
    grant_type: Type.String({ description: 'client_credentials or refresh_token.' }),
    scope: Type.Optional(Type.String({ description: 'offline_access to also receive a refresh token.' })),
    client_id: Type.Optional(Type.String({ description: 'Unless sent as HTTP Basic.' })),
    client_secret: Type.Optional(Type.String({ description: 'Unless sent as HTTP Basic.' })),
    refresh_token: Type.Optional(Type.String({ description: 'For grant_type=refresh_token.' })),
  },
  {
    examples: [
      {
        grant_type: 'client_credentials',
        client_id: '<client id>',
        client_secret: '<client secret>',
        scope: 'offline_access',
      },
    ],
  },
);

const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    refresh_token: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
  },
  {
    examples: [
      {
        access_token: 'eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiIsInR5cCI6ImF0K2p3dCJ9...',
        token_type: 'Bearer',
        expires_in: 900,
        refresh_token: 'Zx8...',
        scope: 'offline_access',
      },
    ],
  },
);

const OAuthErrorSchema = Type.Object(
  { error: Type.String(), error_description: Type.String(), error_uri: Type.Optional(Type.String()) },
  { examples: [{ error: 'invalid_request', error_description: "The mandatory 'client_id' parameter is missing." }] },
);

const FORM_FIELDS = ['grant_type', 'scope', 'client_id', 'client_secret', 'refresh_token'] as const;

/** The token endpoint and its discovery documents; form bodies are parsed only inside this plugin. */
/** What these routes use. */
export interface OAuthRouteDeps {
  oauth: OAuthService;
  config: Pick<Config, 'publicBaseUrl' | 'authBaseUrl'>;
  logger: Logger;
}

export function oauthRoutes(app: App, deps: OAuthRouteDeps): void {
  const { oauth } = deps;
  const errorUri = `${deps.config.publicBaseUrl}/docs`;

  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 16 * 1024 });

    scope.setErrorHandler((error, request, reply) => {
      if (error instanceof OAuthError) return sendOAuthError(reply, error, errorUri);
      if (error instanceof AppError) {
        for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
        return reply.code(error.statusCode).send(errorBody(error, request.id, errorUri));
      }
      const status = (error as { statusCode?: number }).statusCode;
      if (status !== undefined && status >= 400 && status < 500) {
        return sendOAuthError(
          reply,
          new OAuthError('invalid_request', 'The token request body is malformed.', status === 413 ? 413 : 400),
          errorUri,
        );
      }
      deps.logger.error({ err: error, correlationId: request.id }, 'token endpoint failed');
      return reply.code(500).send({ error: 'server_error', error_description: 'Internal server error' });
    });

    scope.post(
      '/oauth2/token',
      {
        config: { auth: 'public', rateLimitByClient: true },
        // Validation is the service's job here: its errors must use the RFC 6749 shape, not the API's.
        validatorCompiler: () => (value) => ({ value }),
        schema: {
          tags: ['Authentication'],
          summary: 'Obtain an access token (OAuth 2.0 client credentials or refresh token)',
          description:
            'Form body (application/x-www-form-urlencoded). Client credentials in the body or as HTTP Basic ' +
            '(id and secret form-urlencoded before base64). `scope=offline_access` also returns a single-use refresh token.',
          consumes: ['application/x-www-form-urlencoded'],
          body: TokenForm,
          response: { 200: TokenResponseSchema, 400: OAuthErrorSchema, 401: OAuthErrorSchema, ...errorResponses(429) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        const response = await oauth.token(readTokenRequest(request));
        return response;
      },
    );

    scope.get(
      '/oauth2/token',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['Authentication'],
          summary: 'Not allowed: the token endpoint accepts POST only',
          response: { 405: OAuthErrorSchema },
        },
      },
      async (_request, reply) => {
        reply.header('allow', 'POST');
        return sendOAuthError(
          reply,
          new OAuthError('invalid_request', 'The token endpoint accepts POST requests only.', 405),
          errorUri,
        );
      },
    );
  });

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Authentication'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        response: {
          200: Type.Object(
            {
              issuer: Type.String(),
              token_endpoint: Type.String(),
              jwks_uri: Type.String(),
              grant_types_supported: Type.Array(Type.String()),
              token_endpoint_auth_methods_supported: Type.Array(Type.String()),
              scopes_supported: Type.Array(Type.String()),
              response_types_supported: Type.Array(Type.String()),
            },
            {
              examples: [
                {
                  issuer: 'http://127.0.0.1:8080',
                  token_endpoint: 'http://127.0.0.1:8080/oauth2/token',
                  jwks_uri: 'http://127.0.0.1:8080/.well-known/jwks.json',
                  grant_types_supported: ['client_credentials', 'refresh_token'],
                  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
                  scopes_supported: ['offline_access'],
                  response_types_supported: [],
                },
              ],
            },
          ),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        issuer: oauth.issuer,
        token_endpoint: `${deps.config.authBaseUrl}/oauth2/token`,
        jwks_uri: `${deps.config.authBaseUrl}/.well-known/jwks.json`,
        grant_types_supported: ['client_credentials', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: ['offline_access'],
        response_types_supported: [],
      };
    },
  );

  app.get(
    '/.well-known/jwks.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Authentication'],
        summary: 'Public keys that verify access tokens',
        response: {
          200: Type.Object(
            { keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) },
            {
              examples: [
                {
                  keys: [
                    {
                      kty: 'OKP',
                      crv: 'Ed25519',
                      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
                      kid: '…',
                      alg: 'EdDSA',
                      use: 'sig',
                    },
                  ],
                },
              ],
            },
          ),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return oauth.jwks();
    },
  );
}

function sendOAuthError(reply: FastifyReply, error: OAuthError, errorUri: string) {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return reply
    .code(error.statusCode)
    .type('application/json; charset=utf-8')
    .send({ error: error.error, error_description: error.description, error_uri: errorUri });
}

function readTokenRequest(request: FastifyRequest): TokenRequest {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'The token request must be sent as application/x-www-form-urlencoded.');
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const form: Partial<Record<(typeof FORM_FIELDS)[number], string>> = {};
  for (const field of FORM_FIELDS) {
    const value = body[field];
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `The '${field}' parameter must not be repeated.`);
    if (typeof value === 'string' && value !== '') form[field] = value;
  }
  return {
    grantType: form.grant_type,
    scope: form.scope,
    refreshToken: form.refresh_token,
    bodyClientId: form.client_id,
    bodyClientSecret: form.client_secret,
    basic: parseBasic(request.headers.authorization),
  };
}

/** RFC 6749 §2.3.1: the id and secret are form-urlencoded, then joined with ':' and base64-encoded. */
function parseBasic(header: string | undefined): TokenRequest['basic'] {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!match) return /^Basic\b/i.test(header) ? 'malformed' : undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}
