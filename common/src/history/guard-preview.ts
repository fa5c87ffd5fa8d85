/**
 * Price Guard's preview (issue #33; docs/exit-rules.md, "Price Guard's preview"): the default rule
 * backtested on every holding, beside an ATR stop over the same days, and the sentences a user
 * reads. Pure: the caller reads the bars (all holdings in one query) and hands them in.
 */
import type { BacktestYears } from '../api/backtest.ts';
import type {
  GuardAtrRule,
  GuardPreviewLeftOut,
  GuardPreviewRow,
  GuardPreviewTarget,
  PriceGuardBacktest,
  PriceGuardBacktestInput,
} from '../api/price-guard.ts';
import { historyNeededMessage, NotEnoughHistoryError, type DailyBar } from './bars.ts';
import { backtestRule, type BacktestRule } from './backtest.ts';

/** The ATR stop suggested: 3 × ATR(22), the chandelier's usual setting (docs/exit-rules.md). */
export const SUGGESTED_ATR_MULTIPLE = 3;
export const SUGGESTED_ATR_PERIOD = 22;

/** Trading days the preview reads before the window, so the ATR's seed has faded (≥ 4.5 × n). */
export const ATR_WARM_UP_DAYS = Math.ceil(4.5 * SUGGESTED_ATR_PERIOD);

export const NO_HISTORY_MESSAGE = 'No daily history yet';

/** The ATR stop the default rule is compared with: trailing when the default trails. */
export function atrRuleFor(rule: Pick<PriceGuardBacktestInput, 'trigger_type'>): GuardAtrRule {
  return {
    trigger_type: rule.trigger_type,
    value_type: 'ATR',
    trigger_value: SUGGESTED_ATR_MULTIPLE,
    atr_period: SUGGESTED_ATR_PERIOD,
  };
}

/**
 * Backtests `input`'s rule and the ATR stop on each target's bars (`barsOf`: adjusted, oldest
 * first, empty when the store has none). Both start on the same day, the first with enough
 * history for the ATR; a target with less is left out with the days it needs. Targets on the
 * same instrument share one replay.
 */
export function previewPriceGuard(
  targets: readonly GuardPreviewTarget[],
  barsOf: (target: GuardPreviewTarget) => readonly DailyBar[],
  input: PriceGuardBacktestInput,
): PriceGuardBacktest {
  const years = input.years;
  const atrRule = atrRuleFor(input);
  const rearm = { rearm: input.rearm, rearmPercent: input.rearm_percent };
  const rule: BacktestRule = {
    triggerType: input.trigger_type,
    valueType: input.value_type,
    triggerValue: input.trigger_value,
    ...rearm,
  };
  const atr: BacktestRule = {
    triggerType: atrRule.trigger_type,
    valueType: 'ATR',
    triggerValue: atrRule.trigger_value,
    atrPeriod: atrRule.atr_period,
    ...rearm,
  };
  const replays = new Map<string, Replay>();
  const rows: GuardPreviewRow[] = [];
  const leftOut: GuardPreviewLeftOut[] = [];
  for (const target of targets) {
    const key = `${target.exchange}:${target.symbol}`;
    let replay = replays.get(key);
    if (!replay) replays.set(key, (replay = replayOne(barsOf(target), rule, atr, years)));
    if ('reason' in replay) leftOut.push({ ...target, ...replay });
    else rows.push({ ...target, ...replay });
  }

  const better = rows.filter((r) => r.atr_whipsaws < r.whipsaws);
  return {
    years,
    totals: {
      holdings: rows.length,
      fired: sum(rows, (r) => r.fired),
      whipsaws: sum(rows, (r) => r.whipsaws),
    },
    holdings: rows,
    left_out: leftOut,
    atr_rule: atrRule,
    suggestion:
      better.length === 0
        ? null
        : {
            holdings: better.length,
            whipsaws: sum(better, (r) => r.whipsaws),
            atr_whipsaws: sum(better, (r) => r.atr_whipsaws),
          },
  };
}

