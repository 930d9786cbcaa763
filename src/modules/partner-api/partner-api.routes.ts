import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { toAppError } from '../../platform/http/error-handler.js';
import { RateLimiter } from '../../platform/http/rate-limit.js';
import { type App, frameworkErrorsUnder } from '../../platform/http/server.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { MerchantPortfolios } from '../merchants/portfolio/portfolio.service.js';
import type { PartnersService } from '../partners/partners.service.js';
import { Envelope, envelopeErrors, errorEnvelopes, meta, PartnerApiError } from './envelope.js';
import type { IdentityTokenVerifier } from './identity-verifier.js';
import { IdentityTokenError } from './identity-verifier.js';
import { PrincipalView, RATE_LIMIT_EXAMPLE, RateLimitStatusView } from './partner-api.schemas.js';
import { PARTNER_DATA_SOURCE, partnerMerchantRoutes } from './partner-merchants.routes.js';
import type { PartnerPrincipal, PartnerPrincipals } from './principals.js';

export interface PartnerApiRouteDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  config: Pick<
    Config,
    'env' | 'partnerRateLimitPerMinute' | 'partnerRateLimitBurstPer10s' | 'partnerAiRateLimitPerMinute'
  >;
  verifier: IdentityTokenVerifier;
  principals: PartnerPrincipals;
  partners: PartnersService;
  portfolios: MerchantPortfolios;
  version: string;
  build: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    partnerPrincipal?: PartnerPrincipal;
  }
}

const READ = 'partner:read';

const HEALTH = Envelope(
  Type.Object({ status: Type.String(), version: Type.String(), database: Type.String(), build: Type.String() }),
  { status: 'ok', version: '0.1.0', database: 'ok', build: 'dev' },
  { timestamp: '2026-11-24T10:00:00.000Z' },
);

/** The policy reported by `/me` and enforced here (guidance is reported only). */
function rateLimitsOf(config: PartnerApiRouteDeps['config']) {
  return {
    standard_per_minute: config.partnerRateLimitPerMinute,
    ai_per_minute: config.partnerAiRateLimitPerMinute,
    window_seconds: 60,
    guidance_per_minute: Math.floor(config.partnerRateLimitPerMinute / 2),
    hard_per_minute: config.partnerRateLimitPerMinute,
    burst_per_10_seconds: config.partnerRateLimitBurstPer10s,
  };
}

