/**
 * How old a quote may be before it stops counting as fresh: the one rule the streamer applies
 * to every quote and the server and client can apply to what they hold.
 *
 * A source that delays its prices by D minutes (Yahoo: 15 for NSE/BSE) prints a trade D minutes
 * after it happened; a quote is polled every interval. So a quote whose exchange time (`asOf`) is
 * older than D minutes plus a grace (two poll intervals) is not fresh, whatever the source says.
 * Age is counted from the session's open at the latest: before a stock's first trade of the day
 * its quote is yesterday's close, which is current until the session has run that long.
 */

/** What the rule reads of a quote. */
export interface QuoteTimes {
  /** Exchange time of the price (epoch ms). */
  asOf: number;
  /** The source's delay, minutes. */
  delayMinutes: number;
}

/** The clock and allowances the rule is judged with. */
export interface FreshnessContext {
  now: number;
  /** Allowed beyond the delay: two poll intervals in the streamer. */
  graceMs: number;
  /** The current session's open (epoch ms): a quote is never expected to be newer. */
  sessionOpenedAt?: number;
}

/** The longest a quote with this delay may lag the clock and still be fresh (ms). */
export function freshnessLimitMs(delayMinutes: number, graceMs: number): number {
  return Math.max(0, delayMinutes) * 60_000 + graceMs;
}

/** True when the quote's own time is older than its delay plus the grace allows. */
export function isQuoteTooOld(quote: QuoteTimes, context: FreshnessContext): boolean {
  const since = Math.max(quote.asOf, context.sessionOpenedAt ?? Number.NEGATIVE_INFINITY);
  return context.now - since > freshnessLimitMs(quote.delayMinutes, context.graceMs);
}
