/**
 * The change feed itself (server/src/events/change-feed.ts) on the run's Redis: a change reaches
 * the publishing instance once, at once, and every other instance once, from the channel; a
 * message that is not the feed's is dropped without stopping the ones after it.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import {
  CHANGES_CHANNEL,
  createChangeFeed,
  type ChangeFeed,
} from '../../../server/src/events/change-feed.ts';
import type { Change, ChangeOrigin } from '../../../server/src/events/changes.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('change feed: one message per publish, handled once on every instance', function () {
  this.timeout(20_000);
  const clients: Redis[] = [];
  const feeds: ChangeFeed[] = [];

  async function instance() {
    const redis = new Redis(testServices().redisUrl, { lazyConnect: true });
    await redis.connect();
    clients.push(redis);
    const feed = createChangeFeed({ redis });
    const heard: Array<[string, ChangeOrigin]> = [];
    feed.subscribe((changes, origin) => {
      for (const c of changes) heard.push([`${c.type} ${c.userId}`, origin]);
    });
    await feed.start();
    feeds.push(feed);
    return { redis, feed, heard };
  }

  afterEach(async () => {
    for (const f of feeds.splice(0)) f.stop();
    await Promise.all(clients.splice(0).map((c) => c.quit()));
  });

  it("the publisher handles its change once, locally; the other instance once, as another's", async () => {
    const a = await instance();
    const b = await instance();
    const changes: Change[] = [
      { type: 'rules', userId: 'u1' },
      { type: 'endpoints', userId: 'u2' },
    ];
    await a.feed.publish(changes);
    expect(a.heard).to.deep.equal([
      ['rules u1', 'local'],
      ['endpoints u2', 'local'],
    ]);
    await waitFor("B's changes", async () => (b.heard.length >= 2 ? true : undefined));
    // A has read its own message back from the channel too, and not handled it again.
    expect(await a.feed.caughtUp()).to.equal(true);
    expect(a.heard).to.have.length(2);
    expect(b.heard).to.deep.equal([
      ['rules u1', 'remote'],
      ['endpoints u2', 'remote'],
    ]);
  });

  it("drops what is not the feed's and goes on with the next message", async () => {
    const a = await instance();
    const b = await instance();
    await a.redis.publish(CHANGES_CHANNEL, 'not a change message');
    await a.feed.publish({ type: 'sessions', userId: 'u3' });
    await waitFor("B's change", async () => (b.heard.length > 0 ? true : undefined));
    expect(b.heard).to.deep.equal([['sessions u3', 'remote']]);
    expect(await b.feed.caughtUp()).to.equal(true);
  });
});
