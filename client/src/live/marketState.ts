/**
 * What the header's market state says (pure, unit-tested): 'Simulated prices', Live,
 * 'Delayed 15 min · as of 10:41 IST', Reconnecting, 'Pre-open' or 'Market closed · last prices
 * 15:30 IST', judged from the socket state, the market feed the server describes to every user
 * (its source, its newest price's time and delay: `common/src/market/feed.ts`), the freshness
 * rule of `common/src/market/quote-freshness.ts` and the NSE/BSE calendar shared with the
 * streamer (`common/src/market/calendar.ts`: pre-open 09:00–09:15, session 09:15–15:30 IST,
 * Monday to Friday, minus the exchange holidays, plus special sessions).
 */
import { formatIstDate, formatIstTime } from '@app/common/format/ist';
import { nseCalendar } from '@app/common/market/calendar';
import { isSimulatedFeed, type MarketFeed } from '@app/common/market/feed';
import { isQuoteTooOld, type QuoteTimes } from '@app/common/market/quote-freshness';
import { SOCKET_ERRORS } from '@app/common/realtime/events';

/**
 * Where the tab's Socket.IO connection stands. 'too-many': the server refused it because the
 * account has too many open (SOCKET_ERRORS.tooManyConnections); it keeps trying.
 */
export type ConnectionStatus = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'too-many' | 'offline';

/** What the tab does after the server refused its socket handshake with `message`. */
export interface RefusalResponse {
  /** Renew the session before trying again: only when the token itself was refused. */
  renewSession: boolean;
  /** Show 'too-many' (the account has too many sockets) instead of reconnecting. */
  tooMany: boolean;
}

/**
 * How a refused handshake is handled: every refusal is retried with backoff; only a refused
 * token renews the session (which may end in signing out). A server that could not check the
 * token (its database unreachable: SOCKET_ERRORS.unavailable) is simply retried later.
 */
export function refusalResponse(message: string): RefusalResponse {
  return {
    renewSession: message === SOCKET_ERRORS.unauthorized,
    tooMany: message === SOCKET_ERRORS.tooManyConnections,
  };
}

export type IndicatorTone = 'live' | 'simulated' | 'delayed' | 'closed' | 'pending' | 'offline';

export interface IndicatorState {
  tone: IndicatorTone;
  label: string;
  /** The words a phone's header has room for ('Closed' for 'Market closed · last prices …'). */
  short: string;
  /** A longer sentence for the tooltip and screen readers. */
  description: string;
}

/**
 * A quote younger than its source's delay plus this counts as current (quotes arrive every
 * minute; one may be missed).
 */
export const FRESH_QUOTE_MS = 3 * 60_000;

/** True from 09:15 (inclusive) to 15:30 (exclusive) IST on a trading day (not a weekend or holiday), or in a special session. */
export function isNseSessionOpen(at: number): boolean {
  return nseCalendar.isMarketOpen(new Date(at));
}

/**
 * The newest price the header goes by: the feed's (the same for every user) once the server
 * has described it, else the newest quote the tab holds.
 */
export function newestPrice(feed: MarketFeed | null, held: QuoteTimes | null): QuoteTimes | null {
  return feed?.asOf != null ? { asOf: feed.asOf, delayMinutes: feed.delayMinutes } : held;
}

/** 15:30, or 23/01 15:30 when `at` is not on `now`'s IST date. */
function istClock(at: number, now: number): string {
  const time = formatIstTime(at, { seconds: false });
  return formatIstDate(at) === formatIstDate(now) ? time : `${formatIstDate(at).slice(0, 5)} ${time}`;
}

/**
 * The indicator for a connection state, the newest price (its time, epoch ms, and its source's
 * delay), the clock and the feed's source (`simulated`: the demo market, whatever the hour).
 */
export function indicatorState(
  status: ConnectionStatus,
  newest: QuoteTimes | null,
  now: number,
  source?: string,
): IndicatorState {
  if (status === 'idle' || status === 'connecting') {
    return {
      tone: 'pending',
      label: 'Connecting',
      short: 'Connecting',
      description: 'Connecting to live prices…',
    };
  }
  if (status === 'reconnecting') {
    return {
      tone: 'pending',
      label: 'Reconnecting',
      short: 'Reconnecting',
      description: 'Live prices paused: reconnecting. Prices shown may be out of date.',
    };
  }
  if (status === 'too-many') {
    return {
      tone: 'offline',
      label: 'Too many tabs',
      short: 'Too many tabs',
      description: `Live prices paused: ${SOCKET_ERRORS.tooManyConnections}`,
    };
  }
  if (status === 'offline') {
    return {
      tone: 'offline',
      label: 'Offline',
      short: 'Offline',
      description: 'Live prices are unavailable. Reload the page to try again.',
    };
  }
  if (source !== undefined && isSimulatedFeed({ source })) {
    return {
      tone: 'simulated',
      label: 'Simulated prices',
      short: 'Simulated',
      description: 'Simulated prices: a demo market that moves around the clock, not prices from NSE or BSE.',
    };
  }
  const fresh = newest !== null && !isQuoteTooOld(newest, { now, graceMs: FRESH_QUOTE_MS });
  if (fresh && newest.delayMinutes > 0) {
    const minutes = newest.delayMinutes;
    const when = istClock(newest.asOf, now);
    return {
      tone: 'delayed',
      label: `Delayed ${minutes} min · as of ${when} IST`,
      short: `Delayed ${minutes} min`,
      description: `Delayed prices, as of ${when} IST: the exchange's quotes reach us ${minutes} minutes after the trade.`,
    };
  }
  if (fresh || (newest === null && isNseSessionOpen(now))) {
    return {
      tone: 'live',
      label: 'Live',
      short: 'Live',
      description: 'Live prices: updates arrive as the market moves.',
    };
  }
  if (nseCalendar.sessionAt(new Date(now)) === 'pre_open') {
    return {
      tone: 'pending',
      label: 'Pre-open',
      short: 'Pre-open',
      description: 'Pre-open session: the exchange is collecting orders; trading starts at the open.',
    };
  }
  if (newest === null) {
    return {
      tone: 'closed',
      label: 'Market closed',
      short: 'Closed',
      description: 'Market closed: no live prices right now.',
    };
  }
  const when = istClock(newest.asOf, now);
  return {
    tone: 'closed',
    label: `Market closed · last prices ${when} IST`,
    short: 'Closed',
    description: `Market closed. Prices shown are the last traded prices, as of ${when} IST.`,
  };
}
