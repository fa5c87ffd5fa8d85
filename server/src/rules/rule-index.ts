/**
 * The in-memory index the engine evaluates: every active rule and price alert, by instrument
 * key. A batch costs time in proportion to the entries of the instruments it carries (one Map
 * lookup per quote, then a scan of that instrument's entries). No I/O here.
 */
import { instrumentKey, type Quote } from '@app/common/market/tick-batch';
import {
  computeTriggerPrice,
  isCrossed,
  type AlertDirection,
  type ExecutionTriggerType,
  type ValueType,
} from '@app/common/rules/index';

/** One watched level. `direction` + `price` make it a `Crossable` (price = the trigger level now). */
export interface WatchEntry {
  kind: 'rule' | 'alert';
  id: string;
  userId: string;
  /** `NSE:RELIANCE`. */
  key: string;
  symbol: string;
  exchange: 'NSE' | 'BSE';
  triggerType: ExecutionTriggerType;
  direction: AlertDirection;
  price: number;
  /** Trailing stops: value, value type and reference to recompute the level from the peak. */
  valueType: ValueType | null;
  value: number;
  reference: number;
  peak: number | null;
  /** The row's updated_at in ms: levels are only written back to, and claimed on, this version. */
  version: number;
  /** A claim is in flight: skip it until the claim settles. */
  claiming: boolean;
  /** Position in its instrument's list (swap-remove). */
  slot: number;
}

export interface Crossing {
  entry: WatchEntry;
  /** The last traded price that crossed. */
  ltp: number;
}

export interface ScanResult {
  crossings: Crossing[];
  /** Trailing stops whose peak (and level) rose in this batch. */
  moved: WatchEntry[];
}

export class RuleIndex {
  private readonly byKey = new Map<string, WatchEntry[]>();
  private readonly byId = new Map<string, WatchEntry>();
  private readonly byUser = new Map<string, Set<string>>();

  get size(): number {
    return this.byId.size;
  }

  get instruments(): number {
    return this.byKey.size;
  }

  get(id: string): WatchEntry | undefined {
    return this.byId.get(id);
  }

  count(kind: WatchEntry['kind']): number {
    let n = 0;
    for (const e of this.byId.values()) if (e.kind === kind) n++;
    return n;
  }

  /** Replaces one user's entries with a fresh load from the database. */
  replaceUser(userId: string, entries: WatchEntry[]): void {
    const previous = new Map<string, WatchEntry>();
    for (const id of [...(this.byUser.get(userId) ?? [])]) {
      const e = this.byId.get(id);
      if (e) previous.set(id, e);
      this.remove(id);
    }
    for (const e of entries) this.add(this.merge(e, previous.get(e.id)));
  }

  /** Replaces everything (periodic resync), keeping peaks seen since the load began. */
  replaceAll(entries: WatchEntry[]): void {
    const previous = new Map(this.byId);
    this.byKey.clear();
    this.byId.clear();
    this.byUser.clear();
    for (const e of entries) this.add(this.merge(e, previous.get(e.id)));
  }

  /** Drops `id` if it is still the version that was evaluated (a newer version stays). */
  removeIfVersion(id: string, version: number): void {
    if (this.byId.get(id)?.version === version) this.remove(id);
  }

  /** Applies a batch: raises trailing peaks, collects crossings (marked as claiming). */
  scan(quotes: readonly Quote[]): ScanResult {
    const crossings: Crossing[] = [];
    const moved: WatchEntry[] = [];
    for (const q of quotes) {
      if (q.stale) continue;
      const list = this.byKey.get(instrumentKey(q.exchange, q.symbol));
      if (!list) continue;
      const ltp = q.ltp;
      for (const e of list) {
        if (e.claiming) continue;
        if (e.peak !== null && ltp > e.peak) {
          e.peak = ltp;
          e.price = trailingLevel(e);
          moved.push(e);
        }
        if (isCrossed(e, ltp)) {
          e.claiming = true;
          crossings.push({ entry: e, ltp });
        }
      }
    }
    return { crossings, moved };
  }

  /** Same row, same version: keep the higher peak seen in memory and a claim in flight. */
  private merge(fresh: WatchEntry, old: WatchEntry | undefined): WatchEntry {
    if (!old || old.version !== fresh.version) return fresh;
    fresh.claiming = old.claiming;
    if (fresh.peak !== null && old.peak !== null && old.peak > fresh.peak) {
      fresh.peak = old.peak;
      fresh.price = trailingLevel(fresh);
    }
    return fresh;
  }

  private add(e: WatchEntry): void {
    if (this.byId.has(e.id)) this.remove(e.id);
    let list = this.byKey.get(e.key);
    if (!list) this.byKey.set(e.key, (list = []));
    e.slot = list.length;
    list.push(e);
    this.byId.set(e.id, e);
    let ids = this.byUser.get(e.userId);
    if (!ids) this.byUser.set(e.userId, (ids = new Set()));
    ids.add(e.id);
  }

  private remove(id: string): void {
    const e = this.byId.get(id);
    if (!e) return;
    this.byId.delete(id);
    const list = this.byKey.get(e.key)!;
    const last = list.pop()!;
    if (last !== e) {
      list[e.slot] = last;
      last.slot = e.slot;
    }
    if (list.length === 0) this.byKey.delete(e.key);
    const ids = this.byUser.get(e.userId);
    ids?.delete(id);
    if (ids?.size === 0) this.byUser.delete(e.userId);
  }
}

/** A trailing stop's level from its current peak. */
export function trailingLevel(e: Pick<WatchEntry, 'valueType' | 'value' | 'reference' | 'peak'>): number {
  return computeTriggerPrice({
    triggerType: 'TRAILING_STOP_LOSS',
    valueType: e.valueType ?? 'PERCENT',
    triggerValue: e.value,
    referencePrice: e.reference,
    peakPrice: e.peak,
  });
}
