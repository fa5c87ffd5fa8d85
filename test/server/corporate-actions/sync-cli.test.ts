/**
 * `npm run corporate-actions:sync`, run as the real command (a child process) on a PGlite
 * folder of its own: the real bc rows load from the CSV; the PR bundle, fetched from a local
 * stand-in for NSE's archive, adds nothing new; a file that is not a bc file changes nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { openDatabase } from '../../../server/src/db/client.ts';
import { corporateActions } from '../../../server/src/db/schema.ts';
import { BC_FILE, bcText } from './support.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function corporateActionsSync(dataDir: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/src/corporate-actions/sync-cli.ts', ...args],
      { cwd: process.cwd(), env },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run corporate-actions:sync', function () {
  this.timeout(60_000);
  let dir: string;
  let archive: Server;
  const requested: string[] = [];
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'corporate-actions-'));
    // NSE's archive answers the bundle as a zip holding, among others, the bc file.
    const bundle = zipSync({
      'Pr161225.csv': strToU8('MKT,SECURITY\n'),
      'bc16122025.csv': strToU8(bcText()),
    });
    archive = createServer((req, res) => {
      requested.push(`${req.url} ${req.headers['user-agent']}`);
      if (req.url !== '/archives/equities/bhavcopy/pr/PR161225.zip') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from(bundle));
    });
    await new Promise<void>((resolve) => archive.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    archive.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads the real bc rows, then the same from the PR bundle adds nothing; a bad file changes nothing', async () => {
    const first = await corporateActionsSync(dir, '--from', BC_FILE);
    expect(first.stderr).to.equal('');
    expect(first.code).to.equal(0);
    expect(first.stdout).to.include(
      'bc16122025_equity_rows.csv: 7 corporate actions (bonus, split, rights, demerger, buy-back), 7 new; 8 other equity rows (dividends and the like) left out.',
    );

    const { port } = archive.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/archives/equities/bhavcopy/pr/PR161225.zip`;
    const second = await corporateActionsSync(dir, '--url', url);
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stdout).to.include(`downloaded bc16122025.csv from ${url}`);
    expect(second.stdout).to.include('7 corporate actions (bonus, split, rights, demerger, buy-back), 0 new');
    expect(requested).to.have.length(1);
    expect(requested[0]).to.match(/PortfolioGuard/);

    const bad = path.join(dir, 'holdings.csv');
    await writeFile(bad, 'Symbol,Qty\nINFY,10\n');
    const refused = await corporateActionsSync(dir, '--from', bad);
    expect(refused.code).to.equal(1);
    expect(refused.stderr.trim()).to.equal(
      'corporate-actions:sync: Not an NSE corporate-actions (bc) file: no SERIES, EX_DT, PURPOSE column. Nothing was changed.',
    );
    const missing = await corporateActionsSync(dir, '--url', `http://127.0.0.1:${port}/PR010125.zip`);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.include('HTTP 404');

    const database = await openDatabase({ dataDir: dir });
    try {
      const rows = await database.db.select().from(corporateActions);
      expect(rows.map((r) => `${r.symbol} ${r.kind} ${r.exDate}`).sort()).to.deep.equal([
        'DCMSRIND DEMERGER 2025-12-19',
        'ECLERX BUYBACK 2025-12-17',
        'KMEW SPLIT 2025-12-22',
        'KRISHIVAL RIGHTS 2025-12-17',
        'LALPATHLAB BONUS 2025-12-19',
        'NECLIFE BUYBACK 2025-12-24',
        'NUVAMA SPLIT 2025-12-26',
      ]);
      expect(new Set(rows.map((r) => r.source))).to.deep.equal(new Set(['bc16122025_equity_rows.csv']));
    } finally {
      await database.close();
    }
  });
});
