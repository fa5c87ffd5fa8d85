/**
 * After the close: the IST trading day whose after-close work is due (the evening digest, the
 * brokers' daily sync, the day's own bar, the nightly ATR recomputation), once the session has
 * closed and it is 16:00 IST or later on a trading day (the exchange calendar: nothing on a
 * weekend or holiday).
 */
import { istDateOf, nseCalendar, type ExchangeCalendar } from '@app/common/market/calendar';

/** Minutes after IST midnight from which the day's after-close work is due (16:00). */
export const AFTER_CLOSE_FROM_MINUTES = 16 * 60;

/** Midnight IST of `day` (`YYYY-MM-DD`). */
export const istMidnight = (day: string) => new Date(`${day}T00:00:00+05:30`);

/** The IST trading day whose after-close work is due at `now` (and the next trading day), or null. */
export function afterCloseDayAt(
  now: Date,
  calendar: ExchangeCalendar = nseCalendar,
): { day: string; nextDay: string } | null {
  const day = istDateOf(now);
  if (now.getTime() < istMidnight(day).getTime() + AFTER_CLOSE_FROM_MINUTES * 60_000) return null;
  // The day traded and its session is over (a special evening session closes later).
  if (istDateOf(calendar.lastClose(now)) !== day) return null;
  return { day, nextDay: istDateOf(calendar.nextOpen(now)) };
}