/** The identity token, by the header rules (docs/partner-api.md): `Authorization: Bearer` only. */
function bearerOf(request: FastifyRequest): string {
  const serverless = request.headers['x-serverless-authorization'];
  const authorization = request.headers.authorization;
  if (request.headers['x-partner-api-key'] !== undefined) {
    throw new PartnerApiError(401, 'header_not_accepted', 'X-Partner-API-Key is not accepted: send an identity token.');
  }
  if (serverless !== undefined && authorization !== undefined) {
    throw new PartnerApiError(
      400,
      'conflicting_headers',
      'Send Authorization only, not X-Serverless-Authorization too.',
    );
  }
  if (serverless !== undefined) {
    throw new PartnerApiError(
      401,
      'header_not_accepted',
      'X-Serverless-Authorization is not accepted: use Authorization.',
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new PartnerApiError(401, 'unauthorized', 'A bearer identity token is required.');
  return match[1]!;
}

/**
 * The partner portfolio API (`/api/partner`): identity tokens (its own check, not the payments API's access tokens),
 * its own rate limits per principal, and the `{data, meta, errors}` envelope on every answer, errors included.
 */
export function partnerApiRoutes(app: App, deps: PartnerApiRouteDeps): void {
  const limits = rateLimitsOf(deps.config);
  const limiter = new RateLimiter(deps.pool, deps.clock, [
    { name: 'partner-standard', windowSeconds: 60, limit: limits.standard_per_minute },
    { name: 'partner-burst', windowSeconds: 10, limit: limits.burst_per_10_seconds },
  ]);
  const aiLimiter = new RateLimiter(deps.pool, deps.clock, [
    { name: 'partner-ai', windowSeconds: 60, limit: limits.ai_per_minute },
  ]);

  frameworkErrorsUnder(app, '/api/partner/', (error, requestId) => ({
    data: null,
    meta: meta(requestId),
    errors: envelopeErrors(error).errors,
  }));
  app.register(
    async (scope) => {
      limiter.start();
      aiLimiter.start();
      scope.addHook('onClose', async () => {
        await Promise.all([limiter.stop(), aiLimiter.stop()]);
      });
      const tags = ['Partner portfolio'];
      const ERRORS = errorEnvelopes(400, 401, 403, 404, 429, 500);

      scope.setErrorHandler((error, request, reply) => {
        const mapped = error instanceof PartnerApiError ? error : toAppError(error);
        const { status, errors } = envelopeErrors(mapped);
        if (status >= 500) deps.logger.error({ err: error, correlationId: request.id }, 'partner API request failed');
        return reply.code(status).send({ data: null, meta: meta(request.id), errors });
      });
      scope.setNotFoundHandler((request, reply) =>
        reply.code(404).send({
          data: null,
          meta: meta(request.id),
          errors: [{ code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` }],
        }),
      );

      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        if (request.routeOptions.config.auth !== 'identity' || request.method === 'OPTIONS') return;
        const token = bearerOf(request);
        let identity: { issuer: string; subject: string };
        try {
          identity = await deps.verifier.verify(token);
        } catch (error) {
          if (error instanceof IdentityTokenError) throw new PartnerApiError(401, error.code, error.message);
          throw error;
        }
        const principal = await deps.principals.byIdentity(identity.issuer, identity.subject);
        if (!principal) {
          throw new PartnerApiError(403, 'unknown_principal', 'The token is valid but its subject is not registered.');
        }
        if (!principal.permissions.includes(READ)) {
          throw new PartnerApiError(403, 'forbidden', `The principal lacks the "${READ}" permission.`);
        }
        request.partnerPrincipal = principal;
        const decision = await limiter.hit(principal.id);
        if (!decision.allowed) {
          reply.header('retry-after', String(decision.retryAfterSeconds));
          reply.header('x-ratelimit-limit', String(limits.standard_per_minute));
          reply.header('x-ratelimit-remaining', '0');
          reply.header('x-ratelimit-reset', String(decision.retryAfterSeconds));
          throw new PartnerApiError(
            429,
            'rate_limited',
            `Rate limit exceeded. Retry after ${decision.retryAfterSeconds} seconds.`,
          );
        }
      });

      const principalOf = (request: FastifyRequest) => request.partnerPrincipal!;

      scope.get(
        '/health',
        {
          config: { auth: 'public' },
          schema: {
            tags,
            summary: 'Partner API health',
            description: 'No authentication. `database` is a real query; `build` is the running build tag.',
            response: { 200: HEALTH, 503: HEALTH, ...errorEnvelopes(500) },
          },
        },
        async (request, reply) => {
          const database = await deps.pool
            .query('SELECT 1')
            .then(() => 'ok')
            .catch(() => 'unavailable');
          const status = database === 'ok' ? 'ok' : 'degraded';
          return reply.code(database === 'ok' ? 200 : 503).send({
            data: { status, version: deps.version, database, build: deps.build },
            meta: meta(request.id, { timestamp: deps.clock.now().toISOString() }),
            errors: [],
          });
        },
      );

      scope.get(
        '/me',
        {
          config: { auth: 'identity' },
          schema: {
            tags,
            summary: 'The principal behind the token',
            description: 'Confirms a token is accepted: the principal, its scope, permissions and rate-limit policy.',
            response: {
              200: Envelope(PrincipalView, principalExample(limits)),
              ...ERRORS,
            },
          },
        },
        async (request) => {
          const p = principalOf(request);
          return {
            data: {
              principal_id: p.id,
              principal_type: 'idp_service_account',
              organization_id: p.partnerId,
              organization_name: p.partnerId ? ((await deps.partners.findPartner(p.partnerId))?.name ?? null) : null,
              key_id: null,
              key_prefix: null,
              label: p.label,
              environment: deps.config.env,
              scopes: p.system ? ['system'] : ['organization'],
              permissions: p.permissions,
              scope: { kind: p.system ? 'system' : 'organization', organization_id: p.partnerId },
              rate_limits: limits,
            },
            meta: meta(request.id, { source: PARTNER_DATA_SOURCE, as_of: deps.clock.now().toISOString() }),
            errors: [],
          };
        },
      );

      scope.get(
        '/rate-limit',
        {
          config: { auth: 'identity' },
          schema: {
            tags,
            summary: 'The live rate-limit window of the calling principal',
            description: 'Counted in PostgreSQL across every node (this request included).',
            response: { 200: Envelope(RateLimitStatusView, RATE_LIMIT_EXAMPLE), ...ERRORS },
          },
        },
        async (request) => {
          const p = principalOf(request);
          const [standard, burst] = await limiter.windows(p.id);
          const [ai] = await aiLimiter.windows(p.id);
          const view = (w: typeof standard) => ({
            used: w!.used,
            limit: w!.limit,
            remaining: w!.remaining,
            reset_at: w!.resetAt.toISOString(),
          });
          return {
            data: {
              organization_id: p.partnerId,
              generated_at: deps.clock.now().toISOString(),
              window_seconds: 60,
              source: 'live',
              default_limits: { standard_per_minute: limits.standard_per_minute, ai_per_minute: limits.ai_per_minute },
              principal: {
                principal_id: p.id,
                principal_type: 'idp_service_account',
                standard: view(standard),
                burst: view(burst),
                endpoint_limits: { ai: view(ai) },
              },
              keys: [],
            },
            meta: meta(request.id, { source: 'live', as_of: deps.clock.now().toISOString() }),
            errors: [],
          };
        },
      );

      partnerMerchantRoutes(scope as unknown as App, {
        portfolios: deps.portfolios,
        clock: deps.clock,
        tags,
        errors: ERRORS,
      });
    },
    { prefix: '/api/partner' },
  );
}

function principalExample(limits: ReturnType<typeof rateLimitsOf>) {
  return {
    principal_id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cd4',
    principal_type: 'idp_service_account',
    organization_id: null,
    organization_name: null,
    key_id: null,
    key_prefix: null,
    label: 'Portfolio reporting',
    environment: 'sandbox',
    scopes: ['system'],
    permissions: ['partner:read'],
    scope: { kind: 'system', organization_id: null },
    rate_limits: limits,
  };
}
