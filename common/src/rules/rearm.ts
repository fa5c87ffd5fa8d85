/**
 * Re-arming (issue #20): a rule with `rearm: 'after_recovery'` does not stay off after it fires.
 * It waits until the price recovers `rearm_percent` past its level (above it for a stop, below
 * it for a take-profit), is armed again there, and can fire again. Each firing and each
 * re-arming is a History row; only firings count toward the alert quota. No rule expires.
 */
import { formatInr } from '../format/money.ts';
import { round2 } from '../portfolio/position-math.ts';
import type { TriggerType } from './types.ts';

export const REARM_MODES = ['never', 'after_recovery'] as const;
export type RearmMode = (typeof REARM_MODES)[number];

export const DEFAULT_REARM_PERCENT = 3;
export const MIN_REARM_PERCENT = 0.5;
export const MAX_REARM_PERCENT = 50;

/** execution_type of the History row a re-arming writes (never emailed, never counted). */
export const REARM_EXECUTION = 'REARM';

/**
 * The price at which a rule that fired at `level` re-arms: `percent` above a stop's level,
 * below a take-profit's, to the paisa.
 */
export function rearmPrice(triggerType: TriggerType, level: number, percent: number): number {
  const factor = triggerType === 'TAKE_PROFIT' ? 1 - percent / 100 : 1 + percent / 100;
  return round2(level * factor);
}

const ARMED_NAMES: Record<TriggerType, string> = {
  FIXED_STOP_LOSS: 'your stop loss',
  TRAILING_STOP_LOSS: 'your trailing stop',
  TAKE_PROFIT: 'your profit target',
};

/**
 * A re-arming's History line: 'RELIANCE recovered to ₹1,030.00: your stop loss is armed again
 * at ₹1,000.00'; a take-profit 'fell back to'.
 */
export function rearmMessage(input: {
  symbol: string;
  triggerType: TriggerType;
  ltp: number;
  level: number;
}): string {
  const moved = input.triggerType === 'TAKE_PROFIT' ? 'fell back to' : 'recovered to';
  return `${input.symbol} ${moved} ${formatInr(input.ltp)}: ${ARMED_NAMES[input.triggerType]} is armed again at ${formatInr(input.level)}`;
}
