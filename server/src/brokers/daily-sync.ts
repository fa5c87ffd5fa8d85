/**
 * The after-close sync (docs/holdings.md#connect-a-broker): every minute, once a trading day's
 * session has closed and it is 16:00 IST or later (digest/job.ts's rule, the exchange calendar),
 * every API account CONNECTED whose token is still valid and not yet synced since then is
 * synced. Brokers run side by side; each broker's accounts one at a time with a pause that keeps
 * under its rate limit. A failure is not retried every minute: an account a broker answered
 * badly is ERROR until the investor syncs it by hand or reconnects. An expired session marks the account EXPIRED (syncAccount), so it is not
 * tried again until the investor reconnects. Across instances the account's sync lease and its
 * last_synced_at keep each account to one sync a day.
 */
import type { BrokerId } from '@app/common/api/brokers';
import { AppError } from '../http/errors.ts';
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';
import { syncableAccounts } from '../accounts/connected-accounts.ts';
import type { BrokerAccount } from '../accounts/broker-accounts.ts';
import { afterCloseDayAt, istMidnight } from '../market/after-close.ts';
import { syncAccount, type BrokerSyncDeps } from './sync.ts';

/** The least time between two calls to a broker's API (its documented limits, with room to spare). */
export const BROKER_MIN_INTERVAL_MS: Readonly<Record<BrokerId, number>> = {
  // Kite: 10 requests a second for non-quote endpoints; ≤ 3/s is safe beside the investor's own use.
  kite: 350,
  upstox: 350,
  angelone: 1_000,
  dhan: 1_000,
};

const SYNC_FROM_MINUTES = 16 * 60;
const DAILY_SYNC_INTERVAL_MS = 60_000;

/** One account's outcome: synced, or the sentence of why not. */
export interface DailySyncOutcome {
  accountId: string;
  brokerId: string;
  /** 'synced', or the sentence the investor would read. */
  outcome: string;
}

export type DailySyncJob = PeriodicJob<DailySyncOutcome>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createDailySyncJob(
  deps: BrokerSyncDeps,
  opts: { now?: () => Date; intervalMs?: number } = {},
): DailySyncJob {
  const now = opts.now ?? deps.now;
  async function syncBroker(accounts: BrokerAccount[], stopped: () => boolean): Promise<DailySyncOutcome[]> {
    const outcomes: DailySyncOutcome[] = [];
    for (const [i, account] of accounts.entries()) {
      if (stopped()) break;
      const brokerId = account.brokerId as BrokerId;
      if (i > 0) await sleep(BROKER_MIN_INTERVAL_MS[brokerId] ?? 1_000);
      try {
        await syncAccount(deps, account);
        outcomes.push({ accountId: account.id, brokerId, outcome: 'synced' });
      } catch (err) {
        if (!(err instanceof AppError) || !err.expose) throw err;
        outcomes.push({ accountId: account.id, brokerId, outcome: err.message });
      }
    }
    return outcomes;
  }
  return createPeriodicJob({
    async run(stopped) {
      const at = now();
      const due = afterCloseDayAt(at);
      if (!due) return [];
      const from = istMidnight(due.day).getTime() + SYNC_FROM_MINUTES * 60_000;
      const accounts = (await syncableAccounts(deps.db, at)).filter(
        (a) => deps.brokers.connectors.has(a.brokerId as BrokerId) && (a.lastSyncedAt?.getTime() ?? 0) < from,
      );
      const byBroker = new Map<string, BrokerAccount[]>();
      for (const a of accounts) byBroker.set(a.brokerId!, [...(byBroker.get(a.brokerId!) ?? []), a]);
      const outcomes = (
        await Promise.all([...byBroker.values()].map((list) => syncBroker(list, stopped)))
      ).flat();
      if (outcomes.length > 0)
        deps.log.info({ day: due.day, accounts: outcomes.length }, 'after-close broker syncs');
      return outcomes;
    },
    intervalMs: opts.intervalMs ?? DAILY_SYNC_INTERVAL_MS,
    log: deps.log,
    failure: 'after-close broker syncs failed; will retry',
  });
}
