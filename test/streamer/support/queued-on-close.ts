/**
 * A process with a Redis command nobody handles, still queued when its connection is closed: the
 * shape of what ioredis does itself with the SUBSCRIBE it re-sends after a reconnect
 * (redis/ioredis#2187). ioredis rejects it with "Connection is closed.". Arguments: the Redis URL and the mode: `bare` (Node's
 * default policy), `guarded` (`guardUnhandledRejections`), or `other` (guarded, plus a rejection
 * of our own that nobody handles). Prints "still running" when it outlives the rejection.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { guardUnhandledRejections } from '../../../streamer/src/bus/rejections.ts';

const [url, mode] = process.argv.slice(2);
if (mode !== 'bare') guardUnhandledRejections(pino({ level: 'warn' }));
if (mode === 'other') void Promise.reject(new Error('a bug of ours'));

const connection = new Redis(url!);
connection.on('error', () => undefined);
// Sent before the connection is up, so it waits in ioredis's offline queue, with no handler.
void connection.get('market:watch:all');
connection.disconnect();
await new Promise((resolve) => setTimeout(resolve, 500));
console.log('still running');
