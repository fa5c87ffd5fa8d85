/**
 * Zerodha's Kite Connect v3 (docs/holdings.md#connect-a-broker): the login page
 * (`/connect/login?v=3&api_key=…`, our state inside `redirect_params`, which Kite appends to the
 * redirect), the exchange of the redirect's `request_token` for an access token (a form POST to
 * `/session/token` with `checksum = sha256hex(api_key + request_token + api_secret)`), and
 * `/portfolio/holdings`. Every call carries `X-Kite-Version: 3`; later ones
 * `Authorization: token <api_key>:<access_token>`. Tokens die at 06:00 IST the next day.
 */
import { createHash } from 'node:crypto';
import type { RedirectBrokerApp } from '@app/config';
import { EXCHANGES, type Exchange } from '@app/common/instruments/types';
import type { z } from 'zod';
import { BrokerError, type BrokerConnector, type BrokerHolding, type BrokerSession } from '../connector.ts';
import {
  callBroker,
  nextIstTime,
  statusError,
  type BrokerAnswer,
  type ConnectorOptions,
} from '../broker-call.ts';
import { kiteError, kiteHoldings, kiteSession, type KiteHolding } from './wire.ts';

const KITE_HEADERS = { 'X-Kite-Version': '3' };
/**
 * The investor's shares: `quantity` (settled, which Kite's docs call "T+1 + realised"; pledged and
 * collateral shares stay in it, so `collateral_quantity` is not added again) plus `t1_quantity`
 * (bought, not yet settled), as Kite's own Holdings page counts them. A share bought yesterday is
 * the investor's to guard today.
 */
function sharesOf(row: KiteHolding): number {
  return row.quantity + row.t1_quantity;
}

function holdingOf(row: KiteHolding): BrokerHolding {
  const exchange = (EXCHANGES as readonly string[]).includes(row.exchange)
    ? (row.exchange as Exchange)
    : null;
  return {
    brokerSymbol: row.tradingsymbol,
    exchange,
    isin: row.isin || null,
    quantity: sharesOf(row),
    averagePrice: row.average_price,
  };
}

/** A Kite answer in `schema`'s shape, or the BrokerError its error body means. */
function parsed<T>(
  answer: BrokerAnswer,
  schema: z.ZodType<T>,
  onToken: 'expired' | 'login',
  what: string,
): T {
  const ok = schema.safeParse(answer.body);
  if (ok.success && answer.status === 200) return ok.data;
  const byStatus = statusError(what, answer);
  if (byStatus) throw byStatus;
  const error = kiteError.safeParse(answer.body);
  if (!error.success) throw new BrokerError('malformed', `${what}: ${answer.status}, not Kite's shape`);
  const { error_type: type, message } = error.data;
  if (type === 'TokenException' || answer.status === 403) {
    // At login a TokenException is the app's keys (a checksum made with the wrong secret, an
    // unknown api_key: Kite tells them apart only by its message) or a request_token used or
    // too old, which is a login that expired.
    if (onToken === 'login' && /checksum|api_key/i.test(message)) {
      throw new BrokerError('wrong_keys', `${what}: ${type} ${message}`);
    }
    throw new BrokerError('expired', `${what}: ${type}`);
  }
  if (type === 'InputException' && onToken === 'login')
    throw new BrokerError('wrong_keys', `${what}: ${type} ${message}`);
  throw new BrokerError('malformed', `${what}: ${answer.status} ${type}`);
}

/** The Kite connector of this server's Kite app. */
export function kiteConnector(app: RedirectBrokerApp, opts: ConnectorOptions): BrokerConnector {
  const call = (path: string, init: RequestInit) =>
    callBroker(`Kite ${path}`, `${app.apiUrl}${path}`, init, opts);
  return {
    id: 'kite',
    connect: 'redirect',
    loginUrl(state) {
      const url = new URL(app.loginUrl);
      url.searchParams.set('v', '3');
      url.searchParams.set('api_key', app.apiKey);
      url.searchParams.set('redirect_params', new URLSearchParams({ state }).toString());
      return url.toString();
    },
    stateOf: (query) => query.state,
    async completeLogin(query): Promise<BrokerSession> {
      const requestToken = query.request_token;
      if (query.status !== 'success' || !requestToken) {
        throw new BrokerError('denied', `login: status ${query.status ?? 'missing'}`);
      }
      const checksum = createHash('sha256')
        .update(app.apiKey + requestToken + app.apiSecret)
        .digest('hex');
      const answer = await call('/session/token', {
        method: 'POST',
        headers: { ...KITE_HEADERS, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ api_key: app.apiKey, request_token: requestToken, checksum }).toString(),
      });
      const { data } = parsed(answer, kiteSession, 'login', 'session/token');
      return {
        accessToken: data.access_token,
        clientId: data.user_id,
        // Kite kills the day's tokens at 06:00 IST.
        expiresAt: nextIstTime(opts.now(), 6),
      };
    },
    async holdings(session) {
      const answer = await call('/portfolio/holdings', {
        headers: { ...KITE_HEADERS, Authorization: `token ${app.apiKey}:${session.accessToken}` },
      });
      return parsed(answer, kiteHoldings, 'expired', 'portfolio/holdings').data.map(holdingOf);
    },
  };
}
