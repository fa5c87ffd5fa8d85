/**
 * Reconnect delays of a stream's connections: exponential back-off with full jitter (a random
 * delay between 0 and min(cap, base × 2^attempt)), so connections dropped together do not all
 * come back in the same instant. Reset once a connection has been live.
 */

/** Back-off tuning (defaults: 1 s doubling to 30 s). */
export interface ReconnectBackoffOptions {
  baseMs?: number;
  capMs?: number;
  /** Injected for tests: uniform in [0, 1). */
  random?: () => number;
}

/** The delays of one connection's reconnect attempts. */
export interface ReconnectBackoff {
  /** The delay before the next attempt (ms); each call counts one more failure. */
  next(): number;
  /** The connection is live again: the next failure waits from the base once more. */
  reset(): void;
  /** Failures counted since the last reset. */
  readonly attempts: number;
}

/** Creates the back-off of one connection. */
export function createReconnectBackoff(options: ReconnectBackoffOptions = {}): ReconnectBackoff {
  const baseMs = options.baseMs ?? 1000;
  const capMs = Math.max(baseMs, options.capMs ?? 30_000);
  const random = options.random ?? Math.random;
  let attempts = 0;
  return {
    next() {
      const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempts, 30));
      attempts++;
      return Math.floor(random() * ceiling);
    },
    reset() {
      attempts = 0;
    },
    get attempts() {
      return attempts;
    },
  };
}
