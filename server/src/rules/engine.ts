/**
 * The rules engine (ARCHITECTURE §1, §6, §10): every active rule and price alert in memory,
 * indexed by instrument, loaded at start and kept in step with changes here (domain events)
 * and on other instances (Redis channel). `evaluate` is the market pipeline's stage: it raises
 * trailing peaks, claims each crossing exactly once in Postgres, then writes the peaks that
 * moved in one statement. Every instance evaluates every batch; the claim decides who fires.
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import type { ServerToClientEvents } from '@app/common/realtime/events';
import type { Redis } from 'ioredis';
import type { AppDeps } from '../deps.ts';
import { presentAlertExecution } from '../alerts/executions.ts';
import { announceRulesChanged, instanceOrigin, parseRulesChanged, RULES_CHANGED_CHANNEL } from './changes.ts';
import { claimCrossing, type ClaimedTrigger } from './claim.ts';
import { loadWatchEntries } from './load.ts';
import { writePeaks } from './peaks.ts';
import { RuleIndex, type Crossing, type MovedPeaks } from './rule-index.ts';
import { createTickScreen } from './tick-screen.ts';

export type RuleLevels = Parameters<ServerToClientEvents['rules:levels']>[0];

/**
 * How the engine fires (RuntimeOptions.rulesEngine sets any of them; docs/exit-rules.md). The
 * B8 crash-day bench runs `claimChunkSize: 1, pipelineWaitsOnClaims: true` as its baseline: the
 * firing path before issue #18.
 */
export interface RulesEngineTunables {
  /** Crossings claimed per transaction (default 1,000); 1 is one transaction per crossing. */
  claimChunkSize: number;
  /** Users whose claims run at once (one user's claims are serialised by their row lock anyway). */
  claimConcurrency: number;
  /** The market pipeline evaluates the next batch only once this one's claims committed (default false). */
  pipelineWaitsOnClaims: boolean;
  /** Full reload from the database, repairing anything a lost Redis message left stale. */
  resyncMs: number;
}

export const DEFAULT_ENGINE_TUNABLES: RulesEngineTunables = {
  claimChunkSize: 1000,
  claimConcurrency: 8,
  pipelineWaitsOnClaims: false,
  resyncMs: 5 * 60_000,
};

export interface RulesEngineOptions extends Partial<RulesEngineTunables> {
  deps: Pick<AppDeps, 'db' | 'events' | 'redis' | 'log'>;
  /** Hands committed outbox rows to the delivery worker. */
  deliveries: { dispatch(deliveryIds: string[]): void };
  /** Trailing levels that rose, per user (the `rules:levels` push to this instance's sockets). */
  onLevels?: (userId: string, levels: RuleLevels) => void;
}

export interface RulesEngine {
  /** Loads every active rule and alert and starts listening for changes. */
  start(): Promise<void>;
  /** The pipeline stage (bound; pass it as is). */
  evaluate(batch: TickBatch): Promise<void>;
  /** Reloads one user's entries (coalesced); resolves when loaded. */
  reloadUser(userId: string): Promise<void>;
  /** Resolves when every reload asked for so far has landed. */
  settled(): Promise<void>;
  stats(): { rules: number; priceAlerts: number; instruments: number };
  stop(): Promise<void>;
}

