/**
 * Reconnect delays of every stream's connections: exponential back-off with jitter (between half
 * and all of min(cap, base × 2^attempt)), so connections dropped together do not all come back in
 * the same instant. A connection counts its attempts and starts again from 0 once live.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}
