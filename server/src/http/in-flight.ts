/**
 * Counts the requests a handler is still working on. The HTTP server's close callback fires
 * once its connections are gone, and a client that hangs up (a load generator at its end, a
 * closed tab) leaves its handler running: shutdown waits for `idle()` before closing what
 * handlers use (the database).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<unknown> | void;

export interface InFlightRequests {
  /** The handler to give the HTTP server. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves true when no request is being handled, false after `timeoutMs` (10 s) if some still are. */
  idle(timeoutMs?: number): Promise<boolean>;
}

export function trackInFlight(handler: Handler): InFlightRequests {
  let running = 0;
  let waiters: Array<() => void> = [];
  const finished = () => {
    running -= 1;
    if (running > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };
  return {
    handle(req, res) {
      running += 1;
      try {
        Promise.resolve(handler(req, res)).then(finished, finished);
      } catch (err) {
        finished();
        throw err;
      }
    },
    idle(timeoutMs = 10_000) {
      if (running === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        timer.unref();
        waiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
