import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../observability/logger.js';
import {
  AppError,
  InternalError,
  MalformedRequestError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from './errors.js';
import { fieldErrorsFrom } from './validation.js';

export interface ErrorBody {
  errors: Record<string, string[]>;
  details: string;
  statusCode: number;
  source: string;
  exceptionType: string;
  correlationId: string;
  entityId: string | null;
  errorCode: string;
  title: string;
  cause: string;
  resolution: string;
  documentationUrl: string;
}

export function errorBody(error: AppError, correlationId: string, documentationUrl: string): ErrorBody {
  return {
    errors: error.errors ?? {},
    details: error.message,
    statusCode: error.statusCode,
    source: 'Tessera',
    exceptionType: error.exceptionType,
    correlationId,
    entityId: error.entityId,
    errorCode: error.errorCode,
    title: error.title,
    cause: error.reason,
    resolution: error.resolution,
    documentationUrl,
  };
}

/** Maps anything thrown while handling a request to one of our typed errors. Never leaks a stack or SQL. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    // biome-ignore lint/suspicious/noExplicitAny: the validator compiler put TypeBox errors here
    return new ValidationError(fieldErrorsFrom(fastifyError.validation as any, fastifyError.validationContext));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new MalformedRequestError('The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new MalformedRequestError('The request body is larger than the 1 MiB limit.', 413);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new MalformedRequestError('Unsupported Content-Type; send application/json.', 415);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new MalformedRequestError('The Content-Length header does not match the body.');
    case 'FST_ERR_CTP_INVALID_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_TYPE':
      return new MalformedRequestError('The Content-Type header is invalid.');
  }
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return new MalformedRequestError('The request could not be read.');
  }
  if (fastifyError.statusCode === 503) return new ServiceUnavailableError('The service is shutting down.');
  return new InternalError();
}

export function makeErrorHandler(logger: Logger, documentationUrl: string) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.statusCode >= 500) {
      logger.error({ err: error, correlationId: request.id, route: request.routeOptions.url }, 'request failed');
    }
    for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
    return reply.code(appError.statusCode).send(errorBody(appError, request.id, documentationUrl));
  };
}

export function makeNotFoundHandler(documentationUrl: string) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const error = new NotFoundError(`Route ${request.method} ${request.url.split('?')[0]}`, null);
    return reply.code(404).send(errorBody(error, request.id, documentationUrl));
  };
}
