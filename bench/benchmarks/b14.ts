/**
 * B14 (issue #33): the single-rule backtest (common/src/history/backtest.ts) on bars already in
 * memory and as the route answers it from the store. One 5-year backtest of a trailing
 * ATR stop that re-arms, and Price Guard's preview (the default 7 % trailing stop over 200
 * holdings × 3 years). The bars are a made random walk (a fixed seed, gaps and wide days
 * included), as many as the store would hold for 5 years plus the ATR's warm-up. And the preview
 * as the route answers it, from the store (bench/lib/b14-store.ts): 200 holdings' bars over 3
 * years and the ATR's warm-up read in one query, adjusted, and backtested beside the ATR stop.
 * The nightly ATR recomputation over 200,000 stops, from the store, is b14-nightly.ts.
 */
import type { DailyBar } from '../../common/src/history/bars.ts';
import { backtestRule, type BacktestResult, type BacktestRule } from '../../common/src/history/backtest.ts';
import { previewFromStore, type StorePreviewRun } from '../lib/b14-store.ts';
import { median } from '../lib/stats.ts';
import { nightlyRecomputation, type NightlyEvidence } from './b14-nightly.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

export const B14_SIZES = {
  full: { runs: 200, holdings: 200, previews: 5, storeRuns: 5, singleStoreRuns: 50 },
  quick: { runs: 3, holdings: 5, previews: 1, storeRuns: 1, singleStoreRuns: 2 },
};
type Size = (typeof B14_SIZES)['full'];

/** Trading days in about 5 years and 3 years, and the warm-up before them (≥ 4.5 × the ATR's 22 days). */
const FIVE_YEARS = 1250;
const THREE_YEARS = 750;
const WARM_UP = 100;

const CHANDELIER: BacktestRule = {
  triggerType: 'TRAILING_STOP_LOSS',
  valueType: 'ATR',
  triggerValue: 3,
  atrPeriod: 22,
  rearm: 'after_recovery',
  rearmPercent: 3,
};
const PRICE_GUARD_DEFAULT: BacktestRule = {
  triggerType: 'TRAILING_STOP_LOSS',
  valueType: 'PERCENT',
  triggerValue: 7,
};

export interface B14Evidence {
  size: Size;
  bars: number;
  /** The 5-year backtest's answer (the same every run). */
  backtest: BacktestResult;
  /** Per preview: the holdings backtested and the firings over all of them. */
  previews: Array<{ holdings: number; fired: number }>;
  /** The nightly ATR recomputation, when PostgreSQL is reachable. */
  nightly: NightlyEvidence | null;
  /** The preview from the store: its database, the bars stored, the last answer (and the 5-year backtest's). */
  store: Omit<StorePreviewRun, 'times' | 'single'> & { single: StorePreviewRun['single']['answer'] };
}

/**
 * `count` daily bars from 2 Jan 2019, trading days only: a random walk of about 2 % a day from a
 * seeded generator, one day in 40 opening with a gap of up to 6 %.
 */
