/**
 * The broker seam (docs/holdings.md#connect-a-broker): what the app needs of a broker's API, one
 * `BrokerConnector` per broker, each in its own folder (`kite/`, `upstox/`, `angelone/`, `dhan/`).
 * No broker's field names leave its folder: a connector answers in these shapes and throws
 * `BrokerError` for every failure, its kind deciding what the user is told.
 *
 * Connectors are thin clients over `fetch`, one call per request with the session passed in: the
 * official SDKs keep module-wide state and one token per process, which a server holding many
 * investors' sessions cannot share.
 */
import type { BrokerConnectMethod, BrokerId } from '@app/common/api/brokers';
import type { Exchange } from '@app/common/instruments/types';

/** A signed-in session at the broker, as stored (encrypted) on the account. */
export interface BrokerSession {
  /** The token every later call carries. */
  accessToken: string;
  /** Companion values a broker needs on later calls (Angel One's feed and refresh tokens). */
  extra?: Readonly<Record<string, string>>;
  /** The investor's client id at the broker: the account's label, so a reconnect finds the same account. */
  clientId: string;
  /** When the broker kills the token (Kite 06:00 IST, Upstox 03:30 IST, Angel One midnight IST, Dhan 24 h). */
  expiresAt: Date;
}

/** One holding as the broker reports it, in our terms; the symbol is resolved by the sync (ISIN first). */
export interface BrokerHolding {
  /** The broker's symbol as given (`SBIN`, `TATASTEEL-EQ`, `RELINFRA-BE`). */
  brokerSymbol: string;
  /** Null when the broker does not say (Dhan's `"ALL"`): the master decides, NSE first. */
  exchange: Exchange | null;
  isin: string | null;
  /** Shares the investor owns: settled (pledged and collateral included) plus T1 (bought, not yet settled). */
  quantity: number;
  averagePrice: number;
}

/** What a failure means to the investor; each maps to a sentence in BROKER_TEXTS. */
export type BrokerErrorKind =
  /** The token expired or was revoked (Kite's TokenException, 401/403 from the others). */
  | 'expired'
  /** The investor declined or cancelled the broker's login. */
  | 'denied'
  /** The broker refused the app's keys (bad api_key, secret, checksum or redirect URL). */
  | 'wrong_keys'
  /** 429, or a broker's own rate-limit answer; `retryAfterS` when it said how long. */
  | 'rate_limited'
  /** 5xx, a refused connection or no answer within BROKER_TIMEOUT_MS. */
  | 'unavailable'
  /** An answer that is not the broker's documented shape (a missing field, not JSON). */
  | 'malformed';

export class BrokerError extends Error {
  constructor(
    readonly kind: BrokerErrorKind,
    /** For the log only: never shown to the investor, never holding a token. */
    detail: string,
    readonly retryAfterS?: number,
  ) {
    super(detail);
    this.name = 'BrokerError';
  }
}

/** The callback's query string, as the broker sent the browser back. */
export type CallbackQuery = Readonly<Record<string, string | undefined>>;

export interface BrokerConnector {
  readonly id: BrokerId;
  readonly connect: BrokerConnectMethod;
  /** The broker's login page for this app, carrying our single-use `state` back (redirect brokers). */
  loginUrl?(state: string, redirectUri: string): string;
  /** The state the callback carries (Kite: inside redirect_params, which Kite appends to the query). */
  stateOf?(query: CallbackQuery): string | undefined;
  /** The callback's query turned into a session: `denied` when the investor cancelled. */
  completeLogin?(query: CallbackQuery, redirectUri: string): Promise<BrokerSession>;
  /** A session from a token the investor pasted (Dhan), checked against the broker. */
  sessionFromToken?(input: { clientId: string; accessToken: string }): Promise<BrokerSession>;
  /** Every equity holding of the account. */
  holdings(session: BrokerSession): Promise<BrokerHolding[]>;
}
