import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { readShared } from '../../helpers/shared-data.ts';
import { signIn } from '../../helpers/users.ts';

const fixture = (name: string) => readShared(`fixtures/brokers/${name}`);

interface Holding {
  id: string;
  symbol: string;
  exchange: string;
  quantity: number;
  average_price: number;
  broker_name: string;
  broker_type: string;
  account_label: string;
  broker_account_id: string;
}

describe('holdings import (POST /api/holdings/upload-csv)', () => {
  const { app, api } = appSuite();

  it('imports a Zerodha Kite export into one Zerodha account', async () => {
    const user = await signIn(app);
    const res = await api.post<{ summary: { created: number; account_name: string } }>(
      '/api/holdings/upload-csv',
      { csvData: fixture('zerodha_kite_holdings.csv') },
      user.token,
    );
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data?.summary.created).to.equal(5);
    const list = await api.get<Holding[]>('/api/holdings', user.token);
    const bySymbol = Object.fromEntries(list.body.data!.map((h) => [h.symbol, h]));
    expect(Object.keys(bySymbol).sort()).to.deep.equal(['BAJAJ-AUTO', 'IDEA', 'M&M', 'NIFTYBEES', 'SBIN']);
    expect(bySymbol.NIFTYBEES).to.include({
      quantity: 600,
      average_price: 266.6,
      exchange: 'NSE',
      broker_name: 'Zerodha',
    });
    expect(bySymbol.IDEA).to.include({ quantity: 100, average_price: 7.41 });
    expect(new Set(list.body.data!.map((h) => h.broker_account_id)).size).to.equal(1);
  });

  it('resolves a Dhan export that carries only company names', async () => {
    const user = await signIn(app);
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData: fixture('dhan_holdings.csv') },
      user.token,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const list = await api.get<Holding[]>('/api/holdings', user.token);
    const symbols = list.body.data!.map((h) => `${h.symbol}:${h.quantity}:${h.average_price}`).sort();
    expect(symbols).to.deep.equal(['COALINDIA:1350:475.88', 'HDFCBANK:130:831.89', 'ONGC:225:234.07']);
  });

  it('refuses a file of 200,000 rows with a sentence, counting its lines before reading any row', async () => {
    const user = await signIn(app);
    const csvData = `Symbol,Quantity,Buy Price\n${'ITC,1,1\n'.repeat(200_000)}`;
    const res = await api.post('/api/holdings/upload-csv', { csvData, dry_run: true }, user.token);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal(
      'Too many holdings: a file can hold at most 1000 rows (this one has 2,00,001 lines).',
    );
  });

  it('previews without storing, naming the detected broker', async () => {
    const user = await signIn(app);
    const res = await api.post<{ stored: boolean; preview: { broker_label: string; rows: unknown[] } }>(
      '/api/holdings/upload-csv',
      { csvData: fixture('zerodha_kite_holdings.csv'), dry_run: true },
      user.token,
    );
    expect(res.status).to.equal(200);
    expect(res.body.data?.stored).to.equal(false);
    expect(res.body.data?.preview.broker_label).to.equal('Zerodha (Kite)');
    expect(res.body.data?.preview.rows).to.have.length(5);
    const list = await api.get<Holding[]>('/api/holdings', user.token);
    expect(list.body.data).to.deep.equal([]);
  });

  it('updates quantities when the same account is uploaded again, and drops sold holdings', async () => {
    const user = await signIn(app);
    const first = 'Symbol,Quantity,Buy Price\nTCS,10,3500\nINFY,5,1500\n';
    const second = 'Symbol,Quantity,Buy Price\nTCS,12,3400\n';
    const body = (csvData: string) => ({ csvData, broker_name: 'Zerodha · AB1234' });
    expect((await api.post('/api/holdings/upload-csv', body(first), user.token)).status).to.equal(201);
    // INFY would go: the upload says so and waits for the removal to be confirmed.
    const unconfirmed = await api.post('/api/holdings/upload-csv', body(second), user.token);
    expect(unconfirmed.status).to.equal(409);
    expect(unconfirmed.body.error).to.equal(
      'This upload would remove 1 holding from Zerodha · AB1234 (INFY) that the file no longer lists. Preview the upload and confirm the removals to go ahead.',
    );
    expect((await api.get<Holding[]>('/api/holdings', user.token)).body.data).to.have.length(2);
    const res = await api.post<{ summary: { created: number; updated: number; removed: number } }>(
      '/api/holdings/upload-csv',
      { ...body(second), confirm_removals: 1 },
      user.token,
    );
    expect(res.body.data?.summary).to.include({ created: 0, updated: 1, removed: 1 });
    const list = await api.get<Holding[]>('/api/holdings', user.token);
    expect(list.body.data).to.have.length(1);
    expect(list.body.data![0]).to.include({
      symbol: 'TCS',
      quantity: 12,
      average_price: 3400,
      account_label: 'AB1234',
    });
  });

  it('suggests the listed symbols a typo away from a symbol no exchange lists (RELIANSE)', async () => {
    const user = await signIn(app);
    const res = await api.post<{
      preview: {
        rows: { symbol: string; known: boolean; suggestions: { symbol: string; exchange: string }[] }[];
      };
    }>(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nRELIANSE,10,2500\nTCS,5,3500\n', dry_run: true },
      user.token,
    );
    expect(res.status, res.body.error).to.equal(200);
    const [typo, tcs] = res.body.data!.preview.rows;
    expect(typo).to.include({ symbol: 'RELIANSE', known: false });
    expect(typo!.suggestions[0]).to.include({ symbol: 'RELIANCE', exchange: 'NSE' });
    expect(tcs!.suggestions).to.deep.equal([]);
  });

  it('refuses a file with any bad row and stores nothing', async () => {
    const user = await signIn(app);
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nTCS,10,3500\nINFY,-5,1500\n' },
      user.token,
    );
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('CSV validation failed. Please fix the errors below.');
    expect(res.body.details).to.deep.equal(['Row 2 (INFY): Invalid quantity - must be a positive number']);
    expect((await api.get<Holding[]>('/api/holdings', user.token)).body.data).to.deep.equal([]);
  });

  it('refuses a fraction of a share in a file and in manual entry, with a sentence', async () => {
    const user = await signIn(app);
    const upload = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nTCS,12.5,3500\nINFY,10,1500\n' },
      user.token,
    );
    expect(upload.status).to.equal(400);
    expect(upload.body.details).to.deep.equal([
      'Row 1 (TCS): Invalid quantity - must be a whole number of shares',
    ]);
    const manual = await api.post(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity: 12.5, average_price: 3500 },
      user.token,
    );
    expect(manual.status).to.equal(400);
    expect(manual.body.error).to.equal('Quantity must be a whole number of shares');
    expect((await api.get<Holding[]>('/api/holdings', user.token)).body.data).to.deep.equal([]);
  });

  it('rejects 1001 rows with nothing stored', async () => {
    const user = await signIn(app);
    const rows = Array.from({ length: 1001 }, (_, i) => `SYM${i},1,100`).join('\n');
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData: `Symbol,Quantity,Buy Price\n${rows}` },
      user.token,
    );
    expect(res.status).to.equal(400);
    expect(res.body.error).to.match(/at most 1000 rows/);
    expect((await api.get<Holding[]>('/api/holdings', user.token)).body.data).to.deep.equal([]);
  });

  it('answers the documented messages for empty data and missing columns', async () => {
    const user = await signIn(app);
    const empty = await api.post('/api/holdings/upload-csv', { csvData: '  ' }, user.token);
    expect(empty.body.error).to.equal('Please provide CSV data');
    const missing = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Price\nTCS,10\n' },
      user.token,
    );
    expect(missing.status).to.equal(400);
    expect(missing.body.error).to.equal('Missing required column: Quantity/Qty');
  });

  it('asks for the symbol when a name cannot be resolved, and imports once it is chosen', async () => {
    const user = await signIn(app);
    const csv = '"Name","Quantity","Avg Price"\n"Some Unknown Widgets",10,"100.00"\n';
    const res = await api.post('/api/holdings/upload-csv', { csvData: csv }, user.token);
    expect(res.status).to.equal(400);
    expect(res.body.details?.[0]).to.match(/^Row 1 \(Some Unknown Widgets\): Could not find this stock/);
    const fixed = await api.post(
      '/api/holdings/upload-csv',
      { csvData: csv, overrides: [{ line: 1, symbol: 'itc', exchange: 'NSE' }] },
      user.token,
    );
    expect(fixed.status).to.equal(201);
    const list = await api.get<Holding[]>('/api/holdings', user.token);
    expect(list.body.data!.map((h) => h.symbol)).to.deep.equal(['ITC']);
  });
});
