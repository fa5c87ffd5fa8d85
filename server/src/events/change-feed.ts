/**
 * The change feed: the one way a committed change reaches every instance. A service publishes
 * typed changes after commit (changes.ts); they are handed to this instance's consumers at once
 * (consumers.ts), and, with Redis, sent to the other instances as ONE message on CHANGES_CHANNEL
 * however many changes it carries. (The Socket.IO adapter only carries emits to rooms, and the
 * consumers do not use it: each instance pushes to its own sockets.)
 *
 * Each message is numbered: one Lua script increments CHANGES_SEQ_KEY and publishes under that
 * number, so messages arrive in number order. An instance knows the last number it handled;
 * a gap (Redis dropped its subscriber, or it reconnected) means changes were lost, and the
 * consumers resync (reload, drop caches, tell tabs to refetch). The number also answers "has
 * every change committed before now reached me?" (`caughtUp`): one GET against the number
 * handled here. The session check asks it before trusting a cached session, so a logout on one
 * instance is refused on every other one as soon as its answer has left.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { redisWhenReady } from '../util/redis-ready.ts';
import { parseChanges, type Change, type ChangeOrigin } from './changes.ts';

export const CHANGES_CHANNEL = 'changes';
export const CHANGES_SEQ_KEY = 'changes:seq';
/** How long `caughtUp` waits for messages already published to arrive before saying no. */
export const CATCH_UP_WAIT_MS = 250;

/** INCR and PUBLISH in one step: numbers are published in order. */
const PUBLISH_SCRIPT = `local n = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], n .. ':' .. ARGV[2])
return n`;

export type ChangeHandler = (changes: readonly Change[], origin: ChangeOrigin) => void;

export interface ChangeFeed {
  /**
   * Publishes changes that have committed: this instance's consumers handle them before this
   * returns; the other instances get them in one message. Resolves once Redis has taken the
   * message (a failure is logged, never thrown); the caller need not wait.
   */
  publish(changes: Change | readonly Change[]): Promise<void>;
  /** Calls `handler` with every change, local or remote. Returns the unsubscribe. */
  subscribe(handler: ChangeHandler): () => void;
  /** Calls `listener` when changes may have been lost (a gap, a reconnect). */
  onResync(listener: () => void): () => void;
  /**
   * True when every change published on any instance before this call has been handled here;
   * false when that cannot be told within CATCH_UP_WAIT_MS (Redis unreachable, a backlog).
   * Always true without Redis (no other instance to hear from).
   */
  caughtUp(): Promise<boolean>;
  /** Subscribes (with Redis) and learns the current number; before the first full load. */
  start(): Promise<void>;
  stop(): void;
}

interface Message {
  /** The publishing instance (it skips its own messages). */
  o: string;
  c: Change[];
}

export interface ChangeFeedOptions {
  redis?: Redis;
  /**
   * Where `caughtUp` asks for the current number, which a request waits on: a connection whose
   * commands give up within a bound (util/redis-ready.ts). Default `redis`.
   */
  requestRedis?: Redis;
  log?: Logger;
}

