import { STATUS_CODES } from 'node:http';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { AppError, ServiceUnavailable } from './errors.ts';

/** Puts a successful payload into the `{success:true, data}` envelope. */
export function ok(ctx: Context, data: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = { success: true, data };
}

/** Sends an envelope already encoded as JSON (a cached answer, see holdings/list.ts). */
export function okEncoded(ctx: Context, body: Buffer): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = body;
}

const DB_UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', '57P01', '57P03']);

/** Connection failures to Postgres become 503 instead of a generic 500. */
function isDatabaseUnreachable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DB_UNREACHABLE.has(code)) return true;
    if (e instanceof Error && e.message === 'Connection terminated due to connection timeout') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The one error middleware: renders AppErrors, maps framework errors, logs unknown ones once. */
/**
 * @param databaseReachable asked after an unexpected error: when the database cannot be reached
 *   the answer is 503 (a dropped connection carries no error code to recognise it by).
 */
export function errorEnvelope(log: Logger, databaseReachable: () => Promise<boolean> = async () => true) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      // A status without a body (no route, or the router's 405/501) would go out as plain text.
      const status = ctx.status;
      if (status >= 400 && ctx.body == null && ctx.path.startsWith('/api')) {
        ctx.status = status;
        ctx.body = {
          success: false,
          error: status === 404 ? 'Not found' : (STATUS_CODES[status] ?? 'Error'),
        };
      }
    } catch (raw) {
      let err = raw;
      if (!(err instanceof AppError) && (isDatabaseUnreachable(err) || !(await databaseReachable()))) {
        err = new ServiceUnavailable();
      }
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.set(err.headers);
        const details = (err as { details?: string[] }).details;
        ctx.body = {
          success: false,
          error: err.expose ? err.message : 'Something went wrong',
          ...(details ? { details } : {}),
        };
        if (!err.expose || err.status >= 500) log.error({ err, reqId: ctx.state.reqId }, err.message);
        return;
      }
      const status =
        (err as { status?: number; statusCode?: number }).status ??
        (err as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        ctx.status = status;
        ctx.body = { success: false, error: httpClientMessage(status, err) };
        return;
      }
      log.error({ err, reqId: ctx.state.reqId }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { success: false, error: 'Something went wrong. Please try again.' };
    }
  };
}

function httpClientMessage(status: number, err: unknown): string {
  if (status === 413) return 'The request body is too large';
  if (status === 415) return 'The request body must be JSON in UTF-8';
  if (status === 400) return 'The request is not valid';
  return (err as Error).message || 'Bad request';
}
