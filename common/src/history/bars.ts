/**
 * Daily history (issue #33): one trading day of one instrument, oldest first, split- and
 * bonus-adjusted, holidays simply absent (docs/exit-rules.md, "ATR stops and the backtest").
 */
export interface DailyBar {
  /** The trading day, `YYYY-MM-DD` (IST). */
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** What a user reads when a rule or a backtest needs more days than the store holds. */
export function historyNeededMessage(days: number): string {
  return `Needs ${days} more ${days === 1 ? 'day' : 'days'} of history`;
}

/** Thrown when the bars are too few for the rule: `days` more trading days are needed. */
export class NotEnoughHistoryError extends Error {
  constructor(readonly days: number) {
    super(historyNeededMessage(days));
    this.name = 'NotEnoughHistoryError';
  }
}