export function createChangeFeed({
  redis,
  requestRedis = redis,
  log = pino({ level: 'silent' }),
}: ChangeFeedOptions = {}): ChangeFeed {
  const origin = randomUUID();
  const handlers = new Set<ChangeHandler>();
  const resyncListeners = new Set<() => void>();
  let subscriber: Redis | undefined;
  /** The number of the last message handled here; undefined while that is not known. */
  let handled: number | undefined;
  let waiters: Array<{ upTo: number; resolve: (ok: boolean) => void }> = [];
  let stopped = false;

  const deliver = (changes: readonly Change[], from: ChangeOrigin) => {
    for (const handler of handlers) {
      try {
        handler(changes, from);
      } catch (err) {
        log.error({ err, changes: changes.length }, 'a change consumer failed');
      }
    }
  };
  const resync = () => {
    log.warn('changes may have been lost: resyncing');
    for (const listener of resyncListeners) {
      try {
        listener();
      } catch (err) {
        log.error({ err }, 'a resync failed');
      }
    }
  };
  const setHandled = (n: number | undefined) => {
    handled = n;
    if (n === undefined) return;
    const ready = waiters.filter((w) => w.upTo <= n);
    if (ready.length === 0) return;
    waiters = waiters.filter((w) => w.upTo > n);
    for (const w of ready) w.resolve(true);
  };

  // A message is `<number>:{"o":"<origin>","c":[…]}`: this instance's own are known by their
  // opening bytes, and neither decoded nor parsed (on a crash day, a 2,000-alert chunk is ~1.2 MB).
  const ownOpening = Buffer.from(JSON.stringify({ o: origin }).slice(0, -1));
  const onMessage = (_channel: Buffer, raw: Buffer) => {
    const colon = raw.indexOf(0x3a);
    const n = Number(raw.toString('latin1', 0, colon));
    if (colon < 1 || !Number.isSafeInteger(n)) return void log.warn('malformed change message dropped');
    // Covered already: published before the number this instance started (or resynced) from.
    if (handled !== undefined && n <= handled) return;
    const gap = handled !== undefined && n !== handled + 1;
    const own = raw.compare(ownOpening, 0, ownOpening.length, colon + 1, colon + 1 + ownOpening.length) === 0;
    let message: Message | undefined;
    if (!own) {
      try {
        message = JSON.parse(raw.toString('utf8', colon + 1)) as Message;
      } catch (err) {
        if (!(err instanceof SyntaxError)) throw err;
        log.warn('malformed change message dropped');
      }
    }
    if (gap) resync();
    if (message && message.o !== origin) deliver(parseChanges(message.c), 'remote');
    setHandled(n);
  };

  /** The number Redis is at now (0 before any message); undefined when it cannot say now. */
  const currentNumber = async (connection = redis): Promise<number | undefined> => {
    const ready = redisWhenReady(connection);
    if (!ready) return undefined;
    try {
      return Number((await ready.get(CHANGES_SEQ_KEY)) ?? 0);
    } catch (err) {
      log.warn({ err }, 'change feed number unavailable');
      return undefined;
    }
  };

  return {
    async publish(changes) {
      const list: Change[] = Array.isArray(changes) ? [...changes] : [changes as Change];
      if (list.length === 0) return;
      deliver(list, 'local');
      if (!redis) return;
      const message: Message = { o: origin, c: list };
      try {
        await redis.eval(PUBLISH_SCRIPT, 1, CHANGES_SEQ_KEY, CHANGES_CHANNEL, JSON.stringify(message));
      } catch (err) {
        log.warn({ err, changes: list.length }, 'could not publish changes to the other instances');
      }
    },

    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },

    onResync(listener) {
      resyncListeners.add(listener);
      return () => resyncListeners.delete(listener);
    },

    async caughtUp() {
      if (!redis) return true;
      if (subscriber?.status !== 'ready' || handled === undefined) return false;
      const now = await currentNumber(requestRedis);
      if (now === undefined) return false;
      if (handled !== undefined && now <= handled) return true;
      return new Promise<boolean>((resolve) => {
        const waiter = { upTo: now, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          resolve(false);
        }, CATCH_UP_WAIT_MS).unref();
      });
    },

    async start() {
      if (!redis || subscriber) return;
      const sub = redis.duplicate({ maxRetriesPerRequest: null });
      subscriber = sub;
      let connectedOnce = false;
      sub.on('error', (err: Error) => log.warn({ err: err.message }, 'change feed redis error'));
      // Unknown from the moment the connection drops: nothing is trusted until it is back.
      sub.on('close', () => setHandled(undefined));
      sub.on('messageBuffer', onMessage);
      // (Re)connected: learn where Redis is, then resync if messages may have been missed.
      sub.on('ready', () => {
        if (!connectedOnce) return void (connectedOnce = true);
        void currentNumber().then((n) => {
          if (stopped) return;
          setHandled(n);
          resync();
        });
      });
      await sub.subscribe(CHANGES_CHANNEL);
      connectedOnce = true;
      setHandled(await currentNumber());
    },

    stop() {
      stopped = true;
      for (const w of waiters) w.resolve(false);
      waiters = [];
      subscriber?.disconnect();
      handlers.clear();
      resyncListeners.clear();
    },
  };
}