/** Builds the engine; nothing is loaded or heard before `start()`. */
export function createRulesEngine(opts: RulesEngineOptions): RulesEngine {
  const { deps } = opts;
  const { db, log, events } = deps;
  const index = new RuleIndex();
  const ticks = createTickScreen(log);
  const concurrency = opts.claimConcurrency ?? DEFAULT_ENGINE_TUNABLES.claimConcurrency;
  const origin = instanceOrigin(events);
  const tails = new Map<string, Promise<void>>();
  const queued = new Set<string>();
  let subscriber: Redis | undefined;
  let resync: NodeJS.Timeout | undefined;
  let stopped = false;

  function reloadUser(userId: string): Promise<void> {
    if (queued.has(userId)) return tails.get(userId)!;
    queued.add(userId);
    const tail = (tails.get(userId) ?? Promise.resolve()).then(async () => {
      queued.delete(userId);
      try {
        index.replaceUser(userId, await loadWatchEntries(db, userId));
      } catch (err) {
        log.warn({ err, userId }, 'could not reload the rules of a user; the next change or resync will');
      }
    });
    tails.set(userId, tail);
    void tail.then(() => {
      if (tails.get(userId) === tail) tails.delete(userId);
    });
    return tail;
  }
  // Changes heard while the first full load runs are replayed after it lands.
  let starting: Set<string> | undefined;
  const changed = (userId: string) => {
    if (starting) starting.add(userId);
    else void reloadUser(userId);
  };
  const onLocalChange = (userId: string) => changed(userId);

  async function resyncAll(): Promise<void> {
    try {
      index.replaceAll(await loadWatchEntries(db));
    } catch (err) {
      log.warn({ err }, 'rules resync failed; will retry');
    }
  }

  async function claimOne(c: Crossing): Promise<ClaimedTrigger | null> {
    const { entry } = c;
    try {
      const claimed = await claimCrossing(db, c);
      index.removeIfVersion(entry.id, entry.version);
      return claimed;
    } catch (err) {
      // Try again on the next batch (a reload may have put a copy of this version in its place).
      index.release(entry.id, entry.version);
      log.error({ err, id: entry.id }, 'claiming a crossed rule failed');
      return null;
    }
  }

  /** One user's crossings in order; users side by side, `concurrency` at a time. */
  async function claimAll(crossings: Crossing[]): Promise<ClaimedTrigger[]> {
    const byUser = new Map<string, Crossing[]>();
    for (const c of crossings) byUser.set(c.entry.userId, [...(byUser.get(c.entry.userId) ?? []), c]);
    const queue = [...byUser.values()];
    const fired: ClaimedTrigger[] = [];
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        for (const c of next) {
          const claimed = await claimOne(c);
          if (claimed) fired.push(claimed);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, lane));
    return fired;
  }

  function announce(fired: ClaimedTrigger[]): void {
    for (const f of fired) {
      if (f.deliveryIds.length) opts.deliveries.dispatch(f.deliveryIds);
      events.emit('alert:fired', f.userId, presentAlertExecution(f.execution));
    }
    announceRulesChanged(
      deps,
      fired.map((f) => f.userId),
    );
  }

  async function flushPeaks(moved: MovedPeaks): Promise<void> {
    // A reload during the claims may have replaced an entry; the same version carries its peak.
    const live = index.entriesOf(moved).filter((e) => !e.claiming && e.peak !== null);
    if (live.length === 0) return;
    try {
      await writePeaks(db, live);
    } catch (err) {
      log.warn({ err, rules: live.length }, 'could not store trailing peaks; they are kept in memory');
    }
    if (!opts.onLevels) return;
    const byUser = new Map<string, RuleLevels>();
    for (const e of live) {
      const levels = byUser.get(e.userId) ?? [];
      levels.push({ id: e.id, peak_price: e.peak, computed_trigger_price: e.price });
      byUser.set(e.userId, levels);
    }
    for (const [userId, levels] of byUser) opts.onLevels(userId, levels);
  }

  const settled = async () => {
    while (tails.size > 0) await Promise.all(tails.values());
  };

  async function evaluate(batch: TickBatch): Promise<void> {
    if (stopped) return;
    await settled();
    const { crossings, moved } = index.scan(ticks.admit(batch.quotes));
    if (crossings.length) announce(await claimAll(crossings));
    if (moved.length > 0) await flushPeaks(moved);
  }

  return {
    async start() {
      starting = new Set();
      events.on('rules:changed', onLocalChange);
      // Deleting a broker account deletes its account-specific rules (cascade).
      events.on('holdings:changed', onLocalChange);
      if (deps.redis) {
        const sub = deps.redis.duplicate();
        subscriber = sub;
        let connectedOnce = false;
        sub.on('error', (err) => log.warn({ err: err.message }, 'rules channel redis error'));
        // Messages published while the connection was down are lost: reload everything.
        sub.on('ready', () => {
          if (connectedOnce) void resyncAll();
          connectedOnce = true;
        });
        sub.on('message', (_channel: string, text: string) => {
          const message = parseRulesChanged(text);
          if (!message || message.origin === origin) return;
          for (const userId of message.users) changed(userId);
        });
        await sub.subscribe(RULES_CHANGED_CHANNEL);
      }
      index.replaceAll(await loadWatchEntries(db));
      const heard = starting;
      starting = undefined;
      for (const userId of heard) void reloadUser(userId);
      resync = setInterval(() => void resyncAll(), opts.resyncMs ?? DEFAULT_ENGINE_TUNABLES.resyncMs);
      resync.unref();
    },
    evaluate,
    reloadUser,
    settled,
    stats: () => ({
      rules: index.count('rule'),
      priceAlerts: index.count('alert'),
      instruments: index.instruments,
    }),
    async stop() {
      stopped = true;
      clearInterval(resync);
      events.off('rules:changed', onLocalChange);
      events.off('holdings:changed', onLocalChange);
      subscriber?.disconnect();
      await settled();
    },
  };
}
