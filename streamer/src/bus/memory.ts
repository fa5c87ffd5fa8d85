/**
 * The in-process market bus (embedded mode): the Redis bus's semantics without Redis. Batches
 * are validated, serialised and delivered on a microtask (never inside `publishBatch`), each
 * subscriber getting the decoded copy, exactly as over Redis.
 */
import type { FeedCredentials } from '@app/common/market/feed-credentials';
import type { FeedState } from '@app/common/market/feed-state';
import { instrumentKey } from '@app/common/market/tick-batch';
import { pino, type Logger } from 'pino';
import { decodeBatch, dispatchBatch, logRejectedQuotesOnce, screenBatch } from './decode.ts';
import { noWatchAttributes, watchAttributes, watchedFromMembers } from './watch-reference.ts';
import type { BatchHandler, MarketBus } from './types.ts';

/** Thrown by calls on a closed in-process bus. */
export class BusClosedError extends Error {
  constructor() {
    super('market bus is closed');
    this.name = 'BusClosedError';
  }
}

/** Creates an in-process bus; `log` receives dropped messages and handler failures. */
export function createMemoryBus(log: Logger = pino({ level: 'silent' })): MarketBus {
  const handlers = new Set<BatchHandler>();
  const rejectedOnPublish = logRejectedQuotesOnce(log, 'publish');
  const rejectedOnArrival = logRejectedQuotesOnce(log, 'arrival');
  const watch = new Set<string>();
  let attributes = noWatchAttributes();
  let closed = false;
  let feedState: { state: FeedState; expiresAt: number } | undefined;
  let credentials: FeedCredentials | null = null;
  const credentialListeners = new Set<(credentials: FeedCredentials | null) => void>();
  const currentCredentials = () =>
    credentials && credentials.expiresAt > Date.now() ? structuredClone(credentials) : null;

  const open = () => {
    if (closed) throw new BusClosedError();
  };

  /** Delivers one serialised message, as a subscriber connection would. */
  function deliver(message: string): void {
    if (closed || handlers.size === 0) return;
    const batch = decodeBatch(message, log, rejectedOnArrival);
    if (batch) dispatchBatch(handlers, batch, log);
  }

  return {
    async publishBatch(batch) {
      open();
      const valid = screenBatch(batch, rejectedOnPublish);
      const message = JSON.stringify(valid);
      queueMicrotask(() => deliver(message));
    },

    onBatch(handler) {
      const wrapped: BatchHandler = (batch) => handler(batch);
      if (!closed) handlers.add(wrapped);
      return () => {
        handlers.delete(wrapped);
      };
    },

    // Nothing stands between the streamer and the server in one process.
    isReceiving: () => true,
    onReceivingChange: () => () => undefined,

    async getWatchSet() {
      open();
      return watchedFromMembers([...watch], attributes);
    },

    async replaceWatchSet(list) {
      open();
      watch.clear();
      for (const i of list) watch.add(instrumentKey(i.exchange, i.symbol));
      attributes = watchAttributes(list);
    },

    async addToWatchSet(list) {
      open();
      for (const i of list) watch.add(instrumentKey(i.exchange, i.symbol));
      const added = watchAttributes(list);
      Object.assign(attributes.references, added.references);
      Object.assign(attributes.scripCodes, added.scripCodes);
      Object.assign(attributes.isins, added.isins);
    },

    async removeFromWatchSet(keys) {
      open();
      for (const key of keys) {
        watch.delete(key);
        delete attributes.references[key];
        delete attributes.scripCodes[key];
        delete attributes.isins[key];
      }
    },

    async setFeedState(state, ttlMs) {
      open();
      feedState = { state: structuredClone(state), expiresAt: Date.now() + ttlMs };
    },

    async getFeedState() {
      open();
      return feedState && feedState.expiresAt > Date.now() ? structuredClone(feedState.state) : null;
    },

    async setFeedCredentials(next) {
      open();
      credentials = next && structuredClone(next);
      queueMicrotask(() => {
        for (const listener of [...credentialListeners]) listener(currentCredentials());
      });
    },

    onFeedCredentials(listener) {
      if (closed) return () => undefined;
      credentialListeners.add(listener);
      queueMicrotask(() => {
        if (credentialListeners.has(listener)) listener(currentCredentials());
      });
      return () => {
        credentialListeners.delete(listener);
      };
    },

    async close() {
      closed = true;
      handlers.clear();
      credentialListeners.clear();
    },
  };
}
