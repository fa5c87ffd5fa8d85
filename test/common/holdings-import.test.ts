import { expect } from 'chai';
import { parseHoldingsCsv, parseHoldingsTable } from '../../common/src/holdings/import.ts';
import { readFileSync } from 'node:fs';
import {
  BROKER_FORMATS,
  brokerFormatName,
  DEPOSITORY_REFUSAL,
  MUTUAL_FUND_REFUSAL,
} from '../../common/src/holdings/formats.ts';
import { SAMPLE_CSV } from '../../common/src/holdings/sample.ts';
import type { ImportResult } from '../../common/src/holdings/import.ts';
import type { ImportRow } from '../../common/src/holdings/rows.ts';
import { readShared } from '../helpers/shared-data.ts';

function imported(result: ImportResult): Extract<ImportResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected an import, got ${result.error}: ${result.details.join('; ')}`);
  return result;
}

/** symbol-or-name, quantity, average price of each row. */
function summary(rows: readonly ImportRow[]): [string, number, number][] {
  return rows.map((row) => [row.symbol ?? row.companyName ?? '', row.quantity, row.averagePrice]);
}

const fixture = (name: string): string => readShared(`fixtures/brokers/${name}`);
const ownFixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/brokers/${name}`, import.meta.url), 'utf8');

