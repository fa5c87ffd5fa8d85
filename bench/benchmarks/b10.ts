/**
 * B10: one crossing to the phone (issue #30). 1,000 users, each with one stop on an instrument
 * of the batch and a Web Push subscription (the tests' fake push service over TLS, which
 * decrypts every payload); one tick batch crosses every stop once. Measured from the batch's
 * publication on the Redis bus to each push accepted by the push service, p50 and p99, beside
 * B1's batch → socket p99, which B10 runs first in the same run (the baseline column).
 */
import { createRedisBus } from '@app/streamer';
import { pino } from 'pino';
import { crashDayBatch } from '../lib/crash-day.ts';
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
import { b1 } from './b1.ts';

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
  ...pushesNotMeasured('B10', why),
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
    const rig = await startPushRig(ctx.postgresUrl, { tag: 'b10', ...size, quotes: false });
    const { plan, fakes, server } = rig;
    const bus = createRedisBus(rig.redisUrl, pino({ level: 'warn' }));
    try {
      for (let seq = 0; seq < size.warmup; seq++) {
        await bus.publishBatch(crashDayBatch(plan.symbols, 'calm', seq));
        await sleep(size.intervalMs);
      }
      await server.idle();
      const mark = fakes.mark();
      const batch = crashDayBatch(plan.symbols, 'crash', 0);
      await bus.publishBatch(batch);
      const t0 = batch.at;
      await waitForPushes(mark, size.users, t0, size.waitS);
      const outcome = await tallyPushes(mark, size.users, t0);
      const { pushes, latencies } = outcome;
      const socketP99 = b1p99?.value ?? null;
      const what = `Tick batch published → push accepted by the (fake) push service`;
      const users = `(${size.users} users, one crossing each)`;
      const results = pushResults(
        'B10',
        outcome,
        {
          name: `${what}, p99, beside B1's batch → socket p99 of the same run (the baseline column) ${users}`,
          baseline: socketP99,
          target: '< 1 s',
          limitMs: 1000,
        },
        `${what}, p50 ${users}`,
      );
      return {
        results,
        notes: [
          `B10: PostgreSQL, one Redis, one server process; ${size.users} users with one stop each on ${size.instruments} instruments ` +
            `and a Web Push subscription on the fake push service (TLS, decrypting, in the bench process); the batch crosses every stop; ` +
            `${pushFigures(outcome, size.users)}. ` +
            `B1 in the same run: batch → socket p99 ${socketP99} ms against bare ws ${b1p99?.baseline ?? '—'} ms.`,
          ...socket.notes.map((n) => `B10's B1: ${n}`),
        ],
        evidence: { size, pushes, latencies, socketP99, bareWsP99: b1p99?.baseline ?? null },
      };
    } finally {
      await bus.close();
      await rig.close();
    }
  },
};
