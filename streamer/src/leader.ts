/**
 * The streamer leader lock: one streamer polls, the others stand by. Acquire with
 * `SET key token NX PX ttl`; the holder renews every ttl/3 with a compare-and-expire script and
 * releases with compare-and-delete. A standby retries every ttl/3, so when the leader dies (stops
 * renewing) another takes over within ttl + ttl/3. The holder counts itself leader only until
 * the last renewal's send time + 90% of ttl, so it stops before anyone else can acquire.
 * After a Redis restart the key is gone and whoever asks first holds it again.
 */
import { randomUUID } from 'node:crypto';
import { MARKET_KEYS } from '@app/common/market/tick-batch';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/** Leader lock set-up. */
export interface LeaderLockOptions {
  /** A connection of its own (its failures must not wait behind other traffic). */
  redis: Redis;
  ttlMs: number;
  log: Logger;
  key?: string;
  /** Identifies this holder (default: a random UUID). */
  token?: string;
  /** What the lock is for, in log lines (default 'streamer leader lock'). */
  name?: string;
  now?: () => number;
}

/** A held-or-not leader lock, renewed in the background. */
export interface LeaderLock {
  readonly token: string;
  /** Starts acquiring/renewing in the background. */
  start(): void;
  /** Resolves once the first attempt after start() has settled (held or not). */
  ready(): Promise<void>;
  /** True while this process holds a lock it has recently renewed. */
  isLeader(): boolean;
  /** Calls `listener` whenever leadership is gained or lost; returns the unsubscribe function. */
  onChange(listener: (leader: boolean) => void): () => void;
  /** Stops renewing and releases the lock if held. */
  stop(): Promise<void>;
}

/** Creates a leader lock on `options.redis`; see the module comment. */
export function createLeaderLock(options: LeaderLockOptions): LeaderLock {
  const { redis, ttlMs, log } = options;
  const key = options.key ?? MARKET_KEYS.leaderLock;
  const token = options.token ?? randomUUID();
  const now = options.now ?? Date.now;
  const name = options.name ?? 'streamer leader lock';
  let first: Promise<void> | undefined;
  const listeners = new Set<(leader: boolean) => void>();
  let held = false;
  let validUntil = 0;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let redisFailing = false;

  function setHeld(next: boolean, reason: string): void {
    if (held === next) return;
    held = next;
    log[next ? 'info' : 'warn']({ token, reason }, `${name} ${next ? 'acquired' : 'lost'}`);
    for (const listener of [...listeners]) {
      try {
        listener(next);
      } catch (err) {
        log.error({ err }, `${name}: change listener failed`);
      }
    }
  }

  async function renew(sentAt: number): Promise<boolean> {
    const renewed = (await redis.eval(RENEW, 1, key, token, ttlMs)) === 1;
    if (renewed) validUntil = sentAt + ttlMs * 0.9;
    return renewed;
  }

  async function acquire(sentAt: number): Promise<boolean> {
    const set = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (set === 'OK') {
      validUntil = sentAt + ttlMs * 0.9;
      return true;
    }
    // An earlier SET of ours may have landed after its answer was lost: the lock is then ours.
    return renew(sentAt);
  }

  async function tick(): Promise<void> {
    if (redis.status === 'ready') {
      const sentAt = now();
      try {
        if (held && !(await renew(sentAt))) setHeld(false, 'another holder or expired');
        if (!held && running && (await acquire(sentAt))) setHeld(true, 'acquired');
        if (redisFailing) log.info(`${name}: redis reachable again`);
        redisFailing = false;
      } catch (err) {
        if (!redisFailing) log.warn({ err }, `${name}: redis call failed; will retry`);
        redisFailing = true;
      }
    }
    if (held && now() >= validUntil) setHeld(false, 'not renewed in time');
  }

  function loop(): void {
    if (!running) return;
    current = tick().finally(() => {
      if (running) timer = setTimeout(loop, Math.max(10, Math.floor(ttlMs / 3)));
    });
  }

  return {
    token,
    start() {
      if (running) return;
      running = true;
      loop();
      first = current;
    },
    ready: () => first ?? Promise.resolve(),
    isLeader() {
      return held && now() < validUntil;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
      if (!held) return;
      held = false;
      try {
        if (redis.status === 'ready') await redis.eval(RELEASE, 1, key, token);
        log.info({ token }, `${name} released`);
      } catch (err) {
        log.warn({ err }, `${name}: release failed; it expires by itself`);
      }
    },
  };
}
