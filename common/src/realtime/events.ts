/**
 * Socket.IO events, declared once and shared by the server and the client (docs/live-prices.md, Socket.IO).
 */
import type { Exchange } from '../instruments/types.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { ApiRuleExecution } from '../rules/responses.ts';

export interface LiveQuote {
  symbol: string;
  exchange: Exchange;
  ltp: number;
  prevClose: number | null;
  change: number | null;
  changePercent: number | null;
  /** When the exchange printed the price (epoch ms). */
  asOf: number;
  /** How many minutes the source delays its prices (Yahoo: 15; simulated and replay: 0). */
  delayMinutes: number;
  /** Present (true) only when this is a last known price the feed could not refresh. */
  stale?: true;
  /** Present (true) only when the source has stopped pricing it (delisted?); see `stale`. */
  unavailable?: true;
}

/** One message per tick batch, with only the receiving user's instruments. */
export interface QuotesMessage {
  /** The batch's publish time (epoch ms). */
  at: number;
  quotes: LiveQuote[];
}

/** A rule or price alert that fired (the History row). */
export interface AlertExecution {
  id: string;
  symbol: string;
  exchange: Exchange;
  trigger_type: string;
  status: string;
  execution_type: string;
  trigger_price: number;
  execution_price: number;
  message: string | null;
  executed_at: string;
  rule_id: string | null;
  price_alert_id: string | null;
  over_quota: boolean;
  /**
   * The notice it was told in (issue #28): the id of the notice's lead execution, which carries
   * the notice's words; the rules of one stock that fire together share it. Null on older rows.
   */
  notice_id: string | null;
}

export interface ServerToClientEvents {
  quotes: (message: QuotesMessage) => void;
  /**
   * A rule or price alert fired: the execution as the bell lists it. The tab patches its lists
   * from it (the rule or alert is triggered now, the bell has one more unread) without refetching.
   */
  alert: (payload: { execution: ApiRuleExecution }) => void;
  /** An execution's email deliveries settled (SUCCESS or FAILED). */
  'execution:status': (update: { id: string; status: string }) => void;
  /** The user changed holdings or rules (another tab, another device): refetch them. */
  'holdings:changed': () => void;
  'rules:changed': () => void;
  /** Notification endpoints were added, verified or deleted. */
  'endpoints:changed': () => void;
  /** The server may have missed changes (its link to the other servers dropped): refetch everything. */
  resync: () => void;
  /** Trailing peaks moved: the rules' current trigger levels. */
  'rules:levels': (
    levels: { id: string; peak_price: number | null; computed_trigger_price: number }[],
  ) => void;
  /**
   * Whether tick batches can reach this tab: `live: false` while the server's link to the
   * market feed (Redis) is down, sent on connecting then too; `live: true` when it is back.
   */
  'feed:status': (status: { live: boolean }) => void;
  /**
   * The market feed as a whole (its source, its newest price's time and delay), the same for
   * every user: sent on connecting and when it moves (common/src/market/feed.ts).
   */
  'market:feed': (feed: MarketFeed) => void;
}

export type ClientToServerEvents = Record<string, never>;

/**
 * Open sockets one account may hold on one server instance: a few tabs and devices need a few;
 * each costs the server memory, so one account cannot hold thousands.
 */
export const MAX_SOCKETS_PER_USER = 50;

/** Why the server closed a socket (sent as the connect_error / disconnect reason data). */
export const SOCKET_ERRORS = {
  /** The access token was refused: renew the session, then connect again. */
  unauthorized: 'unauthorized',
  origin: 'origin not allowed',
  /** The account already holds MAX_SOCKETS_PER_USER sockets here; one closing frees a place. */
  tooManyConnections: `Too many open connections for this account (${MAX_SOCKETS_PER_USER} at most). Close some tabs and try again.`,
  /** The token could not be checked (the database is unreachable): try again shortly. */
  unavailable: 'Live prices are temporarily unavailable. Please try again shortly.',
} as const;
