/**
 * B12, feed to screen (issue #32): 1,000 signed-in sockets each holding 20 of 2,000 instruments,
 * every instrument ticking once a second at the tests' fake Kite ticker (full-mode packets, the
 * second's ticks spread over it in slices), the streamer in its own process with
 * `QUOTE_PROVIDER=kite` coalescing them into a batch every FEED_BATCH_MS on the Redis bus, one
 * server process fanning out. Measured from each slice's frame sent by the fake to each quote
 * on a socket that holds its instrument, p50 and p99, beside B1's batch → socket p99, which B12
 * runs first in the same run; and the streamer's CPU time per 10,000 ticks.
 */
import { round2 } from '@app/common/portfolio/position-math';
import { startFleet, type Fleet } from '../lib/fleet.ts';
import { sendTicks, startKiteFeed, quoteKey, type KiteFeed } from '../lib/kite-feed.ts';
import { heldIndexes, plausibleSymbols } from '../lib/market.ts';
import { startAppServer, tokenFor, type AppServer } from '../lib/servers.ts';
import { freshDatabase, startRedisServer } from '../lib/services.ts';
import { max, percentile, sleep } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';
import { b1 } from './b1.ts';

export const B12_SIZES = {
  full: {
    sockets: 1000,
    instruments: 2000,
    perUser: 20,
    warmup: 3,
    rounds: 30,
    slices: 10,
    batchMs: 500,
    clients: 2,
    settleMs: 5000,
  },
  quick: {
    sockets: 50,
    instruments: 200,
    perUser: 20,
    warmup: 2,
    rounds: 3,
    slices: 4,
    batchMs: 500,
    clients: 1,
    settleMs: 2000,
  },
};
export type B12Size = (typeof B12_SIZES)['full'];

export interface B12Evidence {
  size: B12Size;
  /** Measured ticks (instrument × round) and the quotes the sockets holding them should get. */
  ticks: number;
  expected: number;
  /** Quotes received once, missing, and received beyond once. */
  received: number;
  lost: number;
  doubled: number;
  latencies: number[];
  /** B1's batch → socket p99 in this run (ms). */
  socketP99: number | null;
  /** Streamer CPU (ms) and the ticks sent to it over the measured rounds. */
  streamerCpuMs: number;
  streamerTicks: number;
}

/** Instrument i's previous close, and its price in round r: each round's price differs (≤ 200 rounds). */
const prevCloseOf = (i: number) => 100 + (i % 900);
export const roundPrice = (i: number, r: number) => round2(prevCloseOf(i) + 0.05 * (r + 1));

const notMeasured = (size: B12Size, why: string) => ({
  results: ['B12-p50', 'B12-p99', 'B12-cpu', 'B12-once'].map((id) =>
    result({ id, name: id, value: null, unit: 'ms', baseline: null, target: why, pass: false }),
  ),
  notes: [`B12: ${why}.`],
  evidence: {
    size,
    ticks: 0,
    expected: 0,
    received: 0,
    lost: 0,
    doubled: 0,
    latencies: [],
    socketP99: null,
    streamerCpuMs: 0,
    streamerTicks: 0,
  },
});

/** How many of the first `sockets` users hold each instrument. */
function holdersOf(size: B12Size): number[] {
  const holders = new Array<number>(size.instruments).fill(0);
  for (let u = 0; u < size.sockets; u++)
    for (const i of heldIndexes(u, size.perUser, size.instruments)) holders[i]! += 1;
  return holders;
}

