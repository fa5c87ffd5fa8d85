/**
 * The parent's side of the socket clients: a fleet of client processes (client-child.ts),
 * and the streamer's part, publishing tick batches on the Redis bus and waiting for them.
 */
import type { MarketBus } from '@app/streamer';
import { startChild, type BenchChild } from './child.ts';
import type { AlertReceipt, BatchReceipts, ConnectRequest } from './client-child.ts';
import { tickBatch } from './market.ts';
import { sleep } from './stats.ts';

/** Sockets this call opened, and those that failed (with the first few reasons). */
export interface ConnectOutcome {
  opened: number;
  failed: number;
  errors: string[];
}

export interface Fleet {
  /** Opens one socket per target, spread over the client processes. */
  connect(targets: ConnectRequest['targets']): Promise<ConnectOutcome>;
  /** Waits until `expected` sockets received batch `at`; false on timeout. */
  waitForBatch(at: number, expected: number, timeoutMs: number): Promise<boolean>;
  /** Every socket's receipt of these batches, merged over the processes. */
  collect(ats: number[]): Promise<BatchReceipts[]>;
  /** Sockets closed without being asked to, by reason (ping timeouts, server disconnects). */
  lost(): Promise<Record<string, number>>;
  /** `alert` events received so far, over the processes. */
  alertCount(): Promise<number>;
  /** Every `alert` event received (each once: the processes then forget them). */
  alerts(): Promise<AlertReceipt[]>;
  /** B12: from now on, every quote's receipt is recorded by its instrument and price. */
  trackQuotes(): Promise<void>;
  /** Every quote's receipt times by `EXCHANGE:SYMBOL@ltp`, merged over the processes (then forgotten). */
  quoteReceipts(): Promise<Map<string, number[]>>;
  stop(): Promise<void>;
}

export async function startFleet(
  kind: ConnectRequest['kind'],
  url: string,
  processes: number,
  concurrency = 50,
): Promise<Fleet> {
  const children: BenchChild[] = Array.from({ length: processes }, () => startChild('client-child.ts'));
  await Promise.all(children.map((c) => c.ready));
  const all = <T>(op: string, args?: unknown) => Promise.all(children.map((c) => c.call<T>(op, args)));
  return {
    async connect(targets) {
      const shares = children.map((_, i) => targets.filter((_, j) => j % children.length === i));
      const answers = await Promise.all(
        children.map((c, i) =>
          c.call<ConnectOutcome>('connect', {
            kind,
            url,
            targets: shares[i]!,
            concurrency,
          } satisfies ConnectRequest),
        ),
      );
      return {
        opened: answers.reduce((n, a) => n + a.opened, 0),
        failed: answers.reduce((n, a) => n + a.failed, 0),
        errors: [...new Set(answers.flatMap((a) => a.errors))],
      };
    },
    async waitForBatch(at, expected, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const counts = await all<number>('received', at);
        if (counts.reduce((a, b) => a + b, 0) >= expected) return true;
        await sleep(50);
      }
      return false;
    },
    async collect(ats) {
      const perChild = await all<BatchReceipts[]>('collect', ats);
      return ats.map((at, i) => {
        const parts = perChild.map((answer) => answer[i]!).filter((r) => r.latencies.length > 0);
        return {
          at,
          latencies: parts.flatMap((r) => r.latencies),
          minQuotes: parts.length ? Math.min(...parts.map((r) => r.minQuotes)) : 0,
          maxQuotes: parts.length ? Math.max(...parts.map((r) => r.maxQuotes)) : 0,
        };
      });
    },
    async lost() {
      const total: Record<string, number> = {};
      for (const part of await all<Record<string, number>>('lost'))
        for (const [reason, n] of Object.entries(part)) total[reason] = (total[reason] ?? 0) + n;
      return total;
    },
    alertCount: async () => (await all<number>('alertCount')).reduce((a, b) => a + b, 0),
    alerts: async () => (await all<AlertReceipt[]>('alerts')).flat(),
    trackQuotes: async () => void (await all('trackQuotes')),
    async quoteReceipts() {
      const merged = new Map<string, number[]>();
      for (const part of await all<Array<[string, number[]]>>('quoteReceipts'))
        for (const [key, times] of part) merged.set(key, [...(merged.get(key) ?? []), ...times]);
      return merged;
    },
    stop: async () => void (await Promise.all(children.map((c) => c.stop()))),
  };
}

export interface BatchRun {
  /** How many batches, and the pause between two (the next batch waits for the last one). */
  count: number;
  intervalMs: number;
  /** Sockets that must receive each batch. */
  expected: number;
  /** How long to wait for the last socket before giving up on a batch. */
  timeoutMs: number;
}

/**
 * Publishes `run.count` full tick batches over `symbols`, as the streamer does (`at` is set
 * just before publishing), each once the previous one has reached every socket or timed out.
 */
export async function publishBatches(
  bus: MarketBus,
  fleet: Fleet,
  symbols: readonly string[],
  run: BatchRun,
  firstSeq = 0,
): Promise<BatchReceipts[]> {
  const ats: number[] = [];
  for (let i = 0; i < run.count; i++) {
    const batch = tickBatch(symbols, firstSeq + i);
    await bus.publishBatch(batch);
    ats.push(batch.at);
    await fleet.waitForBatch(batch.at, run.expected, run.timeoutMs);
    await sleep(run.intervalMs);
  }
  return fleet.collect(ats);
}
