/**
 * The rules engine (docs/exit-rules.md, Evaluation): every active rule and price alert in memory,
 * indexed by instrument, loaded at start and kept in step with the change feed: a user's
 * `rules` change reloads theirs, a firing elsewhere drops the fired entry, a lost message
 * reloads everything (events/consumers.ts calls `userChanged`, `firedElsewhere`, `resync`).
 * The market pipeline hands it each batch: on the
 * instance that owns the batches (market/batch-owner.ts) `fire` raises trailing peaks, queues
 * the crossings for claiming in chunks (claim-lanes.ts, claim.ts) and writes the peaks that
 * moved, without waiting for the claims: each chunk's alerts go out as soon as it commits. The
 * other instances `observe`: peaks rise in memory and levels reach their own sockets, and the
 * crossings are kept by the pipeline in case the owner dies before claiming them (`takeOver`).
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import type { ServerToClientEvents } from '@app/common/realtime/events';
import type { AppDeps } from '../deps.ts';
import type { Database } from '../db/client.ts';
import { configuredChannels } from '../notifications/senders.ts';
import { ClaimLanes } from './claim-lanes.ts';
import { claimChunk, type ClaimedTrigger } from './claim.ts';
import { firedChanges } from './fired.ts';
import { loadWatchEntries } from './load.ts';
import { writePeaks } from './peaks.ts';
import { MovedPeaks, RuleIndex, type Crossing, type WatchEntry } from './rule-index.ts';
import { createTickScreen } from './tick-screen.ts';

export type RuleLevels = Parameters<ServerToClientEvents['rules:levels']>[0];

/**
 * How the engine fires (RuntimeOptions.rulesEngine sets any of them). The B8 crash-day bench's
 * baseline, the firing path before issue #18, is `claimChunkSize: 1, claimConcurrency: 8,
 * pipelineWaitsOnClaims: true` with RuntimeOptions.batchOwner.everyInstance (docs/exit-rules.md).
 */
export interface RulesEngineTunables {
  /**
   * Crossings claimed per transaction (default 2,000: on the B8 crash day, 50,000 crossings on
   * 2 cores, 2,000 committed them in ~4.3 s where 1,000 took ~5 s, the fixed cost of each
   * transaction paid half as often); 1 is one transaction per crossing.
   */
  claimChunkSize: number;
  /**
   * Claim transactions at once (lanes; a user's crossings always in one lane, in order): the
   * connections claims may hold (default 2).
   */
  claimConcurrency: number;
  /** The market pipeline evaluates the next batch only once this one's claims committed (default false). */
  pipelineWaitsOnClaims: boolean;
  /** Full reload from the database, repairing anything a lost Redis message left stale. */
  resyncMs: number;
}

export const DEFAULT_ENGINE_TUNABLES: RulesEngineTunables = {
  claimChunkSize: 2000,
  claimConcurrency: 2,
  pipelineWaitsOnClaims: false,
  resyncMs: 5 * 60_000,
};

export interface RulesEngineOptions extends Partial<RulesEngineTunables> {
  deps: Pick<AppDeps, 'db' | 'events' | 'redis' | 'log' | 'now' | 'senders'>;
  /** Claims and peak writes go here (the market pipeline's own connections; default deps.db). */
  marketDb?: Database;
  /** Hands committed outbox rows to the delivery worker. */
  deliveries: { dispatch(deliveryIds: string[]): void };
  /** Trailing levels that rose, per user (the `rules:levels` push to this instance's sockets). */
  onLevels?: (userId: string, levels: RuleLevels) => void;
}

/** A batch as an instance that does not claim it saw it: what an owner taking over would claim. */
export interface Observation {
  crossings: Crossing[];
  moved: MovedPeaks;
}

/** A batch handed to the engine to fire: its claims go on after this resolves. */
export interface Firing {
  /** Resolves when every crossing of the batch was claimed (and announced) or given up. */
  claimed: Promise<void>;
}

