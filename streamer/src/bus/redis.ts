/**
 * The market bus over Redis (scaled mode): tick batches on MARKET_KEYS.ticksChannel (pub/sub,
 * at most once), the watch set in the MARKET_KEYS.watchSet set (with each instrument's
 * reference price, BSE scrip code and ISIN in the hashes beside it, `./watch-reference.ts`). A
 * separate subscriber connection is opened on the first `onBatch`;
 * ioredis re-subscribes it after a reconnect. Redis being down never throws at the process:
 * connection errors are logged, and calls made meanwhile reject.
 *
 * The feed's credentials sit in MARKET_KEYS.feedCredentials: Redis holds a live broker token
 * there, in plain text, for the streamer that connects with it; the key expires with the token
 * (its `expiresAt`), and a notice on the channel of the same name tells every streamer to read it
 * again (the notice carries no token; a streamer started later reads the key).
 */
import { feedCredentialsSchema, type FeedCredentials } from '@app/common/market/feed-credentials';
import { feedStateSchema } from '@app/common/market/feed-state';
import { instrumentKey, MARKET_KEYS } from '@app/common/market/tick-batch';
import type { ChainableCommander } from 'ioredis';
import type { Logger } from 'pino';
import { closeRedisConnection, createRedisConnection } from './connection.ts';
import { decodeBatch, dispatchBatch, logRejectedQuotesOnce, screenBatch } from './decode.ts';
import { watchAttributes, watchedFromMembers } from './watch-reference.ts';
import type { BatchHandler, MarketBus, WatchedInstrument } from './types.ts';

const keyOf = (i: WatchedInstrument) => instrumentKey(i.exchange, i.symbol);

/** The hashes beside the watch set, in the order `getWatchSet` reads them. */
const ATTRIBUTE_HASHES = [MARKET_KEYS.watchReference, MARKET_KEYS.watchScripCodes, MARKET_KEYS.watchIsins];

/** Adds the list's reference prices, scrip codes and ISINs to a transaction on the watch set. */
function storeAttributes(multi: ChainableCommander, list: readonly WatchedInstrument[]): ChainableCommander {
  const { references, scripCodes, isins } = watchAttributes(list);
  if (Object.keys(references).length > 0) multi.hset(MARKET_KEYS.watchReference, references);
  if (Object.keys(scripCodes).length > 0) multi.hset(MARKET_KEYS.watchScripCodes, scripCodes);
  if (Object.keys(isins).length > 0) multi.hset(MARKET_KEYS.watchIsins, isins);
  return multi;
}

/** Runs a MULTI or a pipeline; resolves with each command's reply, rejects with the first error. */
async function execOrThrow(multi: ChainableCommander): Promise<unknown[]> {
  const replies = await multi.exec();
  if (replies === null) throw new Error('redis transaction was aborted');
  for (const [err] of replies) if (err) throw err;
  return replies.map(([, reply]) => reply);
}

