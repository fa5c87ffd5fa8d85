/**
 * The in-memory index the engine evaluates: every active rule and price alert, by instrument
 * (typed-array storage in rule-store.ts). A batch looks each quote's instrument up and passes
 * over its stops only when the price is at or under their highest level or over their lowest
 * trailing peak, and over its targets only when the price is at or over their lowest level:
 * on a normal tick most instruments cost a lookup and three comparisons. No I/O here.
 */
import type { Exchange } from '@app/common/instruments/types';
import type { Quote } from '@app/common/market/tick-batch';
import {
  computeTriggerPrice,
  RULE_KINDS,
  VALUE_TYPE_TRAITS,
  type AlertDirection,
  type ExecutionTriggerType,
  type ValueType,
} from '@app/common/rules/index';
import {
  CLAIMING,
  packFlags,
  parseUuid,
  REARMING,
  RuleStore,
  TRIGGER_CODES,
  TRIGGER_OF_CODE,
  trailsOf,
  triggerCodeOf,
  valueTypeOf,
  watchesBelow,
  type Instrument,
} from './rule-store.ts';

/** One watched level, as loaded and as the index hands it out (a copy: the index keeps numbers). */
export interface WatchEntry {
  /** `rearm`: a fired rule waiting to re-arm; `price` is then the re-arm price, `direction` the way it watches. */
  kind: 'rule' | 'alert' | 'rearm';
  id: string;
  userId: string;
  /** `NSE:RELIANCE`. */
  key: string;
  symbol: string;
  exchange: Exchange;
  triggerType: ExecutionTriggerType;
  direction: AlertDirection;
  /** The trigger level now. */
  price: number;
  /** Trailing stops: value and value type recompute the level from the peak. */
  valueType: ValueType | null;
  value: number;
  /** Trailing stops only: the highest price seen since the rule was armed. */
  peak: number | null;
  /** The row's updated_at in ms: levels are only written back to, and claimed on, this version. */
  version: number;
  /** A claim is in flight: skipped until the claim settles. */
  claiming: boolean;
}

export interface Crossing {
  entry: WatchEntry;
  /** The last traded price that crossed. */
  ltp: number;
}

/**
 * Trailing stops whose peak (and level) rose in a batch, by id: a batch in a rising market
 * raises tens of thousands, and the write-back wants their current state anyway
 * (`RuleIndex.entriesOf`), so the scan does not make an object of each.
 */
export class MovedPeaks {
  private words = new Uint32Array(64);
  length = 0;

  push(ids: Uint32Array, slot: number): void {
    if (4 * (this.length + 1) > this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    const to = 4 * this.length++;
    const from = 4 * slot;
    this.words[to] = ids[from]!;
    this.words[to + 1] = ids[from + 1]!;
    this.words[to + 2] = ids[from + 2]!;
    this.words[to + 3] = ids[from + 3]!;
  }

  /** The i-th id's words (a view, valid until the next push). */
  idWords(i: number): Uint32Array {
    return this.words.subarray(4 * i, 4 * i + 4);
  }
}

export interface ScanResult {
  crossings: Crossing[];
  /** Trailing stops whose peak (and level) rose in this batch. */
  moved: MovedPeaks;
}

export class RuleIndex {
  private store = new RuleStore();
  private readonly words = new Uint32Array(4);
  private alerts = 0;
  private instrumentsWatched = 0;

  get size(): number {
    return this.store.live;
  }

  /** Instruments with at least one entry. */
  get instruments(): number {
    return this.instrumentsWatched;
  }

  get(id: string): WatchEntry | undefined {
    const slot = this.store.find(parseUuid(id, this.words));
    return slot < 0 ? undefined : this.entryAt(slot);
  }

  /** The current entries of the rules in `moved` that are still indexed, each once. */
  entriesOf(moved: MovedPeaks): WatchEntry[] {
    const seen = new Set<number>();
    const out: WatchEntry[] = [];
    for (let i = 0; i < moved.length; i++) {
      const slot = this.store.find(moved.idWords(i));
      if (slot < 0 || seen.has(slot)) continue;
      seen.add(slot);
      out.push(this.entryAt(slot));
    }
    return out;
  }

  /** Rules (armed or waiting to re-arm) or price alerts. */
  count(kind: 'rule' | 'alert'): number {
    return kind === 'alert' ? this.alerts : this.store.live - this.alerts;
  }

  /** Replaces one user's entries with a fresh load from the database. */
  replaceUser(userId: string, entries: WatchEntry[]): void {
    const previous = new Map<string, Previous>();
    for (const slot of this.store.slotsOfUser(userId)) {
      previous.set(this.store.idOf(slot), this.previousAt(this.store, slot));
      this.removeSlot(slot);
    }
    for (const e of entries) this.add(e, previous.get(e.id));
  }

