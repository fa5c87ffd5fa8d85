/**
 * A client that hangs up mid-request (a closed tab, a dropped connection, a load generator at its
 * end) is no fault of the server: the request log writes that request's one line at debug level
 * (`requestLog`), and nothing else is logged for it: no error line, no stack.
 */
import type { Context } from 'koa';
import type { Logger } from 'pino';

/** The connection closed before the answer was sent. */
export function clientAborted(ctx: Context): boolean {
  return !ctx.res.writableFinished && ctx.req.socket.destroyed;
}

/**
 * Koa's `error` event (errors outside the error envelope: a failed stream, the connection's own
 * errors): logged once when they are the server's, never for a client that aborted.
 */
export function logAppError(log: Logger) {
  return (err: unknown, ctx?: Context) => {
    if (ctx && clientAborted(ctx)) return;
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status < 500) return;
    log.error({ err, path: ctx?.path }, 'koa error');
  };
}
