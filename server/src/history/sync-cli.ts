/**
 * `npm run bhavcopy:sync -- --from FILE|DIR` loads the exchanges' daily bhavcopy files (NSE and
 * BSE, UDiFF or the older layouts, zipped or not) into the daily history, in date order, and
 * says for each "loaded N bars for DD Mon YYYY" or why it changed nothing. Loading a day again
 * rewrites it. With PGlite, run it while the server is stopped (one process owns the files).
 * docs/history.md.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '@app/config';
import { formatExDate } from '@app/common/corporate-actions/describe';
import { openDatabase } from '../db/client.ts';
import { seedFreshInstall } from '../instruments/master.ts';
import { fail, parseOptions, readInputFile } from '../util/cli.ts';
import { readBhavcopy } from './bhavcopy.ts';
import { loadOrder } from './files.ts';
import { storeBhavcopy } from './store.ts';
import { BhavcopyError } from './table.ts';

const USAGE = 'usage: npm run bhavcopy:sync -- --from FILE|DIR';

const args = parseOptions({ from: { type: 'string' } }, USAGE);
if (!args.from) fail(USAGE, 2);
const from = path.resolve(args.from);
const info = await stat(from).catch(() => fail(`Cannot read ${from}: no such file or folder.`));
const files = info.isDirectory()
  ? (await readdir(from)).filter((n) => /\.(csv|zip)$/i.test(n)).map((n) => path.join(from, n))
  : [from];
if (files.length === 0) fail(`${from} holds no .csv or .zip file.`);

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
let refused = 0;
try {
  // A fresh database holds the shipped instrument master first: rows are matched against it.
  await seedFreshInstall(database.db);
  for (const file of loadOrder(files)) {
    const name = path.basename(file);
    try {
      const copy = readBhavcopy(name, await readInputFile(file));
      const stored = await database.db.transaction((tx) => storeBhavcopy(tx, copy));
      const n = (count: number) => count.toLocaleString('en-IN');
      const unknown =
        stored.unknown === 0
          ? ''
          : ` (${n(stored.unknown)} ${stored.unknown === 1 ? 'row' : 'rows'} for securities the master does not list)`;
      console.log(`${name}: loaded ${n(stored.bars)} bars for ${formatExDate(copy.date)}${unknown}`);
    } catch (err) {
      if (!(err instanceof BhavcopyError)) throw err;
      refused += 1;
      console.error(`${name}: nothing loaded: ${err.message}.`);
    }
  }
} finally {
  await database.close();
}
if (refused > 0) process.exitCode = 1;
