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
import { createRedisBus } from '@app/streamer';
import { pino } from 'pino';
import os from 'node:os';
import { crashDayBatch, holdingsPerUser, type CrashPlan } from '../lib/crash-day.ts';
import { probeDatabase, probeHealth, startMailSink, type HealthProbe } from '../lib/crash-probes.ts';
import { startFleet, type Fleet } from '../lib/fleet.ts';
import { plausibleSymbols } from '../lib/market.ts';
import type { LoopDelay } from '../lib/server-child.ts';
import { startAppServer, tokenFor, type AppServer } from '../lib/servers.ts';
import { cloneDatabase, freshDatabase, startRedisServer, type BenchDatabase } from '../lib/services.ts';
import { max, percentile, sleep } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark, type BenchResult } from '../lib/types.ts';

export interface B8Size {
  rules: number;
  crossings: number;
  users: number;
  instruments: number;
  /** Sockets of users with crossing rules (one each), and of users without. */
  crossingSockets: number;
  quietSockets: number;
  /** Calm batches before the crash (the first is not counted in the normal latency). */
  warmup: number;
  /** The streamer's pace: one batch every intervalMs, before and after the crash. */
  intervalMs: number;
  /**
   * Batches after the crash (then the market pauses until the run ends): the same in every
   * run, so the database commits of two runs count the same batches.
   */
  afterBatches: number;
  /** How long to wait, from the crash, for every execution and for every email. */
  claimWaitS: number;
  emailWaitS: number;
  /** After the last execution, how long alerts still on their way may take. */
  alertGraceS: number;
  /** Idle wait for the servers' statistics to reach pg_stat_database before counting commits. */
  statsSettleMs: number;
  /** Socket client processes per run. */
  clients: number;
  /** The shapes measured: 1 and 2 instances. */
  instances: number[];
  /** The paths run for each shape (both by default; B8_PATHS=set-based skips the baseline while tuning). */
  paths: ClaimPath[];
}

export const B8_SIZES: Record<'full' | 'mid' | 'quick', B8Size> = {
  full: {
    rules: 200_000,
    crossings: 50_000,
    users: 30_000,
    instruments: 2000,
    crossingSockets: 150,
    quietSockets: 100,
    warmup: 5,
    intervalMs: 1000,
    afterBatches: 10,
    // Today's path needed 138–167 s for 50,000 claims on a quiet machine (issue #18); the waits
    // keep a full run (four runs) under 20 minutes.
    claimWaitS: 200,
    emailWaitS: 200,
    alertGraceS: 10,
    statsSettleMs: 11_000,
    clients: 2,
    instances: [1, 2],
    paths: ['set-based', 'baseline'],
  },
  mid: {
    rules: 50_000,
    crossings: 12_500,
    users: 7500,
    instruments: 2000,
    crossingSockets: 150,
    quietSockets: 100,
    warmup: 5,
    intervalMs: 1000,
    afterBatches: 10,
    claimWaitS: 180,
    emailWaitS: 120,
    alertGraceS: 10,
    statsSettleMs: 11_000,
    clients: 2,
    instances: [1, 2],
    paths: ['set-based', 'baseline'],
  },
  quick: {
    rules: 1000,
    crossings: 200,
    users: 150,
    instruments: 200,
    crossingSockets: 10,
    quietSockets: 5,
    warmup: 3,
    intervalMs: 250,
    afterBatches: 3,
    claimWaitS: 60,
    emailWaitS: 60,
    alertGraceS: 5,
    statsSettleMs: 1200,
    clients: 1,
    instances: [1, 2],
    paths: ['set-based', 'baseline'],
  },
};

