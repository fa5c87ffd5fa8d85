/**
 * The one consumer table of the change feed (change-feed.ts): what each committed change does
 * on every instance. Local and remote changes go through the same table; the few things done
 * once for the house (the watch set) are done by the instance the change committed on.
 * Socket pushes go to this instance's own sockets (`io.local`): every instance hears every
 * change, so nothing is sent twice and the Socket.IO adapter carries none of it.
 */
import type { ServerToClientEvents } from '@app/common/realtime/events';
import type { ChangeFeed } from './change-feed.ts';
import type { Change, ChangeOrigin, ChangeType } from './changes.ts';

/** Pushes to the sockets this instance holds. */
export interface LocalPushes {
  emit<E extends keyof ServerToClientEvents>(
    userId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  disconnectUser(userId: string): void;
  disconnectSession(sessionId: string): void;
  /** Changes may have been lost: every tab here refetches what it shows. */
  resyncAll(): void;
}

/** What changes act on, built once per instance in runtime.ts. */
export interface ChangeTargets {
  engine: {
    /** Reloads the user's rules and price alerts. */
    userChanged(userId: string): void;
    /** A rule or alert fired on another instance: drop it if it is still the version that fired. */
    firedElsewhere(id: string, firedAt: number): void;
    resync(): void;
  };
  holdings: { invalidate(userId: string): void; clear(): void };
  sessions: { ended(userId: string, sessionId: string): void; revoked(userId: string): void; clear(): void };
  /** The instruments each connected user's quotes carry (quote-fanout.ts). */
  watchers: { refresh(userId: string): void; refreshAll(): void };
  /** The streaming feed's token, from the FEED_USER_EMAIL account (brokers/feed-credentials.ts). */
  feedCredentials: { refresh(): void };
  /** The instruments the streamer polls, for the whole house. */
  watchSet: { userChanged(userId: string): void; rebuild(): void };
  sockets: LocalPushes;
  log: { error(obj: object, msg: string): void };
}

type Consumer<T extends ChangeType> = (
  change: Extract<Change, { type: T }>,
  to: ChangeTargets,
  origin: ChangeOrigin,
) => void;

export const CHANGE_CONSUMERS: { readonly [T in ChangeType]: Consumer<T> } = {
  holdings: ({ userId }, to, origin) => {
    to.holdings.invalidate(userId);
    to.watchers.refresh(userId);
    if (origin === 'local') to.watchSet.userChanged(userId);
    to.sockets.emit(userId, 'holdings:changed');
  },
  rules: ({ userId }, to, origin) => {
    to.engine.userChanged(userId);
    to.watchers.refresh(userId);
    if (origin === 'local') to.watchSet.userChanged(userId);
    to.sockets.emit(userId, 'rules:changed');
  },
  // A firing is not a rules reload: the engine that claimed it removed the entry itself, the
  // others drop it here, and the tab patches its lists from the one `alert` event.
  executions: ({ userId, fired, settled }, to, origin) => {
    if (fired) {
      const id = fired.rule_id ?? fired.price_alert_id;
      if (origin === 'remote' && id) to.engine.firedElsewhere(id, Date.parse(fired.executed_at));
      to.sockets.emit(userId, 'alert', { execution: fired });
    }
    if (settled) to.sockets.emit(userId, 'execution:status', settled);
  },
  // Published once for the house by the instance it committed on (it publishes what the database holds).
  brokers: (_change, to, origin) => {
    if (origin === 'local') to.feedCredentials.refresh();
  },
  endpoints: ({ userId }, to) => to.sockets.emit(userId, 'endpoints:changed'),
  sessions: ({ userId, sessionId }, to) => {
    if (sessionId) {
      to.sessions.ended(userId, sessionId);
      to.sockets.disconnectSession(sessionId);
    } else {
      to.sessions.revoked(userId);
      to.sockets.disconnectUser(userId);
    }
  },
};

/** Changes were lost (a gap in the feed, Redis reconnected): everything built from them starts over. */
export function resyncEverything(to: ChangeTargets): void {
  to.sessions.clear();
  to.holdings.clear();
  to.engine.resync();
  to.watchers.refreshAll();
  to.watchSet.rebuild();
  to.sockets.resyncAll();
}

/** Applies one message's changes through the table. */
export function applyChanges(changes: readonly Change[], to: ChangeTargets, origin: ChangeOrigin): void {
  for (const change of changes) {
    try {
      (CHANGE_CONSUMERS[change.type] as Consumer<ChangeType>)(change, to, origin);
    } catch (err) {
      // One change failing (a socket closing under it) does not hold up the rest of the message.
      to.log.error({ err, type: change.type, userId: change.userId }, 'a change could not be applied');
    }
  }
}

/** Feeds every change and every resync of `feed` to the table. Returns the unsubscribe. */
export function consumeChanges(feed: ChangeFeed, to: ChangeTargets): () => void {
  const offChanges = feed.subscribe((changes, origin) => applyChanges(changes, to, origin));
  const offResync = feed.onResync(() => resyncEverything(to));
  return () => {
    offChanges();
    offResync();
  };
}
