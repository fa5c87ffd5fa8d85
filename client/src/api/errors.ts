/** Errors the API client throws, with the texts users see when the server gives none. */

/** A failed API call. `status` is the HTTP status, or 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  /** Per-item problems some endpoints add (for example one line per bad CSV row). */
  readonly details: readonly string[];
  /** True when `message` is the server's own `error` text rather than a client fallback. */
  readonly fromServer: boolean;

  constructor(
    status: number,
    message: string,
    options: { details?: readonly string[]; fromServer?: boolean } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = options.details ?? [];
    this.fromServer = options.fromServer ?? false;
  }
}

/**
 * Message when the network failed before any answer arrived (docs/pages.md; a holdings load says it as is).
 */
export const NETWORK_ERROR_MESSAGE = 'Network error: Unable to connect to server';

/** Message when the 10-second timeout ran out. */
export const TIMEOUT_MESSAGE = 'The server took too long to respond. Please try again.';

/** A sentence for a failed status when the response carried no `error` text. */
export function fallbackMessage(status: number): string {
  if (status === 0) return NETWORK_ERROR_MESSAGE;
  if (status === 400) return 'The request was not valid. Please check your input.';
  if (status === 401) return 'Your session has expired. Please sign in again.';
  if (status === 403) return 'You do not have permission to do that.';
  if (status === 404) return 'We could not find what you were looking for.';
  if (status === 409) return 'That conflicts with something that already exists.';
  if (status === 413) return 'That upload is too large.';
  if (status === 429) return 'Too many requests. Please wait a moment and try again.';
  if (status >= 500) return 'Something went wrong on our side. Please try again shortly.';
  return `Request failed (status ${status}).`;
}

/** The user-facing message of anything caught from an API call. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.message;
  return fallback;
}

/** True when the caller cancelled the request itself (component unmounted, newer search). */
export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}
