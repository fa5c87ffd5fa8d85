/**
 * A local stand-in for Kite Connect v3 that answers as Kite does (the notes on Kite in the team's
 * research; the bodies of `data/samples/kite/`, zerodha/kiteconnect-mocks):
 * - `GET /connect/login?v=3&api_key=…&redirect_params=…`: a tiny login page whose "Log in" link
 *   sends the browser to the app's redirect URL with
 *   `?action=login&type=login&status=success&request_token=<rt>&<redirect_params>` (Kite appends
 *   the redirect_params it was given), and "Cancel" with `status=cancelled` and no token.
 * - `POST /session/token` (a form: api_key, request_token, checksum = sha256hex(api_key +
 *   request_token + api_secret)): `generate_session.json` with a fresh access_token. A wrong
 *   checksum: 403 ``Invalid `checksum`.`` TokenException; a used or unknown request_token: 403
 *   `Token is invalid or has expired.` TokenException (single use).
 * - `GET /portfolio/holdings` with `Authorization: token <api_key>:<access_token>`: the scripted
 *   rows (`holdings.json`'s by default); a wrong or expired token: 403
 *   ``Incorrect `api_key` or `access_token`.`` TokenException.
 * - Every call without `X-Kite-Version: 3`: 400 InputException (our wording: Kite's was not captured).
 * Scriptable: expire every token, a 429 with Retry-After, a 500, a hang (for the timeout), a body
 * not in Kite's shape.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readShared } from '../shared-data.ts';

export const FAKE_KITE_API_KEY = 'fakekiteapikey01';
export const FAKE_KITE_API_SECRET = 'fakekiteapisecret0123456789abcdef';

/** Kite's error texts, word for word. */
export const KITE_ERRORS = {
  checksum: 'Invalid `checksum`.',
  token: 'Incorrect `api_key` or `access_token`.',
  requestToken: 'Token is invalid or has expired.',
} as const;

/** A holdings row in Kite's shape (the sample's fields). */
export type KiteHoldingRow = Record<string, unknown> & {
  tradingsymbol: string;
  exchange: string;
  isin: string;
  quantity: number;
  t1_quantity: number;
  average_price: number;
};

/** What the next holdings calls answer instead of the rows. */
export type KiteFault = 'rate_limited' | 'server_error' | 'hang' | 'malformed';

export interface KiteCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface KiteScript {
  /** The app's registered redirect URL (Kite keeps it with the app). */
  redirectUrl: string;
  /** The client id the next logins sign in as (the sample's `XX0000` by default). */
  userId: string;
  /** The rows holdings answers with (a copy of the sample's at start and after reset). */
  holdings: KiteHoldingRow[];
  fault: KiteFault | null;
}

export interface FakeKite {
  url: string;
  /** KITE_* for the app: this fake's keys and addresses. */
  env: Record<string, string>;
  calls: KiteCall[];
  /** What the fake answers with; tests set its fields (reset() restores them, but redirectUrl). */
  script: KiteScript;
  /** The sample's holdings rows. */
  sampleHoldings(): KiteHoldingRow[];
  /** Kills every access token issued so far (06:00 IST, or a logout). */
  expireTokens(): void;
  /** Access tokens issued, newest last. */
  issuedTokens(): string[];
  /** Follows the login page's "Log in" (or "Cancel") link: the URL Kite sends the browser back to. */
  loginRedirect(loginUrl: string, choice?: 'login' | 'cancel'): Promise<string>;
  reset(): void;
  close(): Promise<void>;
}

const sample = {
  session: () =>
    JSON.parse(readShared('data/samples/kite/generate_session.json')) as { data: Record<string, unknown> },
  holdings: () =>
    (JSON.parse(readShared('data/samples/kite/holdings.json')) as { data: KiteHoldingRow[] }).data,
};

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const kiteError = (message: string, type: string) => ({
  status: 'error',
  message,
  data: null,
  error_type: type,
});