  /** Replaces everything (periodic resync), keeping peaks and claims of unchanged rows. */
  replaceAll(entries: WatchEntry[]): void {
    const old = this.store;
    this.store = new RuleStore(Math.ceil(entries.length * 1.05) + 64);
    this.alerts = 0;
    this.instrumentsWatched = 0;
    for (const e of entries) {
      const slot = old.find(parseUuid(e.id, this.words));
      this.add(e, slot < 0 ? undefined : this.previousAt(old, slot));
    }
  }

  /** Drops `id` if it is still the version that was evaluated (a newer version stays). */
  removeIfVersion(id: string, version: number): void {
    const slot = this.store.find(parseUuid(id, this.words));
    if (slot >= 0 && this.store.versions[slot] === version) this.removeSlot(slot);
  }

  /**
   * Drops `id` if its version is `version` or older: a rule that fired on another instance
   * (its claim stamped `version`); a newer version (re-armed since) stays.
   */
  removeUpTo(id: string, version: number): void {
    const slot = this.store.find(parseUuid(id, this.words));
    if (slot >= 0 && this.store.versions[slot]! <= version) this.removeSlot(slot);
  }

  /** A claim of this version failed: evaluate the entry again from the next batch on. */
  release(id: string, version: number): void {
    const slot = this.store.find(parseUuid(id, this.words));
    if (slot >= 0 && this.store.versions[slot] === version) this.store.flags[slot]! &= ~CLAIMING;
  }

  /**
   * An observed crossing is to be claimed after all (its owner died): marks `id` as claiming if
   * it is still indexed at this version and not claimed already; false otherwise.
   */
  markClaiming(id: string, version: number): boolean {
    const slot = this.store.find(parseUuid(id, this.words));
    if (slot < 0 || this.store.versions[slot] !== version || (this.store.flags[slot]! & CLAIMING) !== 0)
      return false;
    this.store.flags[slot]! |= CLAIMING;
    return true;
  }

  /** Applies a batch: raises trailing peaks, collects crossings (marked as claiming). */
  scan(quotes: readonly Quote[]): ScanResult {
    const out: ScanResult = { crossings: [], moved: new MovedPeaks() };
    const { instruments } = this.store;
    for (const q of quotes) {
      if (q.stale) continue;
      const ordinal = this.store.instrumentIndex(q.exchange, q.symbol);
      if (ordinal === undefined) continue;
      const inst = instruments[ordinal]!;
      const ltp = q.ltp;
      if (inst.below.n > 0 && (ltp <= inst.below.maxLevel || ltp > inst.below.minPeak))
        this.passStops(inst, ltp, out);
      if (inst.above.n > 0 && ltp >= inst.above.minLevel) this.passTargets(inst, ltp, out);
    }
    return out;
  }

  /** Stops fire at or under their level; trailing peaks follow the price up first. */
  private passStops(inst: Instrument, ltp: number, out: ScanResult): void {
    const g = inst.below;
    const { slots, levels } = g;
    const peaks = g.peaks!;
    const { flags, values } = this.store;
    let maxLevel = -Infinity;
    let minPeak = Infinity;
    for (let i = 0; i < g.n; i++) {
      const slot = slots[i]!;
      if (peaks[i]! < ltp && (flags[slot]! & CLAIMING) === 0) {
        peaks[i] = ltp;
        levels[i] = trailingLevel({ valueType: valueTypeOf(flags[slot]!), value: values[slot]!, peak: ltp });
        out.moved.push(this.store.ids, slot);
      }
      if (levels[i]! >= ltp && (flags[slot]! & CLAIMING) === 0) this.cross(slot, ltp, out);
      if (levels[i]! > maxLevel) maxLevel = levels[i]!;
      if (peaks[i]! < minPeak) minPeak = peaks[i]!;
    }
    g.maxLevel = maxLevel;
    g.minPeak = minPeak;
  }

  /** Take-profits and above-alerts fire at or over their level. */
  private passTargets(inst: Instrument, ltp: number, out: ScanResult): void {
    const g = inst.above;
    const { flags } = this.store;
    let minLevel = Infinity;
    for (let i = 0; i < g.n; i++) {
      const level = g.levels[i]!;
      const slot = g.slots[i]!;
      if (level <= ltp && (flags[slot]! & CLAIMING) === 0) this.cross(slot, ltp, out);
      if (level < minLevel) minLevel = level;
    }
    g.minLevel = minLevel;
  }

  private cross(slot: number, ltp: number, out: ScanResult): void {
    this.store.flags[slot]! |= CLAIMING;
    out.crossings.push({ entry: this.entryAt(slot), ltp });
  }

