/**
 * Sends each tick batch to the sockets this instance holds: one `quotes` message per user,
 * with only that user's instruments, and only the quotes that changed since this instance last
 * sent that instrument (a streaming feed repeats a price on every trade; docs/live-prices.md,
 * "Streaming feeds"): an unchanged quote goes again only once UNCHANGED_RESEND_MS have passed,
 * so "as of" never falls far behind. Every instance receives every batch, so each serves
 * only its local sockets (no duplicates through the adapter). A user's instruments are
 * reloaded when the change feed says their holdings or rules changed (events/consumers.ts). It
 * also hands each batch's prices to this instance's holdings cache (holdings/cache.ts).
 */
import { instrumentKey, type TickBatch } from '@app/common/market/tick-batch';
import type { LiveQuote, QuotesMessage } from '@app/common/realtime/events';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';
import type { HoldingsCache } from '../holdings/cache.ts';
import { watchedInstrumentsSql } from '../market/watched.ts';
import { userRoom, type RealtimeServer } from './socket-server.ts';
import { preEncoded } from './wire.ts';

/**
 * One string per instrument key for the whole process: thousands of users watch the same few
 * thousand instruments, and each user's list then holds references, not copies.
 */
const internedKeys = new Map<string, string>();
function intern(key: string): string {
  const known = internedKeys.get(key);
  if (known !== undefined) return known;
  internedKeys.set(key, key);
  return key;
}

/** The instruments a user holds or has an active rule or price alert on (distinct keys). */
export async function loadUserInstruments(db: Executor, userId: string): Promise<string[]> {
  const rows = await queryRows<{ symbol: string; exchange: string }>(db, watchedInstrumentsSql(userId));
  return rows.map((r) => intern(instrumentKey(r.exchange, r.symbol)));
}

/** How long an unchanged quote is held back before it is sent again (its `asOf` refreshed). */
export const UNCHANGED_RESEND_MS = 30_000;

/** What a screen shows of a quote, all but its time: equal means nothing to send. */
function shownPart(q: LiveQuote): string {
  return `${q.ltp}|${q.prevClose}|${q.change}|${q.changePercent}|${q.delayMinutes}|${q.stale ?? ''}|${q.unavailable ?? ''}`;
}

export interface QuoteFanout {
  deliver(batch: TickBatch): void;
  /** Reloads the instruments of a user with sockets here (their holdings or rules changed). */
  refresh(userId: string): void;
  /** Reloads every connected user's instruments (changes may have been lost). */
  refreshAll(): void;
  /** Users with sockets on this instance (for metrics and tests). */
  localUsers(): number;
  stop(): void;
}

export function createQuoteFanout(
  io: RealtimeServer,
  db: Executor,
  holdings: Pick<HoldingsCache, 'noteBatch'> | undefined,
  log: Logger,
): QuoteFanout {
  const watchers = new Map<string, string[]>();
  const sockets = new Map<string, number>();
  /** Per instrument: what was last sent of it and when (batch time, ms). */
  const lastSent = new Map<string, { shown: string; at: number }>();
  /** Users whose reload is running, and whether another change came in meanwhile. */
  const loading = new Map<string, boolean>();

  const refresh = async (userId: string): Promise<void> => {
    if (!sockets.has(userId)) return;
    if (loading.has(userId)) return void loading.set(userId, true);
    loading.set(userId, false);
    try {
      const keys = await loadUserInstruments(db, userId);
      if (sockets.has(userId)) watchers.set(userId, keys);
    } catch (err) {
      log.warn({ err, userId }, 'could not load the instruments of a connected user');
    }
    const again = loading.get(userId);
    loading.delete(userId);
    if (again) await refresh(userId);
  };

  io.on('connection', (socket) => {
    const userId = socket.data.userId;
    sockets.set(userId, (sockets.get(userId) ?? 0) + 1);
    if (!watchers.has(userId)) void refresh(userId);
    socket.once('disconnect', () => {
      const left = (sockets.get(userId) ?? 1) - 1;
      if (left > 0) return void sockets.set(userId, left);
      sockets.delete(userId);
      watchers.delete(userId);
    });
  });

  /**
   * Each quote is serialised once per batch; a user's message is those strings joined, the same
   * JSON as `JSON.stringify({at, quotes})`, handed to Socket.IO ready-made (`wire.ts`).
   */
  function sendQuotes(batch: TickBatch): void {
    if (watchers.size === 0 || batch.quotes.length === 0) return;
    const quoteJson = new Map<string, string>();
    for (const q of batch.quotes) {
      const quote: LiveQuote = {
        symbol: q.symbol,
        exchange: q.exchange,
        ltp: q.ltp,
        prevClose: q.prevClose,
        change: q.change,
        changePercent: q.changePercent,
        asOf: q.asOf,
        delayMinutes: q.delayMinutes,
        ...(q.stale ? { stale: true } : {}),
        ...(q.unavailable ? { unavailable: true } : {}),
      };
      const key = instrumentKey(q.exchange, q.symbol);
      const shown = shownPart(quote);
      const last = lastSent.get(key);
      if (last && last.shown === shown && batch.at - last.at < UNCHANGED_RESEND_MS) continue;
      lastSent.set(key, { shown, at: batch.at });
      quoteJson.set(key, JSON.stringify(quote));
    }
    if (quoteJson.size === 0) return;
    const head = `{"at":${JSON.stringify(batch.at)},"quotes":[`;
    for (const [userId, keys] of watchers) {
      let quotes = '';
      for (const key of keys) {
        const json = quoteJson.get(key);
        if (json !== undefined) quotes = quotes ? `${quotes},${json}` : json;
      }
      if (quotes)
        io.local.to(userRoom(userId)).emit('quotes', preEncoded<QuotesMessage>(`${head}${quotes}]}`));
    }
  }

  return {
    deliver(batch) {
      sendQuotes(batch);
      // After the sockets: the holdings list's prices are not on the live path.
      holdings?.noteBatch(batch);
    },
    refresh: (userId) => void refresh(userId),
    refreshAll() {
      for (const userId of sockets.keys()) void refresh(userId);
    },
    localUsers: () => watchers.size,
    stop() {
      watchers.clear();
      lastSent.clear();
    },
  };
}