const ENV_KEYS: Record<string, keyof B8Size> = {
  B8_RULES: 'rules',
  B8_CROSSINGS: 'crossings',
  B8_USERS: 'users',
  B8_INSTRUMENTS: 'instruments',
  B8_SOCKETS: 'crossingSockets',
  B8_QUIET_SOCKETS: 'quietSockets',
  B8_INTERVAL_MS: 'intervalMs',
  B8_AFTER_BATCHES: 'afterBatches',
  B8_CLAIM_WAIT_S: 'claimWaitS',
  B8_EMAIL_WAIT_S: 'emailWaitS',
};

/**
 * The size to run: `--quick` gives the quick one; else B8_SIZE (full, mid or quick; full by
 * default), each figure overridable (B8_RULES=100000, B8_INSTANCES=1, ...).
 */
export function b8Size(quick: boolean, env: NodeJS.ProcessEnv = process.env): B8Size {
  const preset = quick ? 'quick' : (env.B8_SIZE ?? 'full');
  if (!(preset in B8_SIZES)) throw new Error(`B8_SIZE must be full, mid or quick (not ${preset})`);
  const size: B8Size = { ...B8_SIZES[preset as keyof typeof B8_SIZES] };
  if (quick) return size;
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (not ${raw})`);
    (size[key] as number) = n;
  }
  if (env.B8_INSTANCES) size.instances = env.B8_INSTANCES.split(',').map(Number);
  if (env.B8_PATHS) size.paths = env.B8_PATHS.split(',') as ClaimPath[];
  if (size.paths.some((p) => p !== 'set-based' && p !== 'baseline'))
    throw new Error('B8_PATHS must list set-based and/or baseline');
  if (size.crossings > size.rules) throw new Error('B8_CROSSINGS cannot exceed B8_RULES');
  return size;
}

export type ClaimPath = 'set-based' | 'baseline';

/**
 * The baseline: the firing path before issue #18, as server/src/rules/engine.ts names it (one
 * transaction per crossing in 8 lanes, the pipeline waiting on the claims, every instance
 * claiming and storing every batch). The set-based runs take the defaults.
 */
export const PRE_18_PATH = {
  rulesEngine: { claimChunkSize: 1, claimConcurrency: 8, pipelineWaitsOnClaims: true },
  batchOwner: { everyInstance: true },
};

/** One run: a shape (instances) and a claim path, from the crash to the last email. */
export interface CrashRun {
  path: ClaimPath;
  instances: number;
  sockets: number;
  /** `alert` events the connected sockets must receive: each crossing rule of their users. */
  expectedAlerts: number;
  /** Expected ones that never arrived, ones that arrived twice, ones no socket should have had. */
  lostAlerts: number;
  duplicateAlerts: number;
  unexpectedAlerts: number;
  /** From the crash batch's publication to each expected alert's receipt (ms). */
  alertLatencies: number[];
  /** From the crash batch to the last execution committed; null when not within claimWaitS. */
  executionsMs: number | null;
  executions: number;
  /** Distinct rules fired, and fired rules that should not have crossed (exactly once: C and 0). */
  rulesFired: number;
  wrongRulesFired: number;
  /** Outbox rows written by the claims, and recipients the fake SendGrid was handed. */
  expectedEmails: number;
  emails: number;
  emailRequests: number;
  emailsMs: number | null;
  /** p99 of the calm batches' receipts, and of the first batch after the crash. */
  normalP99: number;
  nextP99: number | null;
  /** Sockets the first batch after the crash reached. */
  nextReached: number;
  /** p99 of the worst batch published while the crash was being handled. */
  worstAfterP99: number;
  batchesAfter: number;
  loop: LoopDelay[];
  healthMaxMs: number;
  healthP99Ms: number;
  healthChecks: number;
  healthFailures: number;
  /** Transactions committed in the database from just before the crash to the servers' stop. */
  commits: number;
  /** Batches the run published from the crash on (the crash included). */
  batches: number;
  socketsLost: Record<string, number>;
}

export interface B8Evidence {
  size: B8Size;
  plan: Omit<CrashPlan, 'symbols'>;
  runs: CrashRun[];
}

/** Waits until `check` holds (polling); the time it held, or null at `deadline`. */
async function until(check: () => Promise<boolean>, deadline: number, everyMs = 100): Promise<number | null> {
  for (;;) {
    if (await check()) return Date.now();
    if (Date.now() >= deadline) return null;
    await sleep(everyMs);
  }
}

interface Seeded {
  template: BenchDatabase;
  plan: CrashPlan;
  /** Socket users: ordinal and id, with the rules that must alert them. */
  sockets: Array<{ user: number; id: string; expects: string[] }>;
  /** Every rule the crash crosses. */
  crossing: Set<string>;
}

/** Seeds the crash day once into a template database every run is copied from. */
async function seedTemplate(ctx: BenchContext, size: B8Size): Promise<Seeded> {
  const plan: CrashPlan = {
    tag: 'b8',
    users: size.users,
    rules: size.rules,
    crossings: size.crossings,
    symbols: plausibleSymbols(size.instruments),
  };
  const template = await freshDatabase(ctx.postgresUrl);
  try {
    const started = Date.now();
    const seeder = await startAppServer({ databaseUrl: template.url });
    let users;
    try {
      users = await seeder.seedCrashDay(plan);
    } finally {
      await seeder.stop();
    }
    ctx.log(
      `B8: seeded ${plan.users} users, ${plan.users * holdingsPerUser(plan)} holdings, ${plan.rules} rules in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    const crossing: Seeded['sockets'] = [];
    const quiet: Seeded['sockets'] = [];
    for (const u of users) {
      const expects = u.crossing;
      const socket = { user: u.ordinal, id: u.id, expects };
      if (expects.length > 0 && crossing.length < size.crossingSockets) crossing.push(socket);
      if (expects.length === 0 && quiet.length < size.quietSockets) quiet.push(socket);
      if (crossing.length >= size.crossingSockets && quiet.length >= size.quietSockets) break;
    }
    return {
      template,
      plan,
      sockets: [...crossing, ...quiet],
      crossing: new Set(users.flatMap((u) => u.crossing)),
    };
  } catch (err) {
    await template.drop();
    throw err;
  }
}