export async function startFakeKite(): Promise<FakeKite> {
  const requestTokens = new Map<string, boolean>();
  const accessTokens = new Map<string, { live: boolean }>();
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', fake.url);
      fake.calls.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
      handle(req, res, url, body);
    });
  });

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    if (req.method === 'GET' && url.pathname === '/connect/login') return loginPage(res, url);
    if (req.headers['x-kite-version'] !== '3')
      return send(res, 400, kiteError('Missing or invalid `X-Kite-Version` header.', 'InputException'));
    if (req.method === 'POST' && url.pathname === '/session/token') return sessionToken(res, body);
    if (req.method === 'GET' && url.pathname === '/portfolio/holdings') return holdings(req, res);
    send(res, 404, kiteError('Route not found', 'GeneralException'));
  }

  function loginPage(res: ServerResponse, url: URL): void {
    if (url.searchParams.get('api_key') !== FAKE_KITE_API_KEY || url.searchParams.get('v') !== '3')
      return send(res, 400, kiteError('Invalid `api_key`.', 'InputException'));
    const extra = url.searchParams.get('redirect_params') ?? '';
    const rt = randomBytes(16).toString('hex');
    requestTokens.set(rt, true);
    const back = (query: string) => `${fake.script.redirectUrl}?${query}${extra ? `&${extra}` : ''}`;
    const login = back(`action=login&type=login&status=success&request_token=${rt}`);
    const cancel = back('action=login&type=login&status=cancelled');
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Kite - Login</title></head><body><h1>Login to Kite</h1>` +
        `<a id="login" href="${esc(login)}">Log in</a> <a id="cancel" href="${esc(cancel)}">Cancel</a></body></html>`,
    );
  }

  function sessionToken(res: ServerResponse, body: string): void {
    const form = new URLSearchParams(body);
    const apiKey = form.get('api_key') ?? '';
    const rt = form.get('request_token') ?? '';
    const expected = createHash('sha256')
      .update(FAKE_KITE_API_KEY + rt + FAKE_KITE_API_SECRET)
      .digest('hex');
    if (apiKey !== FAKE_KITE_API_KEY || form.get('checksum') !== expected)
      return send(res, 403, kiteError(KITE_ERRORS.checksum, 'TokenException'));
    if (!requestTokens.get(rt)) return send(res, 403, kiteError(KITE_ERRORS.requestToken, 'TokenException'));
    requestTokens.set(rt, false);
    const accessToken = randomBytes(16).toString('hex');
    accessTokens.set(accessToken, { live: true });
    const answer = sample.session();
    send(res, 200, {
      ...answer,
      data: { ...answer.data, user_id: fake.script.userId, api_key: apiKey, access_token: accessToken },
    });
  }

  function holdings(req: IncomingMessage, res: ServerResponse): void {
    const auth = /^token ([^:]+):(.+)$/.exec(req.headers.authorization ?? '');
    if (auth?.[1] !== FAKE_KITE_API_KEY || !accessTokens.get(auth[2]!)?.live)
      return send(res, 403, kiteError(KITE_ERRORS.token, 'TokenException'));
    switch (fake.script.fault) {
      case 'rate_limited':
        return send(res, 429, kiteError('Too many requests', 'NetworkException'), { 'Retry-After': '7' });
      case 'server_error':
        return send(res, 500, kiteError('Something went wrong', 'GeneralException'));
      case 'malformed':
        // The sample's rows with a field Kite documents missing.
        return send(res, 200, {
          status: 'success',
          data: sample.holdings().map(({ quantity: _q, ...r }) => r),
        });
      case 'hang':
        hanging.add(res);
        return;
      default:
        send(res, 200, { status: 'success', data: fake.script.holdings });
    }
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeKite = {
    url,
    env: {
      KITE_API_KEY: FAKE_KITE_API_KEY,
      KITE_API_SECRET: FAKE_KITE_API_SECRET,
      KITE_API_URL: url,
      KITE_LOGIN_URL: `${url}/connect/login`,
    },
    calls: [],
    script: { redirectUrl: '', userId: 'XX0000', holdings: sample.holdings(), fault: null },
    sampleHoldings: sample.holdings,
    expireTokens: () => accessTokens.forEach((t) => (t.live = false)),
    issuedTokens: () => [...accessTokens.keys()],
    async loginRedirect(loginUrl, choice = 'login') {
      const page = await (await fetch(loginUrl)).text();
      const href = new RegExp(`id="${choice}" href="([^"]+)"`).exec(page)?.[1];
      if (!href) throw new Error(`The fake Kite login page has no ${choice} link: ${page}`);
      return href.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    },
    reset() {
      fake.calls.length = 0;
      Object.assign(fake.script, { userId: 'XX0000', holdings: sample.holdings(), fault: null });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
