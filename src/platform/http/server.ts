import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Span, SpanStatusCode } from '@opentelemetry/api';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { dictionary } from '../dictionary.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { looksLikeCardNumber, redactUrl } from '../observability/redact.js';
import { context, startServerSpan, tracingOn } from '../observability/tracing.js';
import { errorBody, makeErrorHandler, makeNotFoundHandler } from './error-handler.js';
import {
  ForbiddenError,
  MalformedRequestError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from './errors.js';
import { type IdempotencyClaim, type IdempotencyStore, requestFingerprint } from './idempotency.js';
import { type LazySerializers, lazySerializers } from './lazy-serializers.js';
import {
  type AuthPolicy,
  MERCHANT_ONLY,
  type OperatorAuthenticator,
  type Principal,
  principalKey,
  type TokenAuthenticator,
} from './principal.js';
import type { RateLimiter } from './rate-limit.js';
import { hasControlCharacters, validatorCompiler } from './validation.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route; default merchant token only. */
    auth?: AuthPolicy;
    /** Opt in to the idempotency-key header. */
    idempotent?: boolean;
    /** Rate-limit an unauthenticated route by client address (e.g. the token endpoint). */
    rateLimitByClient?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
    /** The idempotency key this request holds (see IdempotencyClaim), until its response is stored. */
    idempotency: IdempotencyClaim | undefined;
  }
}

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  Logger,
  TypeBoxTypeProvider
>;

export interface HttpDeps {
  logger: Logger;
  metrics: Metrics;
  documentationUrl: string;
  trustProxy: boolean;
  tokens: TokenAuthenticator;
  operator: OperatorAuthenticator;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
  /** Where each merchant request's line goes for `tessera logs tail` (none: not kept). */
  requestLog?: RequestLogSink;
}

/** One merchant request as `tessera logs tail` shows it: the log line's fields, never a body. */
export interface RequestLogLine {
  merchantId: string;
  at: Date;
  method: string;
  path: string;
  route: string;
  status: number;
  durationMs: number;
  correlationId: string;
}

export interface RequestLogSink {
  record(entry: RequestLogLine): void;
}

const serializersByApp = new WeakMap<object, LazySerializers>();

/** Builds every response serializer the app has not built yet (they are built on first use); how many it built. */
export function compileAllSerializers(app: App): number {
  const serializers = serializersByApp.get(app);
  if (!serializers) throw new Error('not an app made by createHttpServer');
  return serializers.compileAll();
}

const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const BODY_LIMIT = 1024 * 1024;
/** No request body of this API nests deeper than a few levels; 32 leaves room and keeps every walk of it shallow. */
export const MAX_JSON_DEPTH = 32;

/**
 * The top-level field (or '' for the body itself) under which `value` nests objects and arrays more than `limit`
 * levels deep; undefined when it does not. Iterative: a hostile body cannot overflow the stack here.
 */
export function nestedDeeperThan(value: unknown, limit: number): string | undefined {
  const pending: Array<{ value: unknown; depth: number; field: string }> = [{ value, depth: 0, field: '' }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > limit) return next.field;
    const children = Array.isArray(next.value) ? next.value.entries() : Object.entries(next.value);
    for (const [key, child] of children) {
      pending.push({ value: child, depth, field: next.field === '' && depth === 1 ? String(key) : next.field });
    }
  }
  return undefined;
}

/**
 * The HTTP kernel: one Fastify instance with the cross-cutting pipeline every route shares. Per request:
 * correlation id → authentication (from the route's declared policy) → rate limit → body parse and strict
 * validation → idempotency claim → handler → idempotency store → log line and metrics.
 */