/** One run on a copy of the template: start, warm up, crash, measure, stop. */
async function crashRun(
  ctx: BenchContext,
  size: B8Size,
  seeded: Seeded,
  path: ClaimPath,
  instances: number,
): Promise<CrashRun> {
  const { plan } = seeded;
  const postgresUrl = ctx.postgresUrl!;
  const database = await cloneDatabase(postgresUrl, seeded.template.url!);
  const redis = await startRedisServer();
  const mail = await startMailSink();
  const bus = createRedisBus(redis.url, pino({ level: 'warn' }));
  const servers: AppServer[] = [];
  const fleets: Fleet[] = [];
  const health: HealthProbe[] = [];
  const probe = await probeDatabase(postgresUrl, database.url!);
  try {
    const started = await Promise.allSettled(
      Array.from({ length: instances }, () =>
        startAppServer({
          databaseUrl: database.url,
          redisUrl: redis.url,
          // One deployment: the instances share the delivery queue.
          queuePrefix: `b8-${path}-${instances}`,
          env: { SENDGRID_API_KEY: 'SG.bench-only-key', SENDGRID_API_URL: mail.url },
          ...(path === 'baseline' ? PRE_18_PATH : {}),
        }),
      ),
    );
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    for (const server of servers) {
      const { rules } = await server.status();
      if (rules !== plan.rules) throw new Error(`an instance loaded ${rules} rules, not ${plan.rules}`);
    }

    // Sockets take turns over the instances, as behind a load balancer.
    const shares = servers.map((_, i) => seeded.sockets.filter((_, j) => j % instances === i));
    for (const [i, server] of servers.entries()) {
      const fleet = await startFleet(
        'socket.io',
        server.url,
        Math.max(1, Math.floor(size.clients / instances)),
      );
      fleets.push(fleet);
      // Tokens minted now: they live 15 minutes, a full B8 runs longer.
      const opened = await fleet.connect(shares[i]!.map((s) => ({ token: tokenFor(s.id), user: s.user })));
      if (opened.failed) throw new Error(`${opened.failed} sockets failed: ${opened.errors.join('; ')}`);
      await server.waitFor((s) => s.watchedUsers >= shares[i]!.length);
    }
    const waitForBatch = async (at: number, timeoutMs: number) => {
      await Promise.all(fleets.map((f, i) => f.waitForBatch(at, shares[i]!.length, timeoutMs)));
    };

    // A calm market: the normal latency.
    const calmAts: number[] = [];
    for (let seq = 0; seq < size.warmup; seq++) {
      const batch = crashDayBatch(plan.symbols, 'calm', seq);
      await bus.publishBatch(batch);
      calmAts.push(batch.at);
      await waitForBatch(batch.at, 10_000);
      await sleep(size.intervalMs);
    }
    await Promise.all(servers.map((s) => s.idle()));
    await sleep(size.statsSettleMs);
    const commitsBefore = await probe.commits();
    await Promise.all(servers.map((s) => s.loopDelay(true)));
    health.push(...servers.map((s) => probeHealth(s.url)));

    // The crash, then the streamer's pace goes on until the run ends.
    const crash = crashDayBatch(plan.symbols, 'crash', 0);
    await bus.publishBatch(crash);
    const t0 = crash.at;
    ctx.log(`B8 ${path}, ${instances} instance(s): crash batch published`);
    const afterAts: number[] = [];
    const publisher = (async () => {
      for (let seq = 1; seq <= size.afterBatches; seq++) {
        await sleep(size.intervalMs);
        const batch = crashDayBatch(plan.symbols, 'after', seq);
        await bus.publishBatch(batch);
        afterAts.push(batch.at);
      }
    })();
    publisher.catch(() => undefined); // awaited below; a failed run stops it with the bus

    let executions = 0;
    const executionsAt = await until(
      async () => (executions = await probe.count('rule_executions')) >= plan.crossings,
      t0 + size.claimWaitS * 1000,
    );
    ctx.log(
      `B8 ${path}, ${instances} instance(s): ${executions} executions ${executionsAt ? `in ${executionsAt - t0} ms` : `after ${size.claimWaitS} s (not all)`}`,
    );
    const expectedEmails = await probe.count('alert_deliveries');
    const emailsAt = await until(
      async () => mail.recipients() >= expectedEmails,
      t0 + size.emailWaitS * 1000,
      50,
    );
    const emailsDoneAt = emailsAt === null ? null : (mail.lastAt() ?? emailsAt);
    ctx.log(
      `B8 ${path}, ${instances} instance(s): ${mail.recipients()} of ${expectedEmails} emails ${emailsDoneAt ? `in ${emailsDoneAt - t0} ms` : `after ${size.emailWaitS} s (not all)`}`,
    );
    const expectedAlerts = seeded.sockets.reduce((n, s) => n + s.expects.length, 0);
    const alertCount = async () =>
      (await Promise.all(fleets.map((f) => f.alertCount()))).reduce((a, b) => a + b, 0);
    await until(
      async () => (await alertCount()) >= expectedAlerts,
      (executionsAt ?? Date.now()) + size.alertGraceS * 1000,
    );
    await publisher;
    await Promise.all(health.map((h) => h.stop()));
    const loop = await Promise.all(servers.map((s) => s.loopDelay(false)));
    await Promise.all(afterAts.map((at) => waitForBatch(at, 10_000)));

    // What each socket received.
    const receipts = (await Promise.all(fleets.map((f) => f.collect([...calmAts, ...afterAts])))).reduce(
      (all, part) => all.map((r, i) => ({ ...r, latencies: [...r.latencies, ...part[i]!.latencies] })),
    );
    const calm = receipts.slice(1, calmAts.length).flatMap((r) => r.latencies);
    const after = receipts.slice(calmAts.length);
    const expected = new Set(seeded.sockets.flatMap((s) => s.expects.map((id) => `${s.user}|${id}`)));
    const seen = new Set<string>();
    let duplicateAlerts = 0;
    let unexpectedAlerts = 0;
    const alertLatencies: number[] = [];
    for (const a of (await Promise.all(fleets.map((f) => f.alerts()))).flat()) {
      const key = `${a.user}|${a.ruleId}`;
      if (!expected.has(key)) unexpectedAlerts += 1;
      else if (seen.has(key)) duplicateAlerts += 1;
      else {
        seen.add(key);
        alertLatencies.push(a.at - t0);
      }
    }
    const socketsLost: Record<string, number> = {};
    for (const fleet of fleets)
      for (const [reason, n] of Object.entries(await fleet.lost()))
        socketsLost[reason] = (socketsLost[reason] ?? 0) + n;

    // Exactly once: every crossing rule fired once, and no other.
    const fired = await probe.query<{ rule_id: string }>('select rule_id from rule_executions');
    const rulesFired = new Set(fired.map((f) => f.rule_id));
    const wrongRulesFired = [...rulesFired].filter((id) => !seeded.crossing.has(id)).length;
    executions = fired.length;

    // Commits: the servers' statistics reach pg_stat_database as their connections close.
    await Promise.all(fleets.map((f) => f.stop()));
    fleets.length = 0;
    await Promise.all(servers.map((s) => s.stop()));
    servers.length = 0;
    await probe.release();
    await sleep(Math.min(size.statsSettleMs, 2000));
    const commits = (await probe.commits()) - commitsBefore;

    const healthSamples = health.flatMap((h) => h.samples);
    const p99 = (xs: number[]) => (xs.length ? round(percentile(xs, 99)) : NaN);
    return {
      path,
      instances,
      sockets: seeded.sockets.length,
      expectedAlerts,
      lostAlerts: expected.size - seen.size,
      duplicateAlerts,
      unexpectedAlerts,
      alertLatencies,
      executionsMs: executionsAt === null ? null : executionsAt - t0,
      executions,
      rulesFired: rulesFired.size,
      wrongRulesFired,
      expectedEmails,
      emails: mail.recipients(),
      emailRequests: mail.requests(),
      emailsMs: emailsDoneAt === null ? null : emailsDoneAt - t0,
      normalP99: p99(calm),
      nextP99: after[0]?.latencies.length ? p99(after[0].latencies) : null,
      nextReached: after[0]?.latencies.length ?? 0,
      worstAfterP99: max(after.map((r) => p99(r.latencies)).filter((v) => Number.isFinite(v))),
      batchesAfter: afterAts.length,
      loop,
      healthMaxMs: round(max(healthSamples)),
      healthP99Ms: p99(healthSamples),
      healthChecks: healthSamples.length,
      healthFailures: health.reduce((n, h) => n + h.failures, 0),
      commits,
      batches: 1 + afterAts.length,
      socketsLost,
    };
  } finally {
    await Promise.all(health.map((h) => h.stop()));
    await Promise.all(fleets.map((f) => f.stop()));
    await Promise.all(servers.map((s) => s.stop()));
    await bus.close();
    await probe.close();
    await mail.close();
    await redis.stop();
    await database.drop();
  }
}

const seconds = (ms: number | null) => (ms === null ? null : round(ms / 1000, 2));
const instancesName = (n: number) => (n === 1 ? 'one instance' : `${n} instances`);
const loopP99 = (run: CrashRun) => max(run.loop.map((l) => l.p99));

/** The result lines for one shape: the set-based run against the baseline run. */
function shapeResults(set: CrashRun, base: CrashRun | undefined, crossings: number): BenchResult[] {
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

function runNote(r: CrashRun): string {
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
