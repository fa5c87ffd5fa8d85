/**
 * The corporate-actions job: at start and then every minute, applies the bonuses and splits
 * whose ex-date (IST) has come. A minute after midnight IST of the ex-date is long before the
 * first batch of the session (the pre-open starts at 09:00), and an action learned after its
 * ex-date (a late sync, here or by the CLI on another process) is applied within a minute.
 * The clock is injectable: tests move the date instead of waiting for it.
 */
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';
import { istDateOf } from '@app/common/market/calendar';
import { applyCorporateAction, dueActionIds, type AppliedAction, type ApplyDeps } from './apply.ts';

export const CORPORATE_ACTIONS_INTERVAL_MS = 60_000;

/** Applies or records whatever is due now, one run at a time (util/periodic-job.ts). */
export type CorporateActionsJob = PeriodicJob<AppliedAction>;

export interface CorporateActionsJobOptions {
  now?: () => Date;
  intervalMs?: number;
}

export function createCorporateActionsJob(
  deps: ApplyDeps,
  opts: CorporateActionsJobOptions = {},
): CorporateActionsJob {
  const now = opts.now ?? (() => new Date());
  return createPeriodicJob({
    async run(stopped) {
      const applied: AppliedAction[] = [];
      for (const id of await dueActionIds(deps.db, istDateOf(now()))) {
        if (stopped()) break;
        const result = await applyCorporateAction(deps, id);
        if (result) applied.push(result);
      }
      return applied;
    },
    intervalMs: opts.intervalMs ?? CORPORATE_ACTIONS_INTERVAL_MS,
    log: deps.log,
    failure: 'applying corporate actions failed; will retry',
  });
}
