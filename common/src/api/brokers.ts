/**
 * Broker connections (docs/holdings.md#connect-a-broker): the brokers an account can be
 * connected to over its official API, the request bodies, the answers and the sentences a user
 * reads. Shared by the server's routes and the client's Brokers card.
 */
import { z } from 'zod';

/** The brokers the product connects to, by the id used in URLs and requests. */
export const BROKER_IDS = ['kite', 'upstox', 'angelone', 'dhan'] as const;
export type BrokerId = (typeof BROKER_IDS)[number];

/** Each broker's name as investors know it (also the connected account's broker name). */
export const BROKER_NAMES: Readonly<Record<BrokerId, string>> = {
  kite: 'Zerodha',
  upstox: 'Upstox',
  angelone: 'Angel One',
  dhan: 'Dhan',
};

/**
 * How an investor connects: `redirect` (the broker's own login page, then back to the app) or
 * `token` (an access token generated on the broker's site, pasted into the app: Dhan).
 */
export type BrokerConnectMethod = 'redirect' | 'token';

/** GET /api/brokers/providers: one broker. */
export interface ApiBrokerProvider {
  id: BrokerId;
  name: string;
  /** The server has this broker's app keys: false means "not available on this server". */
  configured: boolean;
  connect: BrokerConnectMethod;
}

/** A connected (broker_type API) account's state; import and manual accounts stay ACTIVE. */
export const CONNECTION_STATUSES = ['CONNECTED', 'EXPIRED', 'ERROR'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** GET /api/brokers: one of the user's accounts (upload, manual or connected), with how many holdings it has. */
export interface ApiBrokerAccount {
  broker_account_id: string;
  broker_name: string;
  account_label: string;
  display_name: string;
  broker_type: string;
  /** ACTIVE for uploads and manual entry; a ConnectionStatus for a connected account. */
  account_status: string;
  holdings_count: number;
  created_at: string;
  /** The broker an API account is connected through; null for uploads and manual entry. */
  broker_id: BrokerId | null;
  last_synced_at: string | null;
  token_expires_at: string | null;
  status_changed_at: string | null;
}

/** POST /api/brokers/:id/sync: what the sync changed. */
export interface ApiBrokerSync {
  broker_account_id: string;
  added: number;
  changed: number;
  removed: number;
  /** Names of the exit rules paused because their holding is no longer at the broker. */
  rules_paused: string[];
  synced_at: string;
}

/** POST /api/brokers/connect {broker}: where to send the browser. */
export interface ApiBrokerLogin {
  login_url: string;
}

/** POST /api/brokers/connect: a redirect broker by id, or Dhan with a token pasted from its site. */
export const connectBrokerBody = z.union([
  z.object({
    broker: z.literal('dhan'),
    client_id: z
      .string({ message: 'Enter your Dhan client ID' })
      .trim()
      .regex(/^\d{6,12}$/, {
        message: 'Enter your Dhan client ID: the digits shown on Dhan under My Profile',
      }),
    access_token: z
      .string({ message: 'Paste the access token generated on web.dhan.co' })
      .trim()
      .min(20, { message: 'Paste the access token generated on web.dhan.co' })
      .max(4096, { message: 'That is not a Dhan access token' }),
  }),
  z.object({ broker: z.enum(BROKER_IDS, { message: `broker must be one of ${BROKER_IDS.join(', ')}` }) }),
]);
export type ConnectBrokerBody = z.infer<typeof connectBrokerBody>;

/**
 * The execution type of a sync's History row ("Zerodha sync: 2 added, 1 sold"): told in the bell
 * and History only, never sent to an endpoint, never counted in the monthly quota.
 */
export const BROKER_SYNC_EXECUTION = 'BROKER_SYNC';

/** The sentences a user reads about a connection (the callback's `broker_error`, 409s, banners). */
export const BROKER_TEXTS = {
  notConfigured: (name: string) => `${name} is not available on this server`,
  expired: (name: string) => `${name}'s session has expired: reconnect to sync`,
  denied: (name: string) => `${name} login was cancelled: nothing was connected`,
  stateExpired: (name: string) => `The ${name} login took too long or was already used: connect again`,
  wrongKeys: (name: string) =>
    `${name} refused this app's keys: the server's ${name} app is not set up right (ask whoever runs it)`,
  unavailable: (name: string) => `${name} did not answer: nothing was changed, try again in a few minutes`,
  rateLimited: (name: string) => `${name} asked us to slow down: nothing was changed, try again in a minute`,
  malformed: (name: string) => `${name} sent an answer we could not read: nothing was changed`,
  /** A pasted token (Dhan) the broker refused, expired or for another client ID. */
  tokenRefused: (name: string) =>
    `${name} did not accept that token for this client ID: generate a new one on web.dhan.co and paste it again`,
  syncRunning: (name: string) => `A ${name} sync is already running`,
  reconnect: (name: string) => `Reconnect ${name}`,
  /** History's line for a sync that changed something ("Zerodha sync: 2 added, 1 sold"). */
  syncSummary: (name: string, s: { added: number; changed: number; removed: number }) => {
    const parts = [
      s.added > 0 ? `${s.added} added` : '',
      s.changed > 0 ? `${s.changed} changed` : '',
      s.removed > 0 ? `${s.removed} sold` : '',
    ].filter(Boolean);
    return `${name} sync: ${parts.length > 0 ? parts.join(', ') : 'no changes'}`;
  },
} as const;
