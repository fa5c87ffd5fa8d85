/** GET /api/market/bars: the query it takes and the shape it answers with (docs/history.md). */
import { z } from 'zod';
import type { DailyBar } from '../history/bars.ts';
import { symbolSchema } from '../instruments/symbol.ts';
import { EXCHANGES } from '../instruments/types.ts';
import { isoDateSchema } from '../market/calendar.ts';

/** The longest range one request reads: ten years of trading days is about 2,500 bars. */
export const BARS_MAX_YEARS = 10;

const DAY_MS = 86_400_000;
const yearsBetween = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (365.25 * DAY_MS);

/**
 * `?symbol=&exchange=&from=&to=`: dates `YYYY-MM-DD`, both days included; `to` defaults to
 * today (IST) and `from` to a year before `to`; the range may span at most BARS_MAX_YEARS.
 */
export const marketBarsQuery = z
  .object({
    symbol: symbolSchema,
    exchange: z
      .preprocess(
        (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
        z.enum(EXCHANGES, { error: 'Exchange must be NSE or BSE' }),
      )
      .default('NSE'),
    from: isoDateSchema.optional(),
    to: isoDateSchema.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'from must not be after to', path: ['from'] })
  .refine((q) => !q.from || !q.to || yearsBetween(q.from, q.to) <= BARS_MAX_YEARS, {
    error: `The range can span at most ${BARS_MAX_YEARS} years`,
    path: ['from'],
  });
export type MarketBarsQuery = z.infer<typeof marketBarsQuery>;

/** One day's bar, adjusted for the bonuses and splits since. */
export type ApiDailyBar = DailyBar;
