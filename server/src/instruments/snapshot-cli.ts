/**
 * `npm run symbols:snapshot -- --from DIR` rebuilds the shipped snapshot of the listed universe
 * (server/snapshot/instruments.json) from the exchanges' files in DIR (the names `symbols:sync
 * --from` reads: EQUITY_L*.csv, SME_EQUITY_L*.csv, eq_etfseclist*.csv, symbolchange*.csv,
 * BSE_Equity*.csv). Commit the result; fresh installs load it.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { buildSnapshot, SNAPSHOT_FILE, writeSnapshot } from './snapshot.ts';
import { readMasterFiles } from './sync.ts';

const fromIndex = process.argv.indexOf('--from');
const dir = fromIndex >= 0 ? process.argv[fromIndex + 1] : undefined;
if (!dir) {
  console.error('usage: npm run symbols:snapshot -- --from DIR');
  process.exit(2);
}
const files = await readMasterFiles(path.resolve(dir), await readdir(path.resolve(dir)));
const snapshot = buildSnapshot(files);
const sources = Object.fromEntries(Object.entries(files).map(([kind, file]) => [kind, file.name]));
await writeSnapshot(snapshot, sources);
console.log(
  `wrote ${snapshot.instruments.length} instruments and ${snapshot.renames.length} symbol changes to ${SNAPSHOT_FILE.pathname}`,
  sources,
);