export const b12: Benchmark<B12Evidence> = {
  id: 'B12',
  title: 'Feed to screen: a Kite tick sent → its quote on the sockets, 1,000 sockets, 2,000 instruments',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B12_SIZES.quick : B12_SIZES.full;
    if (!ctx.postgresUrl) return notMeasured(size, 'not measured: needs PostgreSQL');
    if (size.warmup + size.rounds > 200) throw new Error('at most 200 rounds: each needs its own price');
    const socket = await b1.run(ctx);
    const b1p99 = socket.results.find((r) => r.id === 'B1-p99')?.value ?? null;
    const symbols = plausibleSymbols(size.instruments);
    const holders = holdersOf(size);
    const watched = holders.filter((h) => h > 0).length;
    const database = await freshDatabase(ctx.postgresUrl);
    const redis = await startRedisServer();
    let server: AppServer | undefined;
    let feed: KiteFeed | undefined;
    let fleet: Fleet | undefined;
    try {
      // Seeded before the server starts, so its first watch set holds every instrument.
      const seeder = await startAppServer({ databaseUrl: database.url });
      const plan = { tag: 'b12', count: size.sockets, perUser: size.perUser, symbols };
      // The symbol master must list them (seedQuotes), or the watch set leaves them out.
      const users = await seeder
        .seedQuotes(symbols)
        .then(() => seeder.seedUsers(plan))
        .finally(() => seeder.stop());
      server = await startAppServer({ databaseUrl: database.url, redisUrl: redis.url });
      ctx.log(`B12: streamer (kite, fake ticker) → Redis → server, ${size.sockets} sockets`);
      feed = await startKiteFeed(symbols, redis.url, size.batchMs);
      await feed.subscribed(watched);
      fleet = await startFleet('socket.io', server.url, size.clients);
      const opened = await fleet.connect(users.map((u) => ({ token: tokenFor(u.id), user: u.ordinal })));
      if (opened.failed) throw new Error(`${opened.failed} sockets failed: ${opened.errors.join('; ')}`);
      await server.waitFor((s) => s.watchedUsers >= size.sockets);
      await fleet.trackQuotes();

      // Each round (a second) ticks every instrument once, slice by slice through the second.
      const sentAt = new Map<string, number>();
      let cpu0 = 0;
      let ticks0 = 0;
      for (let r = 0; r < size.warmup + size.rounds; r++) {
        if (r === size.warmup) [cpu0, ticks0] = [await feed.cpuMs(), feed.ticksSent()];
        const start = Date.now();
        for (let s = 0; s < size.slices; s++) {
          const slice = symbols.flatMap((_, i) =>
            i % size.slices === s ? [{ index: i, ltp: roundPrice(i, r), prevClose: prevCloseOf(i) }] : [],
          );
          const at = sendTicks(feed, slice);
          if (r >= size.warmup) for (const t of slice) sentAt.set(quoteKey(symbols[t.index]!, t.ltp), at);
          await sleep(start + ((s + 1) * 1000) / size.slices - Date.now());
        }
      }
      const streamerCpuMs = (await feed.cpuMs()) - cpu0;
      const streamerTicks = feed.ticksSent() - ticks0;
      await sleep(size.batchMs + size.settleMs);
      const receipts = await fleet.quoteReceipts();

      const latencies: number[] = [];
      let [expected, received, lost, doubled] = [0, 0, 0, 0];
      for (const [key, at] of sentAt) {
        const index = symbols.indexOf(key.slice(4, key.indexOf('@')));
        const want = holders[index]!;
        const got = receipts.get(key) ?? [];
        expected += want;
        received += Math.min(want, got.length);
        lost += Math.max(0, want - got.length);
        doubled += Math.max(0, got.length - want);
        for (const t of got) latencies.push(t - at);
      }
      const p = (q: number) => (latencies.length ? round(percentile(latencies, q)) : null);
      const p99 = lost === 0 ? p(99) : null;
      const target = b1p99 === null ? null : size.batchMs + 1.5 * b1p99;
      const cpuPer10k = streamerTicks ? round((streamerCpuMs / streamerTicks) * 10_000) : null;
      const name = `${size.sockets} sockets × ${size.perUser} of ${size.instruments} instruments, each ticking once a second`;
      return {
        results: [
          result({
            id: 'B12-p50',
            name: `Kite tick frame sent → quote on the socket, p50 (${name})`,
            value: p(50),
            unit: 'ms',
            baseline: null,
            target: 'reported (p99 carries the target)',
            pass: true,
          }),
          result({
            id: 'B12-p99',
            name: `Kite tick frame sent → quote on the socket, p99, beside B1's batch → socket p99 of the same run (the baseline column) (${name})`,
            value: p99,
            unit: 'ms',
            baseline: b1p99,
            target: `≤ FEED_BATCH_MS (${size.batchMs} ms) + 1.5 × baseline${target === null ? '' : ` (${round(target)} ms)`}`,
            pass: p99 !== null && target !== null && p99 <= target,
          }),
          result({
            id: 'B12-cpu',
            name: `Streamer CPU time per 10,000 ticks (process CPU over the measured rounds ÷ ${streamerTicks} ticks; = ms of CPU a second at 10,000 ticks a second)`,
            value: cpuPer10k,
            unit: 'ms',
            baseline: null,
            target: 'reported',
            pass: cpuPer10k !== null,
          }),
          result({
            id: 'B12-once',
            name: `Quotes lost + doubled (${lost} lost, ${doubled} doubled of ${expected})`,
            value: lost + doubled,
            unit: 'quotes',
            baseline: null,
            target: '0',
            pass: lost + doubled === 0,
          }),
        ],
        notes: [
          `B12: PostgreSQL, one Redis, the streamer (QUOTE_PROVIDER=kite, FEED_BATCH_MS=${size.batchMs}) and one server process, ` +
            `${size.clients} client process(es), the fake Kite ticker in the bench process; ${size.rounds} measured rounds after ${size.warmup} warm-up, ` +
            `each second's ${size.instruments} full-mode ticks in ${size.slices} frames ${1000 / size.slices} ms apart; ` +
            `${received} of ${expected} quotes received, first ${p(0)} ms, p50 ${p(50)} ms, p99 ${p(99)} ms, last ${latencies.length ? round(max(latencies)) : '—'} ms; ` +
            `streamer CPU ${round(streamerCpuMs)} ms for ${streamerTicks} ticks. B1 in the same run: batch → socket p99 ${b1p99} ms.`,
          ...socket.notes.map((n) => `B12's B1: ${n}`),
        ],
        evidence: {
          size,
          ticks: sentAt.size,
          expected,
          received,
          lost,
          doubled,
          latencies,
          socketP99: b1p99,
          streamerCpuMs,
          streamerTicks,
        },
      };
    } finally {
      await fleet?.stop();
      await feed?.close();
      await server?.stop();
      await redis.stop();
      await database.drop();
    }
  },
};
