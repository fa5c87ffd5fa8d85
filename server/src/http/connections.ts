/**
 * The HTTP server's limits on connections. Node's defaults let one address take every file
 * descriptor of the process: no ceiling on connections, 300 s for a request's body, checked every
 * 30 s. Then no client, no `/api/health` and none of the server's own database or Redis
 * connections can open. Here a request's headers and body each have a deadline (408 and the
 * connection closed past it), and connections past a ceiling below the descriptor limit are
 * closed as they arrive, leaving descriptors for the server's own connections and files.
 * Per-address limits belong to the reverse proxy in front (docs/deployment.md).
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '@app/config';
import type { Logger } from 'pino';

/** Descriptors kept for the server itself (database pools, Redis, mail, files, logs). */
export const RESERVED_DESCRIPTORS = 256;
/** The ceiling where the descriptor limit cannot be read (not Linux). */
const FALLBACK_MAX_CONNECTIONS = 10_000;
/** How often dropped connections are logged, at most. */
const DROP_LOG_EVERY_MS = 60_000;

/**
 * The process's limit on open files (the soft limit, which Node raises to the hard limit as it
 * starts), from /proc/self/limits; undefined where that cannot be read.
 */
export function descriptorLimit(limits = '/proc/self/limits'): number | undefined {
  let text: string;
  try {
    text = readFileSync(limits, 'utf8');
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}

/** HTTP_MAX_CONNECTIONS, else the descriptor limit (`descriptorLimit()`) less RESERVED_DESCRIPTORS. */
export function maxConnections(
  config: Pick<Config, 'HTTP_MAX_CONNECTIONS'>,
  limit: number | undefined,
): number {
  if (config.HTTP_MAX_CONNECTIONS !== undefined) return config.HTTP_MAX_CONNECTIONS;
  if (limit === undefined) return FALLBACK_MAX_CONNECTIONS;
  return Math.max(1, limit - RESERVED_DESCRIPTORS);
}

/** The HTTP server of one instance, with its deadlines and connection ceiling. */
export function createHttpServer(
  config: Pick<Config, 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_MAX_CONNECTIONS'>,
  handler: RequestListener,
  log: Logger,
): Server {
  const server = createServer(
    {
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      // Node checks the deadlines on this interval (30 s by default, which would double them).
      connectionsCheckingInterval: Math.min(1000, Math.ceil(config.HTTP_HEADERS_TIMEOUT_MS / 4)),
    },
    handler,
  );
  const limit = descriptorLimit();
  server.maxConnections = maxConnections(config, limit);
  if (limit !== undefined && server.maxConnections > limit - RESERVED_DESCRIPTORS)
    log.warn(
      { maxConnections: server.maxConnections, descriptorLimit: limit },
      'HTTP_MAX_CONNECTIONS leaves the server too few file descriptors of its own',
    );
  let dropped = 0;
  let loggedAt = -Infinity;
  server.on('drop', () => {
    dropped += 1;
    if (Date.now() - loggedAt < DROP_LOG_EVERY_MS) return;
    log.warn(
      { dropped, maxConnections: server.maxConnections },
      'connection ceiling reached: new connections are closed as they arrive',
    );
    loggedAt = Date.now();
    dropped = 0;
  });
  return server;
}
