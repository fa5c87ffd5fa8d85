import { parseCsv } from '@app/common/holdings/csv';
import { parseHoldingsCsv } from '@app/common/holdings/import';
import { SAMPLE_CSV } from '@app/common/holdings/sample';
import { expect } from 'chai';
import {
  cellsToCsv,
  cellText,
  csvField,
  FILE_TYPE_MESSAGE,
  holdingsFileKind,
  pickHoldingsSheet,
} from '../../client/src/routes/holdings/upload/holdingsFile.ts';
import { readShared } from '../helpers/shared-data.ts';

describe('client: reading holdings files', () => {
  it('accepts .csv and .xlsx by name, and by type only when the name has no extension', () => {
    expect(holdingsFileKind('holdings.CSV', '')).to.equal('csv');
    expect(holdingsFileKind('Holdings-AB1234.xlsx', 'application/octet-stream')).to.equal('xlsx');
    expect(holdingsFileKind('holdings', 'text/csv')).to.equal('csv');
    expect(holdingsFileKind('holdings.pdf', 'text/csv')).to.equal(null);
    expect(holdingsFileKind('holdings.xls', '')).to.equal(null);
    expect(FILE_TYPE_MESSAGE).to.equal(
      'Please upload a CSV file only, and check that the file ends with .csv',
    );
  });

  it("picks Zerodha Console's Equity sheet, else the first sheet with content", () => {
    const mf = { sheet: 'Mutual Funds', data: [['Symbol'], ['X']] };
    const equity = { sheet: 'Equity', data: [['Symbol'], ['SBIN']] };
    expect(pickHoldingsSheet([mf, equity])).to.equal(equity);
    const empty = { sheet: 'Cover', data: [[null, '']] };
    expect(pickHoldingsSheet([empty, mf])).to.equal(mf);
    expect(pickHoldingsSheet([])).to.equal(undefined);
  });

  it('writes cells as text: numbers as written, dates as days, blanks as empty', () => {
    expect(cellText(1021.1)).to.equal('1021.1');
    expect(cellText(null)).to.equal('');
    expect(cellText(new Date('2026-08-03T00:00:00Z'))).to.equal('2026-08-03');
    expect(cellText(true)).to.equal('TRUE');
  });

  it('quotes fields holding commas, quotes, line breaks or edge spaces', () => {
    expect(csvField('SBIN')).to.equal('SBIN');
    expect(csvField('6,42,438.00')).to.equal('"6,42,438.00"');
    expect(csvField('He said "hi"')).to.equal('"He said ""hi"""');
    expect(csvField('two\nlines')).to.equal('"two\nlines"');
    expect(csvField(' padded')).to.equal('" padded"');
  });

  it('round-trips the sample template through CSV text', () => {
    const csv = cellsToCsv(parseCsv(SAMPLE_CSV));
    const parsed = parseHoldingsCsv(csv);
    expect(parsed.ok && parsed.rows.map((r) => r.symbol)).to.deep.equal([
      'RELIANCE',
      'TCS',
      'HDFCBANK',
      'INFY',
      'ITC',
    ]);
  });

  it("turns a Console Equity sheet's grid into CSV the importer reads, client ID included", () => {
    const grid = parseCsv(readShared('fixtures/brokers/zerodha_console_holdings_Equity_sheet_layout.csv'));
    // XLSX cells arrive typed: numbers as numbers, empty cells as null.
    const typed = grid.map((row) =>
      row.map((cell) => (cell === '' ? null : /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell)),
    );
    const parsed = parseHoldingsCsv(cellsToCsv(typed));
    expect(parsed.ok, JSON.stringify(parsed)).to.equal(true);
    if (!parsed.ok) return;
    expect(parsed.broker).to.equal('zerodha_console');
    expect(parsed.accountHint).to.equal('AB1234');
    expect(parsed.rows.length).to.be.greaterThan(0);
  });

  it('keeps Indian-grouped numbers intact inside quotes (Dhan export)', () => {
    const grid = parseCsv(readShared('fixtures/brokers/dhan_holdings.csv'));
    const parsed = parseHoldingsCsv(cellsToCsv(grid));
    expect(parsed.ok, JSON.stringify(parsed)).to.equal(true);
  });
});
