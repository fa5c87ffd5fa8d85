/**
 * The process policy for unhandled rejections (server and streamer `main`), with real ioredis
 * and Redis: a command queued when its connection closes, as ioredis leaves its own re-sent
 * SUBSCRIBE after a reconnect (redis/ioredis#2187).
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { runNode } from '../helpers/processes.ts';
import { startRedisServer, type RedisServer } from '../helpers/services.ts';

const script = fileURLToPath(new URL('./support/queued-on-close.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('streamer: unhandled rejections (a Redis command queued when its connection closes)', () => {
  let redis: RedisServer;
  before(async () => {
    redis = await startRedisServer();
  });
  after(async () => {
    await redis.stop();
  });

  /** Runs the script in `mode` to its end: its exit code and output. */
  const run = (mode: 'bare' | 'guarded' | 'other') =>
    runNode(['--import', 'tsx', script, redis.url, mode], root);

  it('without the policy, the rejection ioredis leaves unhandled ends the process', async () => {
    const { code, output } = await run('bare');
    expect(code).to.equal(1);
    expect(output).to.include('Error: Connection is closed.');
    expect(output).not.to.include('still running');
  });

  it('with it, the process logs the rejection and keeps running', async () => {
    const { code, output } = await run('guarded');
    expect(code, output).to.equal(0);
    expect(output).to.include('still running');
    const [line] = output.split('\n').filter((l) => l.includes('"level":40'));
    expect(JSON.parse(line!)).to.deep.include({
      err: 'Connection is closed.',
      msg: 'a Redis command nobody handled failed as its connection closed; running on',
    });
  });

  it('any other unhandled rejection still ends the process, logged as fatal', async () => {
    const { code, output } = await run('other');
    expect(code).to.equal(1);
    expect(output).not.to.include('still running');
    const fatal = JSON.parse(output.split('\n').find((l) => l.includes('"level":60'))!);
    expect(fatal.msg).to.equal('unhandled promise rejection; exiting');
    expect(fatal.err.message).to.equal('a bug of ours');
  });
});
