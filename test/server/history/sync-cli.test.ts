/**
 * `npm run bhavcopy:sync`, run as the real command (a child process) on a database of its own
 * (PostgreSQL when the run has one, else a PGlite folder): a folder of the real NSE and BSE
 * samples and a zipped UDiFF day loads in date order, each file saying how many bars; the same
 * day again rewrites it; a holiday's file and a file cut short change nothing and say why.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { openDatabase, queryRows } from '../../../server/src/db/client.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { createFreshDatabase } from '../../helpers/services.ts';
import { sharedDataPresent, sharedPath } from '../../helpers/shared-data.ts';
import {
  BSE_LEGACY_SAMPLE,
  FLAIR_ROW,
  NSE_LEGACY_SAMPLE,
  RELIANCE_ROW,
  udiffFile,
  udiffLine,
} from './support.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('npm run bhavcopy:sync', function () {
  this.timeout(120_000);
  let dir: string;
  let database: { url?: string; dataDir: string; drop(): Promise<void> };

  const sync = (...args: string[]): Promise<Run> => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent' };
    delete env.REDIS_URL;
    if (database.url) env.DATABASE_URL = database.url;
    else delete env.DATABASE_URL;
    env.DATA_DIR = database.dataDir;
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'server/src/history/sync-cli.ts', ...args],
        { cwd: process.cwd(), env },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
  };
  const rows = async <T>(query: ReturnType<typeof sql>) => {
    const handle = await openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    try {
      return await queryRows<T>(handle.db, query);
    } finally {
      await handle.close();
    }
  };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bhavcopy-'));
    const dataDir = path.join(dir, 'data');
    const base = testServices().databaseUrl;
    const fresh = base ? await createFreshDatabase(base) : undefined;
    database = { url: fresh?.url, dataDir, drop: async () => fresh?.drop() };
  });
  after(async () => {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads a folder oldest day first, one line per file; the same day again rewrites it', async () => {
    const folder = path.join(dir, 'files');
    await mkdir(folder);
    await copyFile(sharedPath(NSE_LEGACY_SAMPLE), path.join(folder, 'cm01APR2019bhav.csv'));
    await copyFile(sharedPath(BSE_LEGACY_SAMPLE), path.join(folder, 'EQ100719.CSV'));
    const udiff = 'BhavCopy_NSE_CM_0_0_0_20241015_F_0000.csv';
    const day = udiffFile([
      FLAIR_ROW,
      RELIANCE_ROW,
      udiffLine({
        date: '2024-10-15',
        id: '1',
        isin: 'INE000X00000',
        symbol: 'NOSUCHCO',
        series: 'EQ',
        ohlc: [1, 1, 1, 1],
        volume: 1,
      }),
    ]);
    await writeFile(path.join(folder, `${udiff}.zip`), zipSync({ [udiff]: strToU8(day) }));

    const first = await sync('--from', folder);
    expect(first.stderr).to.equal('');
    expect(first.code).to.equal(0);
    const lines = first.stdout.trim().split('\n');
    // NSE's 1 Apr 2019: its 1,760 equity rows, 1,448 of them instruments the shipped master lists today (some under a symbol renamed since).
    expect(lines[0]).to.match(
      sharedDataPresent
        ? /^cm01APR2019bhav\.csv: loaded 1,448 bars for 1 Apr 2019 \(312 rows for securities the master does not list\)$/
        : /^cm01APR2019bhav\.csv: loaded \d+ bars for 1 Apr 2019/,
    );
    expect(lines[1]).to.match(/^EQ100719\.CSV: loaded \d+ bars for 10 Jul 2019/);
    expect(lines[2]).to.equal(
      `${udiff}.zip: loaded 2 bars for 15 Oct 2024 (1 row for securities the master does not list)`,
    );
    expect(lines).to.have.length(3);

    const stored = await rows<{ key: string }>(
      sql`select exchange || ' ' || symbol || ' ' || date::text || ' ' || close::text || ' ' || volume || ' ' || source as key
          from daily_bars where (exchange, symbol) in (('NSE', '20MICRONS'), ('NSE', 'INFY'), ('BSE', 'ABB'), ('BSE', 'INFY'), ('NSE', 'FLAIR')) order by date, exchange, symbol`,
    );
    expect(stored.map((r) => r.key)).to.deep.equal([
      'NSE 20MICRONS 2019-04-01 40.1500 70139 cm01APR2019bhav.csv',
      'NSE INFY 2019-04-01 755.1000 6584982 cm01APR2019bhav.csv',
      'BSE ABB 2019-07-10 1514.0000 5276 EQ100719.CSV',
      'BSE INFY 2019-07-10 716.9000 230925 EQ100719.CSV',
      'NSE FLAIR 2024-10-15 295.9500 34968 BhavCopy_NSE_CM_0_0_0_20241015_F_0000.csv.zip',
    ]);

    // The same day, corrected: its bars are rewritten, none added.
    const corrected = path.join(dir, udiff);
    await writeFile(corrected, day.replace('295.95', '296.05'));
    const again = await sync('--from', corrected);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout.trim()).to.equal(
      `${udiff}: loaded 2 bars for 15 Oct 2024 (1 row for securities the master does not list)`,
    );
    const flair = await rows<{ close: string; n: number }>(
      sql`select max(close)::text as close, count(*)::int as n from daily_bars where symbol = 'FLAIR'`,
    );
    expect(flair).to.deep.equal([{ close: '296.0500', n: 1 }]);
  });

  it('changes nothing for a holiday’s file or a file cut short, and says why', async () => {
    const before = await rows<{ n: number }>(sql`select count(*)::int as n from daily_bars`);
    const holiday = path.join(dir, 'BhavCopy_NSE_CM_0_0_0_20250314_F_0000.csv');
    await writeFile(holiday, udiffFile([FLAIR_ROW.replaceAll('2024-10-15', '2025-03-14')]));
    const cut = path.join(dir, 'BhavCopy_NSE_CM_0_0_0_20241016_F_0000.csv');
    await writeFile(
      cut,
      udiffFile([FLAIR_ROW.replaceAll('2024-10-15', '2024-10-16'), FLAIR_ROW.slice(0, 50)]),
    );
    const run = await sync('--from', holiday);
    expect(run.code).to.equal(1);
    expect(run.stderr.trim()).to.equal(
      'BhavCopy_NSE_CM_0_0_0_20250314_F_0000.csv: nothing loaded: it is dated 14 Mar 2025, a market holiday (Holi), when the market did not trade.',
    );
    const short = await sync('--from', cut);
    expect(short.code).to.equal(1);
    expect(short.stderr.trim()).to.equal(
      'BhavCopy_NSE_CM_0_0_0_20241016_F_0000.csv: nothing loaded: line 3 has 7 of the 34 columns: the file looks cut short.',
    );
    const usage = await sync();
    expect(usage.code).to.equal(2);
    expect(usage.stderr.trim()).to.equal('usage: npm run bhavcopy:sync -- --from FILE|DIR');
    expect(await rows<{ n: number }>(sql`select count(*)::int as n from daily_bars`)).to.deep.equal(before);
  });
});
