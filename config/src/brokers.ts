/**
 * The broker apps the server connects investors' accounts through (docs/holdings.md#connect-a-broker):
 * each broker's app keys and addresses. A broker whose keys are not all set is "not available on
 * this server"; its `_URL`s default to the broker's real ones and tests point them at local fakes.
 */
import { z } from 'zod';

const url = (what: string) => z.url({ message: `must be a ${what} URL` });
const key = z.string().trim().min(1).max(256);

export const brokerVariables = {
  /** Kite Connect (Zerodha): the app's API key and secret from developers.kite.trade. */
  KITE_API_KEY: key.optional(),
  KITE_API_SECRET: key.optional(),
  KITE_API_URL: url('http(s)').default('https://api.kite.trade'),
  KITE_LOGIN_URL: url('http(s)').default('https://kite.zerodha.com/connect/login'),
  /** Upstox: the app's API key (client_id) and secret from the Upstox developer apps page. */
  UPSTOX_API_KEY: key.optional(),
  UPSTOX_API_SECRET: key.optional(),
  UPSTOX_API_URL: url('http(s)').default('https://api.upstox.com'),
  UPSTOX_LOGIN_URL: url('http(s)').default('https://api.upstox.com/v2/login/authorization/dialog'),
  /** Angel One SmartAPI: the publisher app's API key from smartapi.angelone.in. */
  ANGELONE_API_KEY: key.optional(),
  ANGELONE_API_URL: url('http(s)').default('https://apiconnect.angelone.in'),
  ANGELONE_LOGIN_URL: url('http(s)').default('https://smartapi.angelone.in/publisher-login'),
  /** Dhan: investors paste a token generated on web.dhan.co; no app keys are needed. */
  DHAN_API_URL: url('http(s)').default('https://api.dhan.co/v2'),
  /**
   * The AES-256-GCM key broker tokens are stored under: 32 bytes as 64 hex digits or base64;
   * without it one is generated once into DATA_DIR.
   */
  BROKER_TOKEN_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
      message: 'must be 32 bytes as 64 hex digits or base64',
    })
    .optional(),
  /** A broker call that has not answered in this long fails (and changes nothing). */
  BROKER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
};

type BrokerEnv = z.infer<z.ZodObject<typeof brokerVariables>>;

/** Variables that come in pairs: a key without its secret is a mistake. */
const PAIRS = [
  ['KITE_API_KEY', 'KITE_API_SECRET'],
  ['UPSTOX_API_KEY', 'UPSTOX_API_SECRET'],
] as const;

/** The issues of a half-set pair, for the schema's refinement. */
export function brokerPairIssues(env: Partial<BrokerEnv>): { path: string; message: string }[] {
  return PAIRS.flatMap(([a, b]) =>
    !env[a] === !env[b]
      ? []
      : [
          {
            path: env[a] ? b : a,
            message: `is required with ${env[a] ? a : b}: set both, or neither to leave the broker off`,
          },
        ],
  );
}

export interface RedirectBrokerApp {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly apiUrl: string;
  readonly loginUrl: string;
}

export interface BrokersConfig {
  readonly kite: RedirectBrokerApp | null;
  readonly upstox: RedirectBrokerApp | null;
  readonly angelone: { readonly apiKey: string; readonly apiUrl: string; readonly loginUrl: string } | null;
  readonly dhan: { readonly apiUrl: string };
  readonly timeoutMs: number;
}

const trim = (u: string) => u.replace(/\/+$/, '');

export function brokersConfig(e: BrokerEnv): BrokersConfig {
  const pair = (
    apiKey: string | undefined,
    apiSecret: string | undefined,
    apiUrl: string,
    loginUrl: string,
  ) => (apiKey && apiSecret ? Object.freeze({ apiKey, apiSecret, apiUrl: trim(apiUrl), loginUrl }) : null);
  return Object.freeze({
    kite: pair(e.KITE_API_KEY, e.KITE_API_SECRET, e.KITE_API_URL, e.KITE_LOGIN_URL),
    upstox: pair(e.UPSTOX_API_KEY, e.UPSTOX_API_SECRET, e.UPSTOX_API_URL, e.UPSTOX_LOGIN_URL),
    angelone: e.ANGELONE_API_KEY
      ? Object.freeze({
          apiKey: e.ANGELONE_API_KEY,
          apiUrl: trim(e.ANGELONE_API_URL),
          loginUrl: e.ANGELONE_LOGIN_URL,
        })
      : null,
    dhan: Object.freeze({ apiUrl: trim(e.DHAN_API_URL) }),
    timeoutMs: e.BROKER_TIMEOUT_MS,
  });
}
