/**
 * What every stream does with a new watch set, written once: which instrument keys to subscribe
 * and unsubscribe (by difference, in messages of at most the broker's per-message maximum), and
 * how instruments spread over the broker's connections (each up to its per-connection limit,
 * beyond the last one unsupported, polled from the fallback source).
 */

/** The subscribe and unsubscribe messages a change of watch set needs, each a list of keys. */
export interface SubscriptionDiff<K> {
  subscribe: K[][];
  unsubscribe: K[][];
}

function chunks<K>(keys: readonly K[], size: number): K[][] {
  const step = Math.max(1, Math.floor(size));
  const out: K[][] = [];
  for (let i = 0; i < keys.length; i += step) out.push(keys.slice(i, i + step));
  return out;
}

/**
 * The keys in `next` and not in `previous` (to subscribe) and the reverse (to unsubscribe), in
 * messages of at most `perMessage` keys, in the order the sets list them.
 */
export function diffSubscriptions<K>(
  previous: Iterable<K>,
  next: Iterable<K>,
  perMessage: number,
): SubscriptionDiff<K> {
  const before = new Set(previous);
  const after = new Set(next);
  return {
    subscribe: chunks(
      [...after].filter((k) => !before.has(k)),
      perMessage,
    ),
    unsubscribe: chunks(
      [...before].filter((k) => !after.has(k)),
      perMessage,
    ),
  };
}

/** A broker's connection limits (`QuoteStream.limits`). */
export interface ConnectionLimits {
  readonly perConnection: number;
  readonly connections: number;
}

/** Instruments spread over connections, and those beyond every connection's limit. */
export interface ConnectionPlan<T> {
  /** One list per connection needed (none for an empty set), each at most `perConnection`. */
  connections: T[][];
  /** What no connection can carry: the caller reports them unsupported. */
  overflow: T[];
}

/**
 * Spreads `items` over at most `limits.connections` connections of `limits.perConnection` each.
 * An item keeps the connection it was on when `current` (the previous plan's assignment, by
 * `keyOf`) still has room, so a growing watch set does not move subscriptions around; new items
 * fill the first connection with room.
 */
export function planConnections<T, K = string>(
  items: readonly T[],
  limits: ConnectionLimits,
  keyOf: (item: T) => K,
  current: ReadonlyMap<K, number> = new Map(),
): ConnectionPlan<T> {
  const slots = Math.max(0, Math.floor(limits.connections));
  const per = Math.max(0, Math.floor(limits.perConnection));
  const connections: T[][] = Array.from({ length: slots }, () => []);
  const unplaced: T[] = [];
  for (const item of items) {
    const was = current.get(keyOf(item));
    const target = was === undefined ? undefined : connections[was];
    if (target && target.length < per) target.push(item);
    else unplaced.push(item);
  }
  const overflow: T[] = [];
  for (const item of unplaced) {
    const target = connections.find((c) => c.length < per);
    if (target) target.push(item);
    else overflow.push(item);
  }
  while (connections.length > 0 && connections[connections.length - 1]!.length === 0) connections.pop();
  return { connections, overflow };
}

/** Where each key is now: key → the index of the connection holding it (`planConnections`' `current`). */
export function placedOn<K>(connections: ReadonlyArray<Iterable<K> | undefined>): Map<K, number> {
  const map = new Map<K, number>();
  connections.forEach((keys, index) => {
    for (const key of keys ?? []) map.set(key, index);
  });
  return map;
}