export interface RulesEngine {
  /** Loads every active rule and alert and starts listening for changes. */
  start(): Promise<void>;
  /**
   * Owner: scans the batch, queues its crossings for claiming and stores the peaks that rose;
   * resolves once that is done, with the claims still running (`claimed`).
   */
  fire(batch: TickBatch): Promise<Firing>;
  /** Not the owner: peaks rise in memory, levels reach this instance's sockets, nothing is claimed. */
  observe(batch: TickBatch): Promise<Observation>;
  /** Became the owner: claims what was observed in batches no owner finished, and stores those peaks. */
  takeOver(observed: Observation[]): Promise<Firing>;
  /** fire, then waits for the claims (tests, and callers outside the pipeline). */
  evaluate(batch: TickBatch): Promise<void>;
  /** Reloads one user's entries (coalesced); resolves when loaded. */
  reloadUser(userId: string): Promise<void>;
  /** The user's rules or alerts changed (the change feed): reload them, after the first load. */
  userChanged(userId: string): void;
  /** A rule or alert fired on another instance at `firedAt` (ms): drop it unless re-armed since. */
  firedElsewhere(id: string, firedAt: number): void;
  /** Changes may have been lost: reload everything. */
  resync(): void;
  /** Resolves when every reload asked for so far has landed. */
  settled(): Promise<void>;
  /** Resolves when every claim queued so far has settled. */
  claimsSettled(): Promise<void>;
  stats(): { rules: number; priceAlerts: number; instruments: number; claimsWaiting: number };
  stop(): Promise<void>;
}

/**
 * Before a scan, reloads asked for (an edit on another instance) get this long to land, so a
 * batch right after an edit sees it; a storm of reloads (every fired user after a crash) does
 * not hold the pipeline: a stale entry cannot fire, the claim checks the version.
 */
const RELOAD_WAIT_MS = 250;
/** Users whose rules one reload query loads. */
const RELOAD_ROUND = 1000;

