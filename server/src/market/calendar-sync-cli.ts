/**
 * `npm run calendar:sync -- --from FILE [--source TEXT] [--allow-removals] [--data PATH]`
 *
 * Loads an exchange's published trading-holiday list (NSE's holiday-master JSON, or its holidays
 * table saved as CSV: `Sr. No,Holidays,Date,Day`) into the calendar data file, for the year the
 * list covers. Prints what changed; exits 1 with a sentence, changing nothing, on a bad file or
 * on a list that drops a holiday we know of (unless `--allow-removals`). `--data` points at
 * another copy of the data file (tests). Restart the server and the streamer afterwards.
 */
import path from 'node:path';
import { HolidayListError, parseHolidayList } from '@app/common/market/holiday-list';
import {
  CALENDAR_DATA_FILE,
  CalendarSyncRefused,
  planCalendarSync,
  readCalendarData,
  writeCalendarData,
} from './calendar-sync.ts';
import { fail, parseOptions, readInputFile } from '../util/cli.ts';

const USAGE = 'usage: npm run calendar:sync -- --from FILE [--source TEXT] [--allow-removals]';

const args = parseOptions(
  {
    from: { type: 'string' },
    source: { type: 'string' },
    data: { type: 'string' },
    'allow-removals': { type: 'boolean', default: false },
  },
  USAGE,
);
if (!args.from) fail(USAGE, 2);

const from = path.resolve(args.from);
const dataFile = path.resolve(args.data ?? CALENDAR_DATA_FILE);
const content = (await readInputFile(from)).toString('utf8');

try {
  const list = parseHolidayList(content);
  const today = new Date().toISOString().slice(0, 10);
  const plan = planCalendarSync({
    data: await readCalendarData(dataFile),
    list,
    source: args.source ?? `Exchange holiday list ${path.basename(from)}, loaded on ${today}`,
    allowRemovals: args['allow-removals'],
  });
  await writeCalendarData(dataFile, plan.next);
  console.log(
    `${list.year}: ${list.holidays.length} trading holidays from ${path.basename(from)} (${list.format}); the year is now complete.`,
  );
  for (const h of plan.added) console.log(`  + ${h.date} ${h.name}`);
  for (const h of plan.removed) console.log(`  - ${h.date} ${h.name}`);
  for (const h of plan.renamed) console.log(`  ~ ${h.date} ${h.from} → ${h.to}`);
  if (plan.added.length + plan.removed.length + plan.renamed.length === 0)
    console.log('  no change to the holidays');
  if (list.weekend.length > 0)
    console.log(
      `  (not stored, the market is shut anyway: ${list.weekend.map((h) => `${h.date} ${h.name}`).join(', ')})`,
    );
  console.log(`Wrote ${dataFile}. Restart the server and the streamer to use it.`);
} catch (err) {
  if (err instanceof HolidayListError) fail(`${from} was not loaded, nothing was changed: ${err.message}`);
  if (err instanceof CalendarSyncRefused) fail(err.message);
  throw err;
}