export function createHttpServer(deps: HttpDeps): App {
  const serializers = lazySerializers();
  const app = Fastify({
    schemaController: { compilersFactory: { buildSerializer: serializers.buildSerializer } },
    loggerInstance: deps.logger,
    // Fastify's own per-request lines are off: the onResponse hook writes one redacted line per request instead.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.trustProxy,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    requestIdHeader: false,
    // A correlation id that could be a card number is not taken (it would be echoed, logged and kept verbatim).
    genReqId: (request) => {
      const sent = request.headers['x-correlation-id'];
      return typeof sent === 'string' && CORRELATION_ID.test(sent) && !looksLikeCardNumber(sent) ? sent : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler: (error, socket) => clientError(error, socket, deps.documentationUrl),
    // The router's own refusals (a path that is not valid percent-encoding, a path segment over 100 characters)
    // answer in the standard error body like every other 400.
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path segment is longer than 100 characters; no id is that long.'
          : 'The URL path is not valid percent-encoded text.';
      reply.header('x-correlation-id', request.id);
      reply.header('x-request-id', request.id);
      const error_ = new MalformedRequestError(message);
      const own = frameworkErrorBodies
        .get((request as FastifyRequest).server.server)
        ?.find((entry) => request.url.startsWith(entry.prefix));
      if (own) return (reply as FastifyReply).code(400).send(own.render(error_, request.id));
      const body = errorBody(error_, request.id, deps.documentationUrl);
      return (reply as FastifyReply).code(400).send(body);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  serializersByApp.set(app, serializers);

  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(makeErrorHandler(deps.logger, deps.documentationUrl));
  app.setNotFoundHandler(makeNotFoundHandler(deps.documentationUrl));
  app.decorateRequest('principal', undefined);
  app.decorateRequest('idempotency', undefined);

  // The API speaks JSON only (the token endpoint adds form bodies in its own scope); anything else is a 415.
  app.removeContentTypeParser('text/plain');
  // Bodyless POSTs often still say Content-Type: application/json; an empty body is "no body", not malformed JSON.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  const json = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (error: Error | null, value?: unknown) => void,
  ) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return defaultJson(request, text, (error, value) => {
      if (error) return done(error);
      // Bounded here, once, so nothing after the parser (text checks, fingerprints, services) walks a value deeper.
      const tooDeep = nestedDeeperThan(value, MAX_JSON_DEPTH);
      if (tooDeep === undefined) return done(null, value);
      const field = tooDeep === '' ? 'body' : tooDeep;
      return done(ValidationError.field(field, `'${field}' is nested more than ${MAX_JSON_DEPTH} levels deep.`));
    });
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, json);
  // RFC 7396 merge patches (PATCH /v2/payment-links/{id}) are JSON documents too.
  app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, json);

  if (tracingOn()) traceRequests(app as unknown as FastifyInstance);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-correlation-id', request.id);
    // The vendor's SDK reads the request id of an answer (its errors carry it) from x-request-id.
    reply.header('x-request-id', request.id);
    if (request.is404) return;
    await authenticate(request, deps);
    await enforceRateLimit(request, deps);
  });

  // An operation that takes no JSON body refuses one it would ignore (the conventions refuse unknown fields); an
  // empty object is no body, which clients often send. (Hosted pages read their HTML forms themselves.)
  app.addHook('preValidation', async (request) => {
    if (request.is404 || request.body === undefined || request.routeOptions.schema?.body !== undefined) return;
    if (!JSON_MEDIA_TYPES.has(mediaType(request.headers['content-type']))) return;
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw ValidationError.field('body', 'This operation takes no request body.');
    }
    const fields = Object.keys(body);
    if (fields.length === 0) return;
    throw new ValidationError(
      dictionary(
        fields.map((name) => [name, [`The JSON property '${name}' could not be mapped to any field of this request.`]]),
      ),
    );
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.idempotent) return;
    const replay = await claimIdempotencyKey(request, deps);
    if (!replay) return;
    // A replay is the stored bytes exactly as first sent (a string payload is not re-serialised).
    reply.header('idempotent-replayed', 'true');
    if (replay.contentType) reply.header('content-type', replay.contentType);
    return reply.code(replay.statusCode).send(replay.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (closing.has(app)) reply.header('connection', 'close');
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    // An answer with no body (`reply.send()`) is stored as empty, so its retry replays it instead of acting again.
    const body = payload ?? '';
    if (reply.statusCode >= 500 || (typeof body !== 'string' && !Buffer.isBuffer(body))) {
      await deps.idempotency.release(claim).catch(() => {});
    } else if (reply.statusCode === 409 || reply.statusCode === 429) {
      // An answer about now, not about the request (a payment in progress, a busy batch, a limit): never stored, so
      // it cannot stand for the request's outcome. A recovering claim stays claimed for the retry that finishes it.
      const drop = claim.recovering ? deps.idempotency.release(claim) : deps.idempotency.forget(claim);
      await drop.catch(() => {});
    } else {
      const contentType = reply.getHeader('content-type');
      try {
        const stored = await deps.idempotency.complete(
          claim,
          reply.statusCode,
          typeof contentType === 'string' ? contentType : null,
          typeof body === 'string' ? body : body.toString('utf8'),
        );
        if (!stored) {
          // This node was taken for dead meanwhile (its liveness session dropped); the retry that took the claim
          // over answers from the same records.
          deps.logger.warn({ correlationId: request.id }, 'idempotency claim was taken over; response not stored');
        }
      } catch (error) {
        // The work is done and the client gets its answer; a retry meets the claim (409) while this node lives and
        // holds it, and takes it over (finding this request's work) once the node is gone or the claim is stuck.
        deps.logger.warn({ err: error, correlationId: request.id }, 'could not store the idempotent response');
      }
    }
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const durationMs = Math.round(reply.elapsedTime * 100) / 100;
    deps.metrics.httpDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    const entry = {
      correlationId: request.id,
      method: request.method,
      route,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      durationMs,
      principal: request.principal ? principalKey(request.principal) : undefined,
    };
    if (reply.statusCode >= 500) deps.logger.error(entry, 'request completed');
    else deps.logger.info(entry, 'request completed');
    // A merchant's own requests, for `tessera logs tail`: the same redacted line, never a body.
    if (request.principal?.kind === 'merchant' && deps.requestLog) {
      deps.requestLog.record({
        merchantId: request.principal.merchantId,
        at: new Date(),
        method: request.method,
        path: entry.url,
        route,
        status: reply.statusCode,
        durationMs,
        correlationId: request.id,
      });
    }
  });

  return app as unknown as App;
}

