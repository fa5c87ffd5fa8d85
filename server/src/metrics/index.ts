/**
 * Operational metrics (prom-client), one Registry per runtime (tests boot many): how late tick
 * batches arrive and how big they are, how long the rules take per batch, connected sockets,
 * the alert outbox's depth and delivery failures, corporate actions failing to apply, and the
 * process's memory. Served at
 * GET /metrics behind METRICS_TOKEN (routes/metrics).
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { queryRows, type Executor } from '../db/client.ts';

/** What the metrics read when scraped. */
export interface MetricSources {
  /** Sockets connected to this instance. */
  sockets(): number;
  /**
   * Alert deliveries not yet sent nor given up (PENDING or SENDING), across instances; undefined
   * when the database did not answer (the source logs it).
   */
  pendingDeliveries(): Promise<number | undefined>;
  /**
   * Bonuses and splits due but not applied because their last attempt failed (each retried alone
   * with back-off), across instances; undefined when the database did not answer.
   */
  failingCorporateActions(): Promise<number | undefined>;
}

export interface ServerMetrics {
  readonly registry: Registry;
  /** A tick batch arrived at `receivedAt` (epoch ms): its lag behind `batch.at`, and its size. */
  batchReceived(batch: Pick<TickBatch, 'at' | 'quotes'>, receivedAt: number): void;
  /** The rules (the pipeline's stages) took `seconds` for one batch. */
  batchEvaluated(seconds: number): void;
  /** An alert email attempt ended: a `retry` counts as a transient failure, `failed` as permanent. */
  deliveryOutcome(outcome: { kind: string }): void;
  /** Connects the scrape-time sources (the socket server and the database exist later). */
  observe(sources: MetricSources): void;
}

/** Alert deliveries still to send. */
export async function countPendingDeliveries(db: Executor): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from alert_deliveries where status in ('PENDING', 'SENDING')`,
  );
  return Number(row?.n ?? 0);
}

/**
 * A count read at scrape time from the database: undefined when it fails, which is logged once
 * until a count succeeds again (scrapes repeat every few seconds); the gauge keeps its value.
 */
export function scrapedCount(
  log: Logger,
  what: string,
  count: () => Promise<number>,
): () => Promise<number | undefined> {
  let failing = false;
  return () =>
    count().then(
      (n) => {
        failing = false;
        return n;
      },
      (err: unknown) => {
        if (!failing) log.warn({ err }, `metrics: ${what} not counted; the gauge keeps its value`);
        failing = true;
        return undefined;
      },
    );
}

/** Builds a fresh registry with every metric; sources answer zero until `observe`. */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  let sources: MetricSources | undefined;

  const lag = new Histogram({
    name: 'guard_tick_batch_lag_seconds',
    help: 'Time from a tick batch being published (batch.at) to this server receiving it',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const size = new Histogram({
    name: 'guard_tick_batch_quotes',
    help: 'Quotes per tick batch',
    buckets: [1, 10, 50, 100, 250, 500, 1000, 2500, 5000],
    registers: [registry],
  });
  const evaluation = new Histogram({
    name: 'guard_rule_evaluation_seconds',
    help: 'Time to evaluate one tick batch against the rules (claims and trailing peaks included)',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const failures = new Counter({
    name: 'guard_alert_delivery_failures_total',
    help: 'Alert email attempts that failed: transient (retried with back-off) or permanent (FAILED)',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  for (const kind of ['transient', 'permanent'] as const) failures.inc({ kind }, 0);
  new Gauge({
    name: 'guard_connected_sockets',
    help: 'Socket.IO connections on this instance',
    registers: [registry],
    collect() {
      this.set(sources?.sockets() ?? 0);
    },
  });
  new Gauge({
    name: 'guard_alert_deliveries_pending',
    help: 'Alert deliveries waiting to be sent (PENDING or SENDING), all instances',
    registers: [registry],
    async collect() {
      // A database that does not answer must not fail the scrape: the last value stays.
      const pending = await sources?.pendingDeliveries();
      if (pending !== undefined) this.set(pending);
    },
  });
  new Gauge({
    name: 'guard_corporate_actions_failing',
    help: 'Bonuses and splits due but not applied: their last attempt failed (each retried alone with back-off), all instances',
    registers: [registry],
    async collect() {
      const failing = await sources?.failingCorporateActions();
      if (failing !== undefined) this.set(failing);
    },
  });
  new Gauge({
    name: 'nodejs_heap_size_used_bytes',
    help: 'V8 heap in use',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory of the process',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().rss);
    },
  });

  return {
    registry,
    batchReceived(batch, receivedAt) {
      lag.observe(Math.max(0, receivedAt - batch.at) / 1000);
      size.observe(batch.quotes.length);
    },
    batchEvaluated: (seconds) => evaluation.observe(seconds),
    deliveryOutcome(outcome) {
      if (outcome.kind === 'retry') failures.inc({ kind: 'transient' });
      if (outcome.kind === 'failed') failures.inc({ kind: 'permanent' });
    },
    observe(next) {
      sources = next;
    },
  };
}
