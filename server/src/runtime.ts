/**
 * Builds and starts one server process from a Config: database, Redis, the Koa app, the
 * HTTP server, Socket.IO and the market pipeline (with the streamer in-process when there
 * is no Redis). main.ts calls it with the process config; tests call it with their own.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '@app/config';
import {
  createConfiguredStreamer,
  createMemoryBus,
  createRedisBus,
  createYahooChart,
  type MarketBus,
} from '@app/streamer';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { ChannelSender } from './notifications/channel.ts';
import { createSenders, type SenderDeps } from './senders.ts';
import { createDeliveryWorker, type DeliveryOverrides, type DeliveryWorker } from './deliveries/index.ts';
import { createApp } from './app.ts';
import { createCorporateActionsJob, type CorporateActionsJob } from './corporate-actions/job.ts';
import { countFailingActions } from './corporate-actions/retry.ts';
import { createDigestJob, type DigestJob } from './digest/job.ts';
import { createAtrNightlyJob } from './history/atr-nightly-job.ts';
import type { AtrNight } from './history/atr-nightly.ts';
import { brokerConnectors } from './brokers/registry.ts';
import { createDailySyncJob, type DailySyncJob } from './brokers/daily-sync.ts';
import { createFeedCredentialsPublisher, type FeedCredentialsPublisher } from './brokers/feed-credentials.ts';
import { resolveTokenVault } from './brokers/token-vault.ts';
import { createBackfillJob, quotesFromYahoo, type BackfillJob } from './history/backfill.ts';
import { createDayBarsJob, type DayBarsJob } from './history/day-bars.ts';
import { createRetentionJob, type RetentionPass } from './retention/job.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import type { AppDeps } from './deps.ts';
import type { PeriodicJob } from './util/periodic-job.ts';
import { SessionUsers } from './auth/session-users.ts';
import { createChangeFeed } from './events/change-feed.ts';
import { consumeChanges } from './events/consumers.ts';
import { HoldingsCache } from './holdings/cache.ts';
import { createHttpServer } from './http/connections.ts';
import { trackInFlight } from './http/in-flight.ts';
import { rateLimiterFactory } from './http/rate-limit.ts';
import { DEFAULT_MASTER_REFRESH_MS, loadInstrumentMaster } from './instruments/master.ts';
import { resolveJwtSecret } from './jwt-secret.ts';
import { resolveVapidKeys } from './channels/webpush/vapid.ts';
import { createWhatsAppCodeMessages } from './channels/whatsapp/code-message.ts';
import { createMailer } from './mail/factory.ts';
import { createBatchOwnership } from './market/batch-owner.ts';
import { createMarketPipeline, type MarketPipeline } from './market/pipeline.ts';
import { protectOnFirstPrice } from './rules/protect-on-price.ts';
import { createWatchSetKeeper } from './market/watch-set.ts';
import {
  countPendingDeliveries,
  createServerMetrics,
  scrapedCount,
  type ServerMetrics,
} from './metrics/index.ts';
import { relayFeedStatus } from './realtime/feed-status.ts';
import { relayMarketFeed } from './realtime/market-feed.ts';
import { createQuoteFanout, type QuoteFanout } from './realtime/quote-fanout.ts';
import { localPushes } from './realtime/pushes.ts';
import { createSocketServer, userRoom, type RealtimeServer } from './realtime/socket-server.ts';
import { createRulesEngine, type RulesEngine, type RulesEngineTunables } from './triggers/index.ts';
import { requestConnection } from './util/redis-ready.ts';

export interface RuntimeOptions {
  log?: Logger;
  clientDist?: string;
  googleCertsUrl?: string;
  jwtSecret?: string;
  /** Run the streamer in this process (default: only when there is no Redis). */
  embeddedStreamer?: boolean;
  /** Share an open database (two instances on one PGlite in tests); not closed by this runtime. */
  database?: DatabaseHandle;
  /** Delivery worker tunables (tests shorten back-off and polling). */
  delivery?: DeliveryOverrides;
  /** How often to look for a symbol sync done by another process (default a minute). */
  instrumentRefreshMs?: number;
  /** How the rules engine fires (claim chunk size, …; the B8 bench's baseline sets these). */
  rulesEngine?: Partial<RulesEngineTunables>;
  /**
   * The Redis lease of the instance that claims and stores the batches (market/batch-owner.ts):
   * instances of one deployment share the key; tests give each database its own.
   */
  batchOwner?: { key?: string; ttlMs?: number; everyInstance?: boolean };
  /** The clock (`AppDeps.now`): ex-dates, evening digests, when levels and lots were set; tests pass their own. */
  now?: () => Date;
  /**
   * Whether the evening digest job runs on its minute timer, and the nightly ATR recomputation on
   * its own (default true). Tests that do not test them leave them off, so a run in the Indian
   * evening does not email their users a digest; `runtime.digests.runOnce()` and
   * `runtime.atrStops.runOnce()` work either way.
   */
  digestTimer?: boolean;
  /**
   * Whether the after-close broker sync runs on its minute timer (default true); tests leave it
   * off and call `runtime.brokerSyncs.runOnce()`.
   */
  brokerSyncTimer?: boolean;
  /**
   * Whether the daily history jobs run on their minute timers (default true): the day's bars
   * from the quotes and, with Yahoo quotes, the history Yahoo is asked for. Tests leave them off
   * and call `runOnce()`.
   */
  historyTimers?: boolean;
  /** How often due corporate actions are looked for (default a minute). */
  corporateActionsIntervalMs?: number;
  /** Senders besides (or instead of) the configured ones, by channel: tests register fakes here. */
  senders?: (deps: SenderDeps) => ChannelSender[];
}

