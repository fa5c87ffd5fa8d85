/**
 * A local DhanHQ v2 that answers as Dhan documents it (dhanhq.co/docs/v2: authentication,
 * portfolio, the DH-9xx error table; the no-holdings object as OpenAlgo's Dhan mapping reads it):
 * - Every call needs `access-token` (a token the fake issued, not expired) and `client-id` (its
 *   client); otherwise 401 `{errorType: "Invalid_Authentication", errorCode: "DH-901", …}`.
 * - `GET /profile`: `{dhanClientId, tokenValidity, activeSegment, ddpi, mtf, dataPlan, dataValidity}`.
 * - `GET /holdings`: a bare JSON array: the DhanHQ-py fixture's rows (`get-current-holdings.json`,
 *   read from `../shared`, unwrapped from the SDK's envelope) unless a test sets its own; no
 *   holdings is Dhan's error object (DHOLDING_ERROR / DH-1111).
 * Tokens are JWTs as Dhan's are (`iss: "dhan"`, `dhanClientId`, `exp` 24 h after issue).
 */
import { randomBytes } from 'node:crypto';
import { readShared } from '../shared-data.ts';
import { FailureScript, startFakeServer, type FakeAnswer, type RecordedRequest } from './scripted.ts';

/** The DhanHQ-py fixture's holdings rows, as the wire carries them (a bare array). */
export function dhanFixtureHoldings(): Array<Record<string, unknown>> {
  const wrapped = JSON.parse(
    readShared('data/samples/dhan/DhanHQ-py_tests_data_get-current-holdings.json'),
  ) as {
    data: Array<Record<string, unknown>>;
  };
  return wrapped.data;
}

/** The v1 portfolio page's sample row: a holding Dhan reports on "ALL" exchanges. */
export const DHAN_DOCS_HOLDING = {
  exchange: 'ALL',
  tradingSymbol: 'HDFC',
  securityId: '1330',
  isin: 'INE001A01036',
  totalQty: 1000,
  dpQty: 1000,
  t1Qty: 0,
  availableQty: 1000,
  collateralQty: 0,
  avgCostPrice: 2655.0,
};

const dhanError = (errorType: string, errorCode: string, errorMessage: string) => ({
  errorType,
  errorCode,
  errorMessage,
});
const INVALID_AUTH = dhanError(
  'Invalid_Authentication',
  'DH-901',
  'Client ID or user generated access token is invalid or expired.',
);

/** "DD/MM/YYYY HH:mm" in IST, as the profile's tokenValidity. */
function istText(at: Date): string {
  const ist = new Date(at.getTime() + 330 * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(ist.getUTCDate())}/${p(ist.getUTCMonth() + 1)}/${ist.getUTCFullYear()} ${p(ist.getUTCHours())}:${p(ist.getUTCMinutes())}`;
}

export interface FakeDhan {
  url: string;
  env: Record<string, string>;
  requests: RecordedRequest[];
  fail: FailureScript;
  /** The rows `/holdings` answers with (the fixture's by default). */
  holdings: Array<Record<string, unknown>>;
  /** A token as web.dhan.co generates it for `clientId`, valid from `issuedAt` for 24 h. */
  issueToken(clientId: string, issuedAt?: Date): string;
  expireTokens(): void;
  close(): Promise<void>;
}

export async function startFakeDhan(): Promise<FakeDhan> {
  const tokens = new Map<string, { clientId: string; expiresAt: Date }>();
  const fail = new FailureScript();
  const state = { holdings: dhanFixtureHoldings() };

  function issueToken(clientId: string, issuedAt = new Date()): string {
    const expiresAt = new Date(issuedAt.getTime() + 86_400_000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = [
      part({ typ: 'JWT', alg: 'HS512' }),
      part({
        iss: 'dhan',
        partnerId: '',
        exp: Math.floor(expiresAt.getTime() / 1000),
        tokenConsumerType: 'SELF',
        webhookUrl: '',
        dhanClientId: clientId,
      }),
      randomBytes(32).toString('base64url'),
    ].join('.');
    tokens.set(token, { clientId, expiresAt });
    return token;
  }

  function scripted(kind: 'profile' | 'holdings'): FakeAnswer | undefined {
    const failure = fail.next();
    switch (failure) {
      case undefined:
        return undefined;
      case 'expired':
        return { status: 401, json: INVALID_AUTH };
      case 'rate_limited':
        return {
          status: 429,
          json: dhanError(
            'Rate_Limit',
            'DH-904',
            'Too many requests on server from single user breaching rate limits. Try throttling API calls.',
          ),
        };
      case 'server_error':
        return {
          status: 500,
          json: dhanError(
            'Internal_Server_Error',
            'DH-908',
            'This is a rare occurence where server was not able to process request.',
          ),
        };
      case 'hang':
        return 'hang';
      case 'malformed':
        return kind === 'profile'
          ? { status: 200, json: { tokenValidity: '01/01/2030 00:00' } }
          : { status: 200, json: state.holdings.map(({ totalQty: _t, ...row }) => row) };
      case 'no_holdings':
        return {
          status: 500,
          json: {
            errorType: 'HOLDING_ERROR',
            errorCode: 'DHOLDING_ERROR',
            errorMessage: 'No holdings available',
            internalErrorCode: 'DH-1111',
            internalErrorMessage: 'No holdings available',
          },
        };
    }
  }

  const server = await startFakeServer((req) => {
    const known = req.path === '/profile' || req.path === '/holdings';
    if (req.method !== 'GET' || !known) {
      return {
        status: 404,
        json: dhanError(
          'Input_Exception',
          'DH-905',
          'Missing required fields, bad values for parameters etc.',
        ),
      };
    }
    const injected = scripted(req.path === '/profile' ? 'profile' : 'holdings');
    if (injected) return injected;
    const token = tokens.get(String(req.headers['access-token'] ?? ''));
    if (!token || token.expiresAt.getTime() <= Date.now() || req.headers['client-id'] !== token.clientId) {
      return { status: 401, json: INVALID_AUTH };
    }
    if (req.path === '/profile') {
      return {
        status: 200,
        json: {
          dhanClientId: token.clientId,
          tokenValidity: istText(token.expiresAt),
          activeSegment: 'Equity, Derivative, Currency, Commodity',
          ddpi: 'Active',
          mtf: 'Active',
          dataPlan: 'Deactive',
          dataValidity: '0001-01-01 00:00:00.0',
        },
      };
    }
    return { status: 200, json: state.holdings };
  });

  return {
    url: server.url,
    env: { DHAN_API_URL: server.url },
    requests: server.requests,
    fail,
    get holdings() {
      return state.holdings;
    },
    set holdings(rows) {
      state.holdings = rows;
    },
    issueToken,
    expireTokens: () => tokens.clear(),
    close: server.close,
  };
}
