/**
 * What happens to each tick batch on a server (docs/exit-rules.md#crash-day-the-firing-path): quotes go
 * out to the sockets at once; then, in order, one batch at a time, the batch is evaluated and,
 * on the instance that owns the batches (batch-owner.ts), stored. The owner's claims run on in
 * the engine's claim lanes: the next batch is evaluated and stored on time while an earlier
 * batch's claims are still committing. An instance that does not own the batches observes them
 * and keeps each until the owner marks it finished; when it becomes the owner it claims and
 * stores whatever the previous owner left unfinished. A failure is logged and the next batch
 * proceeds.
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import type { MarketBus } from '@app/streamer';
import type { Logger } from 'pino';
import type { Executor } from '../db/client.ts';
import type { RulesEngine } from '../triggers/index.ts';
import type { BatchOwnership } from './batch-owner.ts';
import { createPacedStore } from './store-pace.ts';

export type BatchStage = (batch: TickBatch) => void | Promise<void>;

/** Told of each batch on arrival, and of how long its evaluation took (metrics). */
export interface PipelineTimings {
  batchReceived(batch: TickBatch, receivedAt: number): void;
  batchEvaluated(seconds: number): void;
}

export interface MarketPipeline {
  /** Resolves when every batch received so far has been handled, its claims included (tests, shutdown). */
  idle(): Promise<void>;
  /**
   * Resolves once every batch this instance observed with crossings in it was finished by the
   * owner (its claims committed); at once on the owner and without observed crossings.
   */
  ownerClaimsSettled(): Promise<void>;
  stop(): void;
}

/** Observed batches kept for a takeover at most (ten minutes of one-second batches). */
const MAX_OBSERVED = 600;
/** While someone waits for the owner's claims, how often the observed batches are pruned. */
const OWNER_CLAIMS_POLL_MS = 250;

type Engine = Pick<RulesEngine, 'fire' | 'observe' | 'takeOver'>;
type Observed = { batch: TickBatch; observation: Awaited<ReturnType<Engine['observe']>> };

export function createMarketPipeline(opts: {
  bus: MarketBus;
  /** Where batches are stored (the market connections, apart from the API's). */
  db: Executor;
  log: Logger;
  /** Run right after a batch arrives, before it is evaluated or stored (socket fan-out). */
  immediate: BatchStage[];
  /**
   * Run in order once the owner has stored a batch (Price Guard for the holdings waiting for their
   * first price). Not run on an instance that only observes.
   */
  afterStore?: BatchStage[];
  /**
   * The least time between two writes of market data (QUOTE_STORE_MS): batches that come sooner
   * are merged and written together (store-pace.ts). Default 0: every batch at once.
   */
  storeEveryMs?: number;
  engine: Engine;
  ownership: BatchOwnership;
  /** Evaluate the next batch only once this one's claims committed (the path before #18). */
  waitsOnClaims?: boolean;
  timings?: PipelineTimings;
}): MarketPipeline {
  const { engine, ownership, log } = opts;
  let chain: Promise<void> = Promise.resolve();
  const claiming = new Set<Promise<void>>();
  let observed: Observed[] = [];
  let pruning = false;

  const stored = createPacedStore({
    db: opts.db,
    log,
    everyMs: opts.storeEveryMs ?? 0,
    afterStore: opts.afterStore ?? [],
  });

  /** Marks the batches finished once their claims settled; idle() waits for it. */
  function finishWhenClaimed(batchIds: string[], claimed: Promise<void>): void {
    const done = claimed.then(() => {
      for (const id of batchIds) ownership.finished(id);
    });
    claiming.add(done);
    void done.finally(() => claiming.delete(done));
  }

  /** Now the owner: claims and stores what earlier owners left unfinished of what was observed. */
  async function catchUp(): Promise<void> {
    if (observed.length === 0 || !ownership.owns()) return;
    const kept = observed;
    observed = [];
    const open = new Set(await ownership.unfinished(kept.map((o) => o.batch.id)));
    const todo = kept.filter((o) => open.has(o.batch.id));
    if (todo.length === 0) return;
    log.info({ batches: todo.length }, 'batch owner: finishing batches the previous owner left');
    try {
      const firing = await engine.takeOver(todo.map((o) => o.observation));
      for (const o of todo) await stored.add(o.batch);
      finishWhenClaimed(
        todo.map((o) => o.batch.id),
        firing.claimed,
      );
    } catch (err) {
      log.error({ err }, 'taking over unfinished batches failed');
    }
  }

  /** Drops observed batches the owner has finished (one Redis read, never two at once). */
  function prune(): void {
    if (pruning || observed.length === 0) return;
    pruning = true;
    const asked = observed.map((o) => o.batch.id);
    void ownership
      .unfinished(asked)
      .then((open) => {
        const left = new Set(open);
        const answered = new Set(asked);
        observed = observed.filter((o) => !answered.has(o.batch.id) || left.has(o.batch.id));
      })
      .finally(() => (pruning = false));
  }

  async function own(batch: TickBatch, started: number): Promise<void> {
    await catchUp();
    let claimed: Promise<void> = Promise.resolve();
    try {
      claimed = (await engine.fire(batch)).claimed;
    } catch (err) {
      log.error({ err, batch: batch.id }, 'tick batch evaluation failed');
    }
    opts.timings?.batchEvaluated((performance.now() - started) / 1000);
    await stored.add(batch);
    finishWhenClaimed([batch.id], claimed);
    if (opts.waitsOnClaims) await claimed;
  }

  async function observe(batch: TickBatch, started: number): Promise<void> {
    try {
      observed.push({ batch, observation: await engine.observe(batch) });
    } catch (err) {
      log.error({ err, batch: batch.id }, 'tick batch evaluation failed');
    }
    opts.timings?.batchEvaluated((performance.now() - started) / 1000);
    if (observed.length > MAX_OBSERVED) {
      log.warn(
        { dropped: observed.length - MAX_OBSERVED },
        'no batch owner for too long: oldest batches dropped',
      );
      observed = observed.slice(-MAX_OBSERVED);
    }
    prune();
  }

  const handle = (batch: TickBatch) => {
    const started = performance.now();
    return ownership.owns() ? own(batch, started) : observe(batch, started);
  };
  const unsubscribe = opts.bus.onBatch((batch) => {
    opts.timings?.batchReceived(batch, Date.now());
    for (const stage of opts.immediate) {
      try {
        void stage(batch);
      } catch (err) {
        log.error({ err, batch: batch.id }, 'tick batch fan-out failed');
      }
    }
    chain = chain.then(() => handle(batch));
  });
  const stopGained = ownership.onGained(() => {
    chain = chain.then(catchUp);
  });
  return {
    async ownerClaimsSettled() {
      while (observed.some((o) => o.observation.crossings.length > 0)) {
        prune();
        await new Promise((resolve) => setTimeout(resolve, OWNER_CLAIMS_POLL_MS));
      }
    },
    async idle() {
      for (;;) {
        const seen = chain;
        await seen;
        await stored.idle();
        if (claiming.size > 0) await Promise.all(claiming);
        if (seen === chain && claiming.size === 0) return;
      }
    },
    stop() {
      unsubscribe();
      stopGained();
    },
  };
}
