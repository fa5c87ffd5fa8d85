/**
 * The latest live quote per instrument, for one tab. Pure TypeScript (no React, no socket):
 * the socket feeds it with `applyBatch`, the REST snapshot with `seed`, and components read it
 * through `useSyncExternalStore`. Listeners can subscribe to one instrument, so a quote for
 * RELIANCE wakes only the RELIANCE row, or to every change (summary, charts).
 */
import { instrumentKey } from '@app/common/market/tick-batch';
import type { LiveQuote, QuotesMessage } from '@app/common/realtime/events';

/** One point of an instrument's price series received this session. */
export interface PricePoint {
  /** When the price was printed (epoch ms). */
  t: number;
  ltp: number;
}

/** How many points of each instrument's series are kept (about 8 hours of minute ticks). */
export const MAX_SERIES_POINTS = 500;

type Listener = () => void;

/** When the newest quote was printed and how late its source delivers (the header reads it). */
export interface NewestQuote {
  asOf: number;
  delayMinutes: number;
}

export class QuoteStore {
  private quotes = new Map<string, LiveQuote>();
  private series = new Map<string, readonly PricePoint[]>();
  private keyListeners = new Map<string, Set<Listener>>();
  private listeners = new Set<Listener>();
  private version = 0;
  private newest: NewestQuote | null = null;

  /** The latest quote of an instrument; the same object until that instrument changes. */
  get(key: string): LiveQuote | undefined {
    return this.quotes.get(key);
  }

  /** Prices of an instrument received (or seeded) this session, oldest first. */
  seriesOf(key: string): readonly PricePoint[] {
    return this.series.get(key) ?? EMPTY_SERIES;
  }

  /** Grows by one with every change; a cheap snapshot for whole-store readers. */
  getVersion(): number {
    return this.version;
  }

  /**
   * The time and delay of the newest quote held (by `asOf`), or null before the first one; the
   * same object until a newer quote arrives.
   */
  newestQuote(): NewestQuote | null {
    return this.newest;
  }

  /** Calls `listener` whenever this instrument's quote changes. Returns the unsubscribe. */
  subscribeKey(key: string, listener: Listener): () => void {
    let set = this.keyListeners.get(key);
    if (!set) {
      set = new Set();
      this.keyListeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.keyListeners.delete(key);
    };
  }

  /** Calls `listener` after every batch or seed that changed anything. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies one `quotes` message from the server. */
  applyBatch(message: QuotesMessage): void {
    this.merge(message.quotes);
  }

  /**
   * Adds quotes from a REST snapshot; a quote replaces the held one only when it is newer, so
   * a slow snapshot never overwrites a fresher live price.
   */
  seed(quotes: readonly LiveQuote[]): void {
    this.merge(quotes);
  }

  /** Forgets everything (sign-out). */
  clear(): void {
    const keys = [...this.quotes.keys()];
    this.quotes.clear();
    this.series.clear();
    this.newest = null;
    this.notify(keys);
  }

  private merge(quotes: readonly LiveQuote[]): void {
    const changed: string[] = [];
    for (const quote of quotes) {
      const key = instrumentKey(quote.exchange, quote.symbol);
      const held = this.quotes.get(key);
      if (held && (held.asOf > quote.asOf || sameQuote(held, quote))) continue;
      this.quotes.set(key, quote);
      this.appendPoint(key, { t: quote.asOf, ltp: quote.ltp });
      if (this.newest === null || quote.asOf > this.newest.asOf) {
        this.newest = { asOf: quote.asOf, delayMinutes: quote.delayMinutes };
      }
      changed.push(key);
    }
    this.notify(changed);
  }

  private appendPoint(key: string, point: PricePoint): void {
    const points = this.series.get(key) ?? EMPTY_SERIES;
    const last = points[points.length - 1];
    if (last && last.t === point.t) {
      this.series.set(key, [...points.slice(0, -1), point]);
      return;
    }
    const next = [...points, point];
    this.series.set(key, next.length > MAX_SERIES_POINTS ? next.slice(-MAX_SERIES_POINTS) : next);
  }

  private notify(keys: readonly string[]): void {
    if (keys.length === 0) return;
    this.version += 1;
    for (const key of keys) {
      for (const listener of this.keyListeners.get(key) ?? []) listener();
    }
    for (const listener of this.listeners) listener();
  }
}

const EMPTY_SERIES: readonly PricePoint[] = Object.freeze([]);

function sameQuote(a: LiveQuote, b: LiveQuote): boolean {
  return (
    a.asOf === b.asOf &&
    a.ltp === b.ltp &&
    a.prevClose === b.prevClose &&
    a.delayMinutes === b.delayMinutes &&
    a.stale === b.stale &&
    a.unavailable === b.unavailable
  );
}

/** The tab's one store. */
export const quoteStore = new QuoteStore();
