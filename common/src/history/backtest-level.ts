/**
 * How a backtested rule's level moves, per kind (backtest.ts; docs/exit-rules.md, "ATR stops and
 * the backtest"). Armed at a price after a day's close; raised, for trailing kinds, after each
 * day's check, so the level a day is tested against comes only from the days before it.
 */
import { round2 } from '../portfolio/position-math.ts';
import { computeTriggerPrice } from '../rules/trigger.ts';
import type { TriggerType, ValueType } from '../rules/types.ts';
import type { RearmMode } from '../rules/rearm.ts';
import type { DailyBar } from './bars.ts';
import { atrStopLevel, raiseAtrStop } from './atr-stop.ts';

/** A rule as the backtest takes it: the fields of a position rule (docs/exit-rules.md). */
export type BacktestRule = (
  | { triggerType: TriggerType; valueType: Exclude<ValueType, 'ATR'>; triggerValue: number }
  | {
      triggerType: Exclude<TriggerType, 'TAKE_PROFIT'>;
      valueType: 'ATR';
      /** The multiple k of the ATR. */
      triggerValue: number;
      /** The ATR's period n. */
      atrPeriod: number;
    }
) & { rearm?: RearmMode; rearmPercent?: number };

/** A rule's level through the simulation: `level` is the one the next day is tested against. */
export interface LevelTracker {
  level: number;
  /** Arms (or re-arms) at `price` after day `i`'s close, or at `price` during it. */
  arm(i: number, price: number): void;
  /** After day `i`'s check, while armed: a trailing kind raises its peak and its level. */
  endOfDay(i: number): void;
}

/**
 * The tracker for `rule` over `bars`. `atr` is Wilder's ATR aligned with the bars (ATR kinds
 * only). A fixed level keeps its level when it re-arms; a trailing one restarts from the price
 * that re-armed it, as the live engine does (docs/exit-rules.md, Re-arming).
 */
export function levelTracker(
  rule: BacktestRule,
  bars: readonly DailyBar[],
  atr: ReadonlyArray<number | undefined>,
): LevelTracker {
  const trailing = rule.triggerType === 'TRAILING_STOP_LOSS';
  const isAtr = rule.valueType === 'ATR';
  const k = rule.triggerValue;
  const levelFrom = (base: number, i: number): number =>
    rule.valueType === 'ATR'
      ? atrStopLevel(base, atr[i]!, k)
      : computeTriggerPrice({
          triggerType: rule.triggerType,
          valueType: rule.valueType,
          triggerValue: k,
          referencePrice: base,
          peakPrice: base,
        });
  let armedOnce = false;
  let peak = 0;
  const tracker: LevelTracker = {
    level: 0,
    arm(i, price) {
      if (armedOnce && !trailing) return;
      armedOnce = true;
      // Armed during day i (a re-arming): that day's close came after it.
      peak = Math.max(price, bars[i]!.close);
      tracker.level = levelFrom(peak, i);
    },
    endOfDay(i) {
      if (!trailing) return;
      // The chandelier trails closes; a percent or rupee trail follows every price, as live.
      const price = isAtr ? bars[i]!.close : bars[i]!.high;
      if (price > peak) peak = price;
      tracker.level = isAtr
        ? raiseAtrStop(tracker.level, peak, atr[i]!, k)
        : Math.max(tracker.level, levelFrom(peak, i));
    },
  };
  return tracker;
}

/** Percent change from `from` to `to`, to 2 decimals. */
export function percentChange(from: number, to: number): number {
  return round2((to / from - 1) * 100);
}
