import Type, { type TSchema } from 'typebox';
import {
  type AppError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../../platform/http/errors.js';

export const API_VERSION = 'v1';

/** A refusal of the partner API with its stable code (docs/partner-api.md). */
export class PartnerApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface EnvelopeError {
  code: string;
  message: string;
  field?: string;
}

/** An error as the partner API reports it: the status, and the `errors` array of its envelope. */
export function envelopeErrors(error: AppError | PartnerApiError): { status: number; errors: EnvelopeError[] } {
  if (error instanceof PartnerApiError) {
    return { status: error.statusCode, errors: [{ code: error.code, message: error.message }] };
  }
  if (error instanceof ValidationError) {
    const errors = Object.entries(error.errors ?? {}).flatMap(([field, messages]) =>
      messages.map((message) => ({ code: 'validation_error', message, ...(field ? { field } : {}) })),
    );
    return { status: 400, errors: errors.length > 0 ? errors : [{ code: 'validation_error', message: error.message }] };
  }
  const code =
    error instanceof NotFoundError
      ? 'not_found'
      : error instanceof UnauthorizedError
        ? 'unauthorized'
        : error instanceof ForbiddenError
          ? 'forbidden'
          : error instanceof RateLimitedError
            ? 'rate_limited'
            : error.statusCode >= 500
              ? 'internal_error'
              : 'bad_request';
  return { status: error.statusCode, errors: [{ code, message: error.message }] };
}

const Meta = Type.Object(
  {
    request_id: Type.String(),
    api_version: Type.Literal(API_VERSION),
    source: Type.Optional(Type.String()),
    as_of: Type.Optional(Type.String({ format: 'date-time' })),
    timestamp: Type.Optional(Type.String({ format: 'date-time' })),
    page: Type.Optional(Type.Integer()),
    page_size: Type.Optional(Type.Integer()),
    total_count: Type.Optional(Type.Integer()),
    total_pages: Type.Optional(Type.Integer()),
    has_next: Type.Optional(Type.Boolean()),
    has_prev: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const ErrorItem = Type.Object({
  code: Type.String({ description: 'Stable: see docs/partner-api.md.' }),
  message: Type.String(),
  field: Type.Optional(Type.String()),
});

/** A success envelope around `data`. */
export function Envelope<T extends TSchema>(data: T, example: unknown, meta: Record<string, unknown> = {}) {
  return Type.Object(
    { data, meta: Meta, errors: Type.Array(ErrorItem, { maxItems: 0 }) },
    {
      examples: [
        {
          data: example,
          meta: { request_id: '7d1f0c2e-8b4a-4f0e-9b1d-2c3e4f5a6b7c', api_version: API_VERSION, ...meta },
          errors: [],
        },
      ],
    },
  );
}

/** The error envelope (`data` null), documented for every error status of every partner route. */
export const ErrorEnvelope = Type.Object(
  { data: Type.Null(), meta: Meta, errors: Type.Array(ErrorItem, { minItems: 1 }) },
  {
    examples: [
      {
        data: null,
        meta: { request_id: '7d1f0c2e-8b4a-4f0e-9b1d-2c3e4f5a6b7c', api_version: API_VERSION },
        errors: [{ code: 'unauthorized', message: 'A bearer identity token is required.' }],
      },
    ],
  },
);

export const errorEnvelopes = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorEnvelope]));

export function meta(requestId: string, extra: Record<string, unknown> = {}) {
  return { request_id: requestId, api_version: API_VERSION as typeof API_VERSION, ...extra };
}
