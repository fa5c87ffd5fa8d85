/**
 * A server runtime closed while Redis is down (SIGTERM during an outage) finishes without
 * waiting for Redis (the delivery queue's BullMQ close used to wait for it forever) and without
 * an unhandled rejection, which would end the process with exit 1 instead of 0. Two outages:
 * Redis gone (connections refused) and Redis hanging (connections accepted, never answered).
 * The process form, with SIGTERM and the exit code, is in redis-outage.test.ts.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { expect } from 'chai';
import { bootApp } from '../helpers/app.ts';
import { startRedisServer, type RedisServer } from '../helpers/services.ts';
import { connected, connectSocket } from '../helpers/sockets.ts';
import { signIn } from '../helpers/users.ts';
import { sleep } from './support/cluster.ts';

/** Stops Redis and listens on its port, accepting connections and never answering. */
async function hangRedis(redis: RedisServer): Promise<() => Promise<void>> {
  await redis.stop();
  const held = new Set<Socket>();
  const hole = createServer((socket) => {
    held.add(socket);
    socket.on('error', () => undefined);
  });
  hole.listen(redis.port, '127.0.0.1');
  await once(hole, 'listening');
  return async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => hole.close(resolve));
  };
}

describe('reliability: closing a server while Redis is down (in process, private redis-server)', function () {
  this.timeout(60_000);

  for (const outage of ['stopped', 'hanging'] as const) {
    it(`closes without waiting for Redis and leaves no unhandled rejection (Redis ${outage})`, async () => {
      const redis = await startRedisServer();
      const unhandled: unknown[] = [];
      const record = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', record);
      let release = async () => undefined as void;
      try {
        const app = await bootApp({
          env: { REDIS_URL: redis.url, APP_URL: 'http://app.example.test' },
          embeddedStreamer: true,
        });
        const user = await signIn(app);
        const socket = connectSocket(app.url, user.token);
        await connected(socket);
        if (outage === 'stopped') await redis.stop();
        else release = await hangRedis(redis);
        // Long enough for every client to lose Redis and try again.
        await sleep(1500);
        await app.close();
        socket.close();
        await sleep(500);
        expect(
          unhandled.map((r) => String(r)),
          'unhandled rejections',
        ).to.deep.equal([]);
      } finally {
        process.off('unhandledRejection', record);
        await release();
        await redis.stop();
      }
    });
  }
});
