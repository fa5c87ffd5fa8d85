/**
 * The corporate-actions job: at start and then every minute, applies the bonuses and splits
 * whose ex-date (IST) has come. A minute after midnight IST of the ex-date is long before the
 * first batch of the session (the pre-open starts at 09:00), and an action learned after its
 * ex-date (a late sync, here or by the CLI on another process) is applied within a minute.
 * The clock is injectable: tests move the date instead of waiting for it.
 */
import { istDateOf } from '@app/common/market/calendar';
import { applyCorporateAction, dueActionIds, type AppliedAction, type ApplyDeps } from './apply.ts';

export const CORPORATE_ACTIONS_INTERVAL_MS = 60_000;

export interface CorporateActionsJob {
  start(): void;
  /** Applies whatever is due now (one run at a time); resolves with what this instance applied. */
  runOnce(): Promise<AppliedAction[]>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export interface CorporateActionsJobOptions {
  now?: () => Date;
  intervalMs?: number;
}

export function createCorporateActionsJob(
  deps: ApplyDeps,
  opts: CorporateActionsJobOptions = {},
): CorporateActionsJob {
  const now = opts.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<AppliedAction[]> | undefined;
  let stopped = false;

  async function run(): Promise<AppliedAction[]> {
    const applied: AppliedAction[] = [];
    for (const id of await dueActionIds(deps.db, istDateOf(now()))) {
      if (stopped) break;
      const result = await applyCorporateAction(deps, id);
      if (result) applied.push(result);
    }
    return applied;
  }

  function runOnce(): Promise<AppliedAction[]> {
    // A run asked for during another waits for it, then looks again (it may have been told of new rows).
    const previous = running ?? Promise.resolve([]);
    const next = previous.catch(() => []).then(run);
    running = next;
    void next
      .finally(() => {
        if (running === next) running = undefined;
      })
      .catch(() => undefined);
    return next;
  }

  const tick = () => {
    runOnce().catch((err: unknown) =>
      deps.log.error({ err }, 'applying corporate actions failed; will retry'),
    );
  };

  return {
    start() {
      tick();
      timer = setInterval(tick, opts.intervalMs ?? CORPORATE_ACTIONS_INTERVAL_MS);
      timer.unref();
    },
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
