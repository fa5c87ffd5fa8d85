/**
 * A local Upstox API v2 that answers as Upstox documents it (upstox.com/developer/api-documentation:
 * authorize, get-token, get-holdings, error-codes; the token-error body as seen from the live API):
 * - `GET /v2/login/authorization/dialog`: the login dialog; a wrong client_id or a redirect_uri
 *   other than the app's answers 400 UDAPI100068. "Log in" returns to `<redirect_uri>?code=…&state=…`;
 *   "Cancel" to `<redirect_uri>?error=access_denied&state=…` (OAuth's refusal).
 * - `POST /v2/login/authorization/token`: a form; the code works once "regardless of whether the
 *   access token generation succeeds"; wrong client_id/secret 401 UDAPI100016; the flat token
 *   answer of the get-token page (its masked values filled in).
 * - `GET /v2/portfolio/long-term-holdings`: `Authorization: Bearer`; the get-holdings page's two
 *   rows; a bad or expired token 401 UDAPI100050.
 */
import { randomBytes } from 'node:crypto';
import {
  FailureScript,
  loginPage,
  startFakeServer,
  withQuery,
  type FakeAnswer,
  type RecordedRequest,
} from './scripted.ts';

export const UPSTOX_API_KEY = 'fake-upstox-client-id-0001';
export const UPSTOX_API_SECRET = 'fake-upstox-secret-0001';

/** The get-holdings page's sample answer, word for word. */
export const UPSTOX_HOLDINGS = {
  status: 'success',
  data: [
    {
      isin: 'INE528G01035',
      cnc_used_quantity: 0,
      collateral_type: 'WC',
      company_name: 'YES BANK LTD.',
      haircut: 0.2,
      product: 'D',
      quantity: 36,
      trading_symbol: 'YESBANK',
      tradingsymbol: 'YESBANK',
      last_price: 17.05,
      close_price: 17.05,
      pnl: -61.2,
      day_change: 0,
      day_change_percentage: 0,
      instrument_token: 'NSE_EQ|INE528G01035',
      average_price: 18.75,
      collateral_quantity: 0,
      collateral_update_quantity: 0,
      t1_quantity: 0,
      exchange: 'NSE',
    },
    {
      isin: 'INE036A01016',
      cnc_used_quantity: 0,
      collateral_type: 'WC',
      company_name: 'RELIANCE INFRASTRUCTURE LTD.',
      haircut: 1,
      product: 'D',
      quantity: 1,
      trading_symbol: 'RELINFRA',
      tradingsymbol: 'RELINFRA',
      last_price: 174.85,
      close_price: 169.2,
      pnl: -17.7,
      day_change: 0,
      day_change_percentage: 0,
      instrument_token: 'NSE_EQ|INE036A01016',
      average_price: 192.55,
      collateral_quantity: 0,
      collateral_update_quantity: 0,
      t1_quantity: 0,
      exchange: 'NSE',
    },
  ],
};

/** Upstox's error envelope. */
export function upstoxError(code: string, message: string) {
  return {
    status: 'error',
    errors: [
      {
        errorCode: code,
        message,
        propertyPath: null,
        invalidValue: null,
        error_code: code,
        property_path: null,
        invalid_value: null,
      },
    ],
  };
}

const INVALID_TOKEN = upstoxError('UDAPI100050', 'Invalid token used to access API');

export interface FakeUpstox {
  url: string;
  /** The app's env for this fake. */
  env: Record<string, string>;
  requests: RecordedRequest[];
  /** The investor's client id (`user_id`) the fake logs in. */
  userId: string;
  /** Failures for the next API calls (token exchange and holdings). */
  fail: FailureScript;
  /** Makes every token issued so far invalid (Upstox's 03:30 roll-over). */
  expireTokens(): void;
  /** Issues a code as the dialog's "Log in" does. */
  issueCode(redirectUri: string): string;
  close(): Promise<void>;
}

export interface FakeUpstoxOptions {
  userId?: string;
  /** The redirect URI registered with the app: the dialog refuses any other (UDAPI100068). */
  redirectUri?: string;
}