describe('broker holdings import', () => {
  it('lists every layout with its display name', () => {
    expect([...new Set(BROKER_FORMATS.map((format) => format.displayName))]).to.deep.equal([
      'Mutual fund statement',
      'CDSL/NSDL holding statement',
      'Zerodha (Kite)',
      'Zerodha (Console)',
      'Groww',
      'HDFC Securities',
      'ICICI Direct',
      'Angel One',
      'Upstox',
      '5paisa',
      'Kotak Neo',
      'Dhan',
      'Generic CSV',
    ]);
    expect(brokerFormatName('zerodha_console')).to.equal('Zerodha (Console)');
  });

  it('reads a Zerodha Kite holdings download, dropping series suffixes', () => {
    const result = imported(parseHoldingsCsv(fixture('zerodha_kite_holdings.csv')));
    expect(result.broker).to.equal('zerodha_kite');
    expect(summary(result.rows)).to.deep.equal([
      ['NIFTYBEES', 600, 266.6],
      ['SBIN', 15, 974.2],
      ['M&M', 3, 2990.35],
      ['BAJAJ-AUTO', 2, 8800],
      ['IDEA', 100, 7.41],
    ]);
    expect(result.rows.every((row) => row.exchange === 'NSE')).to.equal(true);
    expect(result.rows.map((row) => row.line)).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('reads a Zerodha Console sheet: preamble, client ID, pledged quantity added', () => {
    const result = imported(parseHoldingsCsv(fixture('zerodha_console_holdings_Equity_sheet_layout.csv')));
    expect(result.broker).to.equal('zerodha_console');
    expect(result.accountHint).to.equal('AB1234');
    expect(summary(result.rows)).to.deep.equal([
      ['INFY', 10, 1450.5],
      ['GOLDIAM', 336, 310.25],
      ['NIFTYBEES', 50, 260],
    ]);
    expect(result.rows[0]!.isin).to.equal('INE009A01021');
  });

  it('reads a Groww statement by company name and ISIN', () => {
    const result = imported(parseHoldingsCsv(fixture('groww_stocks_holdings_statement_layout.csv')));
    expect(result.broker).to.equal('groww');
    expect(result.accountHint).to.equal('1234567890');
    expect(
      result.rows.map((row) => [row.companyName, row.isin, row.quantity, row.averagePrice]),
    ).to.deep.equal([
      ['HDFC BANK LTD', 'INE040A01034', 4, 1003],
      ['TATA MOTORS PASS VEH LTD', 'INE155A01022', 40, 493.86],
      ['TATAAML-TATAGOLD', 'INF277KA1976', 200, 16],
    ]);
    expect(result.rows.every((row) => row.symbol === undefined)).to.equal(true);
  });

  it('reads a Dhan CSV with BOM, quoted grouped numbers and percents', () => {
    const result = imported(parseHoldingsCsv(fixture('dhan_holdings.csv')));
    expect(result.broker).to.equal('dhan');
    expect(summary(result.rows)).to.deep.equal([
      ['Coal India', 1350, 475.88],
      ['HDFC Bank', 130, 831.89],
      ['Oil & Natural Gas Corporation', 225, 234.07],
    ]);
  });

  it('reads an ICICI Direct export by ISIN, ignoring ICICI stock codes', () => {
    const csv = [
      'Stock Symbol,Company Name,ISIN Code,Qty,Average Cost Price,Current Market Price,Value At Cost,Value At Market Price,',
      'RELIND,RELIANCE INDUSTRIES LTD,INE002A01018,10,"1,245.60",1480.20,12456.00,14802.00,',
      'HDFBAN,HDFC BANK LTD,INE040A01034,25,980.10,1012.00,24502.50,25300.00,',
      ',,,,,,,,',
      'Total,,,,,,36958.50,40102.00,',
    ].join('\r\n');
    const result = imported(parseHoldingsCsv(csv));
    expect(result.broker).to.equal('icici_direct');
    expect(result.rows).to.deep.equal([
      {
        line: 1,
        isin: 'INE002A01018',
        companyName: 'RELIANCE INDUSTRIES LTD',
        exchange: 'NSE',
        quantity: 10,
        averagePrice: 1245.6,
      },
      {
        line: 2,
        isin: 'INE040A01034',
        companyName: 'HDFC BANK LTD',
        exchange: 'NSE',
        quantity: 25,
        averagePrice: 980.1,
      },
    ]);
  });

  it('reads an Angel One sheet after its Holding Details title row', () => {
    const table = [
      ['Holding Details', '', '', '', '', '', '', '', ''],
      ['', '', '', '', '', '', '', '', ''],
      [
        'Scrip/Contract',
        'Company Name',
        'ISIN',
        'Sector',
        'Quantity',
        'T1 Quantity',
        'Avg Trading Price',
        'LTP',
        'Invested Value',
      ],
      ['TCS-EQ', 'TATA CONSULTANCY SERV LT', 'INE467B01029', 'IT', '4', '0', '3,420.00', '3250.10', '13680'],
      ['ITC-EQ', 'ITC LTD', 'INE154A01025', 'FMCG', '120', '0', '₹412.30', '415.00', '49476'],
    ];
    const result = imported(parseHoldingsTable(table));
    expect(result.broker).to.equal('angel_one');
    expect(summary(result.rows)).to.deep.equal([
      ['TCS', 4, 3420],
      ['ITC', 120, 412.3],
    ]);
    expect(result.rows[1]!.isin).to.equal('INE154A01025');
  });

  it('reads an Upstox sheet with counted headers and signed, grouped numbers', () => {
    const csv = [
      'Symbol (3),Exchange,ISIN,Net Qty,Avg. Price,LTP,Current Value,P&L',
      'RELIANCE,NSE,INE002A01018,"+1,200","1,245.60",1480.20,"17,76,240.00","+2,81,520.00"',
      'SBIN,bse,INE062A01020,+15,974.20,960.00,"14,400.00",-213.00',
      'INFY,NSE,INE009A01021,+8,"1,512.40",1580,"12,640.00",+540.80',
    ].join('\n');
    const result = imported(parseHoldingsCsv(csv));
    expect(result.broker).to.equal('upstox');
    expect(
      result.rows.map((row) => [row.symbol, row.exchange, row.quantity, row.averagePrice]),
    ).to.deep.equal([
      ['RELIANCE', 'NSE', 1200, 1245.6],
      ['SBIN', 'BSE', 15, 974.2],
      ['INFY', 'NSE', 8, 1512.4],
    ]);
  });

  it('rejects a short position in an Upstox sheet', () => {
    const csv = 'Symbol (1),Net Qty,Avg. Price\nINFY,-2,"1,512.40"';
    const result = parseHoldingsCsv(csv);
    expect(result).to.deep.equal({
      ok: false,
      error: 'CSV validation failed. Please fix the errors below.',
      details: ['Row 1 (INFY): Invalid quantity - must be a positive number'],
    });
  });

  it('reads the generic template, including the sample offered to users', () => {
    const result = imported(parseHoldingsCsv(SAMPLE_CSV));
    expect(result.broker).to.equal('generic');
    expect(result.rows.map((row) => row.symbol)).to.deep.equal([
      'RELIANCE',
      'TCS',
      'HDFCBANK',
      'INFY',
      'ITC',
    ]);
    expect(result.rows.every((row) => row.quantity > 0 && row.averagePrice > 0)).to.equal(true);
  });

  it('accepts every generic header spelling, case-insensitively and trimmed', () => {
    const spellings: [string, string, string][] = [
      ['Symbol', 'Quantity', 'Buy Price'],
      ['instrument', 'QTY', 'Average Price'],
      [' Scrip ', ' Qty. ', 'Avg Price'],
      ['SYMBOL', 'qty', 'Avg. cost'],
      ['Symbol', 'Quantity', 'avg cost'],
      ['Symbol', 'Quantity', 'average_price'],
    ];
    for (const [symbol, quantity, price] of spellings) {
      const result = imported(parseHoldingsCsv(`${symbol},${quantity},${price}\ninfy,3,1500`));
      expect(summary(result.rows), `${symbol}/${quantity}/${price}`).to.deep.equal([['INFY', 3, 1500]]);
    }
  });

  it('defaults the exchange to NSE and accepts nse/bse in any case', () => {
    const csv = 'Symbol,Quantity,Buy Price,Exchange\nTCS,1,3000,\nSBIN,2,900,bse\nITC,3,400,Nse';
    const result = imported(parseHoldingsCsv(csv));
    expect(result.rows.map((row) => row.exchange)).to.deep.equal(['NSE', 'BSE', 'NSE']);
  });

  it('refuses in the browser already: fund and depository statements, each with its sentence', () => {
    for (const name of ['generic_mutual_fund_schemes.csv']) {
      expect(parseHoldingsCsv(ownFixture(name))).to.deep.equal({
        ok: false,
        error: MUTUAL_FUND_REFUSAL,
        details: [],
      });
    }
    for (const name of ['cdsl_statement_of_holdings.csv', 'nsdl_holding_statement.csv']) {
      expect(parseHoldingsCsv(ownFixture(name))).to.deep.equal({
        ok: false,
        error: DEPOSITORY_REFUSAL,
        details: [],
      });
    }
  });

  it('reads an Angel One sheet whose header row is repeated, and its client ID', () => {
    const result = imported(parseHoldingsCsv(ownFixture('angel_one_portfolio_repeated_header_layout.csv')));
    expect(result).to.include({ broker: 'angel_one', accountHint: 'A7654321' });
    expect(summary(result.rows)).to.deep.equal([
      ['ITC', 120, 412.3],
      ['EMPOWER-T', 300, 3.2],
      ['RAJOOENG-T', 40, 212.4],
    ]);
  });

  it('tells HDFC Securities from Groww though both write Stock Name … Average Buy Price', () => {
    expect(imported(parseHoldingsCsv(ownFixture('hdfc_securities_stock_name_layout.csv'))).broker).to.equal(
      'hdfc_securities',
    );
    expect(imported(parseHoldingsCsv(fixture('groww_stocks_holdings_statement_layout.csv'))).broker).to.equal(
      'groww',
    );
  });
});
