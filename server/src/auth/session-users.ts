/**
 * The sessions behind access tokens, each with its user row, kept for a second per instance: a
 * page load is a burst of requests, and each used to read the user to check the token version.
 * One query loads the user and whether the token's session (its refresh-token family, claim
 * `sid`) is still signed in. Built once per instance in runtime.ts (AppDeps.sessions).
 *
 * Logout must end a session, and logout-all every session of the user, on every instance at
 * once. Both publish a `sessions` change (events/consumers.ts drops the entries here and on
 * every other instance), and a cached entry is only used when the change feed has handled
 * every change published anywhere before the request (`ChangeFeed.caughtUp`: one Redis GET):
 * a logout whose answer has left is then known here. When that cannot be told (Redis down, a
 * backlog), the database answers. Without Redis there is no other instance to hear from;
 * the lifetime bounds what nothing announces (a tier changed by hand, a new name at sign-in).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { refreshTokens, users } from '../db/schema.ts';
import type { ChangeFeed } from '../events/change-feed.ts';

export type SessionUser = typeof users.$inferSelect;

export const SESSION_USER_TTL_MS = 1000;
const MAX_CACHED_SESSIONS = 10_000;

/** What an access token names: its user, the user's token version and its session. */
export interface SessionClaims {
  sub: string;
  tv: number;
  sid: string;
}

interface Cached {
  user: SessionUser;
  /** The session was signed in by this user and none of its refresh tokens is revoked. */
  live: boolean;
  loadedAt: number;
}

const cacheKey = (userId: string, sessionId: string) => `${userId}/${sessionId}`;

export class SessionUsers {
  private readonly entries = new Map<string, Cached>();
  private readonly loading = new Map<string, { epoch: number; entry: Promise<Cached | undefined> }>();
  /** Bumped by every session change heard: a load that began before one is used once, not kept. */
  private epoch = 0;

  constructor(
    private readonly db: Database,
    private readonly feed: Pick<ChangeFeed, 'caughtUp'>,
  ) {}

  /**
   * The user of a live session, from the cache when its entry is fresh, has this token version
   * and the change feed has caught up (so no logout published before now is unheard); else
   * from the database. Undefined when the user is gone or the session ended. `keep: false`
   * for one-off checks.
   */
  async get(claims: SessionClaims, keep: boolean): Promise<SessionUser | undefined> {
    const key = cacheKey(claims.sub, claims.sid);
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.loadedAt <= SESSION_USER_TTL_MS && hit.user.tokenVersion === claims.tv) {
      // Caught up: any session change published before now has dropped the entry if it ended.
      if ((await this.feed.caughtUp()) && this.entries.get(key) === hit) return live(hit);
      this.entries.delete(key);
    }
    return live(await this.load(claims, keep));
  }

  /** Every session of the user was revoked (here or on another instance): drop them. */
  revoked(userId: string): void {
    this.epoch += 1;
    const prefix = cacheKey(userId, '');
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** One session of the user ended (here or on another instance): drop it. */
  ended(userId: string, sessionId: string): void {
    this.epoch += 1;
    this.entries.delete(cacheKey(userId, sessionId));
  }

  /** Changes may have been lost: keep nothing loaded before now. */
  clear(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  /** One query per session at a time: concurrent misses (an expiry under load) share it. */
  private load({ sub, sid }: SessionClaims, keep: boolean): Promise<Cached | undefined> {
    const key = cacheKey(sub, sid);
    const running = this.loading.get(key);
    if (running && running.epoch === this.epoch) return running.entry;
    const epoch = this.epoch;
    const entry = (async () => {
      const loadedAt = Date.now();
      // Null when the family is not this user's (or unknown), false once any token of it is revoked.
      const signedIn = sql<boolean | null>`(select bool_and(${refreshTokens.revokedAt} is null)
        from ${refreshTokens}
        where ${and(eq(refreshTokens.familyId, sid), eq(refreshTokens.userId, users.id))})`;
      const [row] = await this.db
        .select({ user: users, live: signedIn })
        .from(users)
        .where(eq(users.id, sub));
      if (!row) return undefined;
      const cached = { user: row.user, live: row.live === true, loadedAt };
      if (keep && epoch === this.epoch) this.keep(key, cached);
      return cached;
    })();
    const settled = () => {
      if (this.loading.get(key)?.entry === entry) this.loading.delete(key);
    };
    entry.then(settled, settled);
    this.loading.set(key, { epoch, entry });
    return entry;
  }

  private keep(key: string, cached: Cached): void {
    this.entries.delete(key);
    this.entries.set(key, cached);
    // Insertion order is load order: expired and surplus entries are at the front.
    for (const [oldKey, entry] of this.entries) {
      if (this.entries.size <= MAX_CACHED_SESSIONS && cached.loadedAt - entry.loadedAt <= SESSION_USER_TTL_MS)
        break;
      this.entries.delete(oldKey);
    }
  }
}

const live = (cached: Cached | undefined) => (cached?.live ? cached.user : undefined);