export async function startFakeUpstox(options: FakeUpstoxOptions = {}): Promise<FakeUpstox> {
  const userId = options.userId ?? '7AB1CD';
  const codes = new Map<string, { redirectUri: string; used: boolean }>();
  const tokens = new Set<string>();
  const fail = new FailureScript();

  const issueCode = (redirectUri: string) => {
    const code = randomBytes(4).toString('hex');
    codes.set(code, { redirectUri, used: false });
    return code;
  };

  function scripted(kind: 'token' | 'holdings'): FakeAnswer | undefined {
    const failure = fail.next();
    if (failure === undefined) return undefined;
    switch (failure) {
      case 'expired':
        return { status: 401, json: INVALID_TOKEN };
      case 'rate_limited':
        return {
          status: 429,
          json: upstoxError('UDAPI10005', 'Too Many Request Sent'),
          headers: { 'retry-after': '7' },
        };
      case 'server_error':
        return { status: 500, json: upstoxError('UDAPI100500', 'Something went wrong... please contact us') };
      case 'hang':
        return 'hang';
      case 'malformed':
        return kind === 'token'
          ? { status: 200, json: { email: 'a@example.com', broker: 'UPSTOX' } }
          : {
              status: 200,
              json: { status: 'success', data: UPSTOX_HOLDINGS.data.map(({ quantity: _q, ...row }) => row) },
            };
      case 'no_holdings':
        return { status: 200, json: { status: 'success', data: [] } };
    }
  }

  function tokenExchange(body: string): FakeAnswer {
    const form = new URLSearchParams(body);
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    const usedBefore = issued?.used ?? false;
    if (issued) issued.used = true; // single use, whatever happens next
    const injected = scripted('token');
    if (injected) return injected;
    if (form.get('client_id') !== UPSTOX_API_KEY || form.get('client_secret') !== UPSTOX_API_SECRET) {
      return { status: 401, json: upstoxError('UDAPI100016', 'Invalid Credentials') };
    }
    if (form.get('grant_type') !== 'authorization_code') {
      return { status: 400, json: upstoxError('UDAPI100036', 'Invalid Input') };
    }
    if (!issued || usedBefore) {
      return { status: 400, json: upstoxError('UDAPI100036', 'Invalid Input') };
    }
    if (form.get('redirect_uri') !== issued.redirectUri) {
      return {
        status: 400,
        json: upstoxError(
          'UDAPI100068',
          "Check your 'client_id' and 'redirect_uri'; one or both are incorrect.",
        ),
      };
    }
    const accessToken = `eyJ0eXAiOiJKV1QiLCJrZXlfaWQiOiJza192MS4wIn0.${randomBytes(24).toString('base64url')}`;
    tokens.add(accessToken);
    return {
      status: 200,
      json: {
        email: 'investor@example.com',
        exchanges: ['NSE', 'NFO', 'BSE', 'CDS', 'BFO', 'BCD'],
        products: ['D', 'CO', 'I'],
        broker: 'UPSTOX',
        user_id: userId,
        user_name: 'Asha Rao',
        order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
        user_type: 'individual',
        poa: false,
        is_active: true,
        access_token: accessToken,
        extended_token: null,
      },
    };
  }

  const server = await startFakeServer((req) => {
    if (req.method === 'GET' && req.path === '/v2/login/authorization/dialog') {
      const { client_id, redirect_uri, state, response_type } = req.query;
      const registered = options.redirectUri === undefined || redirect_uri === options.redirectUri;
      if (client_id !== UPSTOX_API_KEY || !redirect_uri || !registered || response_type !== 'code') {
        return {
          status: 400,
          json: upstoxError(
            'UDAPI100068',
            "Check your 'client_id' and 'redirect_uri'; one or both are incorrect.",
          ),
        };
      }
      return loginPage(
        'Upstox',
        withQuery(redirect_uri, { code: issueCode(redirect_uri), state }),
        withQuery(redirect_uri, { error: 'access_denied', state }),
      );
    }
    if (req.method === 'POST' && req.path === '/v2/login/authorization/token') {
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return { status: 400, json: upstoxError('UDAPI100036', 'Invalid Input') };
      }
      return tokenExchange(req.body);
    }
    if (req.method === 'GET' && req.path === '/v2/portfolio/long-term-holdings') {
      const injected = scripted('holdings');
      if (injected) return injected;
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !tokens.has(bearer)) return { status: 401, json: INVALID_TOKEN };
      return { status: 200, json: UPSTOX_HOLDINGS };
    }
    return { status: 404, json: upstoxError('UDAPI10000', 'This request is not supported by Upstox API') };
  });

  return {
    url: server.url,
    env: {
      UPSTOX_API_KEY,
      UPSTOX_API_SECRET,
      UPSTOX_API_URL: server.url,
      UPSTOX_LOGIN_URL: `${server.url}/v2/login/authorization/dialog`,
    },
    requests: server.requests,
    userId,
    fail,
    expireTokens: () => tokens.clear(),
    issueCode,
    close: server.close,
  };
}