/** Creates the Redis bus on `redisUrl`; see the module comment. */
export function createRedisBus(redisUrl: string, log: Logger): MarketBus {
  const commands = createRedisConnection(redisUrl, log, 'bus');
  // Subscribing waits out an outage (no retry limit, no timeout) so a subscription is never lost.
  const subscriber = createRedisConnection(redisUrl, log, 'bus-subscriber', {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined,
  });
  const handlers = new Set<BatchHandler>();
  const rejectedOnPublish = logRejectedQuotesOnce(log, 'publish');
  const rejectedOnArrival = logRejectedQuotesOnce(log, 'arrival');
  let subscribed = false;
  // The subscriber connection, once it has been up: false while it is reconnecting.
  let receiving = true;
  const receivingListeners = new Set<(receiving: boolean) => void>();
  const setReceiving = (next: boolean) => {
    if (next === receiving) return;
    receiving = next;
    for (const listener of [...receivingListeners]) listener(next);
  };
  const credentialListeners = new Set<(credentials: FeedCredentials | null) => void>();
  let credentialsSubscribed: Promise<unknown> | undefined;
  let lost = false;
  subscriber.on('close', () => {
    lost = true;
    setReceiving(false);
  });
  subscriber.on('ready', () => {
    setReceiving(true);
    // A notice sent while the subscriber was away is lost: read the key again.
    if (lost && credentialsSubscribed) void readCredentials([...credentialListeners]);
    lost = false;
  });

  subscriber.on('message', (channel: string, message: string) => {
    if (channel === MARKET_KEYS.feedCredentials) return void readCredentials([...credentialListeners]);
    if (channel !== MARKET_KEYS.ticksChannel || handlers.size === 0) return;
    const batch = decodeBatch(message, log, rejectedOnArrival);
    if (batch) dispatchBatch(handlers, batch, log);
  });

  function syncSubscription(): void {
    const wanted = handlers.size > 0;
    if (wanted === subscribed) return;
    subscribed = wanted;
    const request = wanted
      ? subscriber.subscribe(MARKET_KEYS.ticksChannel)
      : subscriber.unsubscribe(MARKET_KEYS.ticksChannel);
    request.catch((err: unknown) => {
      log.error({ err }, `market bus: ${wanted ? 'subscribe' : 'unsubscribe'} failed`);
      if (subscribed === wanted) subscribed = !wanted;
    });
  }

  /** Reads the current credentials and hands them to `listeners`; a failure is logged. */
  async function readCredentials(listeners: Array<(credentials: FeedCredentials | null) => void>) {
    let credentials: FeedCredentials | null = null;
    try {
      const raw = await commands.get(MARKET_KEYS.feedCredentials);
      if (raw !== null) {
        const parsed = feedCredentialsSchema.safeParse(JSON.parse(raw));
        if (parsed.success) credentials = parsed.data;
        else
          log.warn(
            { issues: parsed.error.issues.slice(0, 3) },
            'market bus: feed credentials not understood',
          );
      }
    } catch (err) {
      log.error({ err }, 'market bus: feed credentials not read');
      return;
    }
    for (const listener of listeners) if (credentialListeners.has(listener)) listener(credentials);
  }

  return {
    async publishBatch(batch) {
      const valid = screenBatch(batch, rejectedOnPublish);
      await commands.publish(MARKET_KEYS.ticksChannel, JSON.stringify(valid));
    },

    onBatch(handler) {
      const wrapped: BatchHandler = (batch) => handler(batch);
      handlers.add(wrapped);
      syncSubscription();
      return () => {
        if (handlers.delete(wrapped)) syncSubscription();
      };
    },

    isReceiving: () => receiving,

    onReceivingChange(listener) {
      receivingListeners.add(listener);
      return () => {
        receivingListeners.delete(listener);
      };
    },

    async getWatchSet() {
      const multi = commands.multi().smembers(MARKET_KEYS.watchSet);
      for (const hash of ATTRIBUTE_HASHES) multi.hgetall(hash);
      const [members, references, scripCodes, isins] = (await execOrThrow(multi)) as [
        string[],
        ...Array<Record<string, string>>,
      ];
      return watchedFromMembers(members, { references, scripCodes, isins });
    },

    async replaceWatchSet(list) {
      const multi = commands.multi().del(MARKET_KEYS.watchSet, ...ATTRIBUTE_HASHES);
      if (list.length > 0) multi.sadd(MARKET_KEYS.watchSet, ...list.map(keyOf));
      await execOrThrow(storeAttributes(multi, list));
    },

    async addToWatchSet(list) {
      if (list.length === 0) return;
      await execOrThrow(
        storeAttributes(commands.multi().sadd(MARKET_KEYS.watchSet, ...list.map(keyOf)), list),
      );
    },

    async removeFromWatchSet(keys) {
      if (keys.length === 0) return;
      const multi = commands.multi().srem(MARKET_KEYS.watchSet, ...keys);
      for (const hash of ATTRIBUTE_HASHES) multi.hdel(hash, ...keys);
      await execOrThrow(multi);
    },

    async setFeedState(state, ttlMs) {
      await commands.set(MARKET_KEYS.feedState, JSON.stringify(state), 'PX', Math.max(1, Math.round(ttlMs)));
    },

    async getFeedState() {
      const raw = await commands.get(MARKET_KEYS.feedState);
      if (raw === null) return null;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch (err) {
        log.warn({ err }, 'market bus: feed state is not JSON');
        return null;
      }
      const parsed = feedStateSchema.safeParse(json);
      if (parsed.success) return parsed.data;
      log.warn({ issues: parsed.error.issues.slice(0, 3) }, 'market bus: feed state not understood');
      return null;
    },

    async setFeedCredentials(credentials) {
      const ttlMs = credentials ? credentials.expiresAt - Date.now() : 0;
      const multi = commands.multi();
      if (credentials && ttlMs > 0)
        multi.set(MARKET_KEYS.feedCredentials, JSON.stringify(credentials), 'PX', Math.round(ttlMs));
      else multi.del(MARKET_KEYS.feedCredentials);
      await execOrThrow(multi.publish(MARKET_KEYS.feedCredentials, 'changed'));
    },

    onFeedCredentials(listener) {
      credentialListeners.add(listener);
      credentialsSubscribed ??= subscriber.subscribe(MARKET_KEYS.feedCredentials).catch((err: unknown) => {
        log.error({ err }, 'market bus: subscribe to feed credentials failed');
        credentialsSubscribed = undefined;
      });
      // Read once subscribed, so no change between the read and the subscription is missed.
      void credentialsSubscribed.then(() => readCredentials([listener]));
      return () => {
        credentialListeners.delete(listener);
      };
    },

    async close() {
      handlers.clear();
      credentialListeners.clear();
      receivingListeners.clear();
      await Promise.all([closeRedisConnection(commands, log), closeRedisConnection(subscriber, log)]);
    },
  };
}
