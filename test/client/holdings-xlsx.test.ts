/**
 * Broker XLSX exports, built in the test from the documented layouts (exceljs), opened with
 * read-excel-file as the browser does, turned into CSV by the dialog's code and imported.
 */
import { parseCsv } from '@app/common/holdings/csv';
import { parseHoldingsCsv } from '@app/common/holdings/import';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import readXlsxFile from 'read-excel-file/node';
import { cellsToCsv, pickHoldingsSheet } from '../../client/src/routes/holdings/upload/holdingsFile.ts';
import { readShared } from '../helpers/shared-data.ts';

type Grid = (string | number | null)[][];

/** Numbers stay numbers in the sheet, as in the brokers' files. */
const cellValue = (text: string) =>
  text !== '' && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text || null;

async function xlsx(sheets: Record<string, Grid>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, grid] of Object.entries(sheets)) book.addWorksheet(name).addRows(grid);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** What the upload dialog sends: the holdings sheet as CSV text. */
async function dialogCsv(file: Buffer): Promise<string> {
  const sheets = await readXlsxFile(file);
  const sheet = pickHoldingsSheet(sheets);
  if (!sheet) throw new Error('no sheet');
  return cellsToCsv(sheet.data);
}

function imported(csv: string) {
  const result = parseHoldingsCsv(csv);
  if (!result.ok) throw new Error(`${result.error}: ${result.details.join('; ')}`);
  return { broker: result.broker, accountHint: result.accountHint, rows: result.rows };
}

const gridOf = (layoutFile: string): Grid =>
  parseCsv(readShared(`fixtures/brokers/${layoutFile}`)).map((row) => row.map(cellValue));

describe('client: broker XLSX files through the upload dialog', () => {
  it('Zerodha Console: the Equity sheet, quantity with pledges, the client ID', async () => {
    const file = await xlsx({
      'Mutual Funds': [
        ['Symbol', 'Quantity'],
        ['XYZFUND', 10],
      ],
      Equity: gridOf('zerodha_console_holdings_Equity_sheet_layout.csv'),
    });
    const { broker, accountHint, rows } = imported(await dialogCsv(file));
    expect(broker).to.equal('zerodha_console');
    expect(accountHint).to.equal('AB1234');
    expect(rows.map((r) => [r.symbol, r.quantity, r.averagePrice])).to.deep.equal([
      ['INFY', 10, 1450.5],
      ['GOLDIAM', 336, 310.25],
      ['NIFTYBEES', 50, 260],
    ]);
  });

  it('Groww: company names with ISINs after the summary preamble', async () => {
    const file = await xlsx({ Sheet1: gridOf('groww_stocks_holdings_statement_layout.csv') });
    const { broker, rows } = imported(await dialogCsv(file));
    expect(broker).to.equal('groww');
    expect(rows.map((r) => [r.isin, r.companyName, r.quantity, r.averagePrice])).to.deep.equal([
      ['INE040A01034', 'HDFC BANK LTD', 4, 1003],
      ['INE155A01022', 'TATA MOTORS PASS VEH LTD', 40, 493.86],
      ['INF277KA1976', 'TATAAML-TATAGOLD', 200, 16],
    ]);
  });

  it('Angel One: the Holding Details title row, then Scrip/Contract', async () => {
    const file = await xlsx({
      Holdings: [
        ['Holding Details'],
        [],
        ['Scrip/Contract', 'Company Name', 'ISIN', 'Quantity', 'T1 Quantity', 'Avg Trading Price', 'LTP'],
        ['TCS-EQ', 'TATA CONSULTANCY SERV LT', 'INE467B01029', 4, 0, '3,420.00', 3250.1],
        ['ITC-EQ', 'ITC LTD', 'INE154A01025', 120, 0, 412.3, 415],
      ],
    });
    const { broker, rows } = imported(await dialogCsv(file));
    expect(broker).to.equal('angel_one');
    expect(rows.map((r) => [r.symbol, r.quantity, r.averagePrice])).to.deep.equal([
      ['TCS', 4, 3420],
      ['ITC', 120, 412.3],
    ]);
  });

  it('Upstox: counted headers and signed, grouped numbers', async () => {
    const file = await xlsx({
      Holdings: [
        ['Symbol (2)', 'Exchange', 'ISIN', 'Net Qty', 'Avg. Price', 'LTP'],
        ['RELIANCE', 'NSE', 'INE002A01018', '+1,200', '1,245.60', 1480.2],
        ['SBIN', 'BSE', 'INE062A01020', 15, 974.2, 960],
      ],
    });
    const { broker, rows } = imported(await dialogCsv(file));
    expect(broker).to.equal('upstox');
    expect(rows.map((r) => [r.symbol, r.exchange, r.quantity, r.averagePrice])).to.deep.equal([
      ['RELIANCE', 'NSE', 1200, 1245.6],
      ['SBIN', 'BSE', 15, 974.2],
    ]);
  });
});
