/**
 * One sync of a connected account (docs/holdings.md#connect-a-broker), the same on connect, on
 * the button and in the daily job: the account's lease taken (one sync per account across
 * instances), its session opened, the broker's holdings read and applied (apply-sync.ts), the
 * lease given back. A failure changes no holding and no rule, and says what happened: an expired
 * session (or one the key no longer opens) marks the account EXPIRED (409: reconnect, never
 * retried); a broker that did not answer or answered nonsense marks it ERROR (502); a rate limit
 * is 429.
 */
import { BROKER_NAMES, BROKER_TEXTS, type ApiBrokerSync, type BrokerId } from '@app/common/api/brokers';
import type { Logger } from 'pino';
import { AppError, Conflict, Invalid, TooManyRequests } from '../http/errors.ts';
import type { BrokerAccount } from '../accounts/broker-accounts.ts';
import { markConnection, releaseSyncLease, takeSyncLease } from '../accounts/connected-accounts.ts';
import { applyBrokerSync, type SyncDeps } from './apply-sync.ts';
import { BrokerError, type BrokerConnector } from './connector.ts';
import type { TokenVault } from './token-vault.ts';

/** The brokers this server connects to, and the vault their sessions are sealed in. */
export interface BrokerLinks {
  connectors: ReadonlyMap<BrokerId, BrokerConnector>;
  vault: TokenVault;
}

export type BrokerSyncDeps = SyncDeps & { brokers: BrokerLinks; log: Logger };

/** A broker that failed to answer (or answered what we cannot read): 502 with the sentence. */
export class BrokerUnavailable extends AppError {
  constructor(message: string) {
    super(message, 502, true);
  }
}

/** The broker id of an API account (400 for imports and manual entry). */
export function connectedBrokerOf(account: BrokerAccount): BrokerId {
  const id = account.brokerId as BrokerId | null;
  if (account.brokerType !== 'API' || !id || !(id in BROKER_NAMES))
    throw new Invalid(
      'Only an account connected to its broker can be synced: upload a new file to update this one',
    );
  return id;
}

/** Syncs an API account now; throws the AppError the route answers with (see the file's comment). */
export async function syncAccount(deps: BrokerSyncDeps, account: BrokerAccount): Promise<ApiBrokerSync> {
  const brokerId = connectedBrokerOf(account);
  const name = BROKER_NAMES[brokerId];
  const connector = deps.brokers.connectors.get(brokerId);
  if (!connector) throw new Invalid(BROKER_TEXTS.notConfigured(name));
  const leased = await takeSyncLease(deps.db, account.id);
  if (!leased) throw new Conflict(BROKER_TEXTS.syncRunning(name));
  try {
    const at = deps.now();
    const expire = async (reason: string) => {
      await markConnection(deps.db, { accountId: account.id, status: 'EXPIRED', reason, at });
      return new Conflict(BROKER_TEXTS.expired(name));
    };
    if (leased.accountStatus === 'EXPIRED') throw new Conflict(BROKER_TEXTS.expired(name));
    const session = leased.tokenCiphertext ? deps.brokers.vault.open(leased.tokenCiphertext) : null;
    if (!session) throw await expire('the stored session does not open under the broker token key');
    if (!leased.tokenExpiresAt || leased.tokenExpiresAt.getTime() <= at.getTime())
      throw await expire('the token is past its expiry');
    let holdings;
    try {
      holdings = await connector.holdings(session);
    } catch (err) {
      if (!(err instanceof BrokerError)) throw err;
      deps.log.warn(
        { broker: brokerId, accountId: account.id, kind: err.kind, err: err.message },
        'broker sync failed',
      );
      if (err.kind === 'expired') throw await expire(err.message);
      if (err.kind === 'rate_limited')
        throw new TooManyRequests(err.retryAfterS ?? 60, BROKER_TEXTS.rateLimited(name));
      await markConnection(deps.db, {
        accountId: account.id,
        status: 'ERROR',
        reason: `${err.kind}: ${err.message}`,
        at,
      });
      throw new BrokerUnavailable(
        err.kind === 'malformed' ? BROKER_TEXTS.malformed(name) : BROKER_TEXTS.unavailable(name),
      );
    }
    return await applyBrokerSync(deps, {
      userId: account.userId,
      accountId: account.id,
      brokerId,
      accountLabel: leased.accountLabel,
      firstSync: leased.lastSyncedAt === null,
      holdings,
    });
  } finally {
    await releaseSyncLease(deps.db, account.id);
  }
}
