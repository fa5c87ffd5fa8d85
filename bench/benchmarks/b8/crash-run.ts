/** B8's crash day: the seeded template database, and one run of one shape on one claim path from the calm market to the last email. */
import { createRedisBus } from '@app/streamer';
import { pino } from 'pino';
import { crashDayBatch, holdingsPerUser, type CrashPlan } from '../../lib/crash-day.ts';
import {
  probeDatabase,
  probeHealth,
  startMailSink,
  type DatabaseProbe,
  type HealthProbe,
} from '../../lib/crash-probes.ts';
import type { PhoneEndpoints } from '../../lib/crash-seed.ts';
import { startFleet, type Fleet } from '../../lib/fleet.ts';
import { plausibleSymbols } from '../../lib/market.ts';
import type { LoopDelay } from '../../lib/server-child.ts';
import { startAppServer, tokenFor, type AppServer } from '../../lib/servers.ts';
import { cloneDatabase, freshDatabase, startRedisServer, type BenchDatabase } from '../../lib/services.ts';
import { max, percentile, sleep, until } from '../../lib/stats.ts';
import { round, type BenchContext } from '../../lib/types.ts';
import { PRE_18_PATH, type B8Size, type ClaimPath } from './size.ts';

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

/**
 * B9's additions to a run (benchmarks/b9.ts): the phone channels' configuration, and their
 * measurement once B8's own figures are taken.
 */
export interface RunPhones {
  /** Names the run in the log. */
  name: string;
  /** More configuration for the servers (VAPID keys, the fake Bot API). */
  env: Record<string, string>;
  /** The fake push service's certificate. */
  pushCa: string;
  /** Before the servers start: turn the copy's Web Push and Telegram endpoints off (B9's email-only baseline). */
  emailOnly: boolean;
  /** After B8's figures (the crash batch's `at`): wait for and tally the phone channels. */
  measure(t0: number, probe: DatabaseProbe): Promise<void>;
}

export interface Seeded {
  template: BenchDatabase;
  plan: CrashPlan;
  /** Socket users: ordinal and id, with the rules that must alert them. */
  sockets: Array<{ user: number; id: string; expects: string[] }>;
  /** Every rule the crash crosses. */
  crossing: Set<string>;
}

/** Seeds the crash day once into a template database every run is copied from. */
export async function seedTemplate(
  ctx: BenchContext,
  size: B8Size,
  phones?: { tag: string; endpoints: PhoneEndpoints },
): Promise<Seeded> {
  const plan: CrashPlan = {
    tag: phones?.tag ?? 'b8',
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
      users = await seeder.seedCrashDay(plan, phones?.endpoints);
    } finally {
      await seeder.stop();
    }
    ctx.log(
      `${plan.tag.toUpperCase()}: seeded ${plan.users} users, ${plan.users * holdingsPerUser(plan)} holdings, ${plan.rules} rules in ${Math.round((Date.now() - started) / 1000)} s`,
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
export async function crashRun(
  ctx: BenchContext,
  size: B8Size,
  seeded: Seeded,
  path: ClaimPath,
  instances: number,
  phones?: RunPhones,
): Promise<CrashRun> {
  const { plan } = seeded;
  const name = phones?.name ?? 'B8';
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
    if (phones?.emailOnly)
      await probe.query(`update notification_endpoints set is_active = false where type <> 'email'`);
    const started = await Promise.allSettled(
      Array.from({ length: instances }, () =>
        startAppServer({
          databaseUrl: database.url,
          redisUrl: redis.url,
          // One deployment: the instances share the delivery queue.
          queuePrefix: `b8-${path}-${instances}`,
          env: { SENDGRID_API_KEY: 'SG.bench-only-key', SENDGRID_API_URL: mail.url, ...phones?.env },
          ...(phones ? { pushCa: phones.pushCa } : {}),
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
    ctx.log(`${name} ${path}, ${instances} instance(s): crash batch published`);
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
      `${name} ${path}, ${instances} instance(s): ${executions} executions ${executionsAt ? `in ${executionsAt - t0} ms` : `after ${size.claimWaitS} s (not all)`}`,
    );
    const expectedEmails = (await probe.deliveries('email')).rows;
    const emailsAt = await until(
      async () => mail.recipients() >= expectedEmails,
      t0 + size.emailWaitS * 1000,
      50,
    );
    const emailsDoneAt = emailsAt === null ? null : (mail.lastAt() ?? emailsAt);
    ctx.log(
      `${name} ${path}, ${instances} instance(s): ${mail.recipients()} of ${expectedEmails} emails ${emailsDoneAt ? `in ${emailsDoneAt - t0} ms` : `after ${size.emailWaitS} s (not all)`}`,
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
    await phones?.measure(t0, probe);

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
