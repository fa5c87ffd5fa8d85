import type { Config } from '@app/config';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { SessionUsers } from './auth/session-users.ts';
import type { ChangeFeed } from './events/change-feed.ts';
import type { HoldingsCache } from './holdings/cache.ts';
import type { RateLimiterFactory } from './http/rate-limit.ts';
import type { Mailer } from './mail/mailer.ts';
import type { InstrumentMaster } from './instruments/master.ts';

/** What the Koa app and the services need; each process's main.ts builds it, tests build their own. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  log: Logger;
  /** The HS256 key for access tokens (JWT_SECRET, or one generated and kept under DATA_DIR). */
  jwtSecret: string;
  /** Commands (Redis) when REDIS_URL is set; undefined in embedded mode. */
  redis?: Redis;
  rateLimiter: RateLimiterFactory;
  /**
   * The change feed: services publish what they committed; every instance's consumer table
   * (events/consumers.ts) turns it into reloads, cache drops and socket pushes.
   */
  events: ChangeFeed;
  /** This instance's cache of signed-in sessions (the access-token check). */
  sessions: SessionUsers;
  /** This instance's cache of presented holdings; without one, lists are read from the database. */
  holdingsCache?: HoldingsCache;
  /** SendGrid, SMTP or the dev outbox (config.mailTransport). */
  mailer: Mailer;
  /** The NSE/BSE symbol master, in memory. */
  instruments: InstrumentMaster;
  /** Google's certificate endpoint; tests point it at a local fake. */
  googleCertsUrl?: string;
}
