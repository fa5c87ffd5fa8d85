/**
 * Angel One SmartAPI as a BrokerConnector (docs/holdings.md#connect-a-broker): the publisher
 * login sends the investor back with `auth_token` (the JWT later calls carry) and `feed_token`
 * in the query, so there is no exchange; the profile call checks the token and names the client
 * code. Sessions end at midnight IST. Answers come in `{status, message, errorcode, data}`; the
 * gateway refuses a bad token as `{success: false, message, errorCode: "AG8001", data: ""}`.
 */
import { z } from 'zod';
import type { BrokersConfig } from '@app/config';
import { toExchange } from '@app/common/instruments/types';
import {
  callBroker,
  nextIstTime,
  readAnswer,
  statusError,
  type BrokerAnswer,
  type ConnectorOptions,
} from '../broker-call.ts';
import { BrokerError, type BrokerConnector, type BrokerHolding, type BrokerSession } from '../connector.ts';

/** Token invalid, expired or missing; the AMX session expired; the client not logged in. */
const TOKEN_ERRORS = new Set(['AG8001', 'AG8002', 'AG8003', 'AB1010', 'AB1011']);
/** "Something Went Wrong, Please Try After Sometime", "Internal Error": Angel's own failures. */
const ANGEL_FAILURES = new Set(['AB1004', 'AB2001']);
/** "Holding not found": an account with no holdings. */
const NO_HOLDINGS = 'AB1015';

/** Angel's error answers: its envelope, or its gateway's (other key names). */
const errorAnswer = z.union([
  z.object({ status: z.literal(false), errorcode: z.string().nullish(), message: z.string().nullish() }),
  z.object({ success: z.literal(false), errorCode: z.string().nullish(), message: z.string().nullish() }),
]);

/** Angel sends numbers, and in some answers the same numbers as strings. */
const amount = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*-?\d+(\.\d+)?\s*$/)
    .transform(Number),
]);

const profileAnswer = z.object({
  status: z.literal(true),
  data: z.object({ clientcode: z.string().min(1) }),
});

const holdingRow = z.object({
  tradingsymbol: z.string().min(1),
  exchange: z.string().nullable(),
  isin: z.string().nullable(),
  quantity: amount,
  averageprice: amount,
});
const holdingsAnswer = z.object({ status: z.literal(true), data: z.array(holdingRow).nullable() });

function errorCodeOf(body: unknown): string {
  const parsed = errorAnswer.safeParse(body);
  if (!parsed.success) return '';
  const e = parsed.data;
  return ('status' in e ? e.errorcode : e.errorCode) ?? '';
}

/** The BrokerError an answer that is not a success means. */
function failure(what: string, answer: BrokerAnswer): BrokerError {
  const code = errorCodeOf(answer.body);
  const detail = `${what}: HTTP ${answer.status}${code ? ` ${code}` : ''}`;
  if (TOKEN_ERRORS.has(code) || answer.status === 401) return new BrokerError('expired', detail);
  // Angel refuses a caller over its per-client limits with a bare 403 ("Access denied because of
  // exceeding rate limit"); its token refusals carry their AG80xx codes, read above.
  if (answer.status === 403) return new BrokerError('rate_limited', detail);
  const byStatus = statusError(what, answer);
  if (byStatus) return byStatus;
  if (ANGEL_FAILURES.has(code)) return new BrokerError('unavailable', detail);
  return new BrokerError('malformed', detail);
}

/** The Angel One connector for the server's SmartAPI publisher app. */
export function createAngelOneConnector(
  app: NonNullable<BrokersConfig['angelone']>,
  options: ConnectorOptions,
): BrokerConnector {
  /** SmartAPI's headers on every call; the client IP and MAC fields must be present, not true. */
  const headers = (jwt: string) => ({
    'content-type': 'application/json',
    accept: 'application/json',
    'x-usertype': 'USER',
    'x-sourceid': 'WEB',
    'x-clientlocalip': '127.0.0.1',
    'x-clientpublicip': '127.0.0.1',
    'x-macaddress': '00:00:00:00:00:00',
    'x-privatekey': app.apiKey,
    authorization: `Bearer ${jwt}`,
  });

  async function get(what: string, path: string, jwt: string): Promise<BrokerAnswer> {
    return callBroker(what, `${app.apiUrl}${path}`, { headers: headers(jwt) }, options);
  }

  return {
    id: 'angelone',
    connect: 'redirect',

    loginUrl(state, redirectUri) {
      const url = new URL(app.loginUrl);
      url.searchParams.set('api_key', app.apiKey);
      // Angel sends the investor to the URL registered in MyApps; the parameter is what its
      // publisher-login link carries, and must be that same URL.
      url.searchParams.set('redirect_url', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },

    stateOf: (query) => query.state,

    async completeLogin(query): Promise<BrokerSession> {
      const jwt = query.auth_token;
      if (!jwt) throw new BrokerError('denied', 'Angel One login: no auth_token in the callback');
      const what = 'Angel One profile';
      const answer = await get(what, '/rest/secure/angelbroking/user/v1/getProfile', jwt);
      if (answer.status !== 200 || errorAnswer.safeParse(answer.body).success) throw failure(what, answer);
      const profile = readAnswer(what, profileAnswer, answer.body);
      const extra: Record<string, string> = {};
      if (query.feed_token) extra.feed_token = query.feed_token;
      if (query.refresh_token) extra.refresh_token = query.refresh_token;
      return {
        accessToken: jwt,
        extra,
        clientId: profile.data.clientcode,
        // "The session established via SmartAPI remains active till 12 midnight".
        expiresAt: nextIstTime(options.now(), 0, 0),
      };
    },

    async holdings(session): Promise<BrokerHolding[]> {
      const what = 'Angel One holdings';
      const answer = await get(
        what,
        '/rest/secure/angelbroking/portfolio/v1/getHolding',
        session.accessToken,
      );
      if (answer.status === 200 && errorCodeOf(answer.body) === NO_HOLDINGS) return [];
      if (answer.status !== 200 || errorAnswer.safeParse(answer.body).success) throw failure(what, answer);
      const { data } = readAnswer(what, holdingsAnswer, answer.body);
      return (data ?? []).map((row) => ({
        // `TATASTEEL-EQ`: kept as Angel writes it; the sync strips the series.
        brokerSymbol: row.tradingsymbol,
        exchange: row.exchange === null ? null : (toExchange(row.exchange) ?? null),
        isin: row.isin || null,
        // Angel's `quantity` is the holding: `realisedquantity` (in the demat, pledged and
        // collateral shares included) plus `t1quantity` (bought, not yet delivered); the documented
        // sample has quantity 2 = realisedquantity 2 + t1quantity 0. Adding t1quantity would count it twice.
        quantity: row.quantity,
        averagePrice: row.averageprice,
      }));
    },
  };
}
