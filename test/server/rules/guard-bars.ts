/**
 * Daily bars made for Price Guard's preview (the API test and the browser test): a jumpy stock a
 * 7 % trailing stop is shaken out of and an ATR stop is not, a calm one that falls for good, and
 * one with too little history. Dated on the weekdays before today (IST), so any window holds them.
 */
import type { MadeBar as Ohlc } from '../../helpers/made-bars.ts';

export { madeBarRows as barsOf } from '../../helpers/made-bars.ts';

const repeat = (n: number, bar: Ohlc): Ohlc[] => Array.from({ length: n }, () => bar);

/** Closes flat at ₹100, swinging ₹6 either way every day: a 7 % trail sells on noise, 3 × ATR does not. */
export const JUMPY = repeat(60, [100, 106, 94, 100]);
/** Calm at ₹1,000, then a gap down to ₹900 and no way back: both stops sell, neither is a whipsaw. */
export const FALLS = [
  ...repeat(60, [1000, 1005, 995, 1000]),
  [900, 905, 880, 890] as Ohlc,
  ...repeat(15, [890, 895, 885, 890]),
];
/** Ten days: 13 short of the 23 the ATR stop needs. */
export const SHORT = repeat(10, [400, 404, 396, 400]);
