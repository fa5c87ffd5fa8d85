import { expect } from 'chai';
import { parseHoldingsCsv, parseHoldingsTable } from '../../common/src/holdings/import.ts';
import { MAX_IMPORT_ROWS } from '../../common/src/holdings/messages.ts';

const FAILED = 'CSV validation failed. Please fix the errors below.';

function rowsOf(count: number): string {
  const lines = ['Symbol,Quantity,Buy Price'];
  for (let i = 1; i <= count; i += 1) lines.push(`SYM${i},${i},${100 + i}`);
  return lines.join('\n');
}

describe('CSV upload validation', () => {
  it('asks for data when the text is empty, blank or only a BOM', () => {
    for (const text of ['', '   \n\n', '\uFEFF', ',,,\n,,']) {
      expect(parseHoldingsCsv(text)).to.deep.equal({
        ok: false,
        error: 'Please provide CSV data',
        details: [],
      });
    }
    expect(parseHoldingsTable([])).to.deep.include({ error: 'Please provide CSV data' });
  });

  it('needs a header row and at least one data row', () => {
    const expected = {
      ok: false,
      error: 'CSV must contain at least a header row and one data row',
      details: [],
    };
    expect(parseHoldingsCsv('Symbol,Quantity,Buy Price\n\n')).to.deep.equal(expected);
    expect(parseHoldingsCsv('Symbol,Quantity,Buy Price\nTotal,,\n')).to.deep.equal(expected);
  });

  it('names each missing required column', () => {
    expect(parseHoldingsCsv('Ticker,Qty,Buy Price\nINFY,1,1500')).to.deep.equal({
      ok: false,
      error: 'Missing required column: Symbol/Instrument',
      details: ['Missing required column: Symbol/Instrument'],
    });
    expect(parseHoldingsCsv('Symbol,Buy Price\nINFY,1500')).to.deep.include({
      error: 'Missing required column: Quantity/Qty',
    });
    expect(parseHoldingsCsv('Symbol,Qty\nINFY,1')).to.deep.include({
      error: 'Missing required column: Buy Price/Average Price/Avg. cost',
    });
    const nothing = parseHoldingsCsv('Ticker,Units,Cost\nINFY,1,1500');
    expect(nothing).to.deep.equal({
      ok: false,
      error: 'Missing required column: Symbol/Instrument',
      details: [
        'Missing required column: Symbol/Instrument',
        'Missing required column: Quantity/Qty',
        'Missing required column: Buy Price/Average Price/Avg. cost',
      ],
    });
  });

  it('lists every invalid row and skips rows without a symbol', () => {
    const csv = [
      'Symbol,Quantity,Buy Price,Exchange',
      'RELIANCE,0,1245',
      'tcs,abc,-5,NSE',
      ',5,5,NSE',
      'INFY,2,1500,NYSE',
      'ITC,10,,BSE',
    ].join('\n');
    expect(parseHoldingsCsv(csv)).to.deep.equal({
      ok: false,
      error: FAILED,
      details: [
        'Row 1 (RELIANCE): Invalid quantity - must be a positive number',
        'Row 2 (TCS): Invalid quantity - must be a positive number',
        'Row 2 (TCS): Invalid average price - must be a positive number',
        'Row 4 (INFY): Invalid exchange - must be NSE or BSE',
        'Row 5 (ITC): Invalid average price - must be a positive number',
      ],
    });
  });

  it('labels rows without a symbol by company name, else by ISIN', () => {
    const byName = parseHoldingsCsv('"Name","Quantity","Avg Price"\n"Coal India",-1,"475.88"');
    expect(byName).to.deep.include({
      details: ['Row 1 (Coal India): Invalid quantity - must be a positive number'],
    });
    const byIsin = parseHoldingsCsv('ISIN,Quantity,Buy Price\nINE002A01018,5,0');
    expect(byIsin).to.deep.include({
      details: ['Row 1 (INE002A01018): Invalid average price - must be a positive number'],
    });
  });

  it(`accepts ${MAX_IMPORT_ROWS} rows and refuses ${MAX_IMPORT_ROWS + 1}`, () => {
    const full = parseHoldingsCsv(rowsOf(1000));
    expect(full.ok && full.rows.length).to.equal(1000);
    expect(parseHoldingsCsv(rowsOf(1001))).to.deep.equal({
      ok: false,
      error: 'Too many holdings: a file can hold at most 1000 rows (this one has 1001).',
      details: [],
    });
  });

  it('refuses a file of far more lines than a file may hold before reading its rows', () => {
    expect(parseHoldingsCsv(`${rowsOf(200_000)}\n\n\n`)).to.deep.equal({
      ok: false,
      error: 'Too many holdings: a file can hold at most 1000 rows (this one has 2,00,001 lines).',
      details: [],
    });
    // A header, a preamble and totals around the most holdings a file may hold are still read.
    const framed = ['Client ID,AB1234', 'Statement,2026', rowsOf(1000), 'Total,,', ''].join('\n');
    const read = parseHoldingsCsv(framed);
    expect(read.ok && read.rows.length).to.equal(1000);
  });

  it('copes with BOM, preamble, blank lines, totals, grouping, ₹ and % signs', () => {
    const csv = [
      '\uFEFFMy holdings export',
      'Generated on,2026-08-03',
      '',
      '  SYMBOL , Qty. ,Avg. cost, Day change ,,',
      '"RELIANCE","1,200","₹1,245.60","+0.52%",,',
      '',
      'HDFCBANK,10,"₹ 980.10",-1.2%,,',
      'TOTAL,12,1000,,,',
      'Total,"1,210","",,,',
      'Grand Total,,,,,',
    ].join('\r\n');
    const result = parseHoldingsCsv(csv);
    expect(result).to.deep.equal({
      ok: true,
      broker: 'generic',
      rows: [
        { line: 1, symbol: 'RELIANCE', exchange: 'NSE', quantity: 1200, averagePrice: 1245.6 },
        { line: 2, symbol: 'HDFCBANK', exchange: 'NSE', quantity: 10, averagePrice: 980.1 },
        { line: 3, symbol: 'TOTAL', exchange: 'NSE', quantity: 12, averagePrice: 1000 },
      ],
    });
  });

  it('skips note rows in broker exports that carry neither quantity nor price', () => {
    const csv = [
      '"Instrument","Qty.","Avg. cost","LTP",""',
      '"SBIN",15,974.2,1021.1,""',
      '"Prices are delayed by 15 minutes","","","",""',
    ].join('\n');
    const result = parseHoldingsCsv(csv);
    expect(result.ok && result.rows.map((row) => row.symbol)).to.deep.equal(['SBIN']);
  });
});
