/**
 * The brokers' live price feeds (docs/live-prices.md#streaming-feeds): which source streams
 * quotes (`QUOTE_PROVIDER=kite|upstox|angelone|dhan`), how often the streamer publishes what they
 * pushed, what it polls while a stream is not live, the feeds' addresses (default: the brokers'
 * real ones; tests point them at local fakes) and a headless server's access tokens.
 */
import { z } from 'zod';

const url = (what: string) => z.url({ message: `must be a ${what} URL` });
const token = z.string().trim().min(1).max(4096);

/** The quote sources that poll (`providers/`) and those that stream (`streams/`). */
export const POLLING_SOURCES = ['simulated', 'replay', 'yahoo'] as const;
export const STREAMING_SOURCES = ['kite', 'upstox', 'angelone', 'dhan'] as const;

export const feedVariables = {
  /** Milliseconds between two tick batches of a streaming feed (the latest quote per instrument). */
  FEED_BATCH_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /** What a streaming feed's instruments are polled from while the stream is not live. */
  QUOTE_FALLBACK: z.enum(POLLING_SOURCES).default('yahoo'),
  /** Kite Connect's ticker (the API key is KITE_API_KEY). */
  KITE_WS_URL: url('ws(s)').default('wss://ws.kite.trade'),
  /** Angel One's SmartStream v2. */
  ANGELONE_WS_URL: url('ws(s)').default('wss://smartapisocket.angelone.in/smart-stream'),
  /** Dhan's live market feed v2. */
  DHAN_WS_URL: url('ws(s)').default('wss://api-feed.dhan.co'),
  /** Angel One's token master (a JSON array of scrips), read at start and each morning before the open. */
  ANGELONE_SCRIP_MASTER_URL: url('http(s)').default(
    'https://margincalculator.angelbroking.com/OpenAPI_File/files/OpenAPIScripMaster.json',
  ),
  /** Dhan's scrip master (CSV with security ids), read at start and each morning before the open. */
  DHAN_SCRIP_MASTER_URL: url('http(s)').default('https://images.dhan.co/api-data/api-scrip-master.csv'),
  /**
   * The user whose connected account at the broker QUOTE_PROVIDER names supplies the feed's
   * token (the operator's own, refreshed when they reconnect in Settings); it wins over the
   * tokens below.
   */
  FEED_USER_EMAIL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'must be an email address' }))
    .optional(),
  /** A headless server's feed tokens, when no operator account provides one. */
  KITE_ACCESS_TOKEN: token.optional(),
  UPSTOX_ACCESS_TOKEN: token.optional(),
  ANGELONE_FEED_TOKEN: token.optional(),
  ANGELONE_CLIENT_CODE: token.optional(),
  /** Angel One's session JWT (`jwtToken` of its login), sent as SmartStream's `Authorization`. */
  ANGELONE_JWT_TOKEN: token.optional(),
  DHAN_ACCESS_TOKEN: token.optional(),
  DHAN_CLIENT_ID: token.optional(),
};
