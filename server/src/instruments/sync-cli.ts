/**
 * `npm run symbols:sync` downloads the exchange master files and replaces the instrument table;
 * `npm run symbols:sync -- --from DIR` loads the same files from a folder (air-gapped installs).
 * With PGlite, run it while the server is stopped (one process owns the files). With PostgreSQL,
 * running servers notice the sync by themselves (instruments/master.ts checks every minute).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '@app/config';
import { decodeMasterFile } from '@app/common/instruments/table';
import { openDatabase } from '../db/client.ts';
import { MASTER_FILE_URLS, readMasterFiles, syncInstrumentMaster, type MasterFiles } from './sync.ts';

async function download(): Promise<MasterFiles> {
  const files: MasterFiles = {};
  for (const [key, url] of Object.entries(MASTER_FILE_URLS) as [keyof MasterFiles, string][]) {
    const res = await fetch(url, {
      headers: { 'User-Agent': 'Mozilla/5.0 (PortfolioGuard symbol sync)', Accept: 'text/csv,*/*' },
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`Download of ${url} failed: HTTP ${res.status}`);
    files[key] = decodeMasterFile(new Uint8Array(await res.arrayBuffer()));
    console.log(`downloaded ${key} (${files[key]!.length} bytes)`);
  }
  return files;
}

const config = loadConfig();
const fromIndex = process.argv.indexOf('--from');
const dir = fromIndex >= 0 ? process.argv[fromIndex + 1] : undefined;
if (fromIndex >= 0 && !dir) {
  console.error('usage: npm run symbols:sync -- --from DIR');
  process.exit(2);
}
const files = dir
  ? await readMasterFiles(path.resolve(dir), await readdir(path.resolve(dir)))
  : await download();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const result = await syncInstrumentMaster(database.db, files);
  console.log(`synced ${result.instruments} instruments and ${result.renames} symbol changes`, result.byFile);
  if (config.DATABASE_URL)
    console.log('servers running on this database pick the new master up within a minute');
} finally {
  await database.close();
}
