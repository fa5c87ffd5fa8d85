/**
 * The Redis connections handed to Socket.IO's Redis adapter. The adapter sends its commands
 * (a publish for a broadcast, its subscriptions, the unsubscribes when the server closes)
 * without handling a failure: during a Redis outage each would become an unhandled rejection,
 * which ends the process. The adapter is given a wrapper instead of the connection itself: every
 * command it sends gets a handler that logs a failure, whatever the command, so an adapter update
 * that sends a new one is covered too. What the adapter gets back is unchanged (a command it
 * awaits still rejects for it). Local sockets still get a push; other instances' tabs miss it and
 * refetch when they reconnect.
 */
import type { Redis } from 'ioredis';
import type { AppDeps } from '../deps.ts';

/**
 * Wraps `client` for the adapter: methods run on the connection itself, and a promise they
 * return gets a handler that logs a rejection once (`role` names the connection: pub or sub).
 */
export function adapterClient(
  deps: Pick<AppDeps, 'log'>,
  { client, role }: { client: Redis; role: 'pub' | 'sub' },
): Redis {
  return new Proxy(client, {
    get(target, property, wrapper) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (result instanceof Promise)
          result.catch((err: unknown) =>
            deps.log.warn(
              { err: err instanceof Error ? err.message : String(err), role, command: String(property) },
              'socket adapter command failed; Redis unreachable',
            ),
          );
        // Chaining (`on` returns the connection) stays on the wrapper.
        return result === target ? wrapper : result;
      };
    },
  });
}
