/**
 * The evening digest job: every minute, once the IST day's session has closed and it is 16:00
 * IST or later on a trading day (the exchange calendar: no digest on a weekend or holiday),
 * records the digest of every user still due one. Each is claimed by its `digests` row, so
 * several instances running this job send each user one email a day. The clock is injectable:
 * tests move the time instead of waiting for it.
 */
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';
import { dueDigestUsers, recordDigest, type DigestDeps, type RecordedDigest } from './record.ts';
import { afterCloseDayAt } from '../market/after-close.ts';
import { configuredChannels } from '../notifications/senders.ts';

export const DIGEST_INTERVAL_MS = 60_000;

/** Applies or records whatever is due now, one run at a time (util/periodic-job.ts). */
export type DigestJob = PeriodicJob<RecordedDigest>;

export interface DigestJobOptions {
  now?: () => Date;
  intervalMs?: number;
}

export function createDigestJob(deps: DigestDeps, opts: DigestJobOptions = {}): DigestJob {
  const now = opts.now ?? (() => new Date());
  return createPeriodicJob({
    async run(stopped) {
      const due = afterCloseDayAt(now());
      if (!due) return [];
      const recorded: RecordedDigest[] = [];
      for (const userId of await dueDigestUsers(deps.db, due.day, configuredChannels(deps.senders))) {
        if (stopped()) break;
        const digest = await recordDigest(deps, { userId, day: due.day, nextDay: due.nextDay });
        if (digest) recorded.push(digest);
      }
      if (recorded.length > 0)
        deps.log.info({ day: due.day, users: recorded.length }, 'evening digests recorded');
      return recorded;
    },
    intervalMs: opts.intervalMs ?? DIGEST_INTERVAL_MS,
    log: deps.log,
    failure: 'evening digests failed; will retry',
  });
}
