/**
 * The sessions behind access tokens, each with its user row, kept for a second per instance: a
 * page load is a burst of requests, and each used to read the user to check the token version.
 * One query loads the user and whether the token's session (its refresh-token family, claim
 * `sid`) is still signed in. Logout must end a session, and logout-all every session of the
 * user, on every instance: here, 'session:ended' and 'sessions:revoked' drop the entries; with
 * Redis, they also bump the user's revision there (before the answer leaves), and a cached entry
 * is only used while the revision it was loaded under is still the current one, one Redis GET
 * rather than a database read. Without Redis (or while it is unreachable) the lifetime bounds
 * how long another instance may still accept a session that ended: a second. It also bounds
 * what nothing announces (a tier changed by hand, a new name at sign-in).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { refreshTokens, users } from '../db/schema.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { redisWhenReady } from '../util/redis-ready.ts';

export type SessionUser = typeof users.$inferSelect;

export const SESSION_USER_TTL_MS = 1000;
const MAX_CACHED_SESSIONS = 10_000;
/** Revisions outlive any cached row (and a load racing a revocation) by far. */
const REVISION_TTL_S = 60;
export const sessionRevisionKey = (userId: string) => `sessions:revision:${userId}`;

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
  /** The user's revision in Redis when loaded (null: none, or no Redis). */
  revision: string | null;
}

const cacheKey = (userId: string, sessionId: string) => `${userId}/${sessionId}`;

export class SessionUsers {
  private readonly entries = new Map<string, Cached>();
  private readonly loading = new Map<string, { epoch: number; entry: Promise<Cached | undefined> }>();
  /** Bumped by every revocation here: a load that began before one is used once, not kept. */
  private epoch = 0;

  constructor(
    private readonly db: Database,
    private readonly redis: Redis | undefined,
    private readonly log: Logger,
  ) {}

  /**
   * The user of a live session, from the cache when its entry is fresh, has this token version
   * and (with Redis) no revocation happened since; else from the database. Undefined when the
   * user is gone or the session ended. `keep: false` for one-off checks.
   */
  async get(claims: SessionClaims, keep: boolean): Promise<SessionUser | undefined> {
    const key = cacheKey(claims.sub, claims.sid);
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.loadedAt <= SESSION_USER_TTL_MS && hit.user.tokenVersion === claims.tv) {
      if (!this.redis || (await this.revision(claims.sub)) === hit.revision) return live(hit);
      this.entries.delete(key);
    }
    return live(await this.load(claims, keep));
  }

  /** Every session of the user was revoked here: drop them, and tell the other instances. */
  revoked(userId: string): void {
    const prefix = cacheKey(userId, '');
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
    this.announce(userId);
  }

  /** One session of the user ended here: drop it, and tell the other instances. */
  ended(userId: string, sessionId: string): void {
    this.entries.delete(cacheKey(userId, sessionId));
    this.announce(userId);
  }

  private announce(userId: string): void {
    this.epoch += 1;
    if (!this.redis) return;
    const key = sessionRevisionKey(userId);
    // Sent now, ahead of the logout answer, so any request that answer leads to sees it.
    this.redis
      .multi()
      .incr(key)
      .expire(key, REVISION_TTL_S)
      .exec()
      .catch((err: unknown) => this.log.warn({ err, userId }, 'could not publish a session revocation'));
  }

  /** The user's revision; undefined when Redis cannot say now (down: not waited for). */
  private async revision(userId: string): Promise<string | null | undefined> {
    const redis = redisWhenReady(this.redis);
    if (!redis) return undefined;
    try {
      return await redis.get(sessionRevisionKey(userId));
    } catch (err) {
      this.log.warn({ err }, 'session revision unavailable; reading the user');
      return undefined;
    }
  }

  /** One query per session at a time: concurrent misses (an expiry under load) share it. */
  private load({ sub, sid }: SessionClaims, keep: boolean): Promise<Cached | undefined> {
    const key = cacheKey(sub, sid);
    const running = this.loading.get(key);
    if (running && running.epoch === this.epoch) return running.entry;
    const epoch = this.epoch;
    const entry = (async () => {
      const revision = this.redis ? await this.revision(sub) : null;
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
      const cached = { user: row.user, live: row.live === true, loadedAt, revision: revision ?? null };
      if (keep && epoch === this.epoch && revision !== undefined) this.keep(key, cached);
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

/** One cache per runtime, keyed by its event emitter (as rules/changes.ts keys instance ids). */
const caches = new WeakMap<DomainEvents, SessionUsers>();

export function sessionUsers(deps: {
  db: Database;
  redis?: Redis;
  log: Logger;
  events: DomainEvents;
}): SessionUsers {
  let cache = caches.get(deps.events);
  if (!cache) {
    const created = new SessionUsers(deps.db, deps.redis, deps.log);
    deps.events.on('sessions:revoked', (userId) => created.revoked(userId));
    deps.events.on('session:ended', (userId, sessionId) => created.ended(userId, sessionId));
    caches.set(deps.events, (cache = created));
  }
  return cache;
}
