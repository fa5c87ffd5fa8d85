/** The server process: reads config once, starts the runtime, shuts down gracefully. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@app/config';
import { guardUnhandledRejections } from '@app/streamer';
import { pino } from 'pino';
import { startServerRuntime } from './runtime.ts';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL });
guardUnhandledRejections(log);
const clientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../client/dist');

const runtime = await startServerRuntime(config, { log, clientDist });
log.info(
  { url: `http://localhost:${config.PORT}`, database: runtime.deps.database.kind, demoMode: config.demoMode },
  'server listening',
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    runtime.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
