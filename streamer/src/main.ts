/**
 * `npm run streamer`: the streamer as its own process (scaled mode). Needs REDIS_URL. Publishes
 * tick batches while holding the Redis leader lock; on SIGTERM/SIGINT it finishes the running
 * cycle, releases the lock and exits.
 */
import { MARKET_KEYS } from '@app/common/market/tick-batch';
import { ConfigError, loadConfig } from '@app/config';
import { pino } from 'pino';
import {
  closeRedisConnection,
  createRedisBus,
  createRedisConnection,
  guardUnhandledRejections,
} from './bus/index.ts';
import { createLeaderLock } from './leader.ts';
import { ReplayFileError } from './providers/index.ts';
import { createConfiguredStreamer } from './source.ts';
import type { Streamer } from './streamer.ts';

const config = loadConfig('streamer');
const log = pino({ level: config.LOG_LEVEL, name: 'streamer' });
guardUnhandledRejections(log);

if (!config.REDIS_URL) {
  console.error(
    'REDIS_URL is required: the streamer publishes to Redis (e.g. REDIS_URL=redis://localhost:6379)',
  );
  process.exit(1);
}

/** Lock lifetime: short enough for a quick takeover, long enough to ride out a slow renewal. */
const ttlMs = Math.min(15_000, Math.max(1_000, config.QUOTE_INTERVAL_MS));
const bus = createRedisBus(config.REDIS_URL, log);
const lockConnection = createRedisConnection(config.REDIS_URL, log, 'leader');
const leader = createLeaderLock({ redis: lockConnection, key: MARKET_KEYS.leaderLock, ttlMs, log });
let streamer: Streamer;
try {
  streamer = createConfiguredStreamer(config, { bus, log, leader });
} catch (err) {
  if (!(err instanceof ReplayFileError) && !(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'streamer stopping');
  await streamer.stop();
  await bus.close();
  await closeRedisConnection(lockConnection, log);
  log.info('streamer stopped');
  process.exit(0);
}

process.on('SIGTERM', (signal) => void shutdown(signal));
process.on('SIGINT', (signal) => void shutdown(signal));

log.info(
  {
    provider: config.QUOTE_PROVIDER,
    intervalMs: config.QUOTE_INTERVAL_MS,
    leaderTtlMs: ttlMs,
    token: leader.token,
  },
  'streamer starting',
);
streamer.start();
