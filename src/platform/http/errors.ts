/**
 * The closed vocabulary of failures a service may raise. One handler (error-handler.ts) renders each as the
 * API's error body (docs/api-conventions.md, Errors); services never build HTTP responses themselves.
 */
export type FieldErrors = Record<string, string[]>;

export abstract class AppError extends Error {
  abstract readonly statusCode: number;
  abstract readonly errorCode: string;
  abstract readonly exceptionType: string;
  abstract readonly title: string;
  /** The error body's `cause` (named so because Error already has a `cause`). */
  abstract readonly reason: string;
  abstract readonly resolution: string;
  readonly errors: FieldErrors | undefined;
  readonly entityId: string | null;
  readonly headers: Record<string, string> = {};

  constructor(details: string, options: { errors?: FieldErrors; entityId?: string | null } = {}) {
    super(details);
    this.name = new.target.name;
    this.errors = options.errors;
    this.entityId = options.entityId ?? null;
  }
}

export class ValidationError extends AppError {
  readonly statusCode = 400;
  readonly errorCode: string;
  readonly exceptionType = 'ValidationException';
  readonly title = 'Validation failed';
  readonly reason = 'One or more fields failed validation rules.';
  readonly resolution = 'Review the errors and correct the invalid fields.';

  constructor(errors: FieldErrors, details = 'One or more validation errors occurred.', errorCode = 'V0000') {
    super(details, { errors });
    this.errorCode = errorCode;
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** A request the server cannot read at all: malformed JSON, wrong content type, a body that is too large. */
export class MalformedRequestError extends AppError {
  readonly errorCode = 'V0000';
  readonly exceptionType = 'BadRequestException';
  readonly title = 'Malformed request';
  readonly reason = 'The request could not be read.';
  readonly resolution = 'Send a well-formed request body with the documented content type.';

  constructor(
    details: string,
    readonly statusCode: 400 | 408 | 413 | 415 | 431 = 400,
  ) {
    super(details, { errors: { '': [details] } });
  }
}

export class UnauthorizedError extends AppError {
  readonly statusCode = 401;
  readonly errorCode = 'V0000';
  readonly exceptionType = 'UnauthorizedException';
  readonly title = 'Unauthorized';
  readonly reason = 'The access token is missing, malformed, expired or revoked.';
  readonly resolution =
    'Request a new access token from the token endpoint and send it as "Authorization: Bearer <token>".';

  constructor(details = 'The bearer token is missing, invalid or expired.') {
    super(details, { errors: { BearerTokenError: [details] } });
    this.headers['www-authenticate'] = 'Bearer';
  }
}

export class ForbiddenError extends AppError {
  readonly statusCode = 403;
  readonly errorCode = 'F0000';
  readonly exceptionType = 'ForbiddenException';
  readonly title = 'Access forbidden';
  readonly reason = 'The credentials are valid but not allowed to perform this operation.';
  readonly resolution = 'Use a token of the kind this endpoint requires, or ask the account owner for access.';

  constructor(details = 'Access forbidden') {
    super(details);
  }
}

export class NotFoundError extends AppError {
  readonly statusCode = 404;
  readonly errorCode = 'N0000';
  readonly exceptionType = 'NotFoundException';
  readonly title = 'Not found';
  readonly reason = 'The requested entity does not exist or is not visible to this account.';
  readonly resolution = 'Check the identifier.';

  constructor(entity: string, id: string | null) {
    super(id === null ? `${entity} does not exist.` : `Entity with ID ${id} does not exist or has been deleted.`, {
      entityId: id,
    });
  }
}

export class ConflictError extends AppError {
  readonly statusCode = 409;
  readonly exceptionType = 'ConflictException';
  readonly title = 'Conflict';
  readonly reason = 'The request conflicts with the current state of the resource.';
  readonly resolution: string = 'Retrieve the resource, then retry if the operation still applies.';

  constructor(
    details: string,
    readonly errorCode = 'C0000',
    entityId: string | null = null,
  ) {
    super(details, { entityId });
  }
}

export class IdempotencyKeyInProgressError extends ConflictError {
  override readonly resolution = 'Wait for the original request to finish, then retry with the same key.';
  constructor() {
    super('A request with this idempotency key is still being processed.', 'IdempotencyKeyInProgress');
  }
}

export class IdempotencyKeyConflictError extends AppError {
  readonly statusCode = 422;
  readonly errorCode = 'IdempotencyKeyConflict';
  readonly exceptionType = 'IdempotencyException';
  readonly title = 'Idempotency key reused';
  readonly reason = 'This idempotency key was already used with a different request.';
  readonly resolution = 'Use a new idempotency key for a different request.';

  constructor() {
    super('The idempotency key was already used with a different request body or endpoint.');
  }
}

export class RateLimitedError extends AppError {
  readonly statusCode = 429;
  readonly errorCode = 'R0000';
  readonly exceptionType = 'RateLimitExceededException';
  readonly title = 'Too many requests';
  readonly reason = 'The request rate limit for these credentials was exceeded.';
  readonly resolution = 'Wait for the number of seconds in the Retry-After header, then retry.';

  constructor(
    readonly retryAfterSeconds: number,
    details = `Rate limit exceeded. Retry after ${retryAfterSeconds} seconds.`,
  ) {
    super(details);
    this.headers['retry-after'] = String(retryAfterSeconds);
  }
}

export class InternalError extends AppError {
  readonly statusCode = 500;
  readonly errorCode = 'I0000';
  readonly exceptionType = 'IntegrationException';
  readonly title = 'Internal server error';
  readonly reason = 'An unexpected error occurred while processing the request.';
  readonly resolution = 'Retry later; if the problem persists, contact support with the correlation id.';

  constructor(details = 'Internal server error') {
    super(details);
  }
}

export class ServiceUnavailableError extends AppError {
  readonly statusCode = 503;
  readonly errorCode = 'I0000';
  readonly exceptionType = 'ServiceUnavailableException';
  readonly title = 'Service unavailable';
  readonly reason = 'The service is shutting down or a dependency is unavailable.';
  readonly resolution = 'Retry later.';
}
