/**
 * B8: crash day (issue #18). 200,000 active exit rules over 30,000 users and 2,000 instruments;
 * one tick batch takes 5–6 % off every price and 50,000 rules cross in it. The servers are the
 * production runtime in child processes (`startServerRuntime`, no embedded streamer) on one
 * PostgreSQL database and one Redis, one instance and then two; the bench publishes the tick
 * batches on the Redis bus as the streamer does, holds a few hundred sockets of users with and
 * without crossing rules, and hands the servers' email to the fake SendGrid. Each shape runs
 * with the default (set-based) claims and with `claimChunkSize: 1` (one transaction per
 * crossing, the path the issue measured) as the baseline, in the same run.
 */
import os from 'node:os';
import { holdingsPerUser, type CrashPlan } from '../lib/crash-day.ts';
import { result, type BenchContext, type Benchmark } from '../lib/types.ts';
import { crashRun, seedTemplate, type CrashRun } from './b8/crash-run.ts';
import { instancesName, runNote, shapeResults } from './b8/results.ts';
import { b8Size, type B8Size, type ClaimPath } from './b8/size.ts';

export interface B8Evidence {
  size: B8Size;
  plan: Omit<CrashPlan, 'symbols'>;
  runs: CrashRun[];
}

export const b8: Benchmark<B8Evidence> = {
  id: 'B8',
  title: 'Crash day: 50,000 crossings in one tick batch, one and two instances',
  async run(ctx: BenchContext) {
    const size = b8Size(ctx.quick);
    const plan = { tag: 'b8', users: size.users, rules: size.rules, crossings: size.crossings };
    if (!ctx.postgresUrl) {
      const missing = (id: string, name: string, unit: string) =>
        result({
          id,
          name,
          value: null,
          unit,
          baseline: null,
          target: 'not measured: needs PostgreSQL',
          pass: false,
        });
      return {
        results: size.instances.flatMap((n) => [
          missing(`B8-lost-${n}`, 'Alerts lost', 'alerts'),
          missing(`B8-alert-p99-${n}`, 'Crossing → alert p99', 's'),
          missing(`B8-executions-${n}`, 'Crossing → all executions committed', 's'),
          missing(`B8-emails-${n}`, 'Crossing → all emails handed', 's'),
          missing(`B8-next-batch-${n}`, "The next batch's quotes p99", 'ms'),
          missing(`B8-loop-p99-${n}`, 'Event-loop delay p99', 'ms'),
          missing(`B8-health-${n}`, 'Slowest /api/health', 'ms'),
        ]),
        notes: ['B8: not measured (two instances on one database need a PostgreSQL server).'],
        evidence: { size, plan, runs: [] },
      };
    }
    const load = os.loadavg()[0]!.toFixed(2);
    const seeded = await seedTemplate(ctx, size);
    const runs: CrashRun[] = [];
    try {
      // Interleaved, so a burst of load on the machine hits both paths alike.
      for (const n of size.instances)
        for (const path of size.paths) {
          const started = Date.now();
          const run = await crashRun(ctx, size, seeded, path, n);
          runs.push(run);
          // In the log as each run ends: a later run failing loses the result lines, not these.
          ctx.log(runNote(run));
          ctx.log(`B8 ${path}, ${instancesName(n)}: done in ${Math.round((Date.now() - started) / 1000)} s`);
        }
    } finally {
      await seeded.template.drop();
    }
    const find = (path: ClaimPath, n: number) => runs.find((r) => r.path === path && r.instances === n);
    const results = size.instances.flatMap((n) =>
      shapeResults(find('set-based', n)!, find('baseline', n), size.crossings),
    );
    const [one, two] = [find('set-based', 1), find('set-based', 2)];
    if (one && two)
      results.push(
        result({
          id: 'B8-commits',
          name: `Database commits from the crash to the last email (${two.batches} batches), two instances against one (the baseline column)`,
          value: two.commits,
          unit: 'commits',
          baseline: one.commits,
          target: '≤ 1.1 × one instance',
          pass: two.commits <= 1.1 * one.commits,
        }),
      );
    const [oneBase, twoBase] = [find('baseline', 1), find('baseline', 2)];
    return {
      results,
      notes: [
        `B8: PostgreSQL, one Redis, ${size.rules} active rules over ${size.users} users (${holdingsPerUser(plan)} holdings each) ` +
          `and ${size.instruments} instruments; ${size.crossings} cross in the crash batch (every price 5–6 % down); ` +
          `${seeded.sockets.length} sockets (${size.crossingSockets} of users with crossing rules, ${size.quietSockets} without); ` +
          `a batch every ${size.intervalMs} ms; baseline = the path before #18 (\`claimChunkSize: 1, claimConcurrency: 8, pipelineWaitsOnClaims: true\`, every instance claiming and storing every batch); ` +
          `waits ${size.claimWaitS} s for the executions and ${size.emailWaitS} s for the emails from the crash; ` +
          `load average ${load} at B8's start, ${os.loadavg()[0]!.toFixed(2)} at its end.` +
          (oneBase && twoBase
            ? ` Baseline database commits: ${oneBase.commits} (one instance), ${twoBase.commits} (two).`
            : ''),
        ...runs.map(runNote),
      ],
      evidence: { size, plan, runs },
    };
  },
};
