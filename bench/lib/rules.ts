/**
 * B3's synthetic rule book: N active rules (fixed stops, trailing stops, take-profits) over M
 * instruments on NSE and BSE, the same in every process that asks (a seeded generator), as the
 * rows `loadWatchEntries` selects. Levels sit 1.5–25 % below (stops) or 1.5–50 % above (targets)
 * each instrument's previous close; trailing peaks up to 3 % above it. A batch moves prices by up
 * to ±2 %, so a few rules cross and some trailing peaks rise, as in a live market.
 */
import type { Exchange } from '@app/common/instruments/types';
import type { Quote, TickBatch } from '@app/common/market/tick-batch';
import { round2 } from '@app/common/portfolio/position-math';
import { computeTriggerPrice, type TriggerType, type ValueType } from '@app/common/rules/index';
import type { RuleRow } from '../../server/src/triggers/load.ts';
import { plausibleSymbols } from './market.ts';

export interface RulePlan {
  rules: number;
  instruments: number;
  /** Rules per user (users = rules / rulesPerUser). */
  rulesPerUser: number;
}

export interface Instrument {
  exchange: Exchange;
  symbol: string;
  prevClose: number;
}

/** `n` instruments: each plausible symbol on NSE and on BSE, then ETF-style variants. */
export function ruleInstruments(n: number): Instrument[] {
  const perExchange = Math.ceil(n / 2);
  const grid = plausibleSymbols(Math.min(perExchange, 2000));
  const symbols = [...grid];
  for (let i = 0; symbols.length < perExchange; i++)
    symbols.push(`${grid[i % grid.length]}ETF${Math.floor(i / grid.length) || ''}`);
  const out: Instrument[] = [];
  for (let i = 0; out.length < n; i++) {
    const symbol = symbols[i >> 1]!;
    out.push({ exchange: i % 2 === 0 ? 'NSE' : 'BSE', symbol, prevClose: 100 + (i % 900) });
  }
  return out;
}

/** A small fast deterministic generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** A UUID (version 4 layout) made of the two numbers: rule and user ids that every process agrees on. */
export function syntheticUuid(kind: number, n: number): string {
  return `${hex(kind, 8)}-${hex((n / 2 ** 32) & 0xffff, 4)}-4${hex((n >>> 20) & 0xfff, 3)}-8${hex((n >>> 8) & 0xfff, 3)}-${hex(n >>> 0, 8)}${hex(n & 0xffff, 4)}`;
}

export const userUuid = (user: number) => syntheticUuid(0xb3000001, user);
export const ruleUuid = (rule: number) => syntheticUuid(0xb3000002, rule);

/** All rows were last edited at this instant: their version. */
export const RULE_VERSION_MS = Date.UTC(2026, 0, 5, 3, 45, 0, 123);

/** Rows `from` … `to - 1` of the plan (chunks, so a million never sit in memory as rows). */
export function ruleRows(
  plan: RulePlan,
  instruments: readonly Instrument[],
  from: number,
  to: number,
): RuleRow[] {
  const rows: RuleRow[] = [];
  for (let k = from; k < to; k++) {
    const r = generator(k * 7919 + 17);
    const inst = instruments[Math.floor(r() * instruments.length)]!;
    const base = inst.prevClose;
    const kindDraw = r();
    const triggerType: TriggerType =
      kindDraw < 0.4 ? 'FIXED_STOP_LOSS' : kindDraw < 0.7 ? 'TRAILING_STOP_LOSS' : 'TAKE_PROFIT';
    const valueType: ValueType = r() < 0.8 ? 'PERCENT' : 'ABSOLUTE';
    let pct: number;
    let peak: number | null = null;
    if (triggerType === 'FIXED_STOP_LOSS') pct = 1.5 + r() * 23.5;
    else if (triggerType === 'TAKE_PROFIT') pct = 1.5 + r() * 48.5;
    else {
      pct = 2 + r() * 18;
      peak = round2(base * (1 + r() * 0.03));
    }
    const value = valueType === 'PERCENT' ? round2(pct) : round2((base * pct) / 100);
    const level = computeTriggerPrice({
      triggerType,
      valueType,
      triggerValue: value,
      referencePrice: base,
      peakPrice: peak,
    });
    rows.push({
      id: ruleUuid(k),
      user_id: userUuid(Math.floor(k / plan.rulesPerUser)),
      symbol: inst.symbol,
      exchange: inst.exchange,
      trigger_type: triggerType,
      trigger_value: String(value),
      value_type: valueType,
      reference_price: String(base),
      peak_price: peak === null ? null : String(peak),
      computed_trigger_price: String(level),
      rearm_at: null,
      version: RULE_VERSION_MS,
    });
  }
  return rows;
}

/** A full tick batch over the instruments: each price up to ±2 % from its previous close. */
export function ruleBatch(instruments: readonly Instrument[], seq: number): TickBatch {
  const asOf = Date.now();
  const quotes: Quote[] = instruments.map((inst, i) => {
    const ltp = round2(inst.prevClose * (1 + Math.sin(seq * 7 + i) / 50));
    const change = round2(ltp - inst.prevClose);
    return {
      symbol: inst.symbol,
      exchange: inst.exchange,
      ltp,
      prevClose: inst.prevClose,
      change,
      changePercent: round2((change / inst.prevClose) * 100),
      asOf,
      delayMinutes: 0,
    };
  });
  return { v: 1, id: `b3-${seq}`, at: Date.now(), source: 'bench', quotes };
}