/** Builds the engine; nothing is loaded or heard before `start()`. */
export function createRulesEngine(opts: RulesEngineOptions): RulesEngine {
  const { deps } = opts;
  const { db, log, events } = deps;
  const marketDb = opts.marketDb ?? db;
  const channels = configuredChannels(deps.senders);
  const index = new RuleIndex();
  const ticks = createTickScreen(log);
  let resync: NodeJS.Timeout | undefined;
  let stopped = false;

  /**
   * Reloads are batched: users asked for while a round loads are loaded together in the next
   * round, RELOAD_ROUND users per query, so the users of a thousand firings on another instance
   * cost two queries, not two thousand, and never crowd the pool.
   */
  let collecting: { users: Set<string>; loaded: Promise<void> } | undefined;
  let loading: Promise<void> = Promise.resolve();
  let roundsInFlight = 0;

  async function loadRound(users: Set<string>): Promise<void> {
    const ids = [...users];
    for (let i = 0; i < ids.length; i += RELOAD_ROUND) {
      const round = ids.slice(i, i + RELOAD_ROUND);
      try {
        const byUser = new Map<string, WatchEntry[]>(round.map((id) => [id, []]));
        for (const e of await loadWatchEntries(db, round)) byUser.get(e.userId)?.push(e);
        for (const [userId, entries] of byUser) index.replaceUser(userId, entries);
      } catch (err) {
        log.warn(
          { err, users: round.length },
          'could not reload the rules of users; the next change or resync will',
        );
      }
    }
  }

  function reloadUser(userId: string): Promise<void> {
    if (!collecting) {
      const users = new Set<string>();
      const loaded = loading.then(() => {
        if (collecting?.users === users) collecting = undefined;
        return loadRound(users);
      });
      collecting = { users, loaded };
      loading = loaded;
      roundsInFlight += 1;
      void loaded.finally(() => (roundsInFlight -= 1));
    }
    collecting.users.add(userId);
    return collecting.loaded;
  }
  // Changes heard while the first full load runs are replayed after it lands.
  let starting: Set<string> | undefined;
  const changed = (userId: string) => {
    if (starting) starting.add(userId);
    else void reloadUser(userId);
  };

  async function resyncAll(): Promise<void> {
    try {
      index.replaceAll(await loadWatchEntries(db));
    } catch (err) {
      log.warn({ err }, 'rules resync failed; will retry');
    }
  }

  /**
   * A committed chunk: its emails to the delivery worker, and its firings published as ONE
   * change message: each instance pushes `alert` to its own tabs (yielding between slices) and
   * drops the fired entries (this one already has).
   */
  function announce(fired: ClaimedTrigger[]): void {
    if (fired.length === 0) return;
    const deliveryIds = fired.flatMap((f) => f.deliveryIds);
    if (deliveryIds.length) opts.deliveries.dispatch(deliveryIds);
    events.publish(firedChanges(fired));
  }

  /** One lane's chunk: claimed in one transaction, then announced at once. */
  async function claimAndAnnounce(chunk: Crossing[]): Promise<void> {
    let fired: ClaimedTrigger[];
    try {
      fired = await claimChunk(marketDb, chunk, deps.now(), channels);
    } catch (err) {
      // Evaluated again from the next batch on (a reload may have put a copy of this version in its place).
      for (const { entry } of chunk) index.release(entry.id, entry.version);
      log.error({ err, crossings: chunk.length }, 'claiming crossed rules failed');
      return;
    }
    for (const { entry } of chunk) index.removeIfVersion(entry.id, entry.version);
    // A rule left waiting to re-arm, or re-armed, is watched again here without waiting for the
    // change feed's round trip (the `rules` change announce publishes reloads the other instances).
    for (const userId of new Set(fired.filter((f) => f.rulesChanged).map((f) => f.userId)))
      void reloadUser(userId);
    try {
      announce(fired);
    } catch (err) {
      log.error({ err, fired: fired.length }, 'announcing fired rules failed');
    }
  }

  const lanes = new ClaimLanes(
    opts.claimConcurrency ?? DEFAULT_ENGINE_TUNABLES.claimConcurrency,
    opts.claimChunkSize ?? DEFAULT_ENGINE_TUNABLES.claimChunkSize,
    claimAndAnnounce,
  );

  /** Trailing levels that rose, to this instance's sockets. */
  function pushLevels(live: WatchEntry[]): void {
    if (!opts.onLevels) return;
    const byUser = new Map<string, RuleLevels>();
    for (const e of live) {
      const levels = byUser.get(e.userId) ?? [];
      levels.push({ id: e.id, peak_price: e.peak, computed_trigger_price: e.price });
      byUser.set(e.userId, levels);
    }
    for (const [userId, levels] of byUser) opts.onLevels(userId, levels);
  }

  /** The moved trailing stops still indexed and not being claimed (the same version carries its peak). */
  const liveOf = (moved: MovedPeaks) => index.entriesOf(moved).filter((e) => !e.claiming && e.peak !== null);

  async function storePeaks(live: WatchEntry[]): Promise<void> {
    if (live.length === 0) return;
    try {
      await writePeaks(marketDb, live, deps.now());
    } catch (err) {
      log.warn({ err, rules: live.length }, 'could not store trailing peaks; they are kept in memory');
    }
  }

  const settled = async () => {
    for (let seen = loading; ; seen = loading) {
      await seen;
      if (seen === loading) return;
    }
  };

  /** Reloads asked for so far, for at most RELOAD_WAIT_MS. */
  async function reloadsLanded(): Promise<void> {
    if (roundsInFlight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      settled(),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, RELOAD_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }

  const none: Firing = { claimed: Promise.resolve() };

  async function fire(batch: TickBatch): Promise<Firing> {
    if (stopped) return none;
    await reloadsLanded();
    const { crossings, moved } = index.scan(ticks.admit(batch.quotes));
    const claimed = lanes.push(crossings);
    if (moved.length > 0) {
      const live = liveOf(moved);
      pushLevels(live);
      await storePeaks(live);
    }
    return { claimed };
  }

  async function observe(batch: TickBatch): Promise<Observation> {
    if (stopped) return { crossings: [], moved: new MovedPeaks() };
    await reloadsLanded();
    const { crossings, moved } = index.scan(ticks.admit(batch.quotes));
    for (const { entry } of crossings) index.release(entry.id, entry.version);
    if (moved.length > 0) pushLevels(liveOf(moved));
    return { crossings, moved };
  }

  async function takeOver(observed: Observation[]): Promise<Firing> {
    if (stopped) return none;
    const crossings: Crossing[] = [];
    for (const o of observed) {
      for (const c of o.crossings) if (index.markClaiming(c.entry.id, c.entry.version)) crossings.push(c);
    }
    const claimed = lanes.push(crossings);
    for (const o of observed) if (o.moved.length > 0) await storePeaks(liveOf(o.moved));
    return { claimed };
  }

  return {
    async start() {
      starting = new Set();
      // Changes the feed brings during the first load are replayed after it (`changed`).
      index.replaceAll(await loadWatchEntries(db));
      const heard = starting;
      starting = undefined;
      for (const userId of heard) void reloadUser(userId);
      resync = setInterval(() => void resyncAll(), opts.resyncMs ?? DEFAULT_ENGINE_TUNABLES.resyncMs);
      resync.unref();
    },
    fire,
    observe,
    takeOver,
    async evaluate(batch) {
      await (
        await fire(batch)
      ).claimed;
    },
    reloadUser,
    userChanged: changed,
    firedElsewhere: (id, firedAt) => index.removeUpTo(id, firedAt),
    resync: () => void resyncAll(),
    settled,
    claimsSettled: () => lanes.idle(),
    stats: () => ({
      rules: index.count('rule'),
      priceAlerts: index.count('alert'),
      instruments: index.instruments,
      claimsWaiting: lanes.waiting,
    }),
    async stop() {
      stopped = true;
      clearInterval(resync);
      await lanes.idle();
      await settled();
    },
  };
}
