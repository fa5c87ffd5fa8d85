/**
 * Bad ticks (issue 20): no NSE or BSE price band is wider than 20 %, so a quote more than 20 %
 * from its previous close in one batch is more likely a feed error than a trade. It is held for
 * one batch: the rules see it only when the instrument's next quote is past 20 % on the same
 * side too (a real crash, e.g. a stock with no band on bad news). Until then stops do not fire
 * on it and trailing peaks do not rise to it. Sockets and the stored price are not screened:
 * the user sees what the feed says.
 */
import { instrumentKey, type Quote } from '@app/common/market/tick-batch';
import type { Logger } from 'pino';

/** The widest exchange price band, as a fraction of the previous close. */
export const BAD_TICK_FRACTION = 0.2;

type Side = 1 | -1;

export interface TickScreen {
  /** The quotes the rules may act on; a first quote past the band is held back. */
  admit(quotes: readonly Quote[]): Quote[];
}

/** A quote's side when it is past the band from its previous close; 0 inside it or without one. */
function sidePastBand(q: Quote): Side | 0 {
  if (q.prevClose === null || !(q.prevClose > 0)) return 0;
  const move = (q.ltp - q.prevClose) / q.prevClose;
  if (move > BAD_TICK_FRACTION) return 1;
  if (move < -BAD_TICK_FRACTION) return -1;
  return 0;
}

export function createTickScreen(log?: Logger): TickScreen {
  /** Instruments whose last quote was past the band, and on which side. */
  const pastBand = new Map<string, Side>();
  return {
    admit(quotes) {
      const admitted: Quote[] = [];
      for (const q of quotes) {
        const key = instrumentKey(q.exchange, q.symbol);
        const side = sidePastBand(q);
        if (side === 0) {
          pastBand.delete(key);
          admitted.push(q);
        } else if (pastBand.get(key) === side) {
          admitted.push(q);
        } else {
          pastBand.set(key, side);
          log?.info(
            { instrument: key, ltp: q.ltp, prevClose: q.prevClose },
            'quote more than 20 % from the previous close held for one batch',
          );
        }
      }
      return admitted;
    },
  };
}
