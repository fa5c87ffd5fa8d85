/**
 * The rule index's storage: a million rules in typed arrays instead of a million objects
 * (~100 bytes a rule rather than ~500, and a batch reads memory in order). Each rule has a slot;
 * its numbers live in per-slot columns, its id as 16 bytes in an open-addressing table, its
 * user and instrument as ordinals. Each instrument keeps its stops and its targets as two
 * groups of contiguous arrays (slot, level, and the trailing peak for stops) with bounds that
 * let a batch skip the instrument when its price cannot cross anything or raise any peak.
 */
import type { Exchange } from '@app/common/instruments/types';
import {
  EXECUTION_KINDS,
  RULE_KINDS,
  VALUE_TYPE_TRAITS,
  type ExecutionTriggerType,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import { formatUuid, hashWords } from './uuid-words.ts';

export { parseUuid } from './uuid-words.ts';

/** Trigger codes in the low three bits of a slot's flags, each kind's own (common/rules/kinds.ts; 0: the slot is free). */
export const TRIGGER_CODES: Readonly<Record<ExecutionTriggerType, number>> = Object.freeze(
  Object.fromEntries(Object.entries(EXECUTION_KINDS).map(([kind, traits]) => [kind, traits.code])) as Record<
    ExecutionTriggerType,
    number
  >,
);
/** The kind of each code (empty where no kind has it). */
export const TRIGGER_OF_CODE: readonly (ExecutionTriggerType | '')[] = Object.freeze(
  Object.entries(TRIGGER_CODES).reduce<(ExecutionTriggerType | '')[]>(
    (codes, [kind, code]) => Object.assign(codes, { [code]: kind }),
    Array<ExecutionTriggerType | ''>(8).fill(''),
  ),
);
/** Whether a code's kind fires when the price falls to its level (a stop, a below-alert). */
const BELOW_OF_CODE: readonly boolean[] = Object.freeze(
  TRIGGER_OF_CODE.map((kind) => kind !== '' && EXECUTION_KINDS[kind].direction === 'below'),
);
/** Whether a code's kind trails a peak (a trailing stop). */
const TRAILS_OF_CODE: readonly boolean[] = Object.freeze(
  TRIGGER_OF_CODE.map((kind) => kind !== '' && kind in RULE_KINDS && RULE_KINDS[kind as TriggerType].trails),
);
/**
 * Value-type codes in three bits of a slot's flags, each value type's own (0: a price alert, which
 * has none): the low two at bits 3–4, the third at bit 7 (bits 5 and 6 are CLAIMING and REARMING).
 */
const VALUE_TYPES: readonly (ValueType | null)[] = Object.freeze(
  Object.entries(VALUE_TYPE_TRAITS).reduce<(ValueType | null)[]>(
    (codes, [valueType, traits]) => Object.assign(codes, { [traits.code]: valueType }),
    Array<ValueType | null>(8).fill(null),
  ),
);
/** Whether a value-type code's level comes from the daily bars (an ATR stop: no tick-by-tick peak). */
const FROM_BARS_OF_CODE: readonly boolean[] = Object.freeze(
  VALUE_TYPES.map((v) => v !== null && VALUE_TYPE_TRAITS[v].fromBars),
);
const TRIGGER_MASK = 0b111;
const VALUE_SHIFT = 3;
const VALUE_HIGH_SHIFT = 7;
export const CLAIMING = 0b100000;
/**
 * A fired rule waiting to re-arm (rules/rearm): its level is the re-arm price and it watches the
 * other way (a stop's recovery upwards, a take-profit's fall back), with no trailing peak.
 */
export const REARMING = 0b1000000;

/** Stops and below-alerts fire when the price falls to the level; the rest when it rises to it. */
export const firesBelow = (code: number) => BELOW_OF_CODE[code] === true;

/**
 * Whether a slot's level follows its peak tick by tick: a trailing stop, unless its level comes
 * from the daily bars (a trailing ATR stop rises only in the nightly recomputation).
 */
export const trailsOf = (flags: number) =>
  TRAILS_OF_CODE[flags & TRIGGER_MASK] === true && FROM_BARS_OF_CODE[valueCodeOf(flags)] !== true;

/** Whether a slot with these flags watches for the price to fall to its level (its `below` group). */
export const watchesBelow = (flags: number) =>
  firesBelow(flags & TRIGGER_MASK) !== ((flags & REARMING) !== 0);

/** One instrument's rules of one direction: parallel arrays, unordered (swap-remove). */
export class Group {
  slots = new Int32Array(4);
  levels = new Float64Array(4);
  /** Trailing stops' peaks; NaN for every other rule (never below a price). Stops only. */
  peaks: Float64Array | undefined;
  n = 0;
  /** Bounds over the members (kept loose on removal, made exact by every full pass). */
  minLevel = Infinity;
  maxLevel = -Infinity;
  minPeak = Infinity;

  constructor(withPeaks: boolean) {
    if (withPeaks) this.peaks = new Float64Array(4);
  }

  push(slot: number, level: number, peak: number): number {
    if (this.n === this.slots.length) this.grow();
    const i = this.n++;
    this.slots[i] = slot;
    this.levels[i] = level;
    if (this.peaks) this.peaks[i] = peak;
    if (level < this.minLevel) this.minLevel = level;
    if (level > this.maxLevel) this.maxLevel = level;
    if (peak < this.minPeak) this.minPeak = peak;
    return i;
  }

  /** Removes position `i` by moving the last member there; returns the slot moved (or -1). */
  removeAt(i: number): number {
    const last = --this.n;
    if (i === last) return -1;
    this.slots[i] = this.slots[last]!;
    this.levels[i] = this.levels[last]!;
    if (this.peaks) this.peaks[i] = this.peaks[last]!;
    return this.slots[i]!;
  }

  private grow(): void {
    const size = Math.max(4, Math.ceil(this.slots.length * 1.5));
    const slots = new Int32Array(size);
    slots.set(this.slots);
    this.slots = slots;
    const levels = new Float64Array(size);
    levels.set(this.levels);
    this.levels = levels;
    if (this.peaks) {
      const peaks = new Float64Array(size);
      peaks.set(this.peaks);
      this.peaks = peaks;
    }
  }
}

export interface Instrument {
  key: string;
  symbol: string;
  exchange: Exchange;
  below: Group;
  above: Group;
}

/** Per-slot columns, the id table, users and instruments. No rule semantics here. */
export class RuleStore {
  capacity: number;
  /** Slots in use, and the first never-used slot (freed slots are chained through userNext). */
  live = 0;
  private top = 0;
  private freeHead = -1;
  ids: Uint32Array;
  flags: Uint8Array;
  values: Float64Array;
  versions: Float64Array;
  users: Int32Array;
  userNext: Int32Array;
  instrumentOf: Int32Array;
  position: Int32Array;
  private table: Int32Array;

  private readonly userOrdinals = new Map<string, number>();
  readonly userIds: Array<string | undefined> = [];
  readonly userHead: number[] = [];
  private readonly freeUsers: number[] = [];

  private readonly instrumentOrdinals = { NSE: new Map<string, number>(), BSE: new Map<string, number>() };
  readonly instruments: Instrument[] = [];

  constructor(capacity = 1024) {
    this.capacity = Math.max(16, capacity);
    this.ids = new Uint32Array(4 * this.capacity);
    this.flags = new Uint8Array(this.capacity);
    this.values = new Float64Array(this.capacity);
    this.versions = new Float64Array(this.capacity);
    this.users = new Int32Array(this.capacity);
    this.userNext = new Int32Array(this.capacity);
    this.instrumentOf = new Int32Array(this.capacity);
    this.position = new Int32Array(this.capacity);
    this.table = new Int32Array(tableSizeFor(this.capacity));
  }

  /** The slot of the id (its words), or -1. */
  find(w: Uint32Array): number {
    const mask = this.table.length - 1;
    for (let i = hashWords(w, 0) & mask; ; i = (i + 1) & mask) {
      const entry = this.table[i]!;
      if (entry === 0) return -1;
      const s = entry - 1;
      const o = 4 * s;
      if (
        this.ids[o] === w[0] &&
        this.ids[o + 1] === w[1] &&
        this.ids[o + 2] === w[2] &&
        this.ids[o + 3] === w[3]
      )
        return s;
    }
  }

  idOf(slot: number): string {
    return formatUuid(this.ids, 4 * slot);
  }

  /** The instrument's ordinal, created when new. */
  instrument(exchange: Exchange, symbol: string, key: string): number {
    const byExchange = this.instrumentOrdinals[exchange];
    let ordinal = byExchange.get(symbol);
    if (ordinal === undefined) {
      ordinal = this.instruments.length;
      this.instruments.push({ key, symbol, exchange, below: new Group(true), above: new Group(false) });
      byExchange.set(symbol, ordinal);
    }
    return ordinal;
  }

  instrumentIndex(exchange: string, symbol: string): number | undefined {
    return exchange === 'NSE' || exchange === 'BSE'
      ? this.instrumentOrdinals[exchange].get(symbol)
      : undefined;
  }

  /** A new slot for the id (not present), linked to its user. */
  allocate(w: Uint32Array, userId: string): number {
    if (this.live === this.capacity) this.grow(Math.ceil(this.capacity * 1.5));
    let slot: number;
    if (this.freeHead >= 0) {
      slot = this.freeHead;
      this.freeHead = this.userNext[slot]!;
    } else slot = this.top++;
    this.live += 1;
    this.ids.set(w, 4 * slot);
    this.insertId(slot);
    let user = this.userOrdinals.get(userId);
    if (user === undefined) {
      user = this.freeUsers.pop() ?? this.userIds.length;
      this.userOrdinals.set(userId, user);
      this.userIds[user] = userId;
      this.userHead[user] = -1;
    }
    this.users[slot] = user;
    this.userNext[slot] = this.userHead[user]!;
    this.userHead[user] = slot;
    return slot;
  }

  /** Unlinks the slot from its user and the id table, and frees it (the caller left its group). */
  release(slot: number): void {
    const user = this.users[slot]!;
    let prev = -1;
    for (let s = this.userHead[user]!; s !== slot; s = this.userNext[s]!) prev = s;
    if (prev < 0) this.userHead[user] = this.userNext[slot]!;
    else this.userNext[prev] = this.userNext[slot]!;
    if (this.userHead[user] === -1) {
      this.userOrdinals.delete(this.userIds[user]!);
      this.userIds[user] = undefined;
      this.freeUsers.push(user);
    }
    this.deleteId(slot);
    this.flags[slot] = 0;
    this.userNext[slot] = this.freeHead;
    this.freeHead = slot;
    this.live -= 1;
  }

  /** The user's slots (a copy: the caller may remove them). */
  slotsOfUser(userId: string): number[] {
    const user = this.userOrdinals.get(userId);
    const out: number[] = [];
    if (user === undefined) return out;
    for (let s = this.userHead[user]!; s >= 0; s = this.userNext[s]!) out.push(s);
    return out;
  }

  private insertId(slot: number): void {
    const mask = this.table.length - 1;
    let i = hashWords(this.ids, 4 * slot) & mask;
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = slot + 1;
  }

  /** Linear-probing delete with backward shift (no tombstones). */
  private deleteId(slot: number): void {
    const mask = this.table.length - 1;
    let i = hashWords(this.ids, 4 * slot) & mask;
    while (this.table[i] !== slot + 1) i = (i + 1) & mask;
    for (let j = (i + 1) & mask; this.table[j] !== 0; j = (j + 1) & mask) {
      const home = hashWords(this.ids, 4 * (this.table[j]! - 1)) & mask;
      // Move j back into the hole when its home is not within (i, j] (cyclically).
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        this.table[i] = this.table[j]!;
        i = j;
      }
    }
    this.table[i] = 0;
  }

  private grow(capacity: number): void {
    const copy = <T extends Uint32Array | Uint8Array | Float64Array | Int32Array>(a: T, size: number): T => {
      const next = new (a.constructor as new (n: number) => T)(size);
      next.set(a);
      return next;
    };
    this.ids = copy(this.ids, 4 * capacity);
    this.flags = copy(this.flags, capacity);
    this.values = copy(this.values, capacity);
    this.versions = copy(this.versions, capacity);
    this.users = copy(this.users, capacity);
    this.userNext = copy(this.userNext, capacity);
    this.instrumentOf = copy(this.instrumentOf, capacity);
    this.position = copy(this.position, capacity);
    this.capacity = capacity;
    this.table = new Int32Array(tableSizeFor(capacity));
    for (let s = 0; s < this.top; s++) if (this.flags[s] !== 0) this.insertId(s);
  }
}

/** A power of two at least twice the capacity: linear probing stays short. */
function tableSizeFor(capacity: number): number {
  let size = 16;
  while (size < 2 * capacity) size *= 2;
  return size;
}

export const triggerCodeOf = (flags: number) => flags & TRIGGER_MASK;
function valueCodeOf(flags: number): number {
  return ((flags >> VALUE_SHIFT) & 0b11) | (((flags >> VALUE_HIGH_SHIFT) & 1) << 2);
}
export const valueTypeOf = (flags: number) => VALUE_TYPES[valueCodeOf(flags)]!;
export const packFlags = (trigger: number, valueType: ValueType | null) => {
  const code = valueType === null ? 0 : VALUE_TYPE_TRAITS[valueType].code;
  return trigger | ((code & 0b11) << VALUE_SHIFT) | ((code >> 2) << VALUE_HIGH_SHIFT);
};
