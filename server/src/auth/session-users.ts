/**
 * The user rows behind access tokens, kept for a second per instance: a page load is a burst of
 * requests, and each used to read the user to check the token version. Logout-all must still
 * kill older tokens at once on every instance: here, 'sessions:revoked' drops the row; with
 * Redis, it also bumps the user's revision there (before the logout-all answer leaves), and a
 * cached row is only used while the revision it was loaded under is still the current one, one
 * Redis GET rather than a database read. The lifetime bounds what nothing announces (a tier
 * changed by hand, a new name at sign-in).
 */
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { redisWhenReady } from '../util/redis-ready.ts';

export type SessionUser = typeof users.$inferSelect;

export const SESSION_USER_TTL_MS = 1000;
const MAX_CACHED_USERS = 10_000;
/** Revisions outlive any cached row (and a load racing a revocation) by far. */
const REVISION_TTL_S = 60;
export const sessionRevisionKey = (userId: string) => `sessions:revision:${userId}`;

interface Cached {
  user: SessionUser;
  loadedAt: number;
  /** The user's revision in Redis when loaded (null: none, or no Redis). */
  revision: string | null;
}

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
   * The user, from the cache when its row is fresh, has this token version and (with Redis)
   * no revocation happened since; else from the database. `keep: false` for one-off checks.
   */
  async get(id: string, tokenVersion: number, keep: boolean): Promise<SessionUser | undefined> {
    const hit = this.entries.get(id);
    if (hit && Date.now() - hit.loadedAt <= SESSION_USER_TTL_MS && hit.user.tokenVersion === tokenVersion) {
      if (!this.redis || (await this.revision(id)) === hit.revision) return hit.user;
      this.entries.delete(id);
    }
    return (await this.load(id, keep))?.user;
  }

  /** The user's sessions were revoked here: drop the row, and tell the other instances. */
  revoked(id: string): void {
    this.epoch += 1;
    this.entries.delete(id);
    if (!this.redis) return;
    const key = sessionRevisionKey(id);
    // Sent now, ahead of the logout-all answer, so any request that answer leads to sees it.
    this.redis
      .multi()
      .incr(key)
      .expire(key, REVISION_TTL_S)
      .exec()
      .catch((err: unknown) => this.log.warn({ err, userId: id }, 'could not publish a session revocation'));
  }

  /** The user's revision; undefined when Redis cannot say now (down: not waited for). */
  private async revision(id: string): Promise<string | null | undefined> {
    const redis = redisWhenReady(this.redis);
    if (!redis) return undefined;
    try {
      return await redis.get(sessionRevisionKey(id));
    } catch (err) {
      this.log.warn({ err }, 'session revision unavailable; reading the user');
      return undefined;
    }
  }

  /** One query per user at a time: concurrent misses (an expiry under load) share it. */
  private load(id: string, keep: boolean): Promise<Cached | undefined> {
    const running = this.loading.get(id);
    if (running && running.epoch === this.epoch) return running.entry;
    const epoch = this.epoch;
    const entry = (async () => {
      const revision = this.redis ? await this.revision(id) : null;
      const loadedAt = Date.now();
      const [user] = await this.db.select().from(users).where(eq(users.id, id));
      if (!user) return undefined;
      const cached = { user, loadedAt, revision: revision ?? null };
      if (keep && epoch === this.epoch && revision !== undefined) this.keep(id, cached);
      return cached;
    })();
    const settled = () => {
      if (this.loading.get(id)?.entry === entry) this.loading.delete(id);
    };
    entry.then(settled, settled);
    this.loading.set(id, { epoch, entry });
    return entry;
  }

  private keep(id: string, cached: Cached): void {
    this.entries.delete(id);
    this.entries.set(id, cached);
    // Insertion order is load order: expired and surplus entries are at the front.
    for (const [oldId, entry] of this.entries) {
      if (this.entries.size <= MAX_CACHED_USERS && cached.loadedAt - entry.loadedAt <= SESSION_USER_TTL_MS)
        break;
      this.entries.delete(oldId);
    }
  }
}

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
    caches.set(deps.events, (cache = created));
  }
  return cache;
}