const closing = new WeakSet<object>();

const JSON_MEDIA_TYPES = new Set(['application/json', 'application/merge-patch+json']);
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers or a URL over 16 KiB, a request that
 * does not arrive in time, bytes that are not HTTP): they are answered in the standard error body too, then the
 * connection is closed.
 */
function clientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex, documentationUrl: string) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new MalformedRequestError('The request line and headers are larger than 16 KiB.', 431)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new MalformedRequestError('The request did not arrive in time.', 408)
        : new MalformedRequestError('The request is not valid HTTP.');
  const correlationId = randomUUID();
  const body = JSON.stringify(errorBody(refusal, correlationId, documentationUrl));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${refusal.statusCode} ${STATUS_CODES[refusal.statusCode]}\r\nContent-Type: application/json; ` +
        `charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-correlation-id: ${correlationId}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Error bodies of APIs with their own shape (the partner envelope), by URL prefix, for the router's refusals. */
const frameworkErrorBodies = new WeakMap<object, Array<{ prefix: string; render: FrameworkErrorRender }>>();
type FrameworkErrorRender = (error: MalformedRequestError, requestId: string) => unknown;

/**
 * The router refuses some URLs before any route or scope is chosen (bad percent-encoding, an overlong segment):
 * under `prefix`, those refusals are rendered by `render` instead of the standard error body.
 */
