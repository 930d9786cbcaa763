import type { FastifyReply, FastifyRequest, FastifySchema, RouteShorthandOptions } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { IdempotencyClaim } from './idempotency.js';
import { merchantOf } from './principal.js';
import type { App } from './server.js';

type Part<S, K extends string> = S extends { [P in K]: infer T extends TSchema } ? Static<T> : undefined;

/** One call of a merchant's operation, as every surface hands it over: who, what was sent, its idempotency claim. */
export interface MerchantCall<S extends FastifySchema> {
  merchantId: string;
  body: Part<S, 'body'>;
  params: Part<S, 'params'>;
  query: Part<S, 'querystring'>;
  /** The request's idempotency key, when the route honours one and it sent one. */
  idempotency: IdempotencyClaim | undefined;
  request: FastifyRequest;
}

export interface MerchantOperation<S extends FastifySchema, R> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  schema: S;
  config?: RouteShorthandOptions['config'];
  /** The operation: a service call in the service's own units (cents, ids), nothing of the wire. */
  run(call: MerchantCall<S>): Promise<R>;
  /** The answer in the surface's names; `undefined` sends an empty 200. */
  view(result: R, call: MerchantCall<S>): unknown;
}

/**
 * A merchant's operation as a route, the same way on every surface (version 1, version 2): the caller's merchant,
 * the request's idempotency claim and the validated parts go to `run`; its result goes to `view`. A surface differs
 * only in its path, its schema, how it reads the request into the service's terms and how it names the answer.
 */
export function merchantOperation<const S extends FastifySchema, R>(app: App, operation: MerchantOperation<S, R>) {
  app.route({
    method: operation.method,
    url: operation.url,
    ...(operation.config ? { config: operation.config } : {}),
    schema: operation.schema,
    // The schema types the request for `run` and the response for the serializer; the handler itself is generic.
    handler: (async (request: FastifyRequest, reply: FastifyReply) => {
      const call = {
        merchantId: merchantOf(request).merchantId,
        body: request.body,
        params: request.params,
        query: request.query,
        idempotency: request.idempotency,
        request,
      } as MerchantCall<S>;
      const answer = await operation.view(await operation.run(call), call);
      return answer === undefined ? reply.send() : answer;
    }) as never,
  });
}
