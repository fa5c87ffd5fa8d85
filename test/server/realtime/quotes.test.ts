import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { collectQuotes, connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { signIn } from '../../helpers/users.ts';

describe('live quotes over Socket.IO (embedded simulated market)', () => {
  const { app } = appSuite({ env: { QUOTE_INTERVAL_MS: '200', APP_URL: 'http://app.example.test' } });

  it('sends each user only their own instruments, and lists the latest quote through the API', async () => {
    const api = apiClient(app.url);
    const asha = await signIn(app);
    const ravi = await signIn(app);
    await api.post(
      '/api/holdings/manual',
      { symbol: 'RELIANCE', exchange: 'NSE', quantity: 1, average_price: 1000 },
      asha.token,
    );
    await api.post(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity: 1, average_price: 1000 },
      asha.token,
    );
    await api.post(
      '/api/holdings/manual',
      { symbol: 'INFY', exchange: 'NSE', quantity: 1, average_price: 1000 },
      ravi.token,
    );
    const a = connectSocket(app.url, asha.token);
    const r = connectSocket(app.url, ravi.token);
    try {
      await Promise.all([connected(a), connected(r)]);
      const [aMsgs, rMsgs] = await Promise.all([
        collectQuotes(a, (all) => all.filter((m) => m.quotes.length === 2).length >= 2),
        collectQuotes(r, (all) => all.length >= 2),
      ]);
      const aSymbols = new Set(aMsgs.flatMap((m) => m.quotes.map((q) => q.symbol)));
      expect([...aSymbols].sort()).to.deep.equal(['RELIANCE', 'TCS']);
      expect(new Set(rMsgs.flatMap((m) => m.quotes.map((q) => q.symbol)))).to.deep.equal(new Set(['INFY']));
      for (const m of aMsgs) expect(m.at).to.be.a('number');
      const ats = aMsgs.map((m) => m.at);
      expect(ats).to.deep.equal([...ats].sort((x, y) => x - y));
      await app.runtime.pipeline.idle();
      const holdings = await api.get<{ symbol: string; current_price: number | null }[]>(
        '/api/holdings',
        asha.token,
      );
      expect(holdings.body.data!.every((h) => typeof h.current_price === 'number')).to.equal(true);
      const chart = await api.get<{ interval: string; bars: { t: number; close: number }[] }>(
        '/api/market/chart/NSE/RELIANCE',
        asha.token,
      );
      expect(chart.body.data?.interval).to.equal('1m');
      expect(chart.body.data?.bars.length).to.be.greaterThan(0);
      expect(chart.body.data?.bars[0]!.close).to.be.a('number');
    } finally {
      a.close();
      r.close();
    }
  });

  it('delivers each quote of a batch exactly as published (nulls, negatives, symbols with & and -, delay, stale, unavailable)', async () => {
    const api = apiClient(app.url);
    const user = await signIn(app);
    for (const symbol of ['M&M', 'BAJAJ-AUTO'])
      await api.post(
        '/api/holdings/manual',
        { symbol, exchange: 'NSE', quantity: 1, average_price: 100 },
        user.token,
      );
    const socket = connectSocket(app.url, user.token);
    try {
      await connected(socket);
      // The first simulated batch shows the server has loaded the user's instruments.
      await collectQuotes(socket, (all) => all.length >= 1);
      const at = Date.now() + 1;
      const quotes = [
        {
          symbol: 'M&M',
          exchange: 'NSE' as const,
          ltp: 3012.45,
          prevClose: null,
          change: null,
          changePercent: null,
          asOf: at - 500,
          delayMinutes: 0,
        },
        {
          symbol: 'BAJAJ-AUTO',
          exchange: 'NSE' as const,
          ltp: 8790.1,
          prevClose: 8800,
          change: -9.9,
          changePercent: -0.11,
          asOf: at - 400,
          delayMinutes: 15,
          stale: true as const,
          unavailable: true as const,
        },
      ];
      const received = collectQuotes(socket, (all) => all.some((m) => m.at === at));
      await app.runtime.bus.publishBatch({ v: 1, id: `wire-${at}`, at, source: 'test', quotes });
      const message = (await received).find((m) => m.at === at)!;
      const bySymbol = (a: { symbol: string }, b: { symbol: string }) => a.symbol.localeCompare(b.symbol);
      expect(message.at).to.equal(at);
      expect([...message.quotes].sort(bySymbol)).to.deep.equal([...quotes].sort(bySymbol));
    } finally {
      socket.close();
    }
  });

  it('refuses a socket without a valid token, and one from a foreign origin', async () => {
    const user = await signIn(app);
    for (const token of [undefined, 'not-a-jwt', `${user.token}x`]) {
      const s = connectSocket(app.url, token);
      const err = await connected(s).then(
        () => undefined,
        (e: Error) => e,
      );
      s.close();
      expect(err?.message).to.equal('unauthorized');
    }
    const foreign = connectSocket(app.url, user.token, { origin: 'http://evil.example' });
    const err = await connected(foreign).then(
      () => undefined,
      (e: Error) => e,
    );
    foreign.close();
    expect(err, 'foreign origin must be refused').to.be.instanceOf(Error);
    const own = connectSocket(app.url, user.token, { origin: 'http://app.example.test' });
    await connected(own);
    own.close();
  });

  it('disconnects sockets when the user signs out everywhere', async () => {
    const user = await signIn(app);
    const s = connectSocket(app.url, user.token);
    await connected(s);
    const gone = new Promise<string>((resolve) => s.once('disconnect', (reason) => resolve(reason)));
    await apiClient(app.url).post('/api/auth/logout-all', {}, user.token);
    expect(await gone).to.equal('io server disconnect');
    s.close();
  });

  it("pushes holdings:changed and rules:changed to every socket of the user, and to no one else's", async () => {
    const api = apiClient(app.url);
    const asha = await signIn(app);
    const ravi = await signIn(app);
    const tabs = [connectSocket(app.url, asha.token), connectSocket(app.url, asha.token)];
    const other = connectSocket(app.url, ravi.token);
    const seen = new Map<TestSocket, string[]>();
    const waiters = new Set<() => void>();
    for (const s of [...tabs, other]) {
      seen.set(s, []);
      s.onAny((event: string) => {
        if (event !== 'holdings:changed' && event !== 'rules:changed') return;
        seen.get(s)!.push(event);
        for (const wake of waiters) wake();
      });
    }
    /** Resolves once `s` has seen `count` change pushes. */
    const received = (s: TestSocket, count: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`saw only ${seen.get(s)!.join(', ')}`)), 10_000);
        const check = () => {
          if (seen.get(s)!.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    try {
      await Promise.all([...tabs, other].map(connected));
      const added = await api.post(
        '/api/holdings/manual',
        { symbol: 'TCS', exchange: 'NSE', quantity: 4, average_price: 3000 },
        asha.token,
      );
      expect(added.status).to.equal(201);
      const rule = await api.post(
        '/api/position-rules',
        { symbol: 'TCS', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5, reference: 'buy_price' },
        asha.token,
      );
      expect(rule.status, rule.body.error).to.equal(201);
      await Promise.all(tabs.map((s) => received(s, 2)));
      for (const s of tabs) expect(seen.get(s)).to.deep.equal(['holdings:changed', 'rules:changed']);

      // Pushes reach one socket in order: when Ravi's own change arrives, nothing of Asha's came first.
      await api.post(
        '/api/holdings/manual',
        { symbol: 'INFY', exchange: 'NSE', quantity: 1, average_price: 1500 },
        ravi.token,
      );
      await received(other, 1);
      expect(seen.get(other)).to.deep.equal(['holdings:changed']);
    } finally {
      for (const s of [...tabs, other]) s.close();
    }
  });
});
