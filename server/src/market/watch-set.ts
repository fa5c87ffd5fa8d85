/**
 * The watch set: every listed instrument someone holds or has an active rule (or one waiting to
 * re-arm) or price alert on.
 * The streamer polls exactly these. A user's change updates it by difference, on the instance
 * where the change committed: the instruments the user now watches and did not before are
 * added, those they stopped watching are removed unless someone else still watches them. What
 * the user watched last time is kept beside the set (Redis: `market:watch:user:<id>`). A
 * periodic full rebuild repairs anything else (a firing leaves a rule's instrument in the set
 * until then; two users' concurrent changes on one instrument; a Redis restart, which also
 * rebuilds it at once).
 */
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey, parseInstrumentKey } from '@app/common/market/tick-batch';
import { round2 } from '@app/common/portfolio/position-math';
import type { MarketBus, WatchedInstrument } from '@app/streamer';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';
import { isWatchedSql, watchedInstrumentsSql } from './watched.ts';

/**
 * The instruments to poll (only `userId`'s when given): those watched that the symbol master lists. A symbol the master does
 * not know (a typo, a made-up name, a stock listed after the last sync) is stored and shown,
 * but not polled until a sync lists it: no user's data can grow the feed for everyone.
 * Each held one carries its holders' average buy price: the simulated market starts an
 * instrument it has no price level for there, never at an invented number. A BSE one carries
 * its scrip code, the name Yahoo lists it under; each carries its ISIN when the master has it,
 * the key Upstox's feed names it by.
 */
export async function loadWatchedInstruments(db: Executor, userId?: string): Promise<WatchedInstrument[]> {
  const rows = await queryRows<{
    symbol: string;
    exchange: Exchange;
    reference: string | null;
    scrip_code: string | null;
    isin: string | null;
  }>(
    db,
    sql`
    with w as (${watchedInstrumentsSql(userId)})
    select w.symbol, w.exchange, r.reference, i.scrip_code, i.isin from w
    left join (
      select h.symbol, h.exchange,
        sum(h.quantity * h.average_price) / nullif(sum(h.quantity), 0) as reference
      from holdings h join w on w.exchange = h.exchange and w.symbol = h.symbol
      group by h.symbol, h.exchange
    ) r on r.exchange = w.exchange and r.symbol = w.symbol
    join instruments i on i.exchange = w.exchange and i.symbol = w.symbol`,
  );
  return rows
    .map((r): WatchedInstrument => {
      const instrument: WatchedInstrument = { symbol: r.symbol, exchange: r.exchange };
      const reference = r.reference === null ? Number.NaN : round2(Number(r.reference));
      if (Number.isFinite(reference) && reference > 0) instrument.referencePrice = reference;
      if (r.exchange === 'BSE' && r.scrip_code) instrument.scripCode = r.scrip_code;
      if (r.isin) instrument.isin = r.isin;
      return instrument;
    })
    .sort((a, b) => instrumentKey(a.exchange, a.symbol).localeCompare(instrumentKey(b.exchange, b.symbol)));
}

/** Of `keys`, those someone holds or has an active rule or price alert on. */
async function stillWatched(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const parsed = keys.flatMap((key) => parseInstrumentKey(key) ?? []);
  const rows = await queryRows<{ symbol: string; exchange: string }>(
    db,
    sql`
    select k.symbol, k.exchange
    from jsonb_to_recordset(${JSON.stringify(parsed)}::jsonb) as k(symbol text, exchange text)
    where ${isWatchedSql(sql.raw('k.exchange'), sql.raw('k.symbol'))}`,
  );
  return new Set(rows.map((r) => instrumentKey(r.exchange, r.symbol)));
}

/** What each user watched when their last change was applied. */
interface UserWatchRecords {
  get(userId: string): Promise<string[]>;
  set(userId: string, keys: readonly string[]): Promise<void>;
}

export const userWatchKey = (userId: string) => `market:watch:user:${userId}`;
/** A user's record outlives any change it serves; the periodic rebuild covers one that expired. */
const USER_WATCH_TTL_S = 7 * 24 * 3600;

function userWatchRecords(redis: Redis | undefined): UserWatchRecords {
  if (!redis) {
    const records = new Map<string, string[]>();
    return {
      get: async (userId) => records.get(userId) ?? [],
      set: async (userId, keys) =>
        void (keys.length ? records.set(userId, [...keys]) : records.delete(userId)),
    };
  }
  return {
    get: (userId) => redis.smembers(userWatchKey(userId)),
    async set(userId, keys) {
      const key = userWatchKey(userId);
      const multi = redis.multi().del(key);
      if (keys.length > 0) multi.sadd(key, ...keys).expire(key, USER_WATCH_TTL_S);
      await multi.exec();
    },
  };
}

export interface WatchSetKeeper {
  /** A user's holdings or rules changed here: updates the set by difference (debounced per user). */
  userChanged(userId: string): void;
  /** Rebuilds the whole set from the database (at start, periodically, after a Redis restart). */
  rebuild(): Promise<void>;
  /**
   * Stops the timers, drops the updates queued behind the running one and resolves once that one
   * has finished: nothing reaches the bus or the database after (they close next).
   */
  stop(): Promise<void>;
}

export interface WatchSetOptions {
  /** Where each user's last watched instruments are kept (in memory without Redis). */
  redis?: Redis;
  debounceMs?: number;
  refreshMs?: number;
}

export function createWatchSetKeeper(
  db: Executor,
  bus: MarketBus,
  log: Logger,
  { redis, debounceMs = 200, refreshMs = 5 * 60_000 }: WatchSetOptions = {},
): WatchSetKeeper {
  const records = userWatchRecords(redis);
  const pending = new Map<string, NodeJS.Timeout>();
  // One update or rebuild at a time on this instance.
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const serially = (work: () => Promise<void>) =>
    (running = running.then(() => (stopped ? undefined : work())));

  const rebuild = async () => {
    try {
      await bus.replaceWatchSet(await loadWatchedInstruments(db));
    } catch (err) {
      log.warn({ err }, 'watch set rebuild failed; will retry');
    }
  };

  const update = async (userId: string) => {
    try {
      const now = await loadWatchedInstruments(db, userId);
      const nowKeys = now.map((i) => instrumentKey(i.exchange, i.symbol));
      const before = new Set(await records.get(userId));
      const kept = new Set(nowKeys);
      await bus.addToWatchSet(now.filter((_, i) => !before.has(nowKeys[i]!)));
      const dropped = [...before].filter((key) => !kept.has(key));
      const watched = await stillWatched(db, dropped);
      await bus.removeFromWatchSet(dropped.filter((key) => !watched.has(key)));
      await records.set(userId, nowKeys);
    } catch (err) {
      log.warn({ err, userId }, 'watch set update failed; the periodic rebuild will repair it');
    }
  };

  const interval = setInterval(() => void serially(rebuild), refreshMs);
  interval.unref();
  return {
    userChanged(userId) {
      if (stopped) return;
      clearTimeout(pending.get(userId));
      const timer = setTimeout(() => {
        pending.delete(userId);
        void serially(() => update(userId));
      }, debounceMs);
      timer.unref();
      pending.set(userId, timer);
    },
    rebuild: () => serially(rebuild),
    stop() {
      stopped = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      clearInterval(interval);
      return running;
    },
  };
}
