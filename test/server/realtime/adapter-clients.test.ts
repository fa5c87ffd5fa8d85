/**
 * The Redis connections handed to Socket.IO's Redis adapter (server/src/realtime/adapter-clients.ts):
 * a command the adapter sends without handling its failure (a publish during an outage) is
 * logged, not left as an unhandled rejection that would end the process; the connection itself
 * is not patched, and what the adapter gets back is unchanged.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { adapterClient } from '../../../server/src/realtime/adapter-clients.ts';

interface Warning {
  fields: Record<string, unknown>;
  message: string;
}

function recordingLog() {
  const warnings: Warning[] = [];
  const log = {
    warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }),
  };
  return { warnings, log: log as never };
}

/** A connection that cannot reach Redis: every command fails at once. */
function unreachableRedis(): Redis {
  const redis = new Redis({
    port: 1,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  return redis;
}

describe('realtime: the Redis adapter gets its connections wrapped', () => {
  let redis: Redis;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    redis = unreachableRedis();
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });
  afterEach(() => {
    process.off('unhandledRejection', record);
    redis.disconnect();
  });

  it('logs a failed command the adapter does not handle, and leaves no unhandled rejection', async () => {
    const { warnings, log } = recordingLog();
    const client = adapterClient({ log }, { client: redis, role: 'pub' });
    void client.publish('socket.io#/#', 'packet');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]!.fields).to.include({ role: 'pub', command: 'publish' });
    expect(warnings[0]!.message).to.match(/socket adapter command failed/);
  });

  it('still rejects a command the adapter awaits, and keeps chaining on the wrapper', async () => {
    const { log } = recordingLog();
    const client = adapterClient({ log }, { client: redis, role: 'sub' });
    const failure = await client.subscribe('channel').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).to.be.instanceOf(Error);
    const listener = () => undefined;
    expect(client.on('messageBuffer', listener)).to.equal(client);
    expect(redis.listenerCount('messageBuffer'), 'the listener is on the connection itself').to.equal(1);
    expect(Object.hasOwn(redis, 'publish'), 'the connection is not patched').to.equal(false);
  });
});
