/**
 * `npm run symbols:sync` downloads the exchange master files and replaces the instrument table;
 * `npm run symbols:sync -- --from DIR` loads the same files from a folder (air-gapped installs).
 * With PGlite, run it while the server is stopped (one process owns the files). With PostgreSQL,
 * running servers notice the sync by themselves (instruments/master.ts checks every minute).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '@app/config';
import { decodeMasterFile, MasterFileError } from '@app/common/instruments/table';
import { openDatabase } from '../db/client.ts';
import { seedFreshInstall } from './master.ts';
import {
  downloadHeaders,
  MASTER_FILE_TITLES,
  MASTER_FILE_URLS,
  readMasterFiles,
  syncInstrumentMaster,
  TruncatedMasterFile,
  type MasterFileKind,
  type MasterFiles,
} from './sync.ts';

async function download(): Promise<MasterFiles> {
  const files: MasterFiles = {};
  for (const [kind, url] of Object.entries(MASTER_FILE_URLS) as [MasterFileKind, string][]) {
    const res = await fetch(url, { headers: downloadHeaders(kind), signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`Download of ${url} failed: HTTP ${res.status}`);
    const text = decodeMasterFile(new Uint8Array(await res.arrayBuffer()));
    files[kind] = { name: `${MASTER_FILE_TITLES[kind]} (${url})`, text };
    console.log(`downloaded ${kind} (${text.length} bytes)`);
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
  // A fresh database holds the shipped snapshot first: a file is judged against what it knows.
  await seedFreshInstall(database.db);
  const result = await syncInstrumentMaster(database.db, { files });
  console.log(`synced ${result.instruments} instruments and ${result.renames} symbol changes`, result.byFile);
  if (config.DATABASE_URL)
    console.log('servers running on this database pick the new master up within a minute');
} catch (err) {
  if (!(err instanceof TruncatedMasterFile || err instanceof MasterFileError)) throw err;
  console.error(`symbols:sync: ${err.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
