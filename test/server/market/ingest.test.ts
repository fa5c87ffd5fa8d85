import type { Quote, TickBatch } from '@app/common/market/tick-batch';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../server/src/db/client.ts';
import { istDayStart } from '../../../server/src/market/ingest.ts';
import { ingestTickBatch } from '../../helpers/ingest.ts';
import { appSuite } from '../../helpers/app.ts';

describe('market: storing tick batches', () => {
  const { app } = appSuite({ embeddedStreamer: false });

  const tag = () => `T${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  const quote = (symbol: string, ltp: number, asOf: number, extra: Partial<Quote> = {}): Quote => ({
    symbol,
    exchange: 'NSE',
    ltp,
    prevClose: 100,
    change: ltp - 100,
    changePercent: ltp - 100,
    asOf,
    delayMinutes: 0,
    ...extra,
  });
  const batch = (quotes: Quote[]): TickBatch => ({ v: 1, id: tag(), at: Date.now(), source: 'test', quotes });
  const stored = (symbols: string[]) =>
    queryRows<{
      symbol: string;
      ltp: string;
      prev_close: string | null;
      change: string | null;
      stale: boolean;
      as_of: string;
    }>(
      app.runtime.deps.db,
      sql`select symbol, ltp::text, prev_close::text, change::text, stale,
            to_char(as_of at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as as_of
          from quotes where symbol in (select unnest(string_to_array(${symbols.join('\t')}, E'\\t'))) order by symbol`,
    );

  it('stores every quote of a batch, whatever characters its symbol has, with nulls and stale flags', async () => {
    const t = tag();
    const odd = [`${t}-A`, `${t}"Q`, `${t}\\B`, `${t},C`, `${t}{D}`, `${t} E`, `${t}&M`];
    const at = Date.UTC(2026, 0, 5, 4, 0, 0, 123);
    await ingestTickBatch(
      app.runtime.deps.db,
      batch([
        ...odd.map((s, i) => quote(s, 100.25 + i, at)),
        quote(`${t}NULLS`, 55.5, at, { prevClose: null, change: null, changePercent: null, stale: true }),
      ]),
    );
    const rows = await stored([...odd, `${t}NULLS`]);
    expect(rows.map((r) => r.symbol).sort()).to.deep.equal([...odd, `${t}NULLS`].sort());
    const bySymbol = new Map(rows.map((r) => [r.symbol, r]));
    odd.forEach((s, i) =>
      expect(bySymbol.get(s)).to.deep.include({
        ltp: (100.25 + i).toFixed(4),
        stale: false,
        as_of: '2026-01-05T04:00:00.123Z',
      }),
    );
    expect(bySymbol.get(`${t}NULLS`)).to.deep.include({
      ltp: '55.5000',
      prev_close: null,
      change: null,
      stale: true,
    });
  });

  it('never replaces a quote with an older one', async () => {
    const s = tag();
    const t0 = Date.UTC(2026, 0, 5, 4, 0, 10);
    await ingestTickBatch(app.runtime.deps.db, batch([quote(s, 110, t0)]));
    await ingestTickBatch(app.runtime.deps.db, batch([quote(s, 120, t0 - 5_000)]));
    expect((await stored([s]))[0]).to.deep.include({ ltp: '110.0000' });
  });

  it('keeps minute and day bars: open, high, low and close', async () => {
    const s = tag();
    const t0 = Date.UTC(2026, 0, 5, 4, 0, 10);
    const db = app.runtime.deps.db;
    for (const [i, ltp] of [110, 120, 95, 101].entries())
      await ingestTickBatch(db, batch([quote(s, ltp, t0 + i * 10_000)]));
    const bars = await queryRows<{
      interval: string;
      bucket: string;
      open: string;
      high: string;
      low: string;
      close: string;
    }>(
      db,
      sql`select interval, to_char(bucket at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as bucket,
            open::text, high::text, low::text, close::text
          from price_bars where symbol = ${s} order by interval desc`,
    );
    const ohlc = { open: '110.0000', high: '120.0000', low: '95.0000', close: '101.0000' };
    expect(bars).to.deep.equal([
      { interval: '1m', bucket: '2026-01-05T04:00:00Z', ...ohlc },
      { interval: '1d', bucket: istDayStart(t0).toISOString().replace('.000', ''), ...ohlc },
    ]);
  });

  it('stores a batch that names an instrument twice: the last quote wins, the other exchange is kept', async () => {
    const s = tag();
    const at = Date.UTC(2026, 0, 6, 4, 0, 0);
    const db = app.runtime.deps.db;
    await ingestTickBatch(
      db,
      batch([quote(s, 101, at), quote(s, 102, at, { exchange: 'BSE' }), quote(s, 103, at + 1)]),
    );
    const rows = await queryRows<{ exchange: string; ltp: string }>(
      db,
      sql`select exchange, ltp::text from quotes where symbol = ${s} order by exchange`,
    );
    expect(rows).to.deep.equal([
      { exchange: 'BSE', ltp: '102.0000' },
      { exchange: 'NSE', ltp: '103.0000' },
    ]);
    const bars = await queryRows<{ interval: string; close: string }>(
      db,
      sql`select interval, close::text from price_bars where symbol = ${s} and exchange = 'NSE' order by interval`,
    );
    expect(bars).to.deep.equal([
      { interval: '1d', close: '103.0000' },
      { interval: '1m', close: '103.0000' },
    ]);

    // Through the server's pipeline, as a streamer would publish it.
    const t = tag();
    await app.runtime.bus.publishBatch(batch([quote(t, 50, at), quote(t, 51, at)]));
    await new Promise((resolve) => setImmediate(resolve));
    await app.runtime.pipeline.idle();
    expect((await stored([t])).map((r) => r.ltp)).to.deep.equal(['51.0000']);
  });
});
