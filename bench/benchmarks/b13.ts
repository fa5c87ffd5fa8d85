/**
 * B13, feed to phone (issue #32): 1,000 users, each with one stop on an instrument (B10's
 * seeding: B8's rule book with one rule a user) and a Web Push subscription on the tests' fake
 * push service (TLS, decrypting every payload). The prices come from the tests' fake Kite ticker
 * through the streamer in its own process (`QUOTE_PROVIDER=kite`, batches every FEED_BATCH_MS on
 * Redis) to one server process. After a few calm seconds one tick per instrument crosses every
 * stop; measured from that frame sent by the fake to each push accepted by the push service.
 */
import { crashDayBatch, type CrashBatchKind, type CrashPlan } from '../lib/crash-day.ts';
import { sendTicks, startKiteFeed, type KiteFeed } from '../lib/kite-feed.ts';
import { heldIndexes, plausibleSymbols } from '../lib/market.ts';
import { startPhoneFakes, type PushTally } from '../lib/phone-probes.ts';
import { startAppServer, type AppServer } from '../lib/servers.ts';
import { freshDatabase, startRedisServer } from '../lib/services.ts';
import { max, percentile, sleep } from '../lib/stats.ts';
import { result, round, type BenchContext, type BenchResult, type Benchmark } from '../lib/types.ts';
import { until } from './b8/crash-run.ts';

export const B13_SIZES = {
  full: { users: 1000, instruments: 2000, warmup: 3, batchMs: 500, waitS: 60 },
  quick: { users: 50, instruments: 200, warmup: 2, batchMs: 500, waitS: 60 },
};
export type B13Size = (typeof B13_SIZES)['full'];

export interface B13Evidence {
  size: B13Size;
  /** The pushes the fake accepted after the crossing tick, and each one's time from its frame (ms). */
  pushes: PushTally | null;
  latencies: number[];
}

const notMeasured = (size: B13Size, why: string) => ({
  results: ['B13-p50', 'B13-p99', 'B13-once'].map((id) =>
    result({ id, name: id, value: null, unit: 'ms', baseline: null, target: why, pass: false }),
  ),
  notes: [`B13: ${why}.`],
  evidence: { size, pushes: null, latencies: [] },
});

/** One tick per instrument at B8's prices of this kind (calm: ±0.2 %; crash: 5–6 % down). */
const ticksOf = (symbols: readonly string[], kind: CrashBatchKind, seq: number) =>
  crashDayBatch(symbols, kind, seq).quotes.map((q, index) => ({
    index,
    ltp: q.ltp,
    prevClose: q.prevClose!,
  }));

export const b13: Benchmark<B13Evidence> = {
  id: 'B13',
  title: 'Feed to phone: a crossing Kite tick sent → push accepted, 1,000 users',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B13_SIZES.quick : B13_SIZES.full;
    if (!ctx.postgresUrl) return notMeasured(size, 'not measured: needs PostgreSQL');
    const plan: CrashPlan = {
      tag: 'b13',
      users: size.users,
      rules: size.users,
      crossings: size.users,
      symbols: plausibleSymbols(size.instruments),
    };
    const watched = new Set(
      Array.from({ length: size.users }, (_, u) => heldIndexes(u, 1, size.instruments)[0]),
    ).size;
    const fakes = await startPhoneFakes(size.users, { telegram: false });
    const database = await freshDatabase(ctx.postgresUrl);
    const redis = await startRedisServer();
    let server: AppServer | undefined;
    let feed: KiteFeed | undefined;
    try {
      const seeder = await startAppServer({ databaseUrl: database.url });
      // The symbol master must list the instruments (seedQuotes), or the watch set leaves them out.
      await seeder
        .seedQuotes(plan.symbols)
        .then(() =>
          seeder.seedCrashDay(plan, { email: false, telegram: false, webpush: fakes.subscriptions }),
        )
        .finally(() => seeder.stop());
      server = await startAppServer({
        databaseUrl: database.url,
        redisUrl: redis.url,
        env: fakes.env,
        pushCa: fakes.pushCa,
      });
      const { rules } = await server.status();
      if (rules !== plan.rules) throw new Error(`the server loaded ${rules} rules, not ${plan.rules}`);
      ctx.log(`B13: streamer (kite, fake ticker) → Redis → server → fake push service, ${size.users} users`);
      feed = await startKiteFeed(plan.symbols, redis.url, size.batchMs);
      await feed.subscribed(watched);
      for (let seq = 0; seq < size.warmup; seq++) {
        sendTicks(feed, ticksOf(plan.symbols, 'calm', seq));
        await sleep(1000);
      }
      await server.idle();
      const mark = fakes.mark();
      const t0 = sendTicks(feed, ticksOf(plan.symbols, 'crash', 0));
      // The market goes on trading at the fallen prices (up to 0.2 % back), a frame a second, as
      // it would: a stop is crossed again by the next tick if a batch went missing.
      let frames = 1;
      const after = setInterval(() => void sendTicks(feed!, ticksOf(plan.symbols, 'after', frames++)), 1000);
      try {
        await until(async () => mark.pushes().accepted >= size.users, t0 + size.waitS * 1000, 50);
      } finally {
        clearInterval(after);
      }
      // A second copy would come a little later.
      await sleep(1000);
      const pushes = mark.pushes();
      const latencies = pushes.at.map((at) => at - t0);
      const lost = size.users - pushes.accepted;
      const wrong = pushes.doubled + pushes.refused + pushes.undecryptable;
      const p = (q: number) => (latencies.length ? round(percentile(latencies, q)) : null);
      const p99 = lost === 0 ? p(99) : null;
      const name = `${size.users} users, one stop each, FEED_BATCH_MS ${size.batchMs}`;
      const results: BenchResult[] = [
        result({
          id: 'B13-p50',
          name: `Crossing Kite tick frame sent → push accepted by the (fake) push service, p50 (${name})`,
          value: p(50),
          unit: 'ms',
          baseline: null,
          target: 'reported (p99 carries the target)',
          pass: true,
        }),
        result({
          id: 'B13-p99',
          name: `Crossing Kite tick frame sent → push accepted by the (fake) push service, p99 (${name})`,
          value: p99,
          unit: 'ms',
          baseline: null,
          target: '< 1.5 s, every push decrypted',
          pass: p99 !== null && p99 < 1500 && wrong === 0,
        }),
        result({
          id: 'B13-once',
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
          `B13: PostgreSQL, one Redis, the streamer (QUOTE_PROVIDER=kite against the fake ticker in the bench process) and one server process; ` +
            `${size.users} users with one stop each on ${watched} of ${size.instruments} instruments and a Web Push subscription on the fake push service; ` +
            `${size.warmup} calm seconds, then one frame crossing every stop and ${frames - 1} more a second at the fallen prices until the last push; pushes ${pushes.accepted} of ${size.users} accepted, ` +
            `first ${p(0)} ms, p50 ${p(50)} ms, p99 ${p(99)} ms, last ${latencies.length ? round(max(latencies)) : '—'} ms after the frame.`,
        ],
        evidence: { size, pushes, latencies },
      };
    } finally {
      await feed?.close();
      await server?.stop();
      await redis.stop();
      await database.drop();
      await fakes.close();
    }
  },
};
