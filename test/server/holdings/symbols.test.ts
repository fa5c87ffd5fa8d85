import { readdir } from 'node:fs/promises';
import { expect } from 'chai';
import { readMasterFiles, syncInstrumentMaster } from '../../../server/src/instruments/sync.ts';
import { appSuite } from '../../helpers/app.ts';
import { sharedPath } from '../../helpers/shared-data.ts';
import { signIn } from '../../helpers/users.ts';

const dataDir = sharedPath('data/');
type Result = { symbol: string; company_name: string; exchange: string };

describe('symbol master and search', () => {
  const { app, api } = appSuite({ env: { DATABASE_URL: undefined } });
  let token: string;
  before(async () => {
    token = (await signIn(app)).token;
  });

  it('answers from the starter list on a fresh database', async () => {
    const res = await api.get<Result[]>('/api/symbols/search?query=reli&limit=5', token);
    expect(res.status).to.equal(200);
    expect(res.body.data![0]).to.deep.include({ symbol: 'RELIANCE', exchange: 'NSE' });
  });

  it("syncs the exchanges' files, then ranks RELIANCE first and finds HDFCBANK by ISIN", async () => {
    const files = await readMasterFiles(dataDir, await readdir(dataDir));
    const result = await syncInstrumentMaster(app.runtime.deps.db, { files });
    expect(result.byFile.nseEquity).to.equal(2384);
    await app.runtime.deps.instruments.reload();

    const reli = await api.get<Result[]>('/api/symbols/search?query=reli', token);
    expect(reli.body.data![0]!.symbol).to.equal('RELIANCE');
    expect(reli.body.data).to.have.length.at.most(5);
    const isin = await api.get<Result[]>('/api/symbols/search?query=INE040A01034', token);
    expect(isin.body.data![0]).to.deep.include({ symbol: 'HDFCBANK', exchange: 'NSE' });
    const bse = await api.get<Result[]>('/api/symbols/search?query=ABB&exchange=BSE', token);
    expect(bse.body.data!.every((r) => r.exchange === 'BSE')).to.equal(true);

    const stats = await api.get<{ total: number; renames: number }>('/api/symbols/stats', token);
    expect(stats.body.data!.total).to.be.greaterThan(2384);
    const zomato = await api.post<{ valid: boolean; symbol: string }>(
      '/api/symbols/validate',
      { symbol: 'ZOMATO' },
      token,
    );
    expect(zomato.body.data).to.deep.include({ valid: true, symbol: 'ETERNAL' });
    const tata = await api.post<{ symbol: string }>('/api/symbols/validate', { symbol: 'TATAMOTORS' }, token);
    expect(tata.body.data!.symbol).to.equal('TMPV');
  });

  it('gives details of one instrument, 404 for an unknown one', async () => {
    const res = await api.get<{ company_name: string; isin: string }>('/api/symbols/details/NSE/TCS', token);
    expect(res.status).to.equal(200);
    expect(res.body.data!.company_name).to.match(/Tata Consultancy/i);
    expect((await api.get('/api/symbols/details/NSE/NOPE123', token)).status).to.equal(404);
  });
});
