/**
 * Upstox (API v2) as a BrokerConnector (docs/holdings.md#connect-a-broker): OAuth's
 * authorization-code flow on Upstox's login dialog, the code exchanged once for a token that dies
 * at 03:30 IST the next morning, and the long-term holdings. Upstox's answers: a flat token answer
 * (no envelope), `{status: "success", data}` for data, `{status: "error", errors: [{errorCode,
 * message}]}` for failures.
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

/** Upstox tokens die "at 3:30 AM the following day, regardless of the time it was generated". */
const EXPIRY_IST = { hour: 3, minute: 30 };

/** "Invalid token used to access API": an expired or revoked token. */
const TOKEN_ERRORS = new Set(['UDAPI100050']);
/** The app's keys or redirect refused: bad client_id/redirect_uri, invalid credentials, inactive app. */
const KEY_ERRORS = new Set(['UDAPI100068', 'UDAPI100016', 'UDAPI100073']);
/** "Too Many Request Sent". */
const RATE_ERRORS = new Set(['UDAPI10005']);

const errorAnswer = z.object({
  status: z.literal('error'),
  errors: z.array(
    z.object({
      errorCode: z.string().optional(),
      error_code: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
});

const tokenAnswer = z.object({ user_id: z.string().min(1), access_token: z.string().min(1) });

const holdingRow = z.object({
  isin: z.string(),
  trading_symbol: z.string().min(1),
  exchange: z.string(),
  quantity: z.number(),
  average_price: z.number(),
});
const holdingsAnswer = z.object({ status: z.literal('success'), data: z.array(holdingRow).nullable() });

/** Upstox's error codes in an answer, if it is Upstox's error envelope. */
function errorCodes(body: unknown): string[] {
  const parsed = errorAnswer.safeParse(body);
  if (!parsed.success) return [];
  return parsed.data.errors.map((e) => e.errorCode ?? e.error_code ?? '').filter(Boolean);
}

/** The BrokerError an unsuccessful answer means; `refusal` is the kind for a refusal Upstox does not code. */
function failure(what: string, answer: BrokerAnswer, refusal: 'expired' | 'denied'): BrokerError {
  const codes = errorCodes(answer.body);
  const detail = `${what}: HTTP ${answer.status}${codes.length ? ` ${codes.join(',')}` : ''}`;
  const byStatus = statusError(what, answer);
  if (byStatus) return byStatus;
  if (codes.some((c) => RATE_ERRORS.has(c))) return new BrokerError('rate_limited', detail);
  if (codes.some((c) => KEY_ERRORS.has(c))) return new BrokerError('wrong_keys', detail);
  if (codes.some((c) => TOKEN_ERRORS.has(c)) || answer.status === 401)
    return new BrokerError(refusal, detail);
  if (answer.status >= 400 && answer.status < 500) return new BrokerError(refusal, detail);
  return new BrokerError('malformed', detail);
}

/** The Upstox connector for the server's Upstox app. */
export function createUpstoxConnector(
  app: NonNullable<BrokersConfig['upstox']>,
  options: ConnectorOptions,
): BrokerConnector {
  return {
    id: 'upstox',
    connect: 'redirect',

    loginUrl(state, redirectUri) {
      const url = new URL(app.loginUrl);
      url.searchParams.set('client_id', app.apiKey);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('state', state);
      return url.toString();
    },

    stateOf: (query) => query.state,

    async completeLogin(query, redirectUri): Promise<BrokerSession> {
      // Upstox redirects with `code` on success; an `error` (OAuth's access_denied) or no code at
      // all means the investor did not finish the login.
      const code = query.code;
      if (query.error !== undefined || !code) {
        throw new BrokerError('denied', `Upstox login: no code (error=${query.error ?? 'none'})`);
      }
      const what = 'Upstox token exchange';
      const answer = await callBroker(
        what,
        `${app.apiUrl}/v2/login/authorization/token`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({
            code,
            client_id: app.apiKey,
            client_secret: app.apiSecret,
            redirect_uri: redirectUri,
            grant_type: 'authorization_code',
          }).toString(),
        },
        options,
      );
      // A refused code (used already, or too old) is a login to start again, not the app's keys.
      if (answer.status !== 200) throw failure(what, answer, 'denied');
      const token = readAnswer(what, tokenAnswer, answer.body);
      return {
        accessToken: token.access_token,
        clientId: token.user_id,
        expiresAt: nextIstTime(options.now(), EXPIRY_IST.hour, EXPIRY_IST.minute),
      };
    },

    async holdings(session): Promise<BrokerHolding[]> {
      const what = 'Upstox holdings';
      const answer = await callBroker(
        what,
        `${app.apiUrl}/v2/portfolio/long-term-holdings`,
        { headers: { authorization: `Bearer ${session.accessToken}`, accept: 'application/json' } },
        options,
      );
      if (answer.status !== 200) throw failure(what, answer, 'expired');
      const { data } = readAnswer(what, holdingsAnswer, answer.body);
      return (data ?? []).map((row) => ({
        brokerSymbol: row.trading_symbol,
        exchange: toExchange(row.exchange) ?? null,
        isin: row.isin || null,
        // Upstox's `quantity` is "the total holding qty" (its SDK's HoldingsData): settled, pledged
        // and collateral shares and the T1 ones already, so `t1_quantity` is not added to it.
        quantity: row.quantity,
        averagePrice: row.average_price,
      }));
    },
  };
}