export interface ServerRuntime {
  deps: AppDeps;
  http: Server;
  io: RealtimeServer;
  bus: MarketBus;
  pipeline: MarketPipeline;
  fanout: QuoteFanout;
  /** Active rules and price alerts in memory; evaluates each tick batch. */
  engine: RulesEngine;
  /** Sends the alert outbox (polling without Redis, BullMQ with it). */
  deliveries: DeliveryWorker;
  /** Deletes executions older than two years, daily. */
  retention: PeriodicJob<RetentionPass>;
  /** Applies bonuses and splits on their ex-date (at start, then every minute). */
  corporateActions: CorporateActionsJob;
  digests: DigestJob;
  /** The nightly recomputation of trailing ATR stops (history/atr-nightly-job.ts). */
  atrStops: PeriodicJob<AtrNight>;
  /** Syncs every connected broker account once after each trading day's close. */
  brokerSyncs: DailySyncJob;
  /** Adds each trading day's bars from the quotes to the daily history after the close. */
  dayBars: DayBarsJob;
  /** Asks Yahoo for the history of watched instruments the store lacks (Yahoo quotes only). */
  backfill?: BackfillJob;
  /** Publishes the streaming feed's token from the FEED_USER_EMAIL account on the market bus. */
  feedCredentials: FeedCredentialsPublisher;
  /** This runtime's prom-client registry, served at GET /metrics. */
  metrics: ServerMetrics;
  url: string;
  /** Stops accepting, finishes in-flight work, closes sockets and connections. */
  close(): Promise<void>;
}