export function madeBars(count: number, seed: number): DailyBar[] {
  let state = seed >>> 0 || 1;
  const random = () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
  const bars: DailyBar[] = [];
  const day = new Date(Date.UTC(2019, 0, 2));
  let close = 500 + random() * 2000;
  while (bars.length < count) {
    // Weekdays, one in 20 a holiday: about the 248 trading days of an NSE year.
    if (day.getUTCDay() % 6 !== 0 && random() >= 0.05) {
      const gap = random() < 1 / 40 ? (random() - 0.5) * 0.12 : (random() - 0.5) * 0.01;
      const open = close * (1 + gap);
      const next = open * (1 + (random() - 0.5) * 0.04);
      const high = Math.max(open, next) * (1 + random() * 0.01);
      const low = Math.min(open, next) * (1 - random() * 0.01);
      bars.push({ date: day.toISOString().slice(0, 10), open, high, low, close: next, volume: 1000 });
      close = next;
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return bars;
}

export const b14: Benchmark<B14Evidence> = {
  id: 'B14',
  title:
    'the single-rule backtest: one 5-year backtest, and Price Guard’s preview over 200 holdings (in memory, and from the store)',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B14_SIZES.quick : B14_SIZES.full;
    const bars = madeBars(FIVE_YEARS + WARM_UP, 14);
    let backtest = backtestRule(bars, CHANDELIER, { years: 5 }); // warm the JIT once
    const times: number[] = [];
    for (let r = 0; r < size.runs; r++) {
      const started = performance.now();
      backtest = backtestRule(bars, CHANDELIER, { years: 5 });
      times.push(performance.now() - started);
    }
    ctx.log(`B14 one backtest: median ${median(times).toFixed(3)} ms over ${size.runs} runs`);

    const holdings = Array.from({ length: size.holdings }, (_, h) =>
      madeBars(FIVE_YEARS + WARM_UP, 1000 + h),
    );
    const previews: B14Evidence['previews'] = [];
    const previewTimes: number[] = [];
    for (let p = 0; p < size.previews; p++) {
      const started = performance.now();
      let fired = 0;
      for (const holding of holdings)
        fired += backtestRule(holding, PRICE_GUARD_DEFAULT, { years: 3 }).fired.length;
      previewTimes.push(performance.now() - started);
      previews.push({ holdings: holdings.length, fired });
    }

    const stored = await previewFromStore(
      ctx,
      { holdings: size.holdings, runs: size.storeRuns, singleRuns: size.singleStoreRuns },
      (h) => madeBars(THREE_YEARS + WARM_UP, 1000 + h),
      {
        bars,
        rule: {
          trigger_type: 'TRAILING_STOP_LOSS',
          value_type: 'ATR',
          trigger_value: 3,
          atr_period: 22,
          rearm: 'after_recovery',
          rearm_percent: 3,
        },
      },
    );
    const nightly = await nightlyRecomputation(ctx, ctx.quick);
    const one = round(median(times), 3);
    const preview = round(median(previewTimes), 1);
    const fromStore = round(median(stored.times), 1);
    const oneFromStore = round(median(stored.single.times), 2);
    const nightlyS = nightly ? round(nightly.ms / 1000, 2) : null;
    const baselineS = nightly ? round(nightly.baselineMs / 1000, 2) : null;
    return {
      results: [
        result({
          id: 'B14-backtest',
          name: `One 5-year backtest (${backtest.series.length.toLocaleString('en-US')} days, ${bars.length - backtest.series.length} more before them for the ATR; trailing 3 × ATR(22) that re-arms), bars in memory`,
          value: one,
          unit: 'ms',
          baseline: null,
          target: '< 20 ms',
          pass: one < 20,
        }),
        result({
          id: 'B14-backtest-store',
          name: `The same backtest as POST /api/position-rules/backtest answers it: the instrument's ${bars.length.toLocaleString('en-US')} bars read from the store (${stored.database}), adjusted, replayed`,
          value: oneFromStore,
          unit: 'ms',
          baseline: null,
          target: '< 20 ms',
          pass: oneFromStore < 20,
        }),
        result({
          id: 'B14-preview',
          name: `Price Guard's preview: the 7 % trailing stop backtested over ${size.holdings} holdings × 3 years, bars in memory`,
          value: preview,
          unit: 'ms',
          baseline: null,
          target: '< 1 s',
          pass: preview < 1000,
        }),
        result({
          id: 'B14-preview-store',
          name: `Price Guard's preview as POST /api/price-guard/backtest answers it: ${size.holdings} holdings × 3 years read from the store (${stored.database}, ${stored.bars.toLocaleString('en-US')} bars, one query), adjusted, backtested beside the 3 × ATR(22) stop`,
          value: fromStore,
          unit: 'ms',
          baseline: null,
          target: '< 1 s',
          pass: fromStore < 1000,
        }),
        result({
          id: 'B14-nightly',
          name: nightly
            ? `Nightly ATR recomputation: ${nightly.size.rules.toLocaleString('en-US')} trailing ATR stops on ${nightly.size.instruments} instruments (a year of bars each), from the store, one set-based run; baseline each rule's ATR from its own bars, one rule at a time (${nightly.baselineRules.toLocaleString('en-US')} timed, scaled)`
            : 'Nightly ATR recomputation (needs PostgreSQL: none reachable)',
          value: nightlyS,
          unit: 's',
          baseline: baselineS,
          target: '< 10 s and ≥ 20 × faster than the baseline',
          pass:
            nightlyS !== null &&
            baselineS !== null &&
            nightlyS < 10 &&
            baselineS >= 20 * nightlyS &&
            nightly!.agree,
        }),
      ],
      notes: [
        `B14: median of ${size.runs} backtests and of ${size.previews} previews on made bars in memory, and of ${size.singleStoreRuns} backtests and ${size.storeRuns} previews from the store after one warm-up each.`,
        ...(nightly
          ? [
              `B14 nightly: ${nightly.rules.toLocaleString('en-US')} stops recomputed in ${nightlyS} s; the baseline's ${nightly.baselineRules} rules ${nightly.agree ? 'got the same levels' : 'got DIFFERENT levels'}.`,
            ]
          : []),
      ],
      evidence: {
        size,
        bars: bars.length,
        backtest,
        previews,
        nightly,
        store: {
          database: stored.database,
          bars: stored.bars,
          answer: stored.answer,
          single: stored.single.answer,
        },
      },
    };
  },
};
