/**
 * No user's data can stop the market for everyone: one symbol rule on every path into the watch
 * set, made-up symbols stored but never polled, and a bystander's prices flowing while another
 * user uploads junk.
 */
import { expect } from 'chai';
import { loadWatchedInstruments } from '../../../server/src/market/watch-set.ts';
import { appSuite } from '../../helpers/app.ts';
import { collectQuotes, connectSocket, connected } from '../../helpers/sockets.ts';
import { signIn } from '../../helpers/users.ts';

const LONG_SYMBOL = 'A'.repeat(41);

/** A generic CSV of made-up but well-formed symbols, `count` rows, tagged so each file differs. */
function madeUpFile(tag: string, count: number): string {
  const rows = Array.from({ length: count }, (_, i) => `ZZ${tag}${i},1,10`);
  return ['Symbol,Quantity,Buy Price', ...rows].join('\n');
}

describe('feed defence: the symbol rule and the watch set', function () {
  this.timeout(60_000);
  const { app, api } = appSuite();

  it('refuses a 41-character symbol in an upload, and stores nothing', async () => {
    const user = await signIn(app);
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData: `Symbol,Quantity,Buy Price\n${LONG_SYMBOL},1,10` },
      user.token,
    );
    expect(res.status).to.equal(400);
    expect(res.body.details).to.deep.equal([
      `Row 1 (${LONG_SYMBOL}): Could not find this stock - choose its symbol with the search`,
    ]);
    expect((await api.get<unknown[]>('/api/holdings', user.token)).body.data).to.deep.equal([]);
  });

  it('holds manual entry, upload overrides, rules and price alerts to the same rule', async () => {
    const user = await signIn(app);
    const manual = await api.post(
      '/api/holdings/manual',
      { symbol: LONG_SYMBOL, exchange: 'NSE', quantity: 1, average_price: 10 },
      user.token,
    );
    expect(manual.status).to.equal(400);
    expect(manual.body.error).to.equal('Symbol can be at most 30 characters');

    const override = await api.post(
      '/api/holdings/upload-csv',
      {
        csvData: 'Company Name,ISIN,Quantity,Average Price\nNo Such Company Ltd,,1,10',
        overrides: [{ line: 1, symbol: 'BAD SYMBOL', exchange: 'NSE' }],
      },
      user.token,
    );
    expect(override.status).to.equal(400);
    expect(override.body.error).to.equal('Symbol can only contain letters, digits, &, -, . and _');

    const rule = await api.post(
      '/api/position-rules',
      {
        symbol: LONG_SYMBOL,
        exchange: 'NSE',
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_value: 5,
        value_type: 'PERCENT',
      },
      user.token,
    );
    expect(rule.status).to.equal(400);
    expect(rule.body.error).to.equal('Symbol can be at most 30 characters');

    const alert = await api.post(
      '/api/alerts',
      { symbol: 'ITC\u200b', exchange: 'NSE', direction: 'above', price: 500 },
      user.token,
    );
    expect(alert.status).to.equal(400);
    expect(alert.body.error).to.equal('Symbol can only contain letters, digits, &, -, . and _');
  });

  it('stores and shows a made-up symbol, but polls only the instruments the master lists', async () => {
    const user = await signIn(app);
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nZZNOTLISTED,5,10\nITC,10,400' },
      user.token,
    );
    expect(res.status, res.body.error).to.equal(201);
    const shown = (await api.get<{ symbol: string }[]>('/api/holdings', user.token)).body.data!;
    expect(shown.map((h) => h.symbol).sort()).to.deep.equal(['ITC', 'ZZNOTLISTED']);
    const watched = (await loadWatchedInstruments(app.runtime.deps.db)).map((i) => i.symbol);
    expect(watched).to.include('ITC');
    expect(watched).to.not.include('ZZNOTLISTED');
  });

  it("keeps a bystander's quotes flowing while another user uploads odd and made-up symbols", async () => {
    const bystander = await signIn(app);
    const added = await api.post(
      '/api/holdings/manual',
      { symbol: 'ITC', exchange: 'NSE', quantity: 10, average_price: 400 },
      bystander.token,
    );
    expect(added.status).to.equal(201);
    const socket = connectSocket(app.url, bystander.token);
    await connected(socket);
    try {
      const other = await signIn(app);
      // Five accounts of 1,000 made-up symbols (the most a user may keep), and a 41-letter one.
      for (const tag of ['A', 'B', 'C', 'D', 'E']) {
        const res = await api.post(
          '/api/holdings/upload-csv',
          { csvData: madeUpFile(tag, 1000), broker_name: `Junk ${tag}` },
          other.token,
        );
        expect(res.status, res.body.error).to.equal(201);
      }
      const junk = await api.post(
        '/api/holdings/upload-csv',
        { csvData: `Symbol,Quantity,Buy Price\n${LONG_SYMBOL},1,10` },
        other.token,
      );
      expect(junk.status).to.equal(400);
      // Three batches after the uploads, each with the bystander's ITC.
      const seen = await collectQuotes(
        socket,
        (all) => all.filter((m) => m.quotes.some((q) => q.symbol === 'ITC')).length >= 3,
        15_000,
      );
      expect(seen.length).to.be.at.least(3);
      const watched = await app.runtime.bus.getWatchSet();
      expect(watched.some((i) => i.symbol.startsWith('ZZ'))).to.equal(false);
    } finally {
      socket.disconnect();
    }
  });
});
