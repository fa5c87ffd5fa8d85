/**
 * Daily history from Yahoo's v8 `chart` API (docs/history.md, "From Yahoo"): five years of daily
 * bars of one symbol in one request, `range=5y&interval=1d&events=div,splits`, through the same
 * fetch as the quotes (`./yahoo-fetch.ts`: YAHOO_BASE_URL, timeout, a 429 or 5xx thrown as a
 * retryable QuoteProviderError carrying Retry-After, a 404 for an unknown symbol as a
 * non-retryable one). The answer's shape is `chart.result[0] = {meta, timestamp[], indicators:
 * {quote: [{open[], high[], low[], close[], volume[]}]}, events: {splits: {"<ts>": {date,
 * numerator, denominator}}}}`.
 *
 * Yahoo's OHLC and volume are split-adjusted after the fact (and it reports bonuses as splits);
 * the store keeps bars as the exchange printed them. So every bar before a split's day is
 * multiplied back by the ratio (numerator / denominator) of each split after it, prices rounded
 * to the paisa, and its volume divided by it. Only the splits in the answer are undone; as the
 * range runs up to today, that is every split since the first bar. Dividends are not adjusted for
 * in Yahoo's OHLC (only in `adjclose`, which is not read). Rows with a missing price are dropped
 * (Yahoo sends some), a day given twice keeps its last row, and today's row (a live, partial bar
 * while the session runs) and any later one are dropped: the day's own bar comes from the quotes.
 * Dates are the exchange's (`meta.exchangeTimezoneName`, Asia/Kolkata for NSE and BSE).
 */
import type { DailyBar } from '@app/common/history/bars';
import { z } from 'zod';
import { QuoteProviderError } from './types.ts';
import { createYahooFetch } from './yahoo-fetch.ts';

export interface YahooChartOptions {
  /** YAHOO_BASE_URL: every Yahoo host goes there instead (the local fake in tests). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Per request (default 20 s: five years is a larger answer than a quote). */
  timeoutMs?: number;
}

/** One instrument's history from Yahoo: bars as printed, oldest first, before `today` (`YYYY-MM-DD`). */
export interface YahooChart {
  dailyBars(yahooSymbol: string, today: string): Promise<DailyBar[]>;
}

const series = z.array(z.number().nullable()).optional();
const chartAnswerSchema = z.object({
  chart: z.object({
    result: z
      .array(
        z.object({
          meta: z.object({ exchangeTimezoneName: z.string() }),
          timestamp: z.array(z.number()).optional(),
          indicators: z.object({
            quote: z.array(
              z.object({ open: series, high: series, low: series, close: series, volume: series }),
            ),
          }),
          events: z
            .object({
              splits: z
                .record(
                  z.string(),
                  z.object({
                    date: z.number(),
                    numerator: z.number().positive(),
                    denominator: z.number().positive(),
                  }),
                )
                .optional(),
            })
            .optional(),
        }),
      )
      .nullable(),
    error: z.object({ code: z.string(), description: z.string().nullish() }).nullable().optional(),
  }),
});

type ChartResult = NonNullable<z.infer<typeof chartAnswerSchema>['chart']['result']>[number];

/** The exchange's calendar day of an epoch-seconds time, `YYYY-MM-DD`. */
function dayIn(timeZone: string): (seconds: number) => string {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return (seconds) => format.format(new Date(seconds * 1000));
}

const toPaisa = (n: number) => Math.round(n * 100) / 100;

/** The answer's bars as printed (splits undone), oldest first, before `today`. */
function unadjustedBars(result: ChartResult, today: string): DailyBar[] {
  const day = dayIn(result.meta.exchangeTimezoneName);
  const splits = Object.values(result.events?.splits ?? {}).map((s) => ({
    day: day(s.date),
    ratio: s.numerator / s.denominator,
  }));
  const quote = result.indicators.quote[0] ?? {};
  const byDay = new Map<string, DailyBar>();
  for (const [i, time] of (result.timestamp ?? []).entries()) {
    const [open, high, low, close] = [quote.open, quote.high, quote.low, quote.close].map((s) => s?.[i]);
    if (open == null || high == null || low == null || close == null) continue;
    if (!(open > 0 && high > 0 && low > 0 && close > 0)) continue;
    const date = day(time);
    if (date >= today) continue;
    const factor = splits.filter((s) => s.day > date).reduce((f, s) => f * s.ratio, 1);
    byDay.set(date, {
      date,
      open: toPaisa(open * factor),
      high: toPaisa(high * factor),
      low: toPaisa(low * factor),
      close: toPaisa(close * factor),
      volume: Math.round((quote.volume?.[i] ?? 0) / factor),
    });
  }
  return [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** Creates the chart client (see the module comment). */
export function createYahooChart(options: YahooChartOptions = {}): YahooChart {
  const yahooFetch = createYahooFetch({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? 20_000,
    // The chart API asks for no session: nothing to forget.
    onSessionRefused: async () => undefined,
  });
  return {
    async dailyBars(yahooSymbol, today) {
      const url =
        `https://query2.finance.yahoo.com/v8/finance/chart/${encodeURIComponent(yahooSymbol)}` +
        '?range=5y&interval=1d&events=div%2Csplits&includePrePost=false';
      const response = await yahooFetch(url);
      const parsed = chartAnswerSchema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success)
        throw new QuoteProviderError(`yahoo chart for ${yahooSymbol}: not a chart answer`, {
          retryable: false,
        });
      const { result, error } = parsed.data.chart;
      const first = result?.[0];
      if (!first)
        throw new QuoteProviderError(
          `yahoo chart for ${yahooSymbol}: ${error?.description ?? error?.code ?? 'no result'}`,
          { retryable: false },
        );
      return unadjustedBars(first, today);
    },
  };
}
