/**
 * Each instance's cache of its users' presented holdings (GET /api/holdings answers from it),
 * built once in runtime.ts (AppDeps.holdingsCache). A user's entry is dropped when the change
 * feed says their holdings changed, here or on another instance (events/consumers.ts), all of
 * them when changes may have been lost, and lives at most HOLDINGS_CACHE_TTL_MS in any case, which bounds what nothing announces
 * (instrument names, rows written by hand). Prices come from the latest tick batch this
 * instance received, when newer than the stored quote, so the cache outlives batches.
 */
import { instrumentKey, type TickBatch } from '@app/common/market/tick-batch';
import type { Executor } from '../db/client.ts';
import {
  loadHoldingRows,
  presentHolding,
  type HoldingRows,
  type PresentedHolding,
  type PriceLevels,
} from './present.ts';

export const HOLDINGS_CACHE_TTL_MS = 5_000;
/** Holdings kept across all users (~1 KB each); least recently listed users go first. */
export const HOLDINGS_CACHE_MAX_ROWS = 50_000;

interface Entry extends HoldingRows {
  loadedAt: number;
  /** Presented with the batch quotes of this generation. */
  presented?: PresentedHolding[];
  /** `presented` encoded (the HTTP answer), once per generation rather than once per request. */
  encoded?: Buffer;
  generation: number;
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

export class HoldingsCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation of the user: a load that began before it is not kept. */
  private readonly versions = new Map<string, number>();
  private readonly loading = new Map<string, { version: number; entry: Promise<Entry> }>();
  private readonly batchQuotes = new Map<string, PriceLevels>();
  private generation = 0;
  private rows = 0;

  constructor(
    private readonly db: Executor,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user's holdings, presented with the freshest prices this instance knows. */
  async list(userId: string): Promise<PresentedHolding[]> {
    return (await this.current(userId)).presented!;
  }

  /** The same list encoded by `encode`, once per tick batch however often it is asked for. */
  async listEncoded(userId: string, encode: (list: PresentedHolding[]) => Buffer): Promise<Buffer> {
    const entry = await this.current(userId);
    entry.encoded ??= encode(entry.presented!);
    return entry.encoded;
  }

  private async current(userId: string): Promise<Entry> {
    let entry = this.entries.get(userId);
    if (entry && this.now() - entry.loadedAt > HOLDINGS_CACHE_TTL_MS) {
      this.drop(userId);
      entry = undefined;
    }
    if (entry) {
      // Least recently listed first in eviction order.
      this.entries.delete(userId);
      this.entries.set(userId, entry);
    } else entry = await this.load(userId);
    if (!entry.presented || entry.generation !== this.generation) {
      const { bases, quotes } = entry;
      entry.presented = bases.map((base, i) => presentHolding(base, this.freshest(base, quotes[i] ?? null)));
      entry.encoded = undefined;
      entry.generation = this.generation;
    }
    return entry;
  }

  /** One load per user at a time: concurrent misses (an expiry under load) share it. */
  private load(userId: string): Promise<Entry> {
    const version = this.versions.get(userId) ?? 0;
    const running = this.loading.get(userId);
    if (running && running.version === version) return running.entry;
    const loadedAt = this.now();
    const entry = loadHoldingRows(this.db, userId).then((rows): Entry => {
      const loaded = { ...rows, loadedAt, generation: -1 };
      // Changed while loading: answer the requests that came before the change, keep nothing.
      if ((this.versions.get(userId) ?? 0) === version) this.keep(userId, loaded);
      return loaded;
    });
    const settled = () => {
      if (this.loading.get(userId)?.entry === entry) this.loading.delete(userId);
    };
    entry.then(settled, settled);
    this.loading.set(userId, { version, entry });
    return entry;
  }

  /** The user's holdings changed: the next list reloads them. */
  invalidate(userId: string): void {
    this.versions.set(userId, (this.versions.get(userId) ?? 0) + 1);
    this.drop(userId);
  }

  /** Remembers the batch's prices (as the quotes table will store them). */
  noteBatch(batch: TickBatch): void {
    if (batch.quotes.length === 0) return;
    for (const q of batch.quotes) {
      const key = instrumentKey(q.exchange, q.symbol);
      const known = this.batchQuotes.get(key);
      if (known && known.asOf > q.asOf) continue;
      this.batchQuotes.set(key, {
        ltp: round4(q.ltp),
        prevClose: q.prevClose === null ? null : round4(q.prevClose),
        asOf: q.asOf,
        delayMinutes: q.delayMinutes,
        stale: q.stale === true,
        unavailable: q.unavailable === true,
      });
    }
    this.generation += 1;
  }

  /** Users and holdings held (tests, metrics). */
  stats(): { users: number; rows: number } {
    return { users: this.entries.size, rows: this.rows };
  }

  clear(): void {
    for (const userId of [...this.entries.keys()]) this.invalidate(userId);
    this.batchQuotes.clear();
  }

  private freshest(base: { exchange: string; symbol: string }, stored: PriceLevels | null) {
    const latest = this.batchQuotes.get(instrumentKey(base.exchange, base.symbol));
    return latest && (!stored || latest.asOf >= stored.asOf) ? latest : stored;
  }

  private keep(userId: string, entry: Entry): void {
    this.drop(userId);
    this.entries.set(userId, entry);
    this.rows += entry.bases.length;
    for (const oldest of this.entries.keys()) {
      if (this.rows <= HOLDINGS_CACHE_MAX_ROWS || oldest === userId) break;
      this.drop(oldest);
    }
    // Versions only matter while a load may be running; forget those of users not cached.
    if (this.versions.size > 4 * this.entries.size + 1024)
      for (const id of this.versions.keys())
        if (!this.entries.has(id) && !this.loading.has(id)) this.versions.delete(id);
  }

  private drop(userId: string): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    this.entries.delete(userId);
    this.rows -= entry.bases.length;
  }
}
