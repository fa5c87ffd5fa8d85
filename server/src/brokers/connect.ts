/**
 * Connecting an account (docs/holdings.md#connect-a-broker). A redirect broker: "Connect" makes a
 * single-use state and answers the broker's login URL; the broker sends the browser back to
 * `/api/brokers/callback/<id>`, where the state names the user, the broker's code becomes a
 * session, the account is found or created by the broker's client id (a reconnect lands on the
 * same account), the session is stored sealed, the account is synced at once, and the browser
 * goes to Holdings, or to Settings with a sentence. A token broker (Dhan): the pasted token is
 * checked with the broker, then stored and synced the same way.
 */
import {
  BROKER_IDS,
  BROKER_NAMES,
  BROKER_TEXTS,
  type ApiBrokerSync,
  type BrokerId,
} from '@app/common/api/brokers';
import type { Config } from '@app/config';
import { AppError, Invalid } from '../http/errors.ts';
import { storeConnection } from '../accounts/connected-accounts.ts';
import {
  BrokerError,
  type BrokerConnector,
  type BrokerErrorKind,
  type BrokerSession,
  type CallbackQuery,
} from './connector.ts';
import { consumeLoginState, createLoginState } from './login-states.ts';
import { syncAccount, type BrokerSyncDeps } from './sync.ts';

export type ConnectDeps = BrokerSyncDeps & { config: Config };

/** The address a broker sends the browser back to: the redirect URL to register with its app. */
export function brokerRedirectUri(config: Config, brokerId: BrokerId): string {
  return `${config.appUrl}/api/brokers/callback/${brokerId}`;
}

/** True when `id` names a broker the product knows. */
export function isBrokerId(id: string): id is BrokerId {
  return (BROKER_IDS as readonly string[]).includes(id);
}

function connectorOf(deps: ConnectDeps, brokerId: BrokerId): BrokerConnector {
  const connector = deps.brokers.connectors.get(brokerId);
  if (!connector) throw new Invalid(BROKER_TEXTS.notConfigured(BROKER_NAMES[brokerId]));
  return connector;
}

/** POST /api/brokers/connect {broker}: the broker's login page, carrying a new state of the user's. */
export async function startLogin(
  deps: ConnectDeps,
  cmd: { userId: string; brokerId: BrokerId },
): Promise<string> {
  const connector = connectorOf(deps, cmd.brokerId);
  if (!connector.loginUrl)
    throw new Invalid(`${BROKER_NAMES[cmd.brokerId]} connects with a pasted access token`);
  const state = await createLoginState(deps.db, { ...cmd, at: deps.now() });
  return connector.loginUrl(state, brokerRedirectUri(deps.config, cmd.brokerId));
}

/** The sentence each login failure is told with. */
const LOGIN_SENTENCES: Record<BrokerErrorKind, (name: string) => string> = {
  expired: BROKER_TEXTS.stateExpired,
  denied: BROKER_TEXTS.denied,
  wrong_keys: BROKER_TEXTS.wrongKeys,
  rate_limited: BROKER_TEXTS.rateLimited,
  unavailable: BROKER_TEXTS.unavailable,
  malformed: BROKER_TEXTS.malformed,
};

const settingsWith = (sentence: string) => `/settings?broker_error=${encodeURIComponent(sentence)}`;

/** Stores the session on the user's account (found or created), then syncs it. */
async function connectSession(
  deps: ConnectDeps,
  cmd: { userId: string; brokerId: BrokerId; session: BrokerSession },
): Promise<{ accountId: string; sync: ApiBrokerSync }> {
  const account = await storeConnection(deps.db, {
    userId: cmd.userId,
    brokerId: cmd.brokerId,
    clientId: cmd.session.clientId,
    sealed: deps.brokers.vault.seal(cmd.session),
    expiresAt: cmd.session.expiresAt,
    at: deps.now(),
  });
  // The session is stored: the feed may take it (brokers/feed-credentials.ts), whatever the sync says.
  void deps.events.publish({ type: 'brokers', userId: cmd.userId });
  return { accountId: account.id, sync: await syncAccount(deps, account) };
}

/**
 * GET /api/brokers/callback/:broker: where the browser goes next. Every failure is a redirect to
 * Settings with a sentence (the investor is in a browser tab, not in the app's own screens).
 */
export async function completeLogin(
  deps: ConnectDeps,
  cmd: { brokerId: string; query: CallbackQuery },
): Promise<string> {
  if (!isBrokerId(cmd.brokerId)) return settingsWith('That broker is not one this app connects to');
  const brokerId = cmd.brokerId;
  const name = BROKER_NAMES[brokerId];
  const connector = deps.brokers.connectors.get(brokerId);
  if (!connector?.completeLogin || !connector.stateOf) return settingsWith(BROKER_TEXTS.notConfigured(name));
  const state = connector.stateOf(cmd.query);
  const userId = state ? await consumeLoginState(deps.db, { state, brokerId, at: deps.now() }) : null;
  if (!userId) return settingsWith(BROKER_TEXTS.stateExpired(name));
  let session: BrokerSession;
  try {
    session = await connector.completeLogin(cmd.query, brokerRedirectUri(deps.config, brokerId));
  } catch (err) {
    if (!(err instanceof BrokerError)) throw err;
    deps.log.warn({ broker: brokerId, kind: err.kind, err: err.message }, 'broker login failed');
    return settingsWith(LOGIN_SENTENCES[err.kind](name));
  }
  try {
    await connectSession(deps, { userId, brokerId, session });
  } catch (err) {
    // Connected, but the first sync failed: the account is there, Settings says why.
    if (err instanceof AppError && err.expose) return settingsWith(err.message);
    throw err;
  }
  return `/holdings?connected=${brokerId}`;
}

/** POST /api/brokers/connect for a token broker (Dhan): the pasted token checked, stored, synced. */
export async function connectWithToken(
  deps: ConnectDeps,
  cmd: { userId: string; brokerId: BrokerId; clientId: string; accessToken: string },
): Promise<{ accountId: string; sync: ApiBrokerSync }> {
  const name = BROKER_NAMES[cmd.brokerId];
  const connector = connectorOf(deps, cmd.brokerId);
  if (!connector.sessionFromToken) throw new Invalid(BROKER_TEXTS.notConfigured(name));
  let session: BrokerSession;
  try {
    session = await connector.sessionFromToken({ clientId: cmd.clientId, accessToken: cmd.accessToken });
  } catch (err) {
    if (!(err instanceof BrokerError)) throw err;
    // A pasted token the broker refuses is the investor's to fix: 400 with the sentence.
    const refused = err.kind === 'expired' || err.kind === 'denied' || err.kind === 'wrong_keys';
    throw new Invalid(refused ? BROKER_TEXTS.tokenRefused(name) : LOGIN_SENTENCES[err.kind](name));
  }
  return connectSession(deps, { userId: cmd.userId, brokerId: cmd.brokerId, session });
}