type Replay =
  | Omit<GuardPreviewRow, keyof GuardPreviewTarget>
  | Pick<GuardPreviewLeftOut, 'reason' | 'days_needed' | 'message'>;

function replayOne(
  bars: readonly DailyBar[],
  rule: BacktestRule,
  atr: BacktestRule,
  years: BacktestYears,
): Replay {
  if (bars.length === 0) return { reason: 'no_history', days_needed: null, message: NO_HISTORY_MESSAGE };
  try {
    const withAtr = backtestRule(bars, atr, { years });
    // The rule from the ATR stop's first day, so both are measured over the same days.
    const first = bars.findIndex((b) => b.date === withAtr.from);
    const plain = backtestRule(bars.slice(first), rule, { years });
    return {
      from: plain.from,
      to: plain.to,
      fired: plain.fired.length,
      whipsaws: plain.whipsaws,
      rule_return_percent: plain.rule_return_percent,
      hold_return_percent: plain.hold_return_percent,
      atr_fired: withAtr.fired.length,
      atr_whipsaws: withAtr.whipsaws,
    };
  } catch (error) {
    if (!(error instanceof NotEnoughHistoryError)) throw error;
    return { reason: 'too_short', days_needed: error.days, message: historyNeededMessage(error.days) };
  }
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += of(item);
  return total;
}

const times = (n: number) => (n === 1 ? 'once' : `${n.toLocaleString('en-IN')} times`);
const holdingsWord = (n: number) => `${n.toLocaleString('en-IN')} ${n === 1 ? 'holding' : 'holdings'}`;

/**
 * 'Over 3 years, this rule would have fired 31 times on your 24 holdings, 19 of them whipsaws.'
 * (a whipsaw: sold, and back above the level within 10 trading days).
 */
export function guardPreviewSentence(p: Pick<PriceGuardBacktest, 'years' | 'totals'>): string {
  const { holdings, fired, whipsaws } = p.totals;
  const span = `Over ${p.years} ${p.years === 1 ? 'year' : 'years'}`;
  if (fired === 0) return `${span}, this rule would not have fired on your ${holdingsWord(holdings)}.`;
  const tail =
    whipsaws === 0
      ? 'none of them a whipsaw'
      : fired === 1
        ? 'a whipsaw'
        : `${whipsaws.toLocaleString('en-IN')} of them ${whipsaws === 1 ? 'a whipsaw' : 'whipsaws'}`;
  return `${span}, this rule would have fired ${times(fired)} on your ${holdingsWord(holdings)}, ${tail}.`;
}

/** The ATR stop's totals over the same holdings and days, for the line when it is the rule chosen. */
export function atrTotals(p: Pick<PriceGuardBacktest, 'holdings'>): PriceGuardBacktest['totals'] {
  return {
    holdings: p.holdings.length,
    fired: sum(p.holdings, (r) => r.atr_fired),
    whipsaws: sum(p.holdings, (r) => r.atr_whipsaws),
  };
}

/** 'An ATR stop would have whipsawed 7 times instead of 19 on 12 holdings.' Empty without a suggestion. */
export function atrSuggestionSentence(p: Pick<PriceGuardBacktest, 'suggestion'>): string {
  const s = p.suggestion;
  if (!s) return '';
  if (s.atr_whipsaws === 0) {
    return `An ATR stop would not have whipsawed on ${holdingsWord(s.holdings)} where this rule whipsawed ${times(s.whipsaws)}.`;
  }
  return (
    `An ATR stop would have whipsawed ${times(s.atr_whipsaws)} ` +
    `instead of ${s.whipsaws.toLocaleString('en-IN')} on ${holdingsWord(s.holdings)}.`
  );
}

/** '3 × ATR(22) trailing stop': the ATR rule in words. */
export function atrRuleWords(rule: GuardAtrRule): string {
  return `${rule.trigger_value} × ATR(${rule.atr_period}) ${rule.trigger_type === 'TRAILING_STOP_LOSS' ? 'trailing stop (the chandelier exit)' : 'fixed stop'}`;
}
