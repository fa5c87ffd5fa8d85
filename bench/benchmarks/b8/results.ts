/** B8's result lines and notes, from its runs. */
import { max, percentile } from '../../lib/stats.ts';
import { result, round, type BenchResult } from '../../lib/types.ts';
import type { CrashRun } from './crash-run.ts';

const seconds = (ms: number | null) => (ms === null ? null : round(ms / 1000, 2));
export const instancesName = (n: number) => (n === 1 ? 'one instance' : `${n} instances`);
const loopP99 = (run: CrashRun) => max(run.loop.map((l) => l.p99));

/** The result lines for one shape: the set-based run against the baseline run. */
export function shapeResults(set: CrashRun, base: CrashRun | undefined, crossings: number): BenchResult[] {
  const n = set.instances;
  const shape = `${instancesName(n)}, ${crossings.toLocaleString('en-US')} crossings in one batch`;
  const alertP99 = (r: CrashRun | undefined) =>
    r && r.alertLatencies.length ? seconds(percentile(r.alertLatencies, 99)) : null;
  const p99 = alertP99(set);
  const executions = seconds(set.executionsMs);
  const emails = seconds(set.emailsMs);
  return [
    result({
      id: `B8-lost-${n}`,
      name: `Alerts lost: expected \`alert\` events (${set.expectedAlerts}) not on their connected socket by the end of the run (${shape})`,
      value: set.lostAlerts,
      unit: 'alerts',
      baseline: base?.lostAlerts ?? null,
      target: '0',
      pass: set.lostAlerts === 0,
    }),
    result({
      id: `B8-alert-p99-${n}`,
      name: `Crossing → \`alert\` on the user's socket, p99 (${shape})`,
      value: p99,
      unit: 's',
      baseline: alertP99(base),
      target: '< 5 s',
      pass: p99 !== null && p99 < 5,
    }),
    result({
      id: `B8-executions-${n}`,
      name: `Crossing → all executions committed (${shape})`,
      value: executions,
      unit: 's',
      baseline: seconds(base?.executionsMs ?? null),
      target: '< 5 s',
      pass: executions !== null && executions < 5,
    }),
    result({
      id: `B8-emails-${n}`,
      name: `Crossing → all ${set.expectedEmails.toLocaleString('en-US')} emails handed to the (fake) provider (${shape})`,
      value: emails,
      unit: 's',
      baseline: seconds(base?.emailsMs ?? null),
      target: '< 60 s',
      pass: emails !== null && emails < 60,
    }),
    result({
      id: `B8-next-batch-${n}`,
      name: `The next batch's quotes to sockets, p99, against a calm batch's (the baseline column) (${shape})`,
      value: set.nextP99,
      unit: 'ms',
      baseline: set.normalP99,
      target: '≤ 1.5 × a calm batch',
      pass: set.nextP99 !== null && set.nextP99 <= 1.5 * set.normalP99,
    }),
    result({
      id: `B8-loop-p99-${n}`,
      name: `Event-loop delay p99 through the crash, worst instance (${shape})`,
      value: loopP99(set),
      unit: 'ms',
      baseline: base ? loopP99(base) : null,
      target: '< 200 ms',
      pass: loopP99(set) < 200,
    }),
    result({
      id: `B8-health-${n}`,
      name: `Slowest \`/api/health\` answer through the crash (${shape})`,
      value: set.healthMaxMs,
      unit: 'ms',
      baseline: base?.healthMaxMs ?? null,
      target: '< 1,000 ms',
      pass: set.healthMaxMs < 1000 && set.healthFailures === 0,
    }),
  ];
}

export function runNote(r: CrashRun): string {
  const lat = r.alertLatencies;
  const at = (p: number) => (lat.length ? `${seconds(percentile(lat, p))} s` : '—');
  const timed = (ms: number | null, wait: string) =>
    ms === null ? `not all within ${wait}` : `${seconds(ms)} s`;
  const lost = Object.entries(r.socketsLost)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  return (
    `B8 ${r.path}, ${instancesName(r.instances)}: ${r.executions} executions (${r.rulesFired} rules, ` +
    `${r.wrongRulesFired} that should not have crossed), all committed: ${timed(r.executionsMs, 'the wait')}; ` +
    `${r.emails} of ${r.expectedEmails} emails in ${r.emailRequests} requests: ${timed(r.emailsMs, 'the wait')}; ` +
    `alerts ${r.expectedAlerts - r.lostAlerts} of ${r.expectedAlerts} on ${r.sockets} sockets ` +
    `(${r.duplicateAlerts} twice, ${r.unexpectedAlerts} unexpected), first ${at(0)}, p50 ${at(50)}, p99 ${at(99)}, last ${at(100)}; ` +
    `quotes p99: calm ${r.normalP99} ms, next batch ${r.nextP99 ?? '—'} ms (reached ${r.nextReached} sockets), ` +
    `worst of ${r.batchesAfter} batches after the crash ${r.worstAfterP99} ms; ` +
    `event loop ${r.loop.map((l) => `p99 ${l.p99} ms, max ${l.max} ms, heap ${l.heapUsedMB} MB`).join(' / ')}; ` +
    `/api/health max ${r.healthMaxMs} ms, p99 ${r.healthP99Ms} ms over ${r.healthChecks} checks, ${r.healthFailures} failed; ` +
    `${r.commits} database commits from the crash to the end (${r.batches} batches)` +
    (lost ? `; sockets closed: ${lost}` : '') +
    '.'
  );
}
