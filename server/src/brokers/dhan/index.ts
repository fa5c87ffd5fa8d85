/**
 * Dhan (DhanHQ v2) as a BrokerConnector (docs/holdings.md#connect-a-broker): the investor pastes
 * an access token generated on web.dhan.co with their client ID; the profile call checks both,
 * and the token lives 24 hours (its JWT's `exp`). Holdings come as a bare JSON array; failures as
 * `{errorType, errorCode, errorMessage}` with DH-9xx codes.
 */
import { z } from 'zod';
import type { BrokersConfig } from '@app/config';
import { toExchange } from '@app/common/instruments/types';
import {
  callBroker,
  readAnswer,
  statusError,
  type BrokerAnswer,
  type ConnectorOptions,
} from '../broker-call.ts';
import { BrokerError, type BrokerConnector, type BrokerHolding, type BrokerSession } from '../connector.ts';

const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 330 * 60_000;

const errorAnswer = z.object({
  errorType: z.string().nullish(),
  errorCode: z.string(),
  errorMessage: z.string().nullish(),
  internalErrorCode: z.string().nullish(),
});

/** Dhan's codes: invalid or expired token, access not granted, rate limit, Dhan's own failures. */
const KIND_OF_CODE: Readonly<Record<string, 'expired' | 'denied' | 'rate_limited' | 'unavailable'>> = {
  'DH-901': 'expired',
  'DH-902': 'denied',
  'DH-904': 'rate_limited',
  'DH-908': 'unavailable',
  'DH-909': 'unavailable',
};

/** What Dhan answers for an account with no holdings, instead of `[]`. */
const noHoldings = (e: z.infer<typeof errorAnswer>) =>
  e.errorCode === 'DHOLDING_ERROR' || e.internalErrorCode === 'DH-1111';

const profileAnswer = z.object({ dhanClientId: z.string().min(1), tokenValidity: z.string().nullish() });

const holdingRow = z.object({
  exchange: z.string(),
  tradingSymbol: z.string().min(1),
  isin: z.string().nullish(),
  totalQty: z.number(),
  avgCostPrice: z.number(),
});

function failure(what: string, answer: BrokerAnswer): BrokerError {
  const parsed = errorAnswer.safeParse(answer.body);
  const code = parsed.success ? parsed.data.errorCode : '';
  const detail = `${what}: HTTP ${answer.status}${code ? ` ${code}` : ''}`;
  const kind = KIND_OF_CODE[code];
  if (kind === 'rate_limited') return statusError(what, answer) ?? new BrokerError(kind, detail);
  if (kind) return new BrokerError(kind, detail);
  const byStatus = statusError(what, answer);
  if (byStatus) return byStatus;
  if (answer.status === 401 || answer.status === 403) return new BrokerError('expired', detail);
  return new BrokerError('malformed', detail);
}

/** The `exp` claim of a JWT, read without checking its signature (Dhan checks the token). */
function jwtExpiry(token: string): Date | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && claims.exp > 0 ? new Date(claims.exp * 1000) : undefined;
  } catch {
    return undefined; // not a JWT: the profile's tokenValidity decides
  }
}

/** The profile's `tokenValidity` (`DD/MM/YYYY HH:mm`, IST) as an instant. */
function validityOf(text: string | null | undefined): Date | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})/.exec(text?.trim() ?? '');
  if (!m) return undefined;
  const [, dd, mm, yyyy, hh, min] = m.map(Number) as [number, number, number, number, number, number];
  return new Date(Date.UTC(yyyy, mm - 1, dd, hh, min) - IST_OFFSET_MS);
}

/** The Dhan connector: no app keys, investors paste a token from web.dhan.co. */
export function createDhanConnector(app: BrokersConfig['dhan'], options: ConnectorOptions): BrokerConnector {
  const headers = (session: { accessToken: string; clientId: string }) => ({
    'access-token': session.accessToken,
    'client-id': session.clientId,
    accept: 'application/json',
  });

  return {
    id: 'dhan',
    connect: 'token',

    async sessionFromToken(input): Promise<BrokerSession> {
      const what = 'Dhan profile';
      const answer = await callBroker(what, `${app.apiUrl}/profile`, { headers: headers(input) }, options);
      if (answer.status !== 200) throw failure(what, answer);
      const profile = readAnswer(what, profileAnswer, answer.body);
      if (profile.dhanClientId !== input.clientId) {
        // The token is another client's: nothing is connected, as when a login is declined.
        throw new BrokerError('denied', 'Dhan profile: the token belongs to another client ID');
      }
      return {
        accessToken: input.accessToken,
        clientId: profile.dhanClientId,
        expiresAt:
          jwtExpiry(input.accessToken) ??
          validityOf(profile.tokenValidity) ??
          new Date(options.now().getTime() + DAY_MS),
      };
    },

    async holdings(session): Promise<BrokerHolding[]> {
      const what = 'Dhan holdings';
      const answer = await callBroker(what, `${app.apiUrl}/holdings`, { headers: headers(session) }, options);
      const error = errorAnswer.safeParse(answer.body);
      if (error.success && noHoldings(error.data)) return [];
      if (answer.status !== 200) throw failure(what, answer);
      const rows = readAnswer(what, z.array(holdingRow), answer.body);
      return rows.map((row) => ({
        brokerSymbol: row.tradingSymbol,
        // Dhan says "ALL" for a share held once whatever exchange it was bought on: the master decides.
        exchange: toExchange(row.exchange) ?? null,
        isin: row.isin || null,
        // `totalQty` is Dhan's "total quantities": `dpQty` (delivered to the demat, pledged and
        // collateral shares included) plus `t1Qty` (bought, not yet delivered); its documented
        // sample has totalQty 1000 = dpQty 1000 + t1Qty 0.
        quantity: row.totalQty,
        averagePrice: row.avgCostPrice,
      }));
    },
  };
}
