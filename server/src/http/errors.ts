/** Errors are classes: one middleware renders them into the `{success:false, error}` envelope. */
export class AppError extends Error {
  constructor(
    message: string,
    readonly status = 500,
    /** When false the message is logged, and the client sees a generic sentence. */
    readonly expose = status < 500,
    readonly headers: Record<string, string> = {},
    /** `cause` keeps the underlying failure for the log. */
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class Invalid extends AppError {
  constructor(
    message: string,
    readonly details?: string[],
  ) {
    super(message, 400);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'Authentication required', options?: ErrorOptions) {
    super(message, 401, true, {}, options);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'You do not have permission to do that') {
    super(message, 403);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(message, 404);
  }
}
export class MethodNotAllowed extends AppError {
  constructor(message: string) {
    super(message, 405);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(message, 409);
  }
}
/** Well-formed, but the data it needs is not there yet (a backtest without enough history). */
export class Unprocessable extends AppError {
  constructor(message: string) {
    super(message, 422);
  }
}
export class PayloadTooLarge extends AppError {
  constructor(message = 'The request body is too large') {
    super(message, 413);
  }
}
/** The client hung up before its request arrived whole: nobody is left to answer. */
export class RequestAborted extends AppError {
  constructor(options?: ErrorOptions) {
    super('The request was cut off before its body arrived', 400, true, {}, options);
  }
}
export class UnsupportedMediaType extends AppError {
  constructor(message = 'The request body must be JSON (Content-Type: application/json)') {
    super(message, 415);
  }
}
export class TooManyRequests extends AppError {
  constructor(retryAfterSeconds: number, message = 'Too many requests. Please wait a moment and try again.') {
    super(message, 429, true, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
export class ServiceUnavailable extends AppError {
  constructor(
    message = 'The service is temporarily unavailable. Please try again shortly.',
    options?: ErrorOptions,
  ) {
    super(message, 503, true, { 'Retry-After': '5' }, options);
  }
}