  /** Adds a fresh load of a row; same row, same version: keeps the higher peak and a claim in flight. */
  private add(e: WatchEntry, old: Previous | undefined): void {
    const s = this.store;
    const words = parseUuid(e.id, this.words);
    const existing = s.find(words);
    if (existing >= 0) this.removeSlot(existing);
    const same = old?.version === e.version ? old : undefined;
    let peak = e.peak;
    let level = e.price;
    if (same && peak !== null && same.peak !== null && same.peak > peak) {
      peak = same.peak;
      level = trailingLevel({ valueType: e.valueType, value: e.value, peak });
    }
    const code = TRIGGER_CODES[e.triggerType];
    const rearming = e.kind === 'rearm';
    const slot = s.allocate(words, e.userId);
    s.flags[slot] =
      packFlags(code, e.valueType) | (same?.claiming ? CLAIMING : 0) | (rearming ? REARMING : 0);
    s.values[slot] = e.value;
    s.versions[slot] = e.version;
    const ordinal = s.instrument(e.exchange, e.symbol, e.key);
    const inst = s.instruments[ordinal]!;
    const group = watchesBelow(s.flags[slot]!) ? inst.below : inst.above;
    if (inst.below.n + inst.above.n === 0) this.instrumentsWatched += 1;
    s.instrumentOf[slot] = ordinal;
    // NaN is under no price: only trailing stops have a peak to raise.
    s.position[slot] = group.push(slot, level, armedTrailing(s.flags[slot]!) ? (peak ?? NaN) : NaN);
    if (e.kind === 'alert') this.alerts += 1;
  }

  private removeSlot(slot: number): void {
    const s = this.store;
    const code = triggerCodeOf(s.flags[slot]!);
    const inst = s.instruments[s.instrumentOf[slot]!]!;
    const group = watchesBelow(s.flags[slot]!) ? inst.below : inst.above;
    const moved = group.removeAt(s.position[slot]!);
    if (moved >= 0) s.position[moved] = s.position[slot]!;
    if (inst.below.n + inst.above.n === 0) this.instrumentsWatched -= 1;
    if (!(TRIGGER_OF_CODE[code]! in RULE_KINDS)) this.alerts -= 1;
    s.release(slot);
  }

  private previousAt(store: RuleStore, slot: number): Previous {
    const inst = store.instruments[store.instrumentOf[slot]!]!;
    const peak = armedTrailing(store.flags[slot]!) ? inst.below.peaks![store.position[slot]!]! : NaN;
    return {
      version: store.versions[slot]!,
      peak: Number.isNaN(peak) ? null : peak,
      claiming: (store.flags[slot]! & CLAIMING) !== 0,
    };
  }

  /** A copy of the slot's entry. */
  private entryAt(slot: number): WatchEntry {
    const s = this.store;
    const f = s.flags[slot]!;
    const code = triggerCodeOf(f);
    const inst = s.instruments[s.instrumentOf[slot]!]!;
    const below = watchesBelow(f);
    const group = below ? inst.below : inst.above;
    const position = s.position[slot]!;
    const alert = !(TRIGGER_OF_CODE[code]! in RULE_KINDS);
    const peak = armedTrailing(f) ? inst.below.peaks![position]! : NaN;
    return {
      kind: alert ? 'alert' : (f & REARMING) !== 0 ? 'rearm' : 'rule',
      id: s.idOf(slot),
      userId: s.userIds[s.users[slot]!]!,
      key: inst.key,
      symbol: inst.symbol,
      exchange: inst.exchange,
      triggerType: TRIGGER_OF_CODE[code] as ExecutionTriggerType,
      direction: below ? 'below' : 'above',
      price: group.levels[position]!,
      valueType: valueTypeOf(f),
      value: s.values[slot]!,
      peak: Number.isNaN(peak) ? null : peak,
      version: s.versions[slot]!,
      claiming: (f & CLAIMING) !== 0,
    };
  }
}

/** An armed trailing stop: the one kind of slot with a peak (in its instrument's `below` group). */
const armedTrailing = (flags: number) => trailsOf(flags) && (flags & REARMING) === 0;

interface Previous {
  version: number;
  peak: number | null;
  claiming: boolean;
}

/**
 * A trailing stop's level from its peak: computeTriggerPrice's formula, rounded in numbers (the
 * shared rounding goes through text, which a batch raising 10,000 peaks notices) except within a
 * hair of a half paisa or beyond a crore, where only the text is exact.
 */
export function trailingLevel(e: { valueType: ValueType | null; value: number; peak: number }): number {
  const valueType = e.valueType ?? 'PERCENT';
  const traits = VALUE_TYPE_TRAITS[valueType];
  // A price is a fixed level (the API refuses a trailing stop at a price): it follows no peak.
  if (!traits.trails) return traits.level(e.value, e.peak, false);
  const raw = traits.unrounded(e.value, e.peak, false);
  const cents = raw * 100;
  const fraction = Math.abs(cents - Math.trunc(cents));
  if (Math.abs(cents) < 1e9 && Math.abs(fraction - 0.5) > 1e-6) return Math.round(cents) / 100;
  return computeTriggerPrice({
    triggerType: 'TRAILING_STOP_LOSS',
    valueType,
    triggerValue: e.value,
    referencePrice: e.peak,
    peakPrice: e.peak,
  });
}
