/**
 * The corporate-actions job: at start and then every minute, applies the bonuses and splits
 * whose ex-date (IST) has come. A minute after midnight IST of the ex-date is long before the
 * first batch of the session (the pre-open starts at 09:00), and an action learned after its
 * ex-date (a late sync, here or by the CLI on another process) is applied within a minute.
 * Each action is applied on its own: one that fails is retried alone later (retry.ts) and the
 * ones after it go on. The clock is injectable: tests move the date instead of waiting for it.
 */
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';
import { applyCorporateAction, type AppliedAction, type ApplyDeps } from './apply.ts';
import { dueActions, recordFailure } from './retry.ts';

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
      const at = now();
      for (const due of await dueActions(deps.db, at)) {
        if (stopped()) break;
        try {
          const result = await applyCorporateAction(deps, due.id);
          if (result) applied.push(result);
        } catch (err) {
          await recordFailure(deps, due, err, at);
        }
      }
      return applied;
    },
    intervalMs: opts.intervalMs ?? CORPORATE_ACTIONS_INTERVAL_MS,
    log: deps.log,
    failure: 'applying corporate actions failed; will retry',
  });
}
