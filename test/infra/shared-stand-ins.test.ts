/**
 * The stand-ins a clone without `../shared` runs on (test/helpers/stand-ins) say what the real
 * files say: the master files parse back to the instrument snapshot the app ships, and where
 * `../shared` is present (CI), each stand-in parses to the real file's instruments, actions and
 * holdings.
 */
import { parseBcFile } from '@app/common/corporate-actions/index';
import { expect } from 'chai';
import { parseHoldingsCsv } from '../../common/src/holdings/import.ts';
import { decodeMasterFile } from '../../common/src/instruments/table.ts';
import { buildSnapshot, readSnapshot } from '../../server/src/instruments/snapshot.ts';
import type { MasterFiles } from '../../server/src/instruments/sync.ts';
import { readSharedBytes, sharedDataPresent } from '../helpers/shared-data.ts';
import { STAND_INS } from '../helpers/stand-ins/index.ts';
import { readEncryptionVector } from '../helpers/stand-ins/webpush-vector.ts';

const MASTER_FILES = {
  nseEquity: 'data/EQUITY_L_2026-07-10.csv',
  nseSme: 'data/SME_EQUITY_L_head50_2026-05-17.csv',
  nseEtf: 'data/eq_etfseclist_2026-05-17.csv',
  nseSymbolChanges: 'data/symbolchange_2026-05-17.csv',
  bseScrips: 'data/BSE_Equity_head60.csv',
} as const;
const BC_FILE = 'data/bc16122025_equity_rows.csv';
const WEBPUSH_DRAFT = 'data/samples/webpush/draft-ietf-webpush-encryption.md';
const YAHOO_CHART = 'data/samples/yahoo/historical-via-chart-NVDA-split-2021-02-01-to-2022-01-31.csv.json';
const BROKER_FILES = Object.keys(STAND_INS).filter((file) => file.startsWith('fixtures/brokers/'));

const standIn = (file: string) => decodeMasterFile(Buffer.from(STAND_INS[file]!.write()));
const real = (file: string) => decodeMasterFile(readSharedBytes(file));

function masterFiles(read: (file: string) => string): MasterFiles {
  return Object.fromEntries(
    Object.entries(MASTER_FILES).map(([kind, file]) => [kind, { name: file.slice(5), text: read(file) }]),
  );
}

/** Items in one order (by the key the app stores them under), for comparing lists. */
const sorted = <T>(items: T[], key: (item: T) => string) =>
  [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
const byListing = (i: { exchange: string; symbol: string }) => `${i.exchange}:${i.symbol}`;
const byOldSymbol = (c: { oldSymbol: string }) => c.oldSymbol;

/** What an upload of the file would import: broker, account, and each row's symbol or name, quantity and price. */
function holdings(text: string) {
  const result = parseHoldingsCsv(text);
  if (!result.ok) throw new Error(result.error);
  const rows = result.rows.map((row) => [
    row.symbol ?? row.companyName,
    row.isin,
    row.quantity,
    row.averagePrice,
  ]);
  return { broker: result.broker, account: result.accountHint, rows };
}

describe('the stand-ins for ../shared', () => {
  it('parse back to the instrument snapshot the app ships, every listing and rename', async () => {
    const parsed = buildSnapshot(masterFiles(standIn));
    const shipped = await readSnapshot();
    expect(parsed.instruments).to.have.length(shipped.instruments.length);
    expect(sorted(parsed.instruments, byListing)).to.deep.equal(sorted(shipped.instruments, byListing));
    expect(sorted(parsed.renames, byOldSymbol)).to.deep.equal(sorted(shipped.renames, byOldSymbol));
  });

  it('hold seven corporate actions and rows the reader ignores', () => {
    const { actions, ignored } = parseBcFile(standIn(BC_FILE));
    expect(actions).to.have.length(7);
    expect(ignored).to.be.greaterThan(0);
  });

  it('import as holdings files of their brokers', () => {
    for (const file of BROKER_FILES) expect(holdings(standIn(file)).rows, file).to.not.be.empty;
  });
});

// Defined only where ../shared is (CI): without it the run's one line says the real files were not read.
if (sharedDataPresent) {
  describe('the stand-ins against the real files of ../shared', () => {
    it('give the instruments and renames the real master files give', () => {
      const fromStandIns = buildSnapshot(masterFiles(standIn));
      const fromReal = buildSnapshot(masterFiles(real));
      expect(sorted(fromStandIns.instruments, byListing)).to.deep.equal(
        sorted(fromReal.instruments, byListing),
      );
      expect(sorted(fromStandIns.renames, byOldSymbol)).to.deep.equal(sorted(fromReal.renames, byOldSymbol));
    });

    it("give the real bc file's actions and as many ignored rows", () => {
      expect(parseBcFile(standIn(BC_FILE))).to.deep.equal(parseBcFile(real(BC_FILE)));
    });

    it('import the same broker, account and rows as the real broker samples', () => {
      for (const file of BROKER_FILES)
        expect(holdings(standIn(file)), file).to.deep.equal(holdings(real(file)));
    });

    it("give the Web Push draft's example message and keys", () => {
      const fromStandIn = readEncryptionVector(String(STAND_INS[WEBPUSH_DRAFT]!.write()));
      expect(fromStandIn).to.deep.equal(
        readEncryptionVector(readSharedBytes(WEBPUSH_DRAFT).toString('utf8')),
      );
    });

    it("give the recorded Yahoo chart's split and its rows on the days they keep", () => {
      type Series = Record<string, (number | null)[]>;
      interface Chart {
        meta: { exchangeTimezoneName: string };
        timestamp: number[];
        events: { splits: unknown };
        indicators: { quote: [Series] };
      }
      const chartOf = (text: string) =>
        (JSON.parse(text) as { response: { bodyJson: { chart: { result: [Chart] } } } }).response.bodyJson
          .chart.result[0];
      const rows = (chart: Chart, keep: (time: number) => boolean) =>
        chart.timestamp.flatMap((time, i) =>
          keep(time)
            ? [
                [
                  time,
                  ...['open', 'high', 'low', 'close', 'volume'].map((f) => chart.indicators.quote[0][f]![i]),
                ],
              ]
            : [],
        );
      const standIn = chartOf(String(STAND_INS[YAHOO_CHART]!.write()));
      const real = chartOf(readSharedBytes(YAHOO_CHART).toString('utf8'));
      expect(standIn.meta.exchangeTimezoneName).to.equal(real.meta.exchangeTimezoneName);
      expect(standIn.events.splits).to.deep.equal(real.events.splits);
      const kept = new Set(standIn.timestamp);
      expect(rows(standIn, () => true)).to.deep.equal(rows(real, (time) => kept.has(time)));
    });
  });
}
