/**
 * The watch set follows each user's change by difference (issue 18): what the change added is
 * added, what it removed goes unless someone else still watches it, and nothing else in the set
 * is touched (a rebuild of the whole set on every change was the old way).
 */
import { expect } from 'chai';
import { createMemoryBus } from '@app/streamer';
import { createWatchSetKeeper } from '../../../server/src/market/watch-set.ts';
import { appSuite } from '../../helpers/app.ts';
import { captureLog } from '../../helpers/log.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('market: the watch set is updated by difference', function () {
  this.timeout(30_000);
  // A database of its own: the set holds only this test's instruments.
  const { app } = appSuite({ env: { DATABASE_URL: undefined }, withRedis: true, embeddedStreamer: false });

  const watched = async () =>
    (await app.runtime.bus.getWatchSet()).map((i) => `${i.exchange}:${i.symbol}`).sort();
  const until = (what: string, check: (keys: string[]) => boolean) =>
    waitFor(what, async () => (check(await watched()) ? true : undefined), 5_000);

  it('adds and removes what a change added and removed, keeping what others still watch', async () => {
    const api = apiClient(app.url);
    const [asha, ravi] = [await signIn(app), await signIn(app)];
    const add = async (token: string, symbol: string) => {
      const res = await api.post<{ id: string }>(
        '/api/holdings/manual',
        { symbol, exchange: 'NSE', quantity: 1, average_price: 100 },
        token,
      );
      expect(res.status, res.body.error).to.equal(201);
      return res.body.data!.id;
    };
    const ashaTcs = await add(asha.token, 'TCS');
    await add(ravi.token, 'TCS');
    const raviInfy = await add(ravi.token, 'INFY');
    await until('TCS and INFY watched', (keys) => keys.includes('NSE:TCS') && keys.includes('NSE:INFY'));

    // Something nobody watches, which only a rebuild of the whole set would drop.
    await app.runtime.bus.addToWatchSet([{ symbol: 'SBIN', exchange: 'NSE' }]);
    expect((await api.delete(`/api/holdings/${raviInfy}`, ravi.token)).status).to.equal(200);
    await until('INFY dropped', (keys) => !keys.includes('NSE:INFY'));
    expect(await watched()).to.deep.equal(['NSE:SBIN', 'NSE:TCS']);

    // Asha stops watching TCS; Ravi still holds it.
    expect((await api.delete(`/api/holdings/${ashaTcs}`, asha.token)).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await watched()).to.deep.equal(['NSE:SBIN', 'NSE:TCS']);
  });
  it('stops without reaching the bus again: updates queued behind the running one are dropped, the running one awaited', async () => {
    const api = apiClient(app.url);
    const users = await Promise.all(Array.from({ length: 30 }, () => signIn(app)));
    for (const user of users) {
      const res = await api.post(
        '/api/holdings/manual',
        { symbol: 'ITC', exchange: 'NSE', quantity: 1, average_price: 400 },
        user.token,
      );
      expect(res.status, res.body.error).to.equal(201);
    }
    const { log, lines } = captureLog();
    const bus = createMemoryBus();
    const keeper = createWatchSetKeeper(app.runtime.deps.db, bus, log, { debounceMs: 0 });
    for (const user of users) keeper.userChanged(user.id);
    // The debounce timers fire: thirty updates queue up one behind the other.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await keeper.stop();
    await bus.close(); // what the server closes next
    keeper.userChanged(users[0]!.id); // a request still finishing
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lines.filter((l) => l.msg.startsWith('watch set')).map((l) => l.msg)).to.deep.equal([]);
  });
});
