/**
 * A local Angel One SmartAPI that answers as Angel documents it (the SmartAPI docs' User,
 * Portfolio and Rate Limit pages; the gateway's token refusal as its forum threads quote it):
 * - `GET /publisher-login?api_key=…&state=…`: the publisher login; an unknown api_key answers 400.
 *   "Log in" returns to the app's redirect URL with `auth_token`, `feed_token`, `refresh_token` and
 *   `state`; "Cancel" returns with `state` only.
 * - Every API call needs `X-PrivateKey` (the app's key), `X-UserType: USER`, `X-SourceID: WEB`, the
 *   client IP/MAC headers and `Authorization: Bearer <jwt>`; a bad or expired JWT answers 401
 *   `{"success":false,"message":"Invalid Token","errorCode":"AG8001","data":""}`.
 * - `GET /rest/secure/angelbroking/user/v1/getProfile`: the profile in `{status, message, errorcode, data}`.
 * - `GET /rest/secure/angelbroking/portfolio/v1/getHolding`: the Portfolio page's row in the
 *   envelope; no holdings is `data: null`; over the limit, 403 "Access denied because of exceeding rate limit".
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

export const ANGELONE_API_KEY = 'fakeAngelKey01';

/** The Portfolio page's holding row, word for word. */
export const ANGELONE_HOLDING = {
  tradingsymbol: 'TATASTEEL-EQ',
  exchange: 'NSE',
  isin: 'INE081A01020',
  t1quantity: 0,
  realisedquantity: 2,
  quantity: 2,
  authorisedquantity: 0,
  product: 'DELIVERY',
  collateralquantity: null,
  collateraltype: null,
  haircut: 0,
  averageprice: 111.87,
  ltp: 130.15,
  symboltoken: '3499',
  close: 129.6,
  profitandloss: 37,
  pnlpercentage: 16.34,
};

const envelope = (data: unknown) => ({ status: true, message: 'SUCCESS', errorcode: '', data });
const INVALID_TOKEN = { success: false, message: 'Invalid Token', errorCode: 'AG8001', data: '' };
const RATE_LIMIT = 'Access denied because of exceeding rate limit';

export interface FakeAngelOne {
  url: string;
  env: Record<string, string>;
  requests: RecordedRequest[];
  clientCode: string;
  fail: FailureScript;
  /** Makes every JWT issued so far invalid (Angel's midnight). */
  expireTokens(): void;
  /** Issues the callback's tokens as the login page's "Log in" does. */
  issueTokens(): { auth_token: string; feed_token: string; refresh_token: string };
  close(): Promise<void>;
}

export interface FakeAngelOneOptions {
  clientCode?: string;
  /** The redirect URL registered under MyApps: where "Log in" goes whatever the link asked. */
  redirectUrl?: string;
}

export async function startFakeAngelOne(options: FakeAngelOneOptions = {}): Promise<FakeAngelOne> {
  const clientCode = options.clientCode ?? 'A123456';
  const jwts = new Set<string>();
  const fail = new FailureScript();

  const issueTokens = () => {
    const token = (kind: string) =>
      `eyJhbGciOiJIUzUxMiJ9.${Buffer.from(JSON.stringify({ username: clientCode, kind })).toString('base64url')}.${randomBytes(16).toString('base64url')}`;
    const auth_token = token('jwt');
    jwts.add(auth_token);
    return { auth_token, feed_token: token('feed'), refresh_token: token('refresh') };
  };

  function refusal(req: { headers: RecordedRequest['headers'] }): FakeAnswer | undefined {
    const h = req.headers;
    if (h['x-privatekey'] !== ANGELONE_API_KEY) {
      return {
        status: 400,
        json: { success: false, message: 'Invalid API Key', errorCode: 'AG8004', data: '' },
      };
    }
    if (
      h['x-usertype'] !== 'USER' ||
      h['x-sourceid'] !== 'WEB' ||
      !h['x-clientlocalip'] ||
      !h['x-clientpublicip'] ||
      !h['x-macaddress']
    ) {
      return {
        status: 400,
        json: { status: false, message: 'Invalid Headers', errorcode: 'AB1004', data: null },
      };
    }
    const bearer = /^Bearer (.+)$/.exec(String(h.authorization ?? ''))?.[1];
    if (!bearer || !jwts.has(bearer)) return { status: 401, json: INVALID_TOKEN };
    return undefined;
  }

  function scripted(kind: 'profile' | 'holdings'): FakeAnswer | undefined {
    const failure = fail.next();
    switch (failure) {
      case undefined:
        return undefined;
      case 'expired':
        return { status: 401, json: INVALID_TOKEN };
      case 'rate_limited':
        return { status: 403, text: RATE_LIMIT };
      case 'server_error':
        return { status: 500, text: 'Internal Server Error' };
      case 'hang':
        return 'hang';
      case 'malformed':
        return kind === 'profile'
          ? { status: 200, json: envelope({ name: 'Asha Rao' }) }
          : { status: 200, json: envelope([{ ...ANGELONE_HOLDING, quantity: undefined }]) };
      case 'no_holdings':
        return { status: 200, json: envelope(null) };
    }
  }

  const server = await startFakeServer((req) => {
    if (req.method === 'GET' && req.path.replace(/\/$/, '') === '/publisher-login') {
      const { api_key, state } = req.query;
      const redirect = options.redirectUrl ?? req.query.redirect_url;
      if (api_key !== ANGELONE_API_KEY || !redirect) return { status: 400, text: 'Invalid API Key' };
      return loginPage(
        'Angel One',
        withQuery(redirect, { ...issueTokens(), state }),
        withQuery(redirect, { state }),
      );
    }
    if (req.method === 'GET' && req.path === '/rest/secure/angelbroking/user/v1/getProfile') {
      const answer = scripted('profile') ?? refusal(req);
      if (answer) return answer;
      return {
        status: 200,
        json: envelope({
          clientcode: clientCode,
          name: 'Asha Rao',
          email: '',
          mobileno: '',
          exchanges: ['nse_cm', 'bse_cm', 'nse_fo'],
          products: ['MRGN', 'NRML', 'CNC', 'MIS', 'BO', 'CO'],
          lastlogintime: '',
          brokerid: 'B2C',
        }),
      };
    }
    if (req.method === 'GET' && req.path === '/rest/secure/angelbroking/portfolio/v1/getHolding') {
      const answer = scripted('holdings') ?? refusal(req);
      if (answer) return answer;
      return { status: 200, json: envelope([ANGELONE_HOLDING]) };
    }
    return { status: 404, text: 'Not Found' };
  });

  return {
    url: server.url,
    env: {
      ANGELONE_API_KEY,
      ANGELONE_API_URL: server.url,
      ANGELONE_LOGIN_URL: `${server.url}/publisher-login`,
    },
    requests: server.requests,
    clientCode,
    fail,
    expireTokens: () => jwts.clear(),
    issueTokens,
    close: server.close,
  };
}
