/**
 * What B10 and B13 share (issues #30, #32): the setting, `users` users, each with one stop (B8's
 * rule book, one rule a user) that the crash crosses and a Web Push subscription on the tests'
 * fake push service (TLS, decrypting every payload), on PostgreSQL, one Redis and one server
 * process; and the measure, each push accepted from the moment the crossing left, once, with
 * nothing lost, doubled, refused or undecryptable.
 */
import type { CrashPlan } from './crash-day.ts';
import { plausibleSymbols } from './market.ts';
import { startPhoneFakes, type PhoneFakes, type PhoneMark, type PushTally } from './phone-probes.ts';
import { startAppServer, type AppServer } from './servers.ts';
import { freshDatabase, startRedisServer } from './services.ts';
import { max, percentile, sleep, until } from './stats.ts';
import { result, round, type BenchResult } from './types.ts';

export interface PushRig {
  plan: CrashPlan;
  fakes: PhoneFakes;
  redisUrl: string;
  /** The server process, its rules loaded. */
  server: AppServer;
  close(): Promise<void>;
}

/**
 * Starts the services, seeds the users (with `quotes`, the symbol master listing the instruments
 * too, as a streamer's watch set needs) and starts the server on them.
 */
export async function startPushRig(
  postgresUrl: string,
  spec: { tag: string; users: number; instruments: number; quotes: boolean },
): Promise<PushRig> {
  const plan: CrashPlan = {
    tag: spec.tag,
    users: spec.users,
    rules: spec.users,
    crossings: spec.users,
    symbols: plausibleSymbols(spec.instruments),
  };
  const fakes = await startPhoneFakes(spec.users, { telegram: false });
  const database = await freshDatabase(postgresUrl);
  const redis = await startRedisServer();
  let server: AppServer | undefined;
  const close = async () => {
    await server?.stop();
    await redis.stop();
    await database.drop();
    await fakes.close();
  };
  try {
    const seeder = await startAppServer({ databaseUrl: database.url });
    try {
      if (spec.quotes) await seeder.seedQuotes(plan.symbols);
      await seeder.seedCrashDay(plan, { email: false, telegram: false, webpush: fakes.subscriptions });
    } finally {
      await seeder.stop();
    }
    server = await startAppServer({
      databaseUrl: database.url,
      redisUrl: redis.url,
      env: fakes.env,
      pushCa: fakes.pushCa,
    });
    const { rules } = await server.status();
    if (rules !== plan.rules) throw new Error(`the server loaded ${rules} rules, not ${plan.rules}`);
    return { plan, fakes, redisUrl: redis.url, server, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Waits until every user's push is accepted since `mark`, or until `waitS` after `t0`. */
export async function waitForPushes(mark: PhoneMark, users: number, t0: number, waitS: number) {
  await until(async () => mark.answered() >= users, t0 + waitS * 1000, 50);
}

export interface PushOutcome {
  pushes: PushTally;
  /** Each accepted push's time from `t0` (ms). */
  latencies: number[];
  lost: number;
  /** Doubled, refused or undecryptable. */
  wrong: number;
  /** The latencies' percentile `q`, none when no push came. */
  p(q: number): number | null;
  /** None unless every push came. */
  p99: number | null;
}

/** The pushes since `mark`, a second on: a second copy would come a little later. */
export async function tallyPushes(mark: PhoneMark, users: number, t0: number): Promise<PushOutcome> {
  await sleep(1000);
  const pushes = mark.pushes();
  const latencies = pushes.at.map((at) => at - t0);
  const lost = users - pushes.accepted;
  const wrong = pushes.doubled + pushes.refused + pushes.undecryptable;
  const p = (q: number) => (latencies.length ? round(percentile(latencies, q)) : null);
  return { pushes, latencies, lost, wrong, p, p99: lost === 0 ? p(99) : null };
}

/** The outcome in a note's words: how many came, first, p50, p99 and last. */
export function pushFigures(o: PushOutcome, users: number): string {
  const last = o.latencies.length ? round(max(o.latencies)) : '—';
  return `pushes ${o.pushes.accepted} of ${users} accepted, first ${o.p(0)} ms, p50 ${o.p(50)} ms, p99 ${o.p(99)} ms, last ${last} ms`;
}

/** `<id>-p50`, `<id>-p99` (under `limitMs`, every push decrypted) and `<id>-once`. */
export function pushResults(
  id: string,
  o: PushOutcome,
  p99: { name: string; baseline: number | null; target: string; limitMs: number },
  p50Name: string,
): BenchResult[] {
  const { pushes, lost, wrong } = o;
  return [
    result({
      id: `${id}-p50`,
      name: p50Name,
      value: o.p(50),
      unit: 'ms',
      baseline: null,
      target: 'reported (p99 carries the target)',
      pass: true,
    }),
    result({
      id: `${id}-p99`,
      name: p99.name,
      value: o.p99,
      unit: 'ms',
      baseline: p99.baseline,
      target: p99.target,
      pass: o.p99 !== null && o.p99 < p99.limitMs && wrong === 0,
    }),
    result({
      id: `${id}-once`,
      name: `Pushes lost + doubled (${lost} lost, ${pushes.doubled} doubled; ${pushes.refused} refused, ${pushes.undecryptable} undecryptable)`,
      value: lost + wrong,
      unit: 'pushes',
      baseline: null,
      target: '0',
      pass: lost + wrong === 0,
    }),
  ];
}

/** The three results, not measured, and why. */
export function pushesNotMeasured(id: string, why: string) {
  return {
    results: ['p50', 'p99', 'once'].map((what) =>
      result({
        id: `${id}-${what}`,
        name: `${id}-${what}`,
        value: null,
        unit: 'ms',
        baseline: null,
        target: why,
        pass: false,
      }),
    ),
    notes: [`${id}: ${why}.`],
  };
}