export async function startServerRuntime(
  config: Config,
  options: RuntimeOptions = {},
): Promise<ServerRuntime> {
  const log = options.log ?? pino({ level: config.LOG_LEVEL });
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      onIdleError: (err, pool) =>
        log.warn({ err: err.message, pool }, 'an idle database connection failed; the pool replaces it'),
    }));
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', (err) => log.warn({ err: err.message }, 'redis error'));
  const requestRedis = redis && requestConnection(redis);
  requestRedis?.on('error', (err) => log.warn({ err: err.message }, 'redis error (requests)'));
  // The one cross-instance change mechanism; the caches it keeps current are this instance's.
  const changes = createChangeFeed({ redis, requestRedis, log });
  const holdingsCache = new HoldingsCache(database.db);
  const bus = config.REDIS_URL ? createRedisBus(config.REDIS_URL, log) : createMemoryBus(log);
  const now = options.now ?? (() => new Date());
  const base: SenderDeps = {
    config,
    database,
    db: database.db,
    log,
    jwtSecret: options.jwtSecret ?? resolveJwtSecret(config),
    redis,
    requestRedis,
    rateLimiter: rateLimiterFactory(requestRedis),
    vapid: resolveVapidKeys(config),
    ...(config.whatsapp
      ? { whatsappCodes: createWhatsAppCodeMessages({ whatsapp: config.whatsapp, log }) }
      : {}),
    events: changes,
    sessions: new SessionUsers(database.db, changes),
    holdingsCache,
    mailer: createMailer(config, database.db, log),
    instruments: await loadInstrumentMaster(database.db, {
      log,
      refreshMs: options.instrumentRefreshMs ?? DEFAULT_MASTER_REFRESH_MS,
    }),
    now,
    brokers: { connectors: brokerConnectors(config, now), vault: resolveTokenVault(config) },
    googleCertsUrl: options.googleCertsUrl,
    feedState: () => bus.getFeedState(),
  };
  const senders = new Map(createSenders(base));
  for (const sender of options.senders?.(base) ?? []) senders.set(sender.channel, sender);
  // One object: the senders hold `base`, and what is swapped on the app's deps (a test's mailer)
  // is what they use.
  const deps: AppDeps = Object.assign(base, { senders });

  const runStreamer = options.embeddedStreamer ?? !config.REDIS_URL;
  const streamer = runStreamer ? createConfiguredStreamer(config, { bus, log }) : undefined;

  const metrics = createServerMetrics();
  // Built before the app (a route dispatches an endpoint's test at once); it starts with the rest below.
  const deliveries = createDeliveryWorker(deps, {
    // The owner's claims: this instance's own, or those it saw crossing when another owns the batches.
    claimsFirst: () => Promise.all([engine.claimsSettled(), pipeline.ownerClaimsSettled()]),
    ...options.delivery,
    onOutcome: metrics.deliveryOutcome,
  });
  const app = createApp({ ...deps, deliveries }, { clientDist: options.clientDist, metrics });
  const requests = trackInFlight(app.callback());
  const http = createHttpServer(config, requests.handle, log);
  const realtime = createSocketServer(http, deps);
  const fanout = createQuoteFanout(realtime.io, deps.db, holdingsCache, log);
  const stopFeedStatus = relayFeedStatus(realtime.io, bus);
  const marketFeed = relayMarketFeed(realtime.io, { db: deps.db, source: config.QUOTE_PROVIDER, log });
  const watchSet = createWatchSetKeeper(deps.db, bus, log, { redis });
  const engine: RulesEngine = createRulesEngine({
    ...options.rulesEngine,
    deps,
    marketDb: database.market,
    deliveries,
    // Every instance evaluates every batch (owner or observer), so each pushes levels to its own sockets only.
    onLevels: (userId, levels) => realtime.io.local.to(userRoom(userId)).emit('rules:levels', levels),
  });
  const feedCredentials = createFeedCredentialsPublisher({
    db: deps.db,
    config,
    vault: deps.brokers.vault,
    bus,
    log,
    now,
  });
  const stopConsuming = consumeChanges(changes, {
    engine,
    feedCredentials: { refresh: () => void feedCredentials.refresh() },
    holdings: holdingsCache,
    sessions: deps.sessions,
    watchers: fanout,
    watchSet: { userChanged: watchSet.userChanged, rebuild: () => void watchSet.rebuild() },
    sockets: localPushes(realtime.io),
    log,
  });
  // Subscribed before the first load, so no change committed during it is missed.
  await changes.start();
  await engine.start();
  const retention = createRetentionJob(deps.db, log);
  const ownership = createBatchOwnership({ redis, log, ...options.batchOwner });
  await ownership.start();
  const corporateActions = createCorporateActionsJob(
    { ...deps, deliveries },
    { now: deps.now, intervalMs: options.corporateActionsIntervalMs },
  );
  const digests = createDigestJob({ ...deps, deliveries }, { now: deps.now });
  const atrStops = createAtrNightlyJob(deps, { now: deps.now });
  const brokerSyncs = createDailySyncJob(deps);
  const dayBars = createDayBarsJob({ db: deps.db, log, now: deps.now });
  const backfill = quotesFromYahoo(config)
    ? createBackfillJob({
        db: deps.db,
        log,
        now: deps.now,
        chart: createYahooChart({ baseUrl: config.YAHOO_BASE_URL }),
      })
    : undefined;
  const pipeline = createMarketPipeline({
    bus,
    db: database.market,
    log,
    immediate: [fanout.deliver, marketFeed.deliver],
    afterStore: [
      (batch) => protectOnFirstPrice({ db: database.market, events: deps.events, log, now: deps.now }, batch),
    ],
    engine,
    ownership,
    storeEveryMs: config.QUOTE_STORE_MS,
    waitsOnClaims: options.rulesEngine?.pipelineWaitsOnClaims,
    timings: metrics,
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.PORT, config.HOST, () => resolve());
  });
  metrics.observe({
    sockets: () => realtime.io.of('/').sockets.size,
    pendingDeliveries: scrapedCount(log, 'pending alert deliveries', () => countPendingDeliveries(deps.db)),
    failingCorporateActions: scrapedCount(log, 'failing corporate actions', () =>
      countFailingActions(deps.db),
    ),
  });
  await watchSet.rebuild();
  await feedCredentials.refresh();
  deliveries.start();
  retention.start();
  corporateActions.start();
  if (options.digestTimer !== false) digests.start();
  if (options.digestTimer !== false) atrStops.start();
  if (options.brokerSyncTimer !== false) brokerSyncs.start();
  if (options.historyTimers !== false) {
    dayBars.start();
    backfill?.start();
  }
  streamer?.start();

  const { port } = http.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = async () => {
    await streamer?.stop();
    pipeline.stop();
    const watchSetStopped = watchSet.stop();
    deps.instruments.stop();
    fanout.stop();
    stopFeedStatus();
    marketFeed.stop();
    const httpClosed = new Promise<void>((resolve) => http.once('close', () => resolve()));
    const forceTimer = setTimeout(() => http.closeAllConnections(), 5000);
    forceTimer.unref();
    // Closing Socket.IO closes the HTTP server: no new requests. It reports closed when the
    // connections are gone, which a client hanging up does before its handler has finished.
    await realtime.close();
    http.closeIdleConnections();
    if (http.listening) await httpClosed;
    clearTimeout(forceTimer);
    if (!(await requests.idle())) log.warn('closing with requests still running after 10 s');
    await pipeline.idle();
    await ownership.stop();
    stopConsuming();
    changes.stop();
    await corporateActions.stop();
    await digests.stop();
    await atrStops.stop();
    await brokerSyncs.stop();
    await dayBars.stop();
    await backfill?.stop();
    await engine.stop();
    await deliveries.stop();
    deps.mailer.close();
    await retention.stop();
    await watchSetStopped;
    await feedCredentials.idle();
    await bus.close();
    redis?.disconnect();
    requestRedis?.disconnect();
    if (!options.database) await database.close();
  };
  return {
    deps,
    http,
    io: realtime.io,
    bus,
    pipeline,
    fanout,
    engine,
    deliveries,
    retention,
    corporateActions,
    digests,
    atrStops,
    brokerSyncs,
    dayBars,
    backfill,
    feedCredentials,
    metrics,
    url: `http://127.0.0.1:${port}`,
    close: () => (closing ??= close()),
  };
}
