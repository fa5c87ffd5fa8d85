import { readdir } from 'node:fs/promises';
import { STARTER_INSTRUMENTS } from '@app/common/instruments/starter';
import { expect } from 'chai';
import { readMasterFiles, syncInstrumentMaster } from '../../../server/src/instruments/sync.ts';
import { appSuite, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { readShared, sharedPath } from '../../helpers/shared-data.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const dataDir = sharedPath('data/');
const growwStatement = readShared('fixtures/brokers/groww_stocks_holdings_statement_layout.csv');

/** ICICI Direct's layout (fixtures/brokers/README.md): ICICI's own stock codes, a trailing comma. */
const iciciDirect = [
  'Stock Symbol,Company Name,ISIN Code,Qty,Average Cost Price,Current Market Price,Value At Cost,Value At Market Price,',
  'RELIND,RELIANCE INDUSTRIES LTD,INE002A01018,10,"1,245.60",1480.20,12456.00,14802.00,',
  'HDFBAN,HDFC BANK LTD,INE040A01034,25,980.10,1012.00,24502.50,25300.00,',
  'TATMOT,TATA MOTORS PASSENGER VEHICLES LTD,INE155A01022,40,493.86,397.80,19754.40,15912.00,',
  'Total,,,,,,56712.90,56014.00,',
].join('\r\n');

interface Holding {
  symbol: string;
  exchange: string;
  isin: string | null;
  quantity: number;
  average_price: number;
  broker_name: string;
}
type Stats = { total: number; renames: number };

const holdingsOf = async (app: TestApp, user: SignedInUser) =>
  (await apiClient(app.url).get<Holding[]>('/api/holdings', user.token)).body.data!.map((h) => [
    h.symbol,
    h.exchange,
    h.quantity,
    h.average_price,
  ]);

describe('holdings import by ISIN, and renames, on a fresh install (the shipped snapshot)', () => {
  const { app, api } = appSuite({ env: { DATABASE_URL: undefined } });

  it("imports an ICICI Direct CSV by ISIN, not by ICICI's stock codes", async () => {
    const user = await signIn(app);
    const res = await api.post('/api/holdings/upload-csv', { csvData: iciciDirect }, user.token);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(await holdingsOf(app, user)).to.deep.equal([
      ['HDFCBANK', 'NSE', 25, 980.1],
      ['RELIANCE', 'NSE', 10, 1245.6],
      ['TMPV', 'NSE', 40, 493.86],
    ]);
    const [holding] = (await api.get<Holding[]>('/api/holdings', user.token)).body.data!;
    expect(holding).to.include({ isin: 'INE040A01034', broker_name: 'ICICI Direct' });
  });

  it('stores a manual ZOMATO as ETERNAL, and validate resolves ZOMATO and TATAMOTORS', async () => {
    const stats = await api.get<Stats>('/api/symbols/stats', (await signIn(app)).token);
    // The shipped snapshot (every NSE equity, SME and ETF line, BSE scrips) plus the starter list.
    expect(stats.body.data!.total).to.be.greaterThan(2384 + STARTER_INSTRUMENTS.length / 2);
    expect(stats.body.data!.renames).to.be.greaterThan(1000);

    const user = await signIn(app);
    const added = await api.post(
      '/api/holdings/manual',
      { symbol: 'zomato', exchange: 'NSE', quantity: 20, average_price: 180 },
      user.token,
    );
    expect(added.status, added.body.error).to.equal(201);
    expect(added.body.data).to.include({ symbol: 'ETERNAL', exchange: 'NSE' });
    expect(await holdingsOf(app, user)).to.deep.equal([['ETERNAL', 'NSE', 20, 180]]);

    const zomato = await api.post('/api/symbols/validate', { symbol: 'ZOMATO' }, user.token);
    expect(zomato.body.data).to.deep.include({
      valid: true,
      symbol: 'ETERNAL',
      exchange: 'NSE',
      renamed_from: 'ZOMATO',
    });
    const tata = await api.post('/api/symbols/validate', { symbol: 'TATAMOTORS' }, user.token);
    expect(tata.body.data).to.deep.include({ valid: true, symbol: 'TMPV', renamed_from: 'TATAMOTORS' });
    // TELCO → TATAMOTORS → TMPV: a chain resolves to the current symbol.
    const telco = await api.post('/api/symbols/validate', { symbol: 'TELCO' }, user.token);
    expect(telco.body.data).to.deep.include({ valid: true, symbol: 'TMPV' });
  });
});

describe('a symbol sync reaches a running server', () => {
  const { app, api } = appSuite({ env: { DATABASE_URL: undefined }, instrumentRefreshMs: 100 });

  /** Asks the server until `check` holds, the way a user would retry. */
  async function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await ask();
      if (check(value)) return value;
      if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('imports a Groww statement by ISIN on a fresh install: the shipped snapshot lists the Tata Gold ETF', async () => {
    const user = await signIn(app);
    const res = await api.post('/api/holdings/upload-csv', { csvData: growwStatement }, user.token);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(await holdingsOf(app, user)).to.deep.equal([
      ['HDFCBANK', 'NSE', 4, 1003],
      ['TATAGOLD', 'NSE', 200, 16],
      ['TMPV', 'NSE', 40, 493.86],
    ]);
    const list = (await api.get<Holding[]>('/api/holdings', user.token)).body.data!;
    expect(list.map((h) => h.broker_name)).to.deep.equal(['Groww', 'Groww', 'Groww']);
  });

  it('picks up a sync written to its database by another process: a newly listed stock resolves', async () => {
    const user = await signIn(app);
    const newListing = 'Symbol,Quantity,Buy Price\nZZNEWLISTING,5,100';
    const before = await api.post(
      '/api/holdings/upload-csv',
      { csvData: newListing, dry_run: true },
      user.token,
    );
    const row = (before.body.data as { preview: { rows: { known: boolean }[] } }).preview.rows[0]!;
    expect(row.known).to.equal(false);

    // What `npm run symbols:sync -- --from DIR` does with a newer EQUITY_L that lists one more stock.
    const files = await readMasterFiles(dataDir, await readdir(dataDir));
    const equity = files.nseEquity!;
    const listed = `${equity.text.trimEnd()}\nZZNEWLISTING,ZZ New Listing Limited,EQ,24-NOV-2026,10,1,INE000Z01010,10\n`;
    const result = await syncInstrumentMaster(app.runtime.deps.db, {
      files: { nseEquity: { ...equity, text: listed } },
    });
    expect(result.byFile.nseEquity).to.equal(2385);
    const stats = await eventually(
      async () => (await api.get<Stats>('/api/symbols/stats', user.token)).body.data!,
      (s) => s.total === result.instruments,
    );
    expect(stats.renames).to.be.greaterThan(1000);
    const after = await api.post(
      '/api/holdings/upload-csv',
      { csvData: newListing, dry_run: true },
      user.token,
    );
    const known = (after.body.data as { preview: { rows: { known: boolean; company_name: string }[] } })
      .preview.rows[0]!;
    expect(known).to.include({ known: true, company_name: 'ZZ New Listing Limited' });
  });
});
