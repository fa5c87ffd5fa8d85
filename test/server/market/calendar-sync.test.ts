/**
 * `npm run calendar:sync -- --from FILE`, run as the real command (a child process) against a
 * copy of the shipped data file: NSE's holiday-master JSON and its holidays table as CSV load;
 * a bad file or one that drops known holidays exits 1 with a sentence and changes nothing.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMarketCalendar, type CalendarData } from '@app/common/market/calendar';
import { parseHolidayList } from '@app/common/market/holiday-list';
import { expect } from 'chai';
import * as prettier from 'prettier';
import { CALENDAR_DATA_FILE } from '../../../server/src/market/calendar-sync.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command exactly as `npm run calendar:sync -- ...` does (tsx), on `dataFile`. */
function calendarSync(dataFile: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/src/market/calendar-sync-cli.ts', ...args, '--data', dataFile],
      { cwd: process.cwd() },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The 2026 holiday-master answer as NSE's API gives it (CM list, plus a segment we ignore). */
const HOLIDAY_MASTER_2026 = {
  CM: [
    ['15-Jan-2026', 'Thursday', 'Municipal Corporation Election - Maharashtra'],
    ['26-Jan-2026', 'Monday', 'Republic Day'],
    ['03-Mar-2026', 'Tuesday', 'Holi'],
    ['26-Mar-2026', 'Thursday', 'Shri Ram Navami'],
    ['31-Mar-2026', 'Tuesday', 'Shri Mahavir Jayanti'],
    ['03-Apr-2026', 'Friday', 'Good Friday'],
    ['14-Apr-2026', 'Tuesday', 'Dr. Baba Saheb Ambedkar Jayanti'],
    ['01-May-2026', 'Friday', 'Maharashtra Day'],
    ['28-May-2026', 'Thursday', 'Bakri Id'],
    ['26-Jun-2026', 'Friday', 'Muharram'],
    ['14-Sep-2026', 'Monday', 'Ganesh Chaturthi'],
    ['02-Oct-2026', 'Friday', 'Mahatma Gandhi Jayanti'],
    ['20-Oct-2026', 'Tuesday', 'Dussehra'],
    ['08-Nov-2026', 'Sunday', 'Diwali Laxmi Pujan*'],
    ['10-Nov-2026', 'Tuesday', 'Diwali-Balipratipada'],
    ['24-Nov-2026', 'Tuesday', 'Prakash Gurpurb Sri Guru Nanak Dev'],
    ['25-Dec-2026', 'Friday', 'Christmas'],
  ].map(([tradingDate, weekDay, description], i) => ({ tradingDate, weekDay, description, Sr_no: i + 1 })),
  FO: [{ tradingDate: '26-Jan-2026', weekDay: 'Monday', description: 'Republic Day', Sr_no: 1 }],
};

/** A 2027 list as NSE's holidays table, saved as CSV (dates made up for the test). */
const TABLE_2027 = [
  'Sr. No,Holidays,Date,Day',
  '1,Republic Day,26-Jan-2027,Tuesday',
  '2,Holi,22-Mar-2027,Monday',
  '3,Good Friday,26-Mar-2027,Friday',
  '4,"Christmas, observed",24-Dec-2027,Friday',
  '',
].join('\r\n');

describe('market: npm run calendar:sync -- --from FILE', function () {
  this.timeout(60_000);
  let dir: string;
  let dataFile: string;
  let original: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'calendar-sync-'));
    dataFile = path.join(dir, 'market-calendar.json');
    await copyFile(CALENDAR_DATA_FILE, dataFile);
    original = await readFile(dataFile, 'utf8');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const write = async (name: string, content: string) => {
    const file = path.join(dir, name);
    await writeFile(file, content);
    return file;
  };
  const stored = async () => JSON.parse(await readFile(dataFile, 'utf8')) as CalendarData;

  it('loads a CSV of the holidays table for 2027: the year becomes complete and the calendar closes those days', async () => {
    const run = await calendarSync(
      dataFile,
      '--from',
      await write('holidays-2027.csv', TABLE_2027),
      '--source',
      'NSE circular of Dec 2026 (test)',
    );
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include('2027: 4 trading holidays from holidays-2027.csv (csv)');
    expect(run.stdout).to.include('+ 2027-03-22 Holi');
    expect(run.stdout).to.include('+ 2027-12-24 Christmas, observed');
    const data = await stored();
    expect(data.years!['2027']).to.deep.equal({
      status: 'complete',
      source: 'NSE circular of Dec 2026 (test)',
    });
    expect(data.years!['2026']!.status).to.equal('complete');
    const calendar = createMarketCalendar(data);
    expect(calendar.isMarketOpen(new Date('2027-03-22T11:00:00+05:30'))).to.equal(false);
    expect(calendar.yearInfo(2027).complete).to.equal(true);
    // Other years and the special sessions are untouched.
    expect(calendar.yearInfo(2026).holidays).to.have.length(16);
    expect(data.specialSessions).to.deep.equal((JSON.parse(original) as CalendarData).specialSessions);
    // The rewritten file stays as the repo's formatter wants it (`npm run format:check`).
    const options = await prettier.resolveConfig(CALENDAR_DATA_FILE);
    const text = await readFile(dataFile, 'utf8');
    expect(await prettier.check(text, { ...options, parser: 'json' })).to.equal(true);
  });

  it('loads NSE’s holiday-master JSON (CM list): 2026 keeps its 16 days, a new name is reported, weekend rows are not stored', async () => {
    const run = await calendarSync(
      dataFile,
      '--from',
      await write('holiday-master.json', JSON.stringify(HOLIDAY_MASTER_2026)),
    );
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include('2026: 16 trading holidays from holiday-master.json (json)');
    expect(run.stdout).to.include(
      '~ 2026-01-15 Municipal Corporation Election, Maharashtra → Municipal Corporation Election - Maharashtra',
    );
    expect(run.stdout).to.include('not stored, the market is shut anyway: 2026-11-08 Diwali Laxmi Pujan');
    const data = await stored();
    expect(data.holidays.filter((h) => h.date.startsWith('2026-'))).to.have.length(16);
    expect(data.holidays.find((h) => h.date === '2026-11-08')).to.equal(undefined);
  });

  it('refuses a file with a wrong weekday or an impossible date: exit 1, a sentence, nothing changed', async () => {
    const bad = 'Sr. No,Holidays,Date,Day\n1,Republic Day,26-Jan-2027,Monday\n2,Holi,30-Feb-2027,Tuesday\n';
    const run = await calendarSync(dataFile, '--from', await write('bad.csv', bad));
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('was not loaded, nothing was changed');
    expect(run.stderr).to.include('row 2: 2027-01-26 is a Tuesday, not a Monday.');
    expect(run.stderr).to.include('row 3: "30-Feb-2027" is not a date like 26-Jan-2026.');
    expect(await readFile(dataFile, 'utf8')).to.equal(original);
  });

  it('refuses a list spanning two years, a JSON without the CM list, an empty or missing file', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'two-years.csv',
        'Holidays,Date\nChristmas,25-Dec-2026\nRepublic Day,26-Jan-2027\n',
        /spans 2026 and 2027: load one calendar year per file/,
      ],
      ['fo-only.json', JSON.stringify({ FO: HOLIDAY_MASTER_2026.FO }), /The JSON has no "CM" list/],
      ['empty.csv', '', /The file is empty/],
      ['no-header.csv', '1,Republic Day,26-Jan-2027,Tuesday\n', /no header row with "Holidays"/],
    ];
    for (const [name, content, message] of cases) {
      const run = await calendarSync(dataFile, '--from', await write(name, content));
      expect(run.code, name).to.equal(1);
      expect(run.stderr, name).to.match(message);
    }
    const missing = await calendarSync(dataFile, '--from', path.join(dir, 'nope.csv'));
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.match(/Cannot read .*nope\.csv: no such file\./);
    expect(await readFile(dataFile, 'utf8')).to.equal(original);
  });

  it('refuses a list that drops known holidays unless told, and then says what it removed', async () => {
    // NSE's first 2026 circular, before 15 Jan was added: 15 holidays.
    const early = { CM: HOLIDAY_MASTER_2026.CM.filter((h) => h.tradingDate !== '15-Jan-2026') };
    const file = await write('early-2026.json', JSON.stringify(early));
    const refused = await calendarSync(dataFile, '--from', file);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.include(
      'The file does not list a holiday we know for 2026: 2026-01-15 (Municipal Corporation Election, Maharashtra). Nothing was changed.',
    );
    expect(await readFile(dataFile, 'utf8')).to.equal(original);

    const allowed = await calendarSync(dataFile, '--from', file, '--allow-removals');
    expect(allowed.code, allowed.stderr).to.equal(0);
    expect(allowed.stdout).to.include('- 2026-01-15 Municipal Corporation Election, Maharashtra');
    expect(createMarketCalendar(await stored()).isMarketOpen(new Date('2026-01-15T11:00:00+05:30'))).to.equal(
      true,
    );
  });

  it('exits 2 with the usage without --from', async () => {
    const run = await calendarSync(dataFile);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('usage: npm run calendar:sync -- --from FILE');
  });

  it('parses both shapes the same way (pure parser)', () => {
    const json = parseHolidayList(JSON.stringify(HOLIDAY_MASTER_2026));
    const csv = parseHolidayList(
      [
        'Sr. No,Description,Date,Day',
        ...HOLIDAY_MASTER_2026.CM.map((h) => `${h.Sr_no},"${h.description}",${h.tradingDate},${h.weekDay}`),
      ].join('\n'),
    );
    expect(csv).to.deep.equal({ ...json, format: 'csv' });
    expect(json.holidays[0]).to.deep.equal({
      date: '2026-01-15',
      name: 'Municipal Corporation Election - Maharashtra',
    });
  });
});
