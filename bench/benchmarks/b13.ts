/**
 * B13, feed to phone (issue #32): 1,000 users, each with one stop on an instrument (B10's
 * seeding: B8's rule book with one rule a user) and a Web Push subscription on the tests' fake
 * push service (TLS, decrypting every payload). The prices come from the tests' fake Kite ticker
 * through the streamer in its own process (`QUOTE_PROVIDER=kite`, batches every FEED_BATCH_MS on
 * Redis) to one server process. After a few calm seconds one tick per instrument crosses every
 * stop; measured from that frame sent by the fake to each push accepted by the push service.
 */
import { crashDayBatch, type CrashBatchKind } from '../lib/crash-day.ts';
import { sendTicks, startKiteFeed, type KiteFeed } from '../lib/kite-feed.ts';
import { heldIndexes } from '../lib/market.ts';
import type { PushTally } from '../lib/phone-probes.ts';
import {
  pushesNotMeasured,
  pushFigures,
  pushResults,
  startPushRig,
  tallyPushes,
  waitForPushes,
} from '../lib/push-run.ts';
import { sleep } from '../lib/stats.ts';
import type { BenchContext, Benchmark } from '../lib/types.ts';

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
  ...pushesNotMeasured('B13', why),
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
    const watched = new Set(
      Array.from({ length: size.users }, (_, u) => heldIndexes(u, 1, size.instruments)[0]),
    ).size;
    // The symbol master must list the instruments (quotes), or the streamer's watch set leaves them out.
    const rig = await startPushRig(ctx.postgresUrl, { tag: 'b13', ...size, quotes: true });
    const { plan, fakes, server } = rig;
    let feed: KiteFeed | undefined;
    try {
      ctx.log(`B13: streamer (kite, fake ticker) → Redis → server → fake push service, ${size.users} users`);
      feed = await startKiteFeed(plan.symbols, rig.redisUrl, size.batchMs);
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
        await waitForPushes(mark, size.users, t0, size.waitS);
      } finally {
        clearInterval(after);
      }
      const outcome = await tallyPushes(mark, size.users, t0);
      const { pushes, latencies } = outcome;
      const what = 'Crossing Kite tick frame sent → push accepted by the (fake) push service';
      const name = `${size.users} users, one stop each, FEED_BATCH_MS ${size.batchMs}`;
      const results = pushResults(
        'B13',
        outcome,
        {
          name: `${what}, p99 (${name})`,
          baseline: null,
          target: '< 1.5 s, every push decrypted',
          limitMs: 1500,
        },
        `${what}, p50 (${name})`,
      );
      return {
        results,
        notes: [
          `B13: PostgreSQL, one Redis, the streamer (QUOTE_PROVIDER=kite against the fake ticker in the bench process) and one server process; ` +
            `${size.users} users with one stop each on ${watched} of ${size.instruments} instruments and a Web Push subscription on the fake push service; ` +
            `${size.warmup} calm seconds, then one frame crossing every stop and ${frames - 1} more a second at the fallen prices until the last push; ` +
            `${pushFigures(outcome, size.users)} after the frame.`,
        ],
        evidence: { size, pushes, latencies },
      };
    } finally {
      await feed?.close();
      await rig.close();
    }
  },
};
