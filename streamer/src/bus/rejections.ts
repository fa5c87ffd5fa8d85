/**
 * What a process does with a promise rejection nobody handled. ioredis sends some commands of
 * its own without a handler: the SUBSCRIBE and SELECT it re-sends when a connection comes back
 * after a reconnect (redis/ioredis#2187, merged after 6.0.0, in no release yet). When such a
 * command is still waiting as its connection closes, ioredis rejects it with "Connection is
 * closed." (or MaxRetriesPerRequestError), nobody handles that, and Node would end the process:
 * one of our test workers died so, the stack wholly inside ioredis. Those are logged and the
 * process runs on (the connection reconnects and subscribes again, or it was being closed). Any
 * other unhandled rejection is a bug of ours: logged as fatal, and the process exits 1 as Node
 * would.
 */
import type { Logger } from 'pino';

/** ioredis's rejection of a command still queued when its connection closed. */
const CONNECTION_CLOSED = 'Connection is closed.';

/** True for ioredis's own connection-closed rejection (and its give-up after retries). */
export function isRedisConnectionRejection(reason: unknown): boolean {
  return (
    reason instanceof Error &&
    (reason.message === CONNECTION_CLOSED || reason.name === 'MaxRetriesPerRequestError')
  );
}

/**
 * Installs the process's unhandled-rejection policy (server and streamer `main`): Redis
 * connection rejections are logged once per second at most; anything else exits 1.
 */
export function guardUnhandledRejections(log: Logger): void {
  let lastLogged = 0;
  process.on('unhandledRejection', (reason) => {
    if (!isRedisConnectionRejection(reason)) {
      log.fatal({ err: reason }, 'unhandled promise rejection; exiting');
      process.exit(1);
    }
    if (Date.now() - lastLogged < 1000) return;
    lastLogged = Date.now();
    log.warn(
      { err: (reason as Error).message },
      'a Redis command nobody handled failed as its connection closed; running on',
    );
  });
}
