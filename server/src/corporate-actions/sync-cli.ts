/**
 * `npm run corporate-actions:sync -- --from FILE` loads NSE's corporate-actions file (the
 * `bcDDMMYYYY.csv`, or the `PR` bundle zip holding it); `npm run corporate-actions:sync [--
 * --date YYYY-MM-DD]` downloads that day's bundle from the exchange (default: today, IST;
 * published after the close). `--url` fetches a mirror's copy instead. New actions are stored;
 * servers on the database apply due bonuses and splits within a minute. With PGlite, run it
 * while the server is stopped (one process owns the files); the server applies at start.
 */
import path from 'node:path';
import { loadConfig } from '@app/config';
import { BcFileError } from '@app/common/corporate-actions/index';
import { istDateOf } from '@app/common/market/calendar';
import { openDatabase } from '../db/client.ts';
import { fail, parseOptions, readInputFile } from '../util/cli.ts';
import { bcFileFromBundle, BundleError, downloadBcFile, prBundleUrl, syncCorporateActions } from './sync.ts';

const USAGE = 'usage: npm run corporate-actions:sync -- [--from FILE | --date YYYY-MM-DD | --url URL]';

const args = parseOptions(
  { from: { type: 'string' }, date: { type: 'string' }, url: { type: 'string' } },
  USAGE,
);
if (args.date && !/^\d{4}-\d{2}-\d{2}$/.test(args.date)) fail(`--date must be YYYY-MM-DD\n${USAGE}`, 2);
if ([args.from, args.date, args.url].filter(Boolean).length > 1)
  fail(`give one of --from, --date, --url\n${USAGE}`, 2);

const { from: fromFile, date, url: mirror } = args;
const today = istDateOf(new Date());
async function readSource(): Promise<{ text: string; source: string }> {
  if (fromFile) {
    const from = path.resolve(fromFile);
    const bytes = await readInputFile(from);
    // A zip starts with "PK": the whole bundle was given.
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
      const inner = bcFileFromBundle(new Uint8Array(bytes));
      return { text: inner.text, source: `${path.basename(from)}/${inner.name}` };
    }
    return { text: bytes.toString('utf8'), source: path.basename(from) };
  }
  const url = mirror ?? prBundleUrl(date ?? today);
  const file = await downloadBcFile(url);
  console.log(`downloaded ${file.name} from ${url}`);
  return { text: file.text, source: url };
}

try {
  const file = await readSource();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const result = await syncCorporateActions(database.db, { ...file, today });
    console.log(
      `${file.source}: ${result.read} corporate actions (bonus, split, rights, demerger, buy-back), ${result.added} new; ${result.ignored} other equity rows (dividends and the like) left out.`,
    );
    if (result.due > 0)
      console.log(`${result.due} new bonus or split past its ex-date: servers apply it within a minute.`);
  } finally {
    await database.close();
  }
} catch (err) {
  if (err instanceof BcFileError || err instanceof BundleError)
    fail(`corporate-actions:sync: ${err.message}. Nothing was changed.`);
  throw err;
}
