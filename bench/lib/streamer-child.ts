/**
 * The streamer under test, alone in its process (as `npm run streamer` runs it, without the
 * leader lock: it is the only one): the configured source (B12, B13: `QUOTE_PROVIDER=kite`
 * against the tests' fake ticker) publishing on the Redis bus. Answers its CPU time over IPC.
 */
import { parseConfig } from '@app/config';
import { createConfiguredStreamer, createRedisBus, type MarketBus, type Streamer } from '@app/streamer';
import { pino } from 'pino';
import { serveParent } from './child.ts';

/** The streamer's configuration variables (REDIS_URL, QUOTE_PROVIDER, the feed's addresses, ...). */
export type StreamerEnv = Record<string, string>;

let bus: MarketBus | undefined;
let streamer: Streamer | undefined;

serveParent(
  {
    /** Starts the streamer with these configuration variables (REDIS_URL among them). */
    start(env: StreamerEnv) {
      const config = parseConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env }, 'streamer');
      const log = pino({ level: config.LOG_LEVEL, name: 'streamer' });
      bus = createRedisBus(config.REDIS_URL!, log);
      streamer = createConfiguredStreamer(config, { bus, log });
      streamer.start();
    },
    /** The process's CPU time so far (user + system, milliseconds). */
    cpuMs() {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
  },
  async () => {
    await streamer?.stop();
    await bus?.close();
  },
);
