import Type from 'typebox';

const EXAMPLES: Record<
  number,
  { errorCode: string; exceptionType: string; title: string; details: string; errors: Record<string, string[]> }
> = {
  400: {
    errorCode: 'V0000',
    exceptionType: 'ValidationException',
    title: 'Validation failed',
    details: 'One or more validation errors occurred.',
    errors: { amount: ["'amount' must have at most 2 decimal places."] },
  },
  401: {
    errorCode: 'V0000',
    exceptionType: 'UnauthorizedException',
    title: 'Unauthorized',
    details: 'The bearer token is missing, invalid or expired.',
    errors: { BearerTokenError: ['The bearer token is missing, invalid or expired.'] },
  },
  403: {
    errorCode: 'F0000',
    exceptionType: 'ForbiddenException',
    title: 'Access forbidden',
    details: 'Access forbidden',
    errors: {},
  },
  404: {
    errorCode: 'N0000',
    exceptionType: 'NotFoundException',
    title: 'Not found',
    details: 'Entity with ID 01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50 does not exist or has been deleted.',
    errors: {},
  },
  409: {
    errorCode: 'IdempotencyKeyInProgress',
    exceptionType: 'ConflictException',
    title: 'Conflict',
    details: 'A request with this idempotency key is still being processed.',
    errors: {},
  },
  413: {
    errorCode: 'V0000',
    exceptionType: 'BadRequestException',
    title: 'Malformed request',
    details: 'The request body is larger than the 1 MiB limit.',
    errors: { '': ['The request body is larger than the 1 MiB limit.'] },
  },
  422: {
    errorCode: 'IdempotencyKeyConflict',
    exceptionType: 'IdempotencyException',
    title: 'Idempotency key reused',
    details: 'The idempotency key was already used with a different request body or endpoint.',
    errors: {},
  },
  429: {
    errorCode: 'R0000',
    exceptionType: 'RateLimitExceededException',
    title: 'Too many requests',
    details: 'Rate limit exceeded. Retry after 12 seconds.',
    errors: {},
  },
  500: {
    errorCode: 'I0000',
    exceptionType: 'IntegrationException',
    title: 'Internal server error',
    details: 'Internal server error',
    errors: {},
  },
};

function errorSchema(status: number) {
  const e = EXAMPLES[status]!;
  return Type.Object(
    {
      errors: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Field name → messages.' }),
      details: Type.String(),
      statusCode: Type.Integer(),
      source: Type.String(),
      exceptionType: Type.String(),
      correlationId: Type.String(),
      entityId: Type.Union([Type.String(), Type.Null()]),
      errorCode: Type.String({
        description:
          'V0000 validation, N0000 not found, F0000 forbidden, C0000 conflict, R0000 rate limited, I0000 internal.',
      }),
      title: Type.String(),
      cause: Type.String(),
      resolution: Type.String(),
      documentationUrl: Type.String(),
    },
    {
      description: e.title,
      examples: [
        {
          errors: e.errors,
          details: e.details,
          statusCode: status,
          source: 'Tessera',
          exceptionType: e.exceptionType,
          correlationId: '6f0c7c1e-4b1a-4f5e-9d8e-2a9b7c3d1e0f',
          entityId: status === 404 ? '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50' : null,
          errorCode: e.errorCode,
          title: e.title,
          cause: 'See details.',
          resolution: 'See the documentation.',
          documentationUrl: 'http://127.0.0.1:8080/docs',
        },
      ],
    },
  );
}

/** Error responses for the OpenAPI document; every route lists the ones it can produce. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorSchema(status)]));
}

/** What any authenticated route can answer besides its success. */
export const AUTHENTICATED_ERRORS = [400, 401, 403, 429, 500];