export function frameworkErrorsUnder(app: App, prefix: string, render: FrameworkErrorRender): void {
  // Keyed by the HTTP server, which every encapsulated child instance shares with the root.
  frameworkErrorBodies.set(app.server, [...(frameworkErrorBodies.get(app.server) ?? []), { prefix, render }]);
}

/**
 * Stops accepting connections and waits for in-flight requests. A keep-alive connection that was busy when closing
 * began goes idle only later; it is closed as soon as it does (and told `Connection: close`), instead of holding
 * shutdown open until its keep-alive timeout.
 */
export async function closeGracefully(app: App): Promise<void> {
  closing.add(app);
  const closed = app.close();
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await closed;
  } finally {
    clearInterval(sweeper);
  }
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new UnauthorizedError('The Authorization header is missing.');
  const match = /^Bearer\s+([^\s]+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError('The Authorization header must be "Bearer <access token>".');
  return match[1]!;
}

async function authenticate(request: FastifyRequest, deps: HttpDeps): Promise<void> {
  const policy = request.routeOptions.config.auth ?? MERCHANT_ONLY;
  if (policy === 'public' || policy === 'identity') return;
  const token = bearerToken(request);
  if (policy === 'operator') {
    if (!(await deps.operator.isOperatorToken(token))) throw new UnauthorizedError('The operator token is not valid.');
    request.principal = { kind: 'operator' };
    return;
  }
  const principal = await deps.tokens.authenticate(token);
  if (!policy.tokens.includes(principal.kind)) {
    const wanted = policy.tokens.map((kind) => `a ${kind}`).join(' or ');
    throw new ForbiddenError(`This endpoint requires ${wanted} token; a ${principal.kind} token was used.`);
  }
  if (policy.permission && !principal.permissions.includes(policy.permission)) {
    throw new ForbiddenError(`This API key lacks the "${policy.permission}" permission.`);
  }
  request.principal = principal;
}

async function enforceRateLimit(request: FastifyRequest, deps: HttpDeps): Promise<void> {
  let bucket: string | undefined;
  if (request.principal && request.principal.kind !== 'operator') bucket = principalKey(request.principal);
  else if (request.routeOptions.config.rateLimitByClient) bucket = `client:${request.ip}`;
  if (!bucket) return;
  const decision = await deps.rateLimiter.hit(bucket);
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
}

async function claimIdempotencyKey(
  request: FastifyRequest,
  deps: HttpDeps,
): Promise<{ statusCode: number; contentType: string | null; body: string } | undefined> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0]! : header;
  if (key.trim() === '' || key.length > 255) {
    throw ValidationError.field('idempotency-key', "'idempotency-key' must be 1 to 255 characters.");
  }
  if (hasControlCharacters(key)) {
    throw ValidationError.field('idempotency-key', "'idempotency-key' must not contain control characters.");
  }
  const principal = request.principal ? principalKey(request.principal) : `client:${request.ip}`;
  const fingerprint = requestFingerprint(request.method, request.url, request.body);
  const outcome = await deps.idempotency.claim(principal, key, fingerprint);
  if (outcome.kind === 'claimed') {
    request.idempotency = outcome.claim;
    return undefined;
  }
  return outcome;
}

/**
 * Each request's server span, made in the first hook so that everything after it (the other hooks, the handler, its
 * database statements) runs in the span's context and nests under it.
 */
function traceRequests(app: FastifyInstance): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const { span, context: spanContext } = startServerSpan(`${request.method} ${route}`, request.headers, {
      'http.request.method': request.method,
      'http.route': route,
      'url.path': redactUrl(request.url.split('?')[0]!),
      'tessera.correlation_id': request.id,
    });
    spans.set(request, span);
    context.with(spanContext, done);
  });
  const end = (request: FastifyRequest, status: number | undefined) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (request.principal) span.setAttribute('tessera.principal', principalKey(request.principal));
    if (status === undefined || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    end(request, undefined);
    done();
  });
}
