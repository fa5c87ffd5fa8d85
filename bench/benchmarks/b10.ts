/**
 * B10: one crossing to the phone (issue #30). 1,000 users, each with one stop on an instrument
 * of the batch and a Web Push subscription (the tests' fake push service over TLS, which
 * decrypts every payload); one tick batch crosses every stop once. Measured from the batch's
 * publication on the Redis bus to each push accepted by the push service, p50 and p99, beside
 * B1's batch → socket p99, which B10 runs first in the same run (the baseline column).
 */
import { createRedisBus } from '@app/streamer';
import { pino } from 'pino';
import { crashDayBatch, type CrashPlan } from '../lib/crash-day.ts';
import { plausibleSymbols } from '../lib/market.ts';
import { startPhoneFakes, type PushTally } from '../lib/phone-probes.ts';
import { startAppServer, type AppServer } from '../lib/servers.ts';
import { freshDatabase, startRedisServer } from '../lib/services.ts';
import { max, percentile, sleep } from '../lib/stats.ts';
import { result, round, type BenchContext, type BenchResult, type Benchmark } from '../lib/types.ts';
import { b1 } from './b1.ts';
import { until } from './b8/crash-run.ts';

export const B10_SIZES = {
  full: { users: 1000, instruments: 2000, warmup: 3, intervalMs: 1000, waitS: 60 },
  quick: { users: 50, instruments: 200, warmup: 2, intervalMs: 250, waitS: 30 },
};
export type B10Size = (typeof B10_SIZES)['full'];

/** The quick size with `--quick`, else the full one; B10_USERS sets the users (and pushes). */
export function b10Size(quick: boolean, env: NodeJS.ProcessEnv = process.env): B10Size {
  if (quick) return B10_SIZES.quick;
  const users = env.B10_USERS === undefined ? B10_SIZES.full.users : Number(env.B10_USERS);
  if (!Number.isInteger(users) || users <= 0)
    throw new Error(`B10_USERS must be a positive integer (not ${env.B10_USERS})`);
  return { ...B10_SIZES.full, users };
}

export interface B10Evidence {
  size: B10Size;
  /** The pushes the fake accepted after the crossing batch, and each one's time from its publication (ms). */
  pushes: PushTally | null;
  latencies: number[];
  /** B1's batch → socket p99 in this run (ms), app and bare ws. */
  socketP99: number | null;
  bareWsP99: number | null;
}

const notMeasured = (size: B10Size, why: string) => ({
  results: ['B10-p50', 'B10-p99', 'B10-once'].map((id) =>
    result({ id, name: id, value: null, unit: 'ms', baseline: null, target: why, pass: false }),
  ),
  notes: [`B10: ${why}.`],
  evidence: { size, pushes: null, latencies: [], socketP99: null, bareWsP99: null },
});

export const b10: Benchmark<B10Evidence> = {
  id: 'B10',
  title: 'One crossing to the phone: batch published → push accepted, 1,000 users',
  async run(ctx: BenchContext) {
    const size = b10Size(ctx.quick);
    if (!ctx.postgresUrl) return notMeasured(size, 'not measured: needs PostgreSQL');
    // B1 in the same run: the socket's figure the push's is reported beside.
    const socket = await b1.run(ctx);
    const b1p99 = socket.results.find((r) => r.id === 'B1-p99');
    const plan: CrashPlan = {
      tag: 'b10',
      users: size.users,
      rules: size.users,
      crossings: size.users,
      symbols: plausibleSymbols(size.instruments),
    };
    const fakes = await startPhoneFakes(size.users, { telegram: false });
    const database = await freshDatabase(ctx.postgresUrl);
    const redis = await startRedisServer();
    const bus = createRedisBus(redis.url, pino({ level: 'warn' }));
    let server: AppServer | undefined;
    try {
      const seeder = await startAppServer({ databaseUrl: database.url });
      try {
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
      for (let seq = 0; seq < size.warmup; seq++) {
        await bus.publishBatch(crashDayBatch(plan.symbols, 'calm', seq));
        await sleep(size.intervalMs);
      }
      await server.idle();
      const mark = fakes.mark();
      const batch = crashDayBatch(plan.symbols, 'crash', 0);
      await bus.publishBatch(batch);
      const t0 = batch.at;
      await until(async () => mark.pushes().accepted >= size.users, t0 + size.waitS * 1000, 50);
      // A second copy would come a little later.
      await sleep(1000);
      const pushes = mark.pushes();
      const latencies = pushes.at.map((at) => at - t0);
      const lost = size.users - pushes.accepted;
      const wrong = pushes.doubled + pushes.refused + pushes.undecryptable;
      const p = (q: number) => (latencies.length ? round(percentile(latencies, q)) : null);
      const p99 = lost === 0 ? p(99) : null;
      const socketP99 = b1p99?.value ?? null;
      const results: BenchResult[] = [
        result({
          id: 'B10-p50',
          name: `Tick batch published → push accepted by the (fake) push service, p50 (${size.users} users, one crossing each)`,
          value: p(50),
          unit: 'ms',
          baseline: null,
          target: 'reported (p99 carries the target)',
          pass: true,
        }),
        result({
          id: 'B10-p99',
          name: `Tick batch published → push accepted by the (fake) push service, p99, beside B1's batch → socket p99 of the same run (the baseline column) (${size.users} users, one crossing each)`,
          value: p99,
          unit: 'ms',
          baseline: socketP99,
          target: '< 1 s',
          pass: p99 !== null && p99 < 1000 && wrong === 0,
        }),
        result({
          id: 'B10-once',
          name: `Pushes lost + doubled (${lost} lost, ${pushes.doubled} doubled; ${pushes.refused} refused, ${pushes.undecryptable} undecryptable)`,
          value: lost + wrong,
          unit: 'pushes',
          baseline: null,
          target: '0',
          pass: lost + wrong === 0,
        }),
      ];
      return {
        results,
        notes: [
          `B10: PostgreSQL, one Redis, one server process; ${size.users} users with one stop each on ${size.instruments} instruments ` +
            `and a Web Push subscription on the fake push service (TLS, decrypting, in the bench process); the batch crosses every stop; ` +
            `pushes ${pushes.accepted} of ${size.users} accepted, first ${p(0)} ms, p50 ${p(50)} ms, p99 ${p(99)} ms, last ${latencies.length ? round(max(latencies)) : '—'} ms. ` +
            `B1 in the same run: batch → socket p99 ${socketP99} ms against bare ws ${b1p99?.baseline ?? '—'} ms.`,
          ...socket.notes.map((n) => `B10's B1: ${n}`),
        ],
        evidence: { size, pushes, latencies, socketP99, bareWsP99: b1p99?.baseline ?? null },
      };
    } finally {
      await server?.stop();
      await bus.close();
      await redis.stop();
      await database.drop();
      await fakes.close();
    }
  },
};
