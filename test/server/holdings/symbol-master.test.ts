/**
 * The listed universe: shipped with the app, refreshed by `symbols:sync` one part at a time, never
 * replaced by a file cut short, and searchable by BSE scrip code.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import {
  downloadHeaders,
  MASTER_FILE_URLS,
  readMasterFiles,
  syncInstrumentMaster,
  TruncatedMasterFile,
} from '../../../server/src/instruments/sync.ts';
import { appSuite } from '../../helpers/app.ts';
import { sharedPath } from '../../helpers/shared-data.ts';
import { signIn } from '../../helpers/users.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = sharedPath('data/');

type Stats = { total: number; nse: number; bse: number; etfs: number; renames: number };
type Result = { symbol: string; exchange: string };

/** The first `rows` data lines of NSE's equity list, as a file cut short in transit would be. */
async function truncatedEquityList(rows: number) {
  const files = await readMasterFiles(dataDir, await readdir(dataDir));
  const lines = files.nseEquity!.text.split('\n');
  return { name: 'EQUITY_L.csv', text: lines.slice(0, rows + 1).join('\n') };
}

describe('symbol master: the shipped snapshot, safe syncs and BSE scrip codes', function () {
  this.timeout(60_000);
  const { app, api } = appSuite({ env: { DATABASE_URL: undefined } });
  let token: string;
  const stats = async () => (await api.get<Stats>('/api/symbols/stats', token)).body.data!;
  before(async () => {
    token = (await signIn(app)).token;
  });

  it('knows every listed NSE stock on a fresh install, before any sync', async () => {
    const fresh = await stats();
    expect(fresh.nse).to.be.greaterThan(2384);
    expect(fresh.etfs).to.be.greaterThan(100);
    const federal = await api.get<Result[]>('/api/symbols/search?query=FEDERALBNK', token);
    expect(federal.body.data![0]).to.deep.include({ symbol: 'FEDERALBNK', exchange: 'NSE' });
  });

  it('refuses a file with fewer than half the stored rows, and changes nothing', async () => {
    const before = await stats();
    let refused: unknown;
    await syncInstrumentMaster(app.runtime.deps.db, {
      files: { nseEquity: await truncatedEquityList(5) },
    }).catch((err: unknown) => (refused = err));
    expect(refused).to.be.instanceOf(TruncatedMasterFile);
    expect((refused as Error).message).to.equal(
      'EQUITY_L.csv has 5 rows, fewer than half of the 2,384 stored: it looks cut short, so nothing was changed.',
    );
    await app.runtime.deps.instruments.reload();
    expect(await stats()).to.deep.equal(before);
  });

  it('replaces only the parts a sync is given files for', async () => {
    const before = await stats();
    const files = await readMasterFiles(dataDir, await readdir(dataDir));
    const result = await syncInstrumentMaster(app.runtime.deps.db, { files: { nseEtf: files.nseEtf! } });
    expect(Object.keys(result.byFile)).to.deep.equal(['nseEtf']);
    await app.runtime.deps.instruments.reload();
    const after = await stats();
    expect(after.nse).to.equal(before.nse);
    expect(after.bse).to.equal(before.bse);
    expect(after.etfs).to.equal(result.byFile.nseEtf);
  });

  it('finds and imports a stock by its BSE scrip code', async () => {
    const search = await api.get<Result[]>('/api/symbols/search?query=500325', token);
    expect(search.body.data![0]).to.deep.include({ symbol: 'RELIANCE', exchange: 'BSE' });
    const user = await signIn(app);
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\n500325,3,1400' },
      user.token,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const [holding] = (await api.get<Result[]>('/api/holdings', user.token)).body.data!;
    expect(holding).to.deep.include({ symbol: 'RELIANCE', exchange: 'BSE' });
  });

  it('gives the Yahoo ticker the provider polls in the details of each kind of instrument', async () => {
    const yahoo = async (exchange: string, symbol: string) =>
      (await api.get<{ yahoo_symbol: string }>(`/api/symbols/details/${exchange}/${symbol}`, token)).body
        .data!.yahoo_symbol;
    expect(await yahoo('NSE', 'TCS')).to.equal('TCS.NS');
    const [sme] = (await api.get<Result[]>('/api/symbols/search?query=SIMCA', token)).body.data!;
    expect(sme).to.deep.include({ symbol: 'SIMCA', exchange: 'NSE' });
    expect(await yahoo('NSE', 'SIMCA')).to.equal('SIMCA-SM.NS');
    expect(await yahoo('BSE', 'RELIANCE')).to.equal('500325.BO');
    expect(await yahoo('BSE', '500325')).to.equal('500325.BO');
  });

  it('downloads the Emerge list from its own path, and asks BSE as its pages do', () => {
    expect(MASTER_FILE_URLS.nseSme).to.equal(
      'https://nsearchives.nseindia.com/emerge/corporates/content/SME_EQUITY_L.csv',
    );
    expect(downloadHeaders('bseScrips')).to.include({ Referer: 'https://www.bseindia.com/' });
    expect(downloadHeaders('nseEquity')).to.not.have.property('Referer');
  });
});

describe('npm run symbols:sync refusing a file cut short', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'symbols-sync-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('exits 1 naming the file and both counts', async () => {
    const truncated = await truncatedEquityList(5);
    await writeFile(path.join(dir, 'EQUITY_L.csv'), truncated.text);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/src/instruments/sync-cli.ts', '--from', dir],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATA_DIR: path.join(dir, 'db') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).to.equal(1);
    expect(stderr).to.include(
      'symbols:sync: EQUITY_L.csv has 5 rows, fewer than half of the 2,384 stored: it looks cut short, so nothing was changed.',
    );
  });
});
