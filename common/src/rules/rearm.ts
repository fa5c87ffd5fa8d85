/**
 * Re-arming (issue #20): a rule with `rearm: 'after_recovery'` does not stay off after it fires.
 * It waits until the price recovers `rearm_percent` past its level (above it for a stop, below
 * it for a take-profit), is armed again there, and can fire again. Each firing and each
 * re-arming is a History row; only firings count toward the alert quota. No rule expires.
 */
import { formatInr } from '../format/money.ts';
import { RULE_KINDS, type TriggerType } from './kinds.ts';

export const REARM_MODES = ['never', 'after_recovery'] as const;
export type RearmMode = (typeof REARM_MODES)[number];

export const DEFAULT_REARM_PERCENT = 3;
export const MIN_REARM_PERCENT = 0.5;
export const MAX_REARM_PERCENT = 50;

/** execution_type of the History row a re-arming writes (never emailed, never counted). */
export const REARM_EXECUTION = 'REARM';

/**
 * The price at which a rule that fired at `level` re-arms: `percent` above a stop's level,
 * below a take-profit's (the far side from where its kind fires, kinds.ts), to the paisa,
 * half away from zero. Computed exactly on the stored decimals (4 places), as Postgres does in
 * the claim (server/src/triggers/kind-sql.ts): 99.99 + 50 % is 149.99, where binary floating
 * point would say 149.98.
 */
export function rearmPrice(triggerType: TriggerType, level: number, percent: number): number {
  const sign = RULE_KINDS[triggerType].direction === 'above' ? -1n : 1n;
  const scaled = (x: number) => BigInt(Math.round(x * 10_000));
  // level × (100 ± percent) / 100 in units of 10⁻¹⁰ rupees, then to paise.
  const product = scaled(level) * (1_000_000n + sign * scaled(percent));
  const whole = product / 100_000_000n;
  const rest = product % 100_000_000n;
  const half = 2n * (rest < 0n ? -rest : rest) >= 100_000_000n;
  const paise = half ? whole + (product < 0n ? -1n : 1n) : whole;
  return Number(paise) / 100;
}

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
  const moved = RULE_KINDS[input.triggerType].direction === 'above' ? 'fell back to' : 'recovered to';
  return `${input.symbol} ${moved} ${formatInr(input.ltp)}: ${RULE_KINDS[input.triggerType].yours} is armed again at ${formatInr(input.level)}`;
}
